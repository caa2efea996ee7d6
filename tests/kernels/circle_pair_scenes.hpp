// Scenes for the circle-circle and world kernel tests: aligned pairs with every edge case
// (circle_pair_scene) and a pair list where circles sit in many pairs (pile).
#pragma once

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace simdcollide::testing {

/// n aligned circle pairs (a[i], b[i]) with velocities and inverse masses, plus a contact
/// set for response, in guarded, possibly unaligned arrays.
struct circle_pair_scene {
    circle_pair_scene(std::size_t n, std::size_t shift)
        : ax(n, staggered(shift, 0)), ay(n, staggered(shift, 1)), ar(n, staggered(shift, 2)),
          aw(n, staggered(shift, 3)), avx(n, staggered(shift, 4)), avy(n, staggered(shift, 5)),
          bx(n, staggered(shift, 6)), by(n, staggered(shift, 7)), br(n, staggered(shift, 8)),
          bw(n, staggered(shift, 9)), bvx(n, staggered(shift, 10)), bvy(n, staggered(shift, 11)) {}
    guarded_floats ax, ay, ar, aw, avx, avy, bx, by, br, bw, bvx, bvy;

    std::size_t size() const { return ax.size(); }
    particles_view a() {
        return {ax.data(), ay.data(), ar.data(), aw.data(), avx.data(), avy.data(), size()};
    }
    particles_view b() {
        return {bx.data(), by.data(), br.data(), bw.data(), bvx.data(), bvy.data(), size()};
    }
    circles_cview ca() const { return {ax.data(), ay.data(), ar.data(), size()}; }
    circles_cview cb() const { return {bx.data(), by.data(), br.data(), size()}; }
};

inline void fill_random(circle_pair_scene& s, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::uniform_int_distribution<int> pick(0, 11);
    std::uniform_int_distribution<int> grid(-16, 16);
    for (std::size_t i = 0; i < s.size(); ++i) {
        s.ax[i] = unit(rng) * 10.0F;
        s.ay[i] = unit(rng) * 10.0F;
        s.ar[i] = pick(rng) == 0 ? 0.0F : unit(rng) * 2.0F;
        s.br[i] = pick(rng) == 0 ? 0.0F : unit(rng) * 2.0F;
        switch (pick(rng)) {
        case 0: // coincident centres
            s.bx[i] = s.ax[i];
            s.by[i] = s.ay[i];
            break;
        case 1: // exactly touching (dyadic values: exact sums)
            s.ax[i] = static_cast<float>(grid(rng)) * 0.25F;
            s.ay[i] = static_cast<float>(grid(rng)) * 0.25F;
            s.ar[i] = 0.5F;
            s.br[i] = 1.0F;
            s.bx[i] = s.ax[i] + (pick(rng) < 6 ? 1.5F : 0.0F);
            s.by[i] = s.ay[i] + (pick(rng) < 6 ? 0.0F : -1.5F);
            break;
        case 2: // 3-4-5 apart
            s.bx[i] = s.ax[i] + 3.0F;
            s.by[i] = s.ay[i] + 4.0F;
            s.ar[i] = 2.0F;
            s.br[i] = 3.5F;
            break;
        case 3: // a at (-0, -0), b overlapping it along an axis: moves of -0 and +0, which
                // leave -0 only if a negation keeps the sign of zero (AVX-512's did not)
            s.ax[i] = -0.0F;
            s.ay[i] = -0.0F;
            s.ar[i] = 1.0F;
            s.br[i] = 1.0F;
            s.bx[i] = pick(rng) < 6 ? 1.5F : -0.0F;
            s.by[i] = s.bx[i] == 0.0F ? -1.5F : -0.0F;
            break;
        default:
            s.bx[i] = s.ax[i] + (unit(rng) - 0.5F) * 6.0F;
            s.by[i] = s.ay[i] + (unit(rng) - 0.5F) * 6.0F;
            break;
        }
        // Static on either side, both, or neither.
        s.aw[i] = pick(rng) < 3 ? 0.0F : 0.5F + unit(rng);
        s.bw[i] = pick(rng) < 3 ? 0.0F : 0.5F + unit(rng);
        s.avx[i] = (unit(rng) - 0.5F) * 4.0F;
        s.avy[i] = (unit(rng) - 0.5F) * 4.0F;
        s.bvx[i] = (unit(rng) - 0.5F) * 4.0F;
        s.bvy[i] = (unit(rng) - 0.5F) * 4.0F;
    }
}

inline std::vector<run_case> cases() {
    return run_cases(100, {50000, 3, 777});
}

inline void expect_same(const guarded_floats& got, const guarded_floats& want, const char* what) {
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_SAME_BITS(got[i], want[i], what, i);
    }
    EXPECT_TRUE(got.guards_intact()) << what;
}

// A pair list where circles sit in many pairs (each in about six, as in a packed pile),
// with repeated pairs, static circles and coincident centres.
struct pile {
    explicit pile(std::size_t n, std::uint32_t seed) : x(n), y(n), r(n), w(n), vx(n), vy(n) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        const std::size_t side = static_cast<std::size_t>(std::sqrt(static_cast<double>(n))) + 1;
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = static_cast<float>(i % side) * 0.9F + unit(rng) * 0.1F;
            y[i] = static_cast<float>(i / side) * 0.9F + unit(rng) * 0.1F;
            r[i] = 0.4F + unit(rng) * 0.2F;
            w[i] = i % 17 == 0 ? 0.0F : 1.0F / (0.5F + unit(rng));
        }
        if (n > 3) {
            x[3] = x[2]; // coincident centres
            y[3] = y[2];
        }
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j : {i + 1, i + side, i + side + 1}) {
                if (j < n) {
                    pairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
                }
            }
        }
        if (pairs.size() > 2) {
            pairs.push_back(pairs[1]); // a repeated pair
        }
    }
    particles_view view() {
        return {x.data(), y.data(), r.data(), w.data(), vx.data(), vy.data(), x.size()};
    }
    // Velocities uniform in [-1, 1] on both axes.
    void set_random_velocities(std::uint32_t seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
        for (std::size_t i = 0; i < x.size(); ++i) {
            vx[i] = unit(rng);
            vy[i] = unit(rng);
        }
    }
    std::vector<float> x, y, r, w, vx, vy;
    std::vector<circle_pair> pairs;
};

} // namespace simdcollide::testing
