// The world's box contacts, W listed (circle, box) contacts at a time: phase 2's touches
// and phase 4's push-out, the reference (kernels/pairwise/reference/world.inl) line for line.
#pragma once

#include "pairwise/simd/world_common.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct world_boxes {
    using common = world_common<Arch>;
    using F = typename common::F;
    using M = typename common::M;
    static constexpr std::size_t width = common::width;

    // Reference box_touches_loop, W listed (circle, box) contacts at a time: the circles'
    // fields gathered lane by lane, the boxes' records as records<Arch> does, the contact as
    // circle_aabb's (bit for bit the reference's where hit), and the lanes in contact written
    // in order, branch-free (the end of the output advances only past them). For a box the
    // touch's weights are +0 and the circle's (no shock: the box is static), scaled where the
    // reference's touch_of scales them (scale_weights), their total 0 + w.
    static std::size_t box_touches(particles_view c, const circle_pair* listed, std::size_t count,
                                   const float* boxes, const detail::touch_parameters& p,
                                   detail::world_touch* touches) {
        const F zero(0.0F);
        const F restitution(p.restitution);
        const F friction(p.friction);
        const F inverse_h(p.inverse_h);
        std::size_t touching = 0;
        for (std::size_t k = 0; k < count; k += width) {
            const std::size_t lanes = count - k < width ? count - k : width;
            const box_block q = load_box_block(c, listed + k, lanes, boxes);
            F unused = zero;
            F w = common::gather(c.inverse_mass, q.circle);
            scale_weights<Arch>(unused, w);
            const F approach = common::gather(c.vx, q.circle) * q.contact.normal_x +
                               common::gather(c.vy, q.circle) * q.contact.normal_y;
            const F inverse_total = common::inverse_total_of(zero, w);
            const F field[6] = {q.contact.normal_x,
                                q.contact.normal_y,
                                zero,
                                w,
                                restitution * max_ps<Arch>(negate<Arch>(approach), zero),
                                friction * (q.contact.depth * inverse_h) * inverse_total};
            const std::uint32_t in_contact = lane_bits<Arch>(q.pushes);
#if defined(__x86_64__)
            if constexpr (is_avx<Arch>) {
                if (lanes == width) {
                    circle_circle<Arch>::template write_transposed<true>(
                        {listed + k, width}, field, in_contact, touches, touching);
                    continue;
                }
            }
#endif
            alignas(64) float out[6][width];
            for (std::size_t f = 0; f < 6; ++f) {
                field[f].store_aligned(out[f]);
            }
            for (std::size_t j = 0; j < lanes; ++j) {
                const circle_pair cb = listed[k + j];
                touches[touching] = {cb.b,      cb.a,      out[0][j], out[1][j],
                                     out[2][j], out[3][j], out[4][j], out[5][j]};
                touching += (in_contact >> j) & 1U;
            }
        }
        return touching;
    }

    // Reference push_boxes_loop. Entries of one circle follow each other in order, each from
    // where the last left it; so a block takes entries only while their circles strictly
    // increase (no circle twice: the lanes neither read nor write each other's), and a
    // circle's next box starts the next block. The world lists a circle's boxes together,
    // so its blocks end only there. Each lane writes back its circle's x and y, the bits it
    // read where it does not push.
    static void push_boxes(particles_view c, const circle_pair* listed, std::size_t count,
                           const float* boxes) {
        for (std::size_t k = 0; k < count;) {
            std::size_t lanes = 1;
            while (lanes < width && k + lanes < count &&
                   listed[k + lanes].a > listed[k + lanes - 1].a) {
                ++lanes;
            }
            const box_block q = load_box_block(c, listed + k, lanes, boxes);
            alignas(64) float x[width];
            alignas(64) float y[width];
            pick<Arch>(q.pushes, q.x + q.contact.normal_x * q.contact.depth, q.x).store_aligned(x);
            pick<Arch>(q.pushes, q.y + q.contact.normal_y * q.contact.depth, q.y).store_aligned(y);
            for (std::size_t j = 0; j < lanes; ++j) {
                const std::uint32_t i = listed[k + j].a;
                c.x[i] = x[j];
                c.y[i] = y[j];
            }
            k += lanes;
        }
    }

    // Lane j's circle (a) or box (b) of a block of `lanes` listed (circle, box) contacts:
    // entry j, and the last entry again for the lanes past them, so that nothing past the
    // block is read.
    template <std::uint32_t circle_pair::*member>
    struct listed_lane {
        const circle_pair* listed;
        std::size_t last;
        std::uint32_t operator()(std::size_t j) const {
            return listed[j < last ? j : last].*member;
        }
    };

    // Such a block's circles' centres, each lane's contact (circle_aabb's, margin 0) and
    // where it pushes (hit, depth > 0).
    struct box_block {
        listed_lane<&circle_pair::a> circle;
        F x, y;
        typename circle_aabb<Arch>::contact_result contact;
        M pushes;
    };
    // Always inlined: GCC called it out of line, and in sampling profiles of the
    // 10 000-circle step the two box kernels went from 3.2% of the step (with that call) to
    // 3.0% (without it).
    [[gnu::always_inline]] static box_block load_box_block(particles_view c,
                                                           const circle_pair* listed,
                                                           std::size_t lanes, const float* boxes) {
        const listed_lane<&circle_pair::a> circle{listed, lanes - 1};
        const typename records<Arch>::fields box =
            records<Arch>::load(boxes, listed_lane<&circle_pair::b>{listed, lanes - 1});
        const F x = common::gather(c.x, circle);
        const F y = common::gather(c.y, circle);
        const F zero(0.0F);
        const typename circle_aabb<Arch>::contact_result contact = circle_aabb<Arch>::contact_of(
            x, y, common::gather(c.radius, circle), box.f0, box.f1, box.f2, box.f3, zero);
        return {circle, x, y, contact, both<Arch>(contact.hit, contact.depth > zero)};
    }
};

} // namespace simdcollide::simd
