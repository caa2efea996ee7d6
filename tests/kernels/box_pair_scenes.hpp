// Box-box pairs for the kernels' tests: guarded, possibly unaligned arrays (test_support.hpp)
// and random pairs that mix every case of docs/behaviour.md "Box against box".
#pragma once

#include "test_support.hpp"

#include <random>

namespace simdcollide::testing {

/// n pairs of boxes, the first's fields then the second's, each at its own shift, with an
/// inverse mass for each box (for separation).
struct box_pair_scene {
    box_pair_scene(std::size_t n, std::size_t shift)
        : a_min_x(n, staggered(shift, 0)), a_min_y(n, staggered(shift, 1)),
          a_max_x(n, staggered(shift, 2)), a_max_y(n, staggered(shift, 3)),
          b_min_x(n, staggered(shift, 4)), b_min_y(n, staggered(shift, 5)),
          b_max_x(n, staggered(shift, 6)), b_max_y(n, staggered(shift, 7)),
          a_inverse_mass(n, staggered(shift, 8)), b_inverse_mass(n, staggered(shift, 9)) {}
    guarded_floats a_min_x, a_min_y, a_max_x, a_max_y, b_min_x, b_min_y, b_max_x, b_max_y;
    guarded_floats a_inverse_mass, b_inverse_mass;

    std::size_t size() const { return a_min_x.size(); }
    aabbs_view first() const {
        return {a_min_x.data(), a_min_y.data(), a_max_x.data(), a_max_y.data(), size()};
    }
    aabbs_view second() const {
        return {b_min_x.data(), b_min_y.data(), b_max_x.data(), b_max_y.data(), size()};
    }
    box_bodies_view first_bodies() {
        return {a_min_x.data(), a_min_y.data(),        a_max_x.data(),
                a_max_y.data(), a_inverse_mass.data(), size()};
    }
    box_bodies_view second_bodies() {
        return {b_min_x.data(), b_min_y.data(),        b_max_x.data(),
                b_max_y.data(), b_inverse_mass.data(), size()};
    }
    void set(std::size_t i, aabb a, aabb b) {
        a_min_x[i] = a.min_x;
        a_min_y[i] = a.min_y;
        a_max_x[i] = a.max_x;
        a_max_y[i] = a.max_y;
        b_min_x[i] = b.min_x;
        b_min_y[i] = b.min_y;
        b_max_x[i] = b.max_x;
        b_max_y[i] = b.max_y;
    }
};

/// A random pair: apart, overlapping, touching a face or a corner exactly, one inside the
/// other, coincident (square or not), of zero size, within a margin's gap, huge or tiny, or
/// inverted.
inline void random_box_pair(std::mt19937& rng, aabb& a, aabb& b) {
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::uniform_real_distribution<float> coord(-20.0F, 20.0F);
    std::uniform_int_distribution<int> pick(0, 15);
    std::uniform_int_distribution<int> grid(-32, 32);
    // Small dyadic values: sums and differences are exact, so "touching" really touches.
    const auto dyadic = [&] { return static_cast<float>(grid(rng)) * 0.25F; };
    const auto size = [&] { return pick(rng) == 0 ? 0.0F : unit(rng) * 6.0F; };
    b = aabb::from_origin_size(coord(rng), coord(rng), size(), size());
    switch (pick(rng)) {
    case 0: // A inside B
        a = aabb::from_origin_size(b.min_x + unit(rng) * (b.max_x - b.min_x) * 0.5F,
                                   b.min_y + unit(rng) * (b.max_y - b.min_y) * 0.5F,
                                   unit(rng) * (b.max_x - b.min_x) * 0.5F,
                                   unit(rng) * (b.max_y - b.min_y) * 0.5F);
        break;
    case 1: // B inside A
        a = aabb::from_origin_size(b.min_x - unit(rng), b.min_y - unit(rng),
                                   b.max_x - b.min_x + 2.0F * unit(rng),
                                   b.max_y - b.min_y + 2.0F * unit(rng));
        break;
    case 2: // coincident: square (every tie at once) or not
        b = aabb::from_origin_size(dyadic(), dyadic(), 2.0F, pick(rng) < 8 ? 2.0F : 3.0F);
        a = b;
        break;
    case 3: { // touching a face exactly
        b = aabb::from_origin_size(dyadic(), dyadic(), 2.0F, 2.0F);
        const float w = 0.25F * static_cast<float>(1 + pick(rng));
        const float slide = dyadic() * 0.25F;
        switch (pick(rng) % 4) {
        case 0:
            a = aabb::from_origin_size(b.max_x, b.min_y + slide, w, w);
            break;
        case 1:
            a = aabb::from_origin_size(b.min_x - w, b.min_y + slide, w, w);
            break;
        case 2:
            a = aabb::from_origin_size(b.min_x + slide, b.max_y, w, w);
            break;
        default:
            a = aabb::from_origin_size(b.min_x + slide, b.min_y - w, w, w);
            break;
        }
        break;
    }
    case 4: // touching a corner exactly
        b = aabb::from_origin_size(dyadic(), dyadic(), 1.0F, 1.0F);
        a = aabb::from_origin_size(b.max_x, b.max_y, 0.5F, 0.75F);
        break;
    case 5: // equal depths on both axes (a tie between x and y)
        b = aabb::from_origin_size(dyadic(), dyadic(), 2.0F, 2.0F);
        a = aabb::from_origin_size(b.max_x - 0.5F, b.max_y - 0.5F, 1.0F, 1.0F);
        break;
    case 6: // A of zero size, anywhere near B
        a = aabb::from_origin_size(b.min_x - 1.0F + unit(rng) * (b.max_x - b.min_x + 2.0F),
                                   b.min_y - 1.0F + unit(rng) * (b.max_y - b.min_y + 2.0F), 0.0F,
                                   0.0F);
        break;
    case 7: // apart by a gap below the test's largest margin, on one axis or both
        a = aabb::from_origin_size(b.max_x + unit(rng) * 2.0F,
                                   pick(rng) < 8 ? b.min_y : b.max_y + unit(rng) * 2.0F, size(),
                                   size());
        break;
    case 8: // huge coordinates (differences may overflow to infinity)
        b = aabb::from_origin_size(1e37F * coord(rng) / 20.0F, 1e37F * coord(rng) / 20.0F,
                                   1e38F * unit(rng), 1e38F * unit(rng));
        a = aabb::from_origin_size(1e37F * coord(rng) / 20.0F, 1e37F * coord(rng) / 20.0F,
                                   1e38F * unit(rng), 1e38F * unit(rng));
        break;
    case 9: // tiny coordinates (halves underflow to subnormals)
        b = aabb::from_origin_size(1e-38F * coord(rng), 1e-38F * coord(rng), 1e-38F * size(),
                                   1e-38F * size());
        a = aabb::from_origin_size(1e-38F * coord(rng), 1e-38F * coord(rng), 1e-38F * size(),
                                   1e-38F * size());
        break;
    case 10: // inverted (invalid: only its own results, but still the reference's)
        a = aabb::from_origin_size(coord(rng), coord(rng), size(), size());
        std::swap(a.min_x, a.max_x);
        break;
    default: // near B, overlapping or not
        a = aabb::from_origin_size(b.min_x - 4.0F + unit(rng) * (b.max_x - b.min_x + 8.0F),
                                   b.min_y - 4.0F + unit(rng) * (b.max_y - b.min_y + 8.0F), size(),
                                   size());
        break;
    }
}

/// A random inverse mass: mostly ordinary, sometimes 0 (static), huge or subnormal (so that
/// separation's weights are scaled).
inline float random_inverse_mass(std::mt19937& rng) {
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
    case 0:
        return 0.0F;
    case 1:
        return 3e38F * unit(rng);
    case 2:
        return 1e-40F * unit(rng);
    case 3:
        return 1.0F;
    default:
        return 10.0F * unit(rng);
    }
}

/// Random pairs (random_box_pair) and inverse masses; the boxes do not depend on the masses.
inline void fill_random(box_pair_scene& scene, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::mt19937 masses(seed ^ 0x9E3779B9U);
    for (std::size_t i = 0; i < scene.size(); ++i) {
        aabb a;
        aabb b;
        random_box_pair(rng, a, b);
        scene.set(i, a, b);
        scene.a_inverse_mass[i] = random_inverse_mass(masses);
        scene.b_inverse_mass[i] = random_inverse_mass(masses);
    }
}

} // namespace simdcollide::testing
