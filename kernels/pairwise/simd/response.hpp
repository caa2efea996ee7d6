// Velocity response, W contacts at a time: the reference (kernels/pairwise/reference/response.inl)
// line for line.
#pragma once

#include "pairwise/simd/block_loop.hpp"

#include <simdcollide/response.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::simd {

template <class Arch>
struct response {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    struct impulse_result {
        M responds;
        F x;
        F y;
    };

    // Reference impulse_of.
    static impulse_result impulse_of(const F& nx, const F& ny, const F& vx, const F& vy,
                                     const F& wa, const F& wb, const F& restitution,
                                     const F& friction) {
        const F zero(0.0F);
        const F vn = vx * nx + vy * ny;
        const F total = wa + wb;
        const F inverse_total = divide<Arch>(F(1.0F), total);
        const F j = negate<Arch>(F(1.0F) + restitution) * vn * inverse_total;
        const F tx = negate<Arch>(ny);
        const F ty = nx;
        const F vt = vx * tx + vy * ty;
        const F limit = friction * j;
        const F jt = max_ps<Arch>(negate<Arch>(limit),
                                  min_ps<Arch>(negate<Arch>(vt) * inverse_total, limit));
        return {both<Arch>(vn<zero, total> zero), j * nx + jt * tx, j * ny + jt * ty};
    }

    static std::size_t circle_aabb(particles_view c, contacts_cview k, response_parameters p) {
        const F restitution(p.restitution);
        const F friction(p.friction);
        return for_each_block_storing<Arch>(c.vx, c.count, [=](const auto& block) {
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            F unused(0.0F);
            F w = block.load(c.inverse_mass);
            scale_weights<Arch>(unused, w);
            const impulse_result r = impulse_of(block.load(k.normal_x), block.load(k.normal_y), vx,
                                                vy, F(0.0F), w, restitution, friction);
            block.store(c.vx, pick<Arch>(r.responds, vx + r.x * w, vx));
            block.store(c.vy, pick<Arch>(r.responds, vy + r.y * w, vy));
            return r.responds;
        });
    }

    static std::size_t circle_circle(particles_view a, particles_view b, contacts_cview k,
                                     response_parameters p) {
        const F restitution(p.restitution);
        const F friction(p.friction);
        return for_each_block_storing<Arch>(a.vx, a.count, [=](const auto& block) {
            const F avx = block.load(a.vx);
            const F avy = block.load(a.vy);
            const F bvx = block.load(b.vx);
            const F bvy = block.load(b.vy);
            F wa = block.load(a.inverse_mass);
            F wb = block.load(b.inverse_mass);
            scale_weights<Arch>(wa, wb);
            const impulse_result r =
                impulse_of(block.load(k.normal_x), block.load(k.normal_y), bvx - avx, bvy - avy, wa,
                           wb, restitution, friction);
            const F zero(0.0F);
            const M moves_a = both<Arch>(r.responds, wa > zero);
            const M moves_b = both<Arch>(r.responds, wb > zero);
            block.store(a.vx, pick<Arch>(moves_a, avx - r.x * wa, avx));
            block.store(a.vy, pick<Arch>(moves_a, avy - r.y * wa, avy));
            block.store(b.vx, pick<Arch>(moves_b, bvx + r.x * wb, bvx));
            block.store(b.vy, pick<Arch>(moves_b, bvy + r.y * wb, bvy));
            return r.responds;
        });
    }
};

} // namespace simdcollide::simd
