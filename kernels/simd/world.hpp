// The particle world's per-circle phases (world.hpp, phases 1 and 5), W circles at a time:
// the reference (kernels/reference/world.inl) line for line, each `if` computed both ways and
// picked per lane. (Phase 2, over circle pairs, is with the other pair-list kernels in
// simd/circle_circle.hpp.)
#pragma once

#include "simd/block_loop.hpp"

#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::simd {

template <class Arch>
struct world {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    // Reference integrate_loop.
    static void integrate(particles_view c, float gravity_h_x, float gravity_h_y, float h,
                          float* moved_x, float* moved_y) {
        const F gx(gravity_h_x);
        const F gy(gravity_h_y);
        const F step(h);
        for_each_block<Arch>(c.count, [=](const auto& block) {
            const M moves = block.load(c.inverse_mass) > F(0.0F);
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            const F x = block.load(c.x);
            const F y = block.load(c.y);
            const F new_vx = vx + gx;
            const F new_vy = vy + gy;
            const F new_x = pick<Arch>(moves, x + new_vx * step, x);
            const F new_y = pick<Arch>(moves, y + new_vy * step, y);
            block.store(c.vx, pick<Arch>(moves, new_vx, vx));
            block.store(c.vy, pick<Arch>(moves, new_vy, vy));
            block.store(c.x, new_x);
            block.store(c.y, new_y);
            block.store(moved_x, new_x);
            block.store(moved_y, new_y);
        });
    }

    // Reference gain_corrections_loop. The capped lanes are rare, but a square root and a
    // division for every lane cost less than a branch per block.
    static void gain_corrections(particles_view c, const float* moved_x, const float* moved_y,
                                 float inverse_h, float cap) {
        const F per_time(inverse_h);
        const F limit(cap);
        const F limit2 = limit * limit;
        for_each_block<Arch>(c.count, [=](const auto& block) {
            const M moves = block.load(c.inverse_mass) > F(0.0F);
            const F cx = (block.load(c.x) - block.load(moved_x)) * per_time;
            const F cy = (block.load(c.y) - block.load(moved_y)) * per_time;
            const F speed2 = cx * cx + cy * cy;
            const F scale = pick<Arch>(speed2 > limit2,
                                       divide<Arch>(limit, square_root<Arch>(speed2)), F(1.0F));
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            block.store(c.vx, pick<Arch>(moves, vx + cx * scale, vx));
            block.store(c.vy, pick<Arch>(moves, vy + cy * scale, vy));
        });
    }
};

} // namespace simdcollide::simd
