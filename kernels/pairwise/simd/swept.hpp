// Swept circles, W moves at a time: the reference (kernels/pairwise/reference/swept.inl) line for
// line, each `if` turned into computing both sides and selecting per lane. Same operations in the
// same order on the same operands, so the same bits.
#pragma once

#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/circle_aabb.hpp"

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::simd {

template <class Arch>
struct swept {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    struct impact_result {
        M hit;
        F time;
        F normal_x;
        F normal_y;
    };

    // behaviour.md "Swept circles" 1: whether a start in contact with normal n is an impact.
    static M approaches(const F& dx, const F& dy, const F& normal_x, const F& normal_y) {
        return dx * normal_x + dy * normal_y < F(0.0F);
    }

    // reference unit_or_against: (vx, vy) to unit length, or the move reversed where v2 is 0.
    static void unit_or_against(const F& vx, const F& vy, const F& v2, const F& dx, const F& dy,
                                const F& d2, F& ux, F& uy) {
        const M along = v2 > F(0.0F);
        const F inverse_length =
            divide<Arch>(F(1.0F), square_root<Arch>(pick<Arch>(along, v2, d2)));
        ux = pick<Arch>(along, vx, negate<Arch>(dx)) * inverse_length;
        uy = pick<Arch>(along, vy, negate<Arch>(dy)) * inverse_length;
    }

    // behaviour.md "Swept circles" 3 (reference impact_on_circle): lanes without an impact
    // carry values that the caller discards.
    static impact_result impact_on_circle(const F& mx, const F& my, const F& dx, const F& dy,
                                          const F& reach, const F& cc) {
        const F a = dx * dx + dy * dy;
        const F b = mx * dx + my * dy;
        const F cross = mx * dy - my * dx;
        const F disc = a * (reach * reach) - cross * cross;
        const F s = square_root<Arch>(disc);
        const F time = max_ps<Arch>(divide<Arch>(cc, s - b), F(0.0F));
        impact_result k;
        k.hit = both<Arch>(both<Arch>(b < F(0.0F), disc >= F(0.0F)), time <= F(1.0F));
        k.time = time;
        const F px = mx + time * dx;
        const F py = my + time * dy;
        unit_or_against(px, py, px * px + py * py, dx, dy, a, k.normal_x, k.normal_y);
        return k;
    }

    struct slab_times {
        F enter;
        F leave;
    };

    // reference slab_of: the divisions of lanes with d == 0 are discarded.
    static slab_times slab_of(const F& c, const F& d, const F& lo, const F& hi) {
        const F inf(__builtin_inff()); // not numeric_limits: a weak symbol at -O0 (block_loop.hpp)
        const M still = d == F(0.0F);
        const M within = both<Arch>(lo <= c, c <= hi);
        const F inverse_d = divide<Arch>(F(1.0F), d);
        const F t0 = (lo - c) * inverse_d;
        const F t1 = (hi - c) * inverse_d;
        return {pick<Arch>(still, pick<Arch>(within, negate<Arch>(inf), inf), min_ps<Arch>(t0, t1)),
                pick<Arch>(still, inf, max_ps<Arch>(t0, t1))};
    }

    // behaviour.md "Swept circles" 2 (reference sweep_box_of).
    static impact_result sweep_box_of(const F& cx, const F& cy, const F& r, const F& dx,
                                      const F& dy, const F& min_x, const F& min_y, const F& max_x,
                                      const F& max_y) {
        const auto start =
            circle_aabb<Arch>::contact_of(cx, cy, r, min_x, min_y, max_x, max_y, F(0.0F));

        const slab_times sx = slab_of(cx, dx, min_x - r, max_x + r);
        const slab_times sy = slab_of(cy, dy, min_y - r, max_y + r);
        const F enter = max_ps<Arch>(sx.enter, sy.enter);
        const F leave = min_ps<Arch>(sx.leave, sy.leave);
        const M crosses =
            both<Arch>(both<Arch>(enter <= leave, enter <= F(1.0F)), leave >= F(0.0F));

        const F time = max_ps<Arch>(enter, F(0.0F));
        const F qx = cx + time * dx;
        const F qy = cy + time * dy;
        const M below_x = qx < min_x;
        const M above_x = qx > max_x;
        const M below_y = qy < min_y;
        const M above_y = qy > max_y;
        const M out_x = either<Arch>(below_x, above_x);
        const M out_y = either<Arch>(below_y, above_y);
        const M corner = both<Arch>(out_x, out_y);

        // The corners' two square roots and two divisions only for blocks with a lane that
        // takes them (a lane's values do not depend on whether its neighbours take them).
        impact_result round{M(false), F(0.0F), F(0.0F), F(0.0F)};
        if (lane_bits<Arch>(both<Arch>(crosses, corner)) != 0) {
            const F mx = cx - pick<Arch>(below_x, min_x, max_x);
            const F my = cy - pick<Arch>(below_y, min_y, max_y);
            round = impact_on_circle(mx, my, dx, dy, r, (mx * mx + my * my) - r * r);
        }

        const M x_face =
            pick<Arch>(out_x, M(true), pick<Arch>(out_y, M(false), sx.enter > sy.enter));
        const F face_x = pick<Arch>(pick<Arch>(out_x, above_x, dx < F(0.0F)), F(1.0F), F(-1.0F));
        const F face_y = pick<Arch>(pick<Arch>(out_y, above_y, dy < F(0.0F)), F(1.0F), F(-1.0F));
        const F normal_x = zero_unless<Arch>(x_face, face_x);
        const F normal_y = zero_where<Arch>(x_face, face_y);
        const M face_hit = approaches(dx, dy, normal_x, normal_y);

        impact_result k;
        k.hit = pick<Arch>(start.hit, approaches(dx, dy, start.normal_x, start.normal_y),
                           both<Arch>(crosses, pick<Arch>(corner, round.hit, face_hit)));
        k.time = pick<Arch>(start.hit, F(0.0F), pick<Arch>(corner, round.time, time));
        k.normal_x =
            pick<Arch>(start.hit, start.normal_x, pick<Arch>(corner, round.normal_x, normal_x));
        k.normal_y =
            pick<Arch>(start.hit, start.normal_y, pick<Arch>(corner, round.normal_y, normal_y));
        return k;
    }

    // behaviour.md "Swept circles" 4 (reference sweep_circle_of).
    static impact_result sweep_circle_of(const F& ax, const F& ay, const F& ar, const F& dx,
                                         const F& dy, const F& bx, const F& by, const F& br) {
        const F mx = ax - bx;
        const F my = ay - by;
        const F reach = ar + br;
        const F d2 = mx * mx + my * my;
        const F cc = d2 - reach * reach;
        const M overlapping = cc < F(0.0F);

        F start_x;
        F start_y;
        unit_or_against(mx, my, d2, dx, dy, dx * dx + dy * dy, start_x, start_y);

        const impact_result moving = impact_on_circle(mx, my, dx, dy, reach, cc);
        impact_result k;
        k.hit = pick<Arch>(overlapping, approaches(dx, dy, start_x, start_y), moving.hit);
        k.time = pick<Arch>(overlapping, F(0.0F), moving.time);
        k.normal_x = pick<Arch>(overlapping, start_x, moving.normal_x);
        k.normal_y = pick<Arch>(overlapping, start_y, moving.normal_y);
        return k;
    }

    // A block's impacts: misses get time 1 and normal (0, 0), as the reference's no_impact.
    template <class Block>
    static M store_impact(const Block& block, const impacts_view& out, const impact_result& k) {
        block.store(out.time, pick<Arch>(k.hit, k.time, F(1.0F)));
        block.store(out.normal_x, zero_unless<Arch>(k.hit, k.normal_x));
        block.store(out.normal_y, zero_unless<Arch>(k.hit, k.normal_y));
        return k.hit;
    }

    // The loops, one per kernel table entry (kernel_table.hpp).

    static std::size_t sweep_box(circles_cview c, displacements_cview d, aabbs_view b,
                                 impacts_view out) {
        return for_each_block_storing<Arch>(out.time, c.count, [=](const auto& block) {
            return store_impact(block, out,
                                sweep_box_of(block.load(c.x), block.load(c.y), block.load(c.radius),
                                             block.load(d.dx), block.load(d.dy),
                                             block.load(b.min_x), block.load(b.min_y),
                                             block.load(b.max_x), block.load(b.max_y)));
        });
    }

    static std::size_t sweep_one_box(circles_cview c, displacements_cview d, aabb box,
                                     impacts_view out) {
        const F min_x(box.min_x);
        const F min_y(box.min_y);
        const F max_x(box.max_x);
        const F max_y(box.max_y);
        return for_each_block_storing<Arch>(out.time, c.count, [=](const auto& block) {
            return store_impact(block, out,
                                sweep_box_of(block.load(c.x), block.load(c.y), block.load(c.radius),
                                             block.load(d.dx), block.load(d.dy), min_x, min_y,
                                             max_x, max_y));
        });
    }

    static std::size_t sweep_circle(circles_cview c, displacements_cview d, circles_cview o,
                                    impacts_view out) {
        return for_each_block_storing<Arch>(out.time, c.count, [=](const auto& block) {
            return store_impact(block, out,
                                sweep_circle_of(block.load(c.x), block.load(c.y),
                                                block.load(c.radius), block.load(d.dx),
                                                block.load(d.dy), block.load(o.x), block.load(o.y),
                                                block.load(o.radius)));
        });
    }
};

} // namespace simdcollide::simd
