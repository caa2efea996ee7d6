// A substep of the particle world, phase by phase (world.hpp, steps 1 to 6), and phase 6
// in several passes (world_options::velocity_iterations).
#include "world/world_state.hpp"

#include "broad_phase/pair_schedule.hpp"
#include "pairwise/kernel_table.hpp"
#include "pairwise/pair_list.hpp"
#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_reference.hpp"

#include <algorithm>
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
detail::touch_parameters detail::world_state::touch_parameters_for(float h) const {
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

// Where each block of the schedule starts in the step's box entries (sorted by slot), and
// its end: a block's entries name its circles alone, so phases 2 and 4 take blocks on the
// workers.
void detail::world_state::find_box_contact_blocks() {
    const std::vector<circle_pair>& box_contacts = step_box_contacts();
    const detail::pair_schedule& schedule = schedule_.get();
    const std::size_t blocks = schedule.blocks();
    box_contacts_from_.resize(blocks + 1);
    for (std::size_t k = 0; k < blocks; ++k) {
        const auto first = static_cast<std::uint32_t>(k * schedule.block_circles());
        box_contacts_from_[k] = static_cast<std::size_t>(
            std::lower_bound(box_contacts.begin(), box_contacts.end(), first,
                             [](circle_pair e, std::uint32_t slot) { return e.a < slot; }) -
            box_contacts.begin());
    }
    box_contacts_from_[blocks] = box_contacts.size();
}

namespace {

// The slots of a part, as a view of their own, and the scratch of its kernels: 8 floats a
// slot from its first, so that parts side by side use disjoint scratch.
particles_view circles_of_part(const particles_view& p, const detail::pair_part& part) {
    return detail::circles_of(p, {part.first, part.end});
}

} // namespace

void detail::world_state::substep(float h, const detail::kernel_table& kernels) {
    const particles_view p = slots();
    const std::size_t n = size();
    const detail::touch_parameters touch = touch_parameters_for(h);
    const detail::task_runner tasks = task_runner();
    const std::size_t task_blocks = detail::task_blocks(n);
    detail::pair_schedule& schedule = schedule_.get();
    const std::size_t blocks = schedule.blocks();
    if (part_scratch_.size() < 8 * n) {
        part_scratch_ = aligned_floats(8 * n);
    }
    float* const scratch = part_scratch_.data();

    // 1. Semi-implicit Euler: velocity first, then position with the new velocity.
    moved_from_x_.resize(n);
    moved_from_y_.resize(n);
    clock_.enter(detail::step_stage::fast);
    find_fast_circles(h, fast_floor_, kernels);
    note_kinematic_starts(h);
    clock_.enter(detail::step_stage::integrate);
    detail::for_each_item(tasks, task_blocks, [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n);
        kernels.world.integrate(detail::circles_of(p, b), options_.gravity_x * h,
                                options_.gravity_y * h, h, moved_from_x_.data() + b.first,
                                moved_from_y_.data() + b.first);
    });
    // 1b. Continuous collision: the fast circles' moves swept (world_sweep.cpp).
    clock_.enter(detail::step_stage::sweep);
    sweep_fast_circles();
    // 1c. Kinematic boxes: the moves of the circles near them that are fast against a box
    // swept in its frame.
    clock_.enter(detail::step_stage::kinematic);
    sweep_kinematic_boxes();

    // 2. The listed boxes in contact now, each with its normal, depth and approach speed,
    // block by block: a block's touches go to the room of its entries. A kinematic box's
    // approach is the circle's velocity relative to it.
    clock_.enter(detail::step_stage::box_touches);
    const std::vector<circle_pair>& box_contacts = step_box_contacts();
    const bool kinematic_in_step = !kinematic_found_.empty();
    if (box_touching_.size() < box_contacts.size()) {
        box_touching_.resize(box_contacts.size());
    }
    box_touching_in_block_.resize(blocks);
    detail::for_each_item(tasks, blocks, [&](std::size_t k) {
        const std::size_t from = box_contacts_from_[k];
        box_touching_in_block_[k] = kernels.world.box_touches(
            p, box_contacts.data() + from, box_contacts_from_[k + 1] - from, box_records_.data(),
            touch, box_touching_.data() + from);
        if (kinematic_in_step) {
            aim_kinematic_touches(from, box_touching_in_block_[k]);
        }
    });

    // 3. Positions: separate every listed pair in the schedule's order (Gauss-Seidel within
    // each part, the parts in waves). The first round records the pairs in contact as it
    // reaches them, for phase 6: one kernel works out each pair's contact once for both (a
    // phase 2 of their own for the pairs, gathering the same circles and taking the same
    // square roots, was about a quarter of a step). Then each circle's move by 3 is held to
    // separation_reach of its radius a step, in the same kernel, as it writes the part's
    // positions back: a circle that a later wave moves again is held again.
    // pair_touching_ only grows: its entries past a part's count are the kernel's scratch,
    // and resizing it down and up again each substep filled the difference with zeros
    // (measured: 2% of a step on the 10 000-circle pile, where a third of the listed pairs
    // are apart).
    clock_.enter(detail::step_stage::separation);
    if (pair_touching_.size() < schedule.pair_count()) {
        pair_touching_.resize(schedule.pair_count());
    }
    const float hold_fraction = separation_reach / static_cast<float>(options_.substeps);
    const auto separate = [&](detail::pair_part& part) {
        const detail::touch_recording record{touch, pair_touching_.data() + part.touch_at};
        const detail::move_hold hold{moved_from_x_.data() + part.first,
                                     moved_from_y_.data() + part.first, hold_fraction};
        const pair_groups& groups = part.grouper.groups();
        part.touching = kernels.world.separate_in_order(
            circles_of_part(p, part), groups.pairs().data(), groups.ends().data(),
            groups.ends().size(), options_.weighting, options_.separation_iterations, &record,
            &hold, scratch + 8 * std::size_t{part.first});
    };
    detail::in_waves(tasks, schedule,
                     [&](detail::pair_part& part, std::size_t) { separate(part); });

    // 4. Boxes: each moving circle against its listed boxes in ascending order
    // (docs/behaviour.md's order rule), the kinematic ones last, where the substep ends them.
    clock_.enter(detail::step_stage::push_out);
    detail::for_each_item(tasks, blocks, [&](std::size_t k) {
        const std::size_t from = box_contacts_from_[k];
        if (kinematic_in_step) {
            weigh_kinematic_touches(from, box_touching_in_block_[k], touch.inverse_h);
        }
        kernels.world.push_boxes(p, box_contacts.data() + from, box_contacts_from_[k + 1] - from,
                                 box_records_.data());
    });

    // 5. Velocity update: the corrections of 3 and 4 become velocity, capped in speed, so
    // that a corrected overlap does not go on closing, and a correction is not free energy.
    // Divided by h as a multiplication by 1 / h, as in phase 6: one division a substep
    // instead of two a circle. With a single velocity pass, block 0's gain is done by the
    // kernel that does its part's phase 6 (below), so that SIMD paths keep those velocities
    // packed from the gain to the part's last impulse; the others' gain comes first, since
    // the parts of even blocks reach down into the odd blocks below them.
    clock_.enter(detail::step_stage::velocity);
    const bool single_pass = options_.velocity_iterations == 1;
    const std::size_t gained_from = single_pass && blocks > 0 ? schedule.part(0).end : 0;
    detail::for_each_item(tasks, detail::task_blocks(n - gained_from), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n - gained_from);
        const detail::task_block at{gained_from + b.first, gained_from + b.end};
        kernels.world.gain_corrections(detail::circles_of(p, at), moved_from_x_.data() + at.first,
                                       moved_from_y_.data() + at.first, touch.inverse_h,
                                       options_.max_correction_speed);
    });

    // 6. Restitution and friction, with the contacts of 2 and 3, in the schedule's waves: a
    // block's part takes the block's boxes, then its pairs; then the far pairs; each contact
    // seeing the last's result. A part's pairs go in interleaved runs
    // (detail::impulse_runs): pairs far apart in the list rarely share a circle, so the
    // kernel applies several at once. With velocity_iterations > 1, respond_in_passes.
    clock_.enter(detail::step_stage::impulses);
    if (!single_pass) {
        respond_in_passes(p, options_.friction);
        return;
    }
    const float friction = options_.friction;
    detail::in_waves(tasks, schedule, [&](const detail::pair_part& part, std::size_t k) {
        if (k == 0) { // block 0 starts at slot 0, and so does its part: the block's own slots
            detail::velocity_update u{moved_from_x_.data(),
                                      moved_from_y_.data(),
                                      touch.inverse_h,
                                      options_.max_correction_speed,
                                      friction,
                                      box_touching_.data(),
                                      box_touching_in_block_[0],
                                      pair_touching_.data() + part.touch_at,
                                      part.touching};
            if (kinematic_in_step) { // the kinematic boxes' touches relative to them
                u.box_vx = kinematic_.contact_vx.data();
                u.box_vy = kinematic_.contact_vy.data();
                u.moving_from = static_cast<std::uint32_t>(static_box_count());
            }
            kernels.world.gain_and_respond(circles_of_part(p, part), u, scratch);
            return;
        }
        if (k != detail::far_part) {
            const std::size_t from = box_contacts_from_[k];
            for (std::size_t b = from; b < from + box_touching_in_block_[k]; ++b) {
                const detail::world_touch t = box_touching_[b];
                float vx = p.vx[t.b];
                float vy = p.vy[t.b];
                if (kinematic_in_step) {
                    relative_to_box(t.a, vx, vy);
                }
                push_box(p, t, world_impulse_of(t, vx, vy, friction));
            }
        }
        kernels.world.respond_pairs(circles_of_part(p, part), pair_touching_.data() + part.touch_at,
                                    part.touching, friction, scratch + 8 * std::size_t{part.first});
    });
}

// Phase 6 with velocity_iterations > 1: the first pass in the single pass's order, keeping
// each contact's impulses, then the later passes in the same order, each from those totals
// (accumulated_impulse_of). Kept apart from the single pass, which GCC compiles into a
// tighter loop on its own.
void detail::world_state::respond_in_passes(const particles_view& p, float friction) {
    detail::pair_schedule& schedule = schedule_.get();
    const detail::task_runner tasks = task_runner();
    const std::size_t box_entries = step_box_contacts().size();
    impulse_totals_.resize(box_entries + schedule.pair_count());
    detail::impulse_total* const box_totals = impulse_totals_.data();
    detail::impulse_total* const pair_totals = box_totals + box_entries;
    // A part's pairs in runs; the first pass keeps the totals that the later ones start from.
    const auto respond_pairs = [&](const detail::pair_part& part, bool first_pass) {
        const particles_view v = circles_of_part(p, part);
        const detail::world_touch* const touches = pair_touching_.data() + part.touch_at;
        detail::impulse_total* const totals = pair_totals + part.touch_at;
        impl::for_each_in_runs(part.touching, detail::impulse_runs, [&](std::size_t k) {
            const detail::world_touch t = touches[k];
            const float vx = v.vx[t.b] - v.vx[t.a];
            const float vy = v.vy[t.b] - v.vy[t.a];
            if (first_pass) {
                const contact_impulse j = world_impulse_of(t, vx, vy, friction);
                totals[k] = {j.normal, j.tangent};
                impl::push_pair(v, t, j);
            } else {
                impl::push_pair(v, t, accumulated_impulse_of(t, vx, vy, friction, totals[k]));
            }
        });
    };
    for (int pass = 0; pass < options_.velocity_iterations; ++pass) {
        const bool first_pass = pass == 0;
        detail::in_waves(tasks, schedule, [&](const detail::pair_part& part, std::size_t k) {
            if (k != detail::far_part) {
                const std::size_t from = box_contacts_from_[k];
                for (std::size_t b = from; b < from + box_touching_in_block_[k]; ++b) {
                    const detail::world_touch t = box_touching_[b];
                    float vx = p.vx[t.b];
                    float vy = p.vy[t.b];
                    relative_to_box(t.a, vx, vy);
                    if (first_pass) {
                        const contact_impulse j = world_impulse_of(t, vx, vy, friction);
                        box_totals[b] = {j.normal, j.tangent};
                        push_box(p, t, j);
                    } else {
                        push_box(p, t, accumulated_impulse_of(t, vx, vy, friction, box_totals[b]));
                    }
                }
            }
            respond_pairs(part, first_pass);
        });
    }
}

} // namespace simdcollide
