// A substep of the particle world, phase by phase (world.hpp, steps 1 to 6), and phase 6
// in several passes (world_options::velocity_iterations).
#include <simdcollide/world.hpp>

#include "kernel_table.hpp"
#include "pair_list.hpp"
#include "world_reference.hpp"

#include <cmath>

namespace simdcollide {

namespace {

namespace impl = detail::world_impl;

using impl::contact_impulse;
using impl::max_ps_branchless;
using impl::push_box;
using impl::world_impulse_of;

// A later pass of phase 6 over the same contact (world_options::velocity_iterations): the
// contact's impulses so far are totals, and this pass applies what changes them to the
// impulses the contact needs now, clamped as totals (sequential impulses): the normal total
// stays >= 0 (so it can give back what an earlier pass pushed too hard), and the friction
// total within mu times the whole normal impulse. `total` is updated.
[[gnu::always_inline]] inline contact_impulse accumulated_impulse_of(const detail::world_touch& t,
                                                                     float vx, float vy,
                                                                     float friction,
                                                                     detail::impulse_total& total) {
    const float inverse_total = impl::inverse_total_of(t.weight_a, t.weight_b);
    const float vn = vx * t.normal_x + vy * t.normal_y;
    const float normal = max_ps_branchless(total.normal + (t.target - vn) * inverse_total, 0.0F);
    const float tx = -t.normal_y;
    const float ty = t.normal_x;
    const float vt = vx * tx + vy * ty;
    const float limit = t.corrected_limit + friction * normal;
    const float tangent =
        impl::max_ps(-limit, impl::min_ps(total.tangent - vt * inverse_total, limit));
    const float j = normal - total.normal;
    const float jt = tangent - total.tangent;
    total = {normal, tangent};
    return {j * t.normal_x + jt * tx, j * t.normal_y + jt * ty, j, jt};
}

} // namespace

// The touches' parameters for a substep of h (phase 2 for the boxes, phase 3's record for
// the circle pairs). Gravity's direction is worked out once here, in floats, for the
// reference and every SIMD path alike; without gravity (or with one so large that its
// square overflows) there is no "lower" circle and no shock propagation.
detail::touch_parameters particle_world::touch_parameters_for(float h) const {
    detail::touch_parameters touch{options_.restitution, options_.friction, 1.0F / h};
    const float gx = options_.gravity_x;
    const float gy = options_.gravity_y;
    const float length = std::sqrt(gx * gx + gy * gy);
    if (length > 0.0F && std::isfinite(length)) {
        touch.down_x = gx / length;
        touch.down_y = gy / length;
        touch.shock_propagation = options_.shock_propagation;
    }
    return touch;
}

void particle_world::substep(float h, const detail::kernel_table& kernels) {
    const particles_view p = slots();
    const std::size_t n = size();
    const detail::touch_parameters touch = touch_parameters_for(h);

    // 1. Semi-implicit Euler: velocity first, then position with the new velocity.
    moved_from_x_.resize(n);
    moved_from_y_.resize(n);
    kernels.world.integrate(p, options_.gravity_x * h, options_.gravity_y * h, h,
                            moved_from_x_.data(), moved_from_y_.data());

    // 2. The listed boxes in contact now, each with its normal, depth and approach speed.
    if (box_touching_.size() < box_contacts_.size()) {
        box_touching_.resize(box_contacts_.size());
    }
    box_touching_count_ =
        kernels.world.box_touches(p, box_contacts_.data(), box_contacts_.size(),
                                  box_records_.data(), touch, box_touching_.data());

    // 3. Positions: separate every listed pair, in the grouper's order (Gauss-Seidel). The
    // first round records the pairs in contact as it reaches them, for phase 6: one kernel
    // works out each pair's contact once for both (a phase 2 of their own for the pairs,
    // gathering the same circles and taking the same square roots, was about a quarter of
    // a step). Then each circle's move by 3 held to separation_reach of its radius a step,
    // in the same kernel: SIMD paths hold each circle as they write its position back.
    // pair_touching_ only grows: its entries past the count are the kernel's scratch, and
    // resizing it down and up again each substep filled the difference with zeros (measured:
    // 2% of a step on the 10 000-circle pile, where a third of the listed pairs are apart).
    if (pair_touching_.size() < pairs_.size()) {
        pair_touching_.resize(pairs_.size());
    }
    const detail::touch_recording record{touch, pair_touching_.data()};
    const detail::move_hold hold{moved_from_x_.data(), moved_from_y_.data(),
                                 separation_reach / static_cast<float>(options_.substeps)};
    pair_touching_count_ = detail::separate_in_order_unchecked(
        kernels, p, grouper_.groups(), options_.weighting, options_.separation_iterations, &record,
        &hold, workspace_);

    // 4. Static boxes: each moving circle against its listed boxes in ascending order
    // (docs/behaviour.md's order rule).
    kernels.world.push_boxes(p, box_contacts_.data(), box_contacts_.size(), box_records_.data());

    // 5. Velocity update: the corrections of 3 and 4 become velocity, capped in speed, so
    // that a corrected overlap does not go on closing, and a correction is not free energy.
    // Divided by h as a multiplication by 1 / h, as in phase 6: one division a substep
    // instead of two a circle.
    // 6. Restitution and friction, with the contacts of 2 and 3: boxes, then circle pairs, each
    // seeing the last's result. The pairs go in interleaved runs (detail::impulse_runs):
    // pairs far apart in the list rarely share a circle, so the kernel applies several at
    // once. With velocity_iterations > 1, respond_in_passes; else one kernel does 5 and 6,
    // so that SIMD paths keep the velocities packed from the gain to the last impulse.
    if (options_.velocity_iterations > 1) {
        kernels.world.gain_corrections(p, moved_from_x_.data(), moved_from_y_.data(),
                                       touch.inverse_h, options_.max_correction_speed);
        respond_in_passes(p, options_.friction);
        return;
    }
    const std::span<const detail::world_touch> pairs = pair_touching();
    detail::gain_and_respond_unchecked(
        kernels, p,
        {moved_from_x_.data(), moved_from_y_.data(), touch.inverse_h, options_.max_correction_speed,
         options_.friction, box_touching_.data(), box_touching_count_, pairs.data(), pairs.size()},
        workspace_);
}

// Phase 6 with velocity_iterations > 1: the first pass as in substep, keeping each
// contact's impulses (box contacts first, then circle pairs in list order), then the later
// passes in the same order, each from those totals (accumulated_impulse_of). Kept apart
// from the single pass, which GCC compiles into a tighter loop on its own.
void particle_world::respond_in_passes(const particles_view& p, float friction) {
    const std::size_t boxes_touching = box_touching_count_;
    const std::size_t touching_pairs = pair_touching_count_;
    impulse_totals_.resize(boxes_touching + touching_pairs);
    detail::impulse_total* const totals = impulse_totals_.data();
    // Each pass in the single pass's order, records by value; the first pass keeps the
    // totals that the later ones start from.
    const auto in_order = [&](auto&& on_box, auto&& on_pair) {
        for (std::size_t k = 0; k < boxes_touching; ++k) {
            on_box(box_touching_[k], k);
        }
        impl::for_each_in_runs(touching_pairs, detail::impulse_runs, [&](std::size_t k) {
            on_pair(pair_touching_[k], boxes_touching + k);
        });
    };
    in_order(
        [&](const detail::world_touch t, std::size_t at) {
            const contact_impulse j = world_impulse_of(t, p.vx[t.b], p.vy[t.b], friction);
            totals[at] = {j.normal, j.tangent};
            push_box(p, t, j);
        },
        [&](const detail::world_touch t, std::size_t at) {
            const contact_impulse j =
                world_impulse_of(t, p.vx[t.b] - p.vx[t.a], p.vy[t.b] - p.vy[t.a], friction);
            totals[at] = {j.normal, j.tangent};
            impl::push_pair(p, t, j);
        });
    for (int pass = 1; pass < options_.velocity_iterations; ++pass) {
        in_order(
            [&](const detail::world_touch t, std::size_t at) {
                push_box(p, t,
                         accumulated_impulse_of(t, p.vx[t.b], p.vy[t.b], friction, totals[at]));
            },
            [&](const detail::world_touch t, std::size_t at) {
                impl::push_pair(p, t,
                                accumulated_impulse_of(t, p.vx[t.b] - p.vx[t.a],
                                                       p.vy[t.b] - p.vy[t.a], friction,
                                                       totals[at]));
            });
    }
}

} // namespace simdcollide
