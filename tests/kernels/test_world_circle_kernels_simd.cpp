// The world's per-circle kernels (phases 1, 3's hold and 5, the copies into and out of
// slots, and step 1b's look for fast circles) on every instruction set against the scalar
// reference, bit for bit. The per-contact kernels are in test_world_kernels_simd.cpp.
#include "circle_pair_scenes.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

class world_circle_kernels_simd : public ::testing::TestWithParam<isa> {};

// The world's per-circle phases (kernel_table.hpp, integrate, hold_moves and
// gain_corrections): the same positions, velocities and phase-1 positions, bit for bit, on
// every length around the lane counts and every misalignment; with static circles (one
// with velocity -0, which must keep its sign), corrections of zero, held and not, over the
// speed cap, and exactly at the reach and the cap (dyadic values: a move of 1.25 against a
// reach of 0.5 * 2.5, and a gain of speed 5 against a cap of 5, are neither held nor
// capped), and a circle of radius 0, which the hold keeps where phase 1 left it.
TEST_P(world_circle_kernels_simd, world_per_circle_phases_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().world;
    constexpr float h = 0.25F;
    constexpr float inverse_h = 4.0F;
    constexpr float cap = 5.0F;
    for (const run_case& rc : cases()) {
        circle_pair_scene want(rc.n, rc.shift), got(rc.n, rc.shift);
        fill_random(want, rc.seed);
        fill_random(got, rc.seed);
        for (circle_pair_scene* s : {&want, &got}) {
            if (rc.n > 0) {
                s->aw[0] = 0.0F;
                s->avx[0] = -0.0F;
            }
        }
        guarded_floats want_mx(rc.n, rc.shift), want_my(rc.n, rc.shift);
        guarded_floats got_mx(rc.n, rc.shift), got_my(rc.n, rc.shift);
        ref.integrate(want.a(), 0.5F, -2.5F, h, want_mx.data(), want_my.data());
        table.world.integrate(got.a(), 0.5F, -2.5F, h, got_mx.data(), got_my.data());
        expect_same(got.ax, want.ax, "x");
        expect_same(got.ay, want.ay, "y");
        expect_same(got.avx, want.avx, "vx");
        expect_same(got.avy, want.avy, "vy");
        expect_same(got_mx, want_mx, "moved x");
        expect_same(got_my, want_my, "moved y");
        if (rc.n > 0) {
            EXPECT_TRUE(std::signbit(want.avx[0])) << "a static circle keeps its velocity";
        }

        // Corrections after phase 1: none, small, over the cap, exactly at it.
        std::mt19937 rng(rc.seed + 1);
        std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
        for (std::size_t i = 0; i < rc.n; ++i) {
            float dx = 0.0F;
            float dy = 0.0F;
            switch (i % 4) {
            case 1:
                dx = 0.05F * unit(rng);
                dy = 0.05F * unit(rng);
                break;
            case 2:
                dx = 3.0F * unit(rng);
                dy = 3.0F * unit(rng);
                break;
            case 3:
                dx = 0.75F; // gain (3, 4): speed 5, the cap; a move of 1.25, the reach
                dy = -1.0F;
                break;
            default:
                break;
            }
            for (circle_pair_scene* s : {&want, &got}) {
                s->ax[i] += dx;
                s->ay[i] += dy;
                if (i % 4 == 3) { // exact: from (1, 1) to (1.75, 0)
                    s->ax[i] = 1.75F;
                    s->ay[i] = 0.0F;
                    s->ar[i] = 2.5F;
                } else if (i % 8 == 1) {
                    s->ar[i] = 0.0F;
                }
            }
        }
        for (std::size_t i = 3; i < rc.n; i += 4) {
            for (guarded_floats* moved : {&want_mx, &want_my, &got_mx, &got_my}) {
                (*moved)[i] = 1.0F;
            }
        }
        const std::vector<float> before_x(want.ax.data(), want.ax.data() + rc.n);
        ref.hold_moves(want.a(), want_mx.data(), want_my.data(), 0.5F);
        table.world.hold_moves(got.a(), got_mx.data(), got_my.data(), 0.5F);
        expect_same(got.ax, want.ax, "x after the hold");
        expect_same(got.ay, want.ay, "y after the hold");
        for (std::size_t i = 0; i < rc.n; ++i) {
            if (i % 4 == 3) {
                EXPECT_EQ(want.ax[i], before_x[i]) << "a move at the reach is not held, " << i;
            } else if (i % 8 == 1) {
                EXPECT_EQ(want.ax[i], want_mx[i]) << "radius 0 is held where it was, " << i;
            }
        }
        ref.gain_corrections(want.a(), want_mx.data(), want_my.data(), inverse_h, cap);
        table.world.gain_corrections(got.a(), got_mx.data(), got_my.data(), inverse_h, cap);
        expect_same(got.avx, want.avx, "vx after the gain");
        expect_same(got.avy, want.avy, "vy after the gain");
        expect_same(got.ax, want.ax, "x after the gain"); // not written
        if (rc.n > 0) {
            EXPECT_TRUE(std::signbit(want.avx[0])) << "a static circle gains nothing";
        }
    }
}

// The world's move of its circles into slots and back (kernel_table.hpp, permute): the same
// bits as the reference, which are from[index[k]]'s, on every length around the lane counts
// and every misalignment; permutations and indices that repeat, and values a float copy
// could change (signalling and quiet NaNs with payloads, -0, subnormals, infinities).
TEST_P(world_circle_kernels_simd, world_permute_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().world;
    const std::uint32_t odd[] = {0x7F800001U, 0xFFC01234U, 0x80000000U, 0x00000001U, 0xFF800000U};
    for (const run_case& rc : cases()) {
        guarded_floats from(rc.n, rc.shift);
        std::mt19937 rng(rc.seed);
        std::uniform_real_distribution<float> unit(-100.0F, 100.0F);
        for (std::size_t i = 0; i < rc.n; ++i) {
            from[i] = i % 7 < 5 ? unit(rng) : std::bit_cast<float>(odd[(i / 7) % 5]);
        }
        std::vector<std::uint32_t> index(rc.n);
        std::iota(index.begin(), index.end(), 0U);
        if (rc.seed % 2 == 0) {
            std::shuffle(index.begin(), index.end(), rng);
        } else if (rc.n > 0) { // repeats, the last circle included
            std::uniform_int_distribution<std::uint32_t> any(0,
                                                             static_cast<std::uint32_t>(rc.n) - 1);
            for (std::uint32_t& k : index) {
                k = any(rng);
            }
            index.back() = static_cast<std::uint32_t>(rc.n) - 1;
        }
        guarded_floats want(rc.n, rc.shift + 5), got(rc.n, rc.shift + 5);
        ref.permute(from.data(), index.data(), rc.n, want.data());
        table.world.permute(from.data(), index.data(), rc.n, got.data());
        expect_same(got, want, "permuted");
        for (std::size_t k = 0; k < rc.n; ++k) {
            EXPECT_SAME_BITS(want[k], from[index[k]], "reference", k);
        }
    }
}

// From 2^16 circles the SIMD permutes prefetch the lines they will gather (simd/world_circles.hpp,
// gathers_prefetched_from): the same bits there, at the threshold and past it with a tail
// the prefetching loop leaves to the plain one, from an unaligned start.
TEST_P(world_circle_kernels_simd, world_permute_of_a_large_pile_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().world;
    for (const std::size_t n : {std::size_t{1} << 16, (std::size_t{1} << 16) + 263}) {
        guarded_floats from(n, 1);
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_real_distribution<float> unit(-100.0F, 100.0F);
        for (std::size_t i = 0; i < n; ++i) {
            from[i] = unit(rng);
        }
        std::vector<std::uint32_t> index(n);
        std::iota(index.begin(), index.end(), 0U);
        std::shuffle(index.begin(), index.end(), rng);
        guarded_floats want(n, 3), got(n, 3);
        ref.permute(from.data(), index.data(), n, want.data());
        table.world.permute(from.data(), index.data(), n, got.data());
        expect_same(got, want, "permuted");
    }
}

// Step 1b's look for fast circles: the largest squared speed, exactly the reference's, at
// every length and misalignment, with a NaN, infinities and huge speeds among them.
TEST_P(world_circle_kernels_simd, world_fastest_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> speed(-50.0F, 50.0F);
    std::uniform_int_distribution<int> pick(0, 63);
    for (const std::size_t n : edge_lengths()) {
        for (std::size_t shift = 0; shift < 16; ++shift) {
            guarded_floats vx(n, shift), vy(n, shift + 5);
            for (std::size_t i = 0; i < n; ++i) {
                vx[i] = speed(rng);
                vy[i] = speed(rng);
                switch (pick(rng)) {
                case 0:
                    vx[i] = std::numeric_limits<float>::quiet_NaN();
                    break;
                case 1:
                    vy[i] = -std::numeric_limits<float>::infinity();
                    break;
                case 2:
                    vx[i] = 3e19F; // squares to infinity
                    break;
                default:
                    break;
                }
            }
            const particles_view p{nullptr, nullptr, nullptr, nullptr, vx.data(), vy.data(), n};
            EXPECT_EQ(bits(table.world.fastest(p)),
                      bits(detail::reference_table().world.fastest(p)))
                << "n=" << n << " shift=" << shift;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, world_circle_kernels_simd, ::testing::ValuesIn(simd_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
