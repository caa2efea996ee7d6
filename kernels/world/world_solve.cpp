// The soft step (docs/world-design.md, "The step"): the contacts made from the lists and
// coloured when the lists change, prepared once a step, then each substep's stages, then
// restitution. This function is the one place the stages run, on one worker or many: within
// a colour no moving circle appears twice, so each colour's contacts are cut among the
// workers as they come, and the colours follow one another.
#include "world/world_state.hpp"

#include "pairwise/kernel_table.hpp"
#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/solver/colours.hpp"
#include "world/solver/prepare.hpp"
#include "world/solver/solver_table.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace simdcollide {

namespace {

// Contacts a worker takes at a time within a colour, at least: fewer cost more to hand out
// than to solve.
constexpr std::size_t contacts_per_task = 512;

// body(begin, end) over [begin, end) of contacts, cut among the runner's workers: each
// contact is written alone, so any cut gives the same bits.
template <class Body>
void for_each_range(const detail::task_runner& tasks, std::size_t begin, std::size_t end,
                    Body&& body) {
    const std::size_t count = end - begin;
    const std::size_t busy = tasks.busy_at_most == 0 ? tasks.workers : tasks.busy_at_most;
    const std::size_t parts =
        tasks.parallel() ? std::clamp<std::size_t>(count / contacts_per_task, 1, busy) : 1;
    if (parts == 1) {
        body(begin, end);
        return;
    }
    const std::size_t share = (count + parts - 1) / parts;
    detail::for_each_item(tasks, parts, [&](std::size_t k) {
        const std::size_t first = begin + k * share;
        body(first, std::min(end, first + share));
    });
}

// The colours of `contacts` in order, each cut among the workers; the overflow, the last
// colour, in order on one.
template <class Contacts, class Body>
void by_colour(const detail::task_runner& tasks, const Contacts& contacts, Body&& body) {
    const std::size_t colours = contacts.colours();
    for (std::size_t c = 0; c < colours; ++c) {
        const std::size_t begin = contacts.colour_start[c];
        const std::size_t end = contacts.colour_start[c + 1];
        if (begin == end) {
            continue;
        }
        if (c + 1 == colours) {
            body(begin, end);
        } else {
            for_each_range(tasks, begin, end, body);
        }
    }
}

// body(circles, first) for blocks of the circles of `p`, among the runner's workers.
template <class Body>
void for_each_circle_block(const detail::task_runner& tasks, const particles_view& p, Body&& body) {
    detail::for_each_item(tasks, detail::task_blocks(p.count), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, p.count);
        body(detail::circles_of(p, b), b.first);
    });
}

// Box2D v3's b2MakeSoft: a spring of `hertz` with damping ratio `zeta`, over a substep of h.
detail::contact_softness soft_of(float hertz, float zeta, float h) {
    const float omega = 2.0F * std::numbers::pi_v<float> * hertz;
    const float a1 = 2.0F * zeta + h * omega;
    const float a2 = h * omega * a1;
    const float a3 = 1.0F / (1.0F + a2);
    return {omega / a1, a2 * a3, a3};
}

// Whether two lists hold the same entries in the same order.
bool same_entries(const std::vector<circle_pair>& l, const std::vector<circle_pair>& r) {
    return std::equal(l.begin(), l.end(), r.begin(), r.end(),
                      [](circle_pair x, circle_pair y) { return x.a == y.a && x.b == y.b; });
}

} // namespace

// The impulses go from the contacts, keyed by slot, into the carry keyed by the caller's
// index: the slots are about to change, or circles to be removed.
void detail::world_state::keep_impulses_by_circle() {
    keep_impulses();
    if (!carried_.by_circle) {
        carried_.to_circles(circle_of_slot_);
    }
}

// The impulses from the contacts into the carry, where the contacts hold them.
void detail::world_state::keep_impulses() {
    if (contacts_current_) {
        carried_.take(pair_contacts_, box_solver_contacts_);
        contacts_current_ = false;
    }
}

// The contacts of the step's lists, in colours, when the lists (or the slots) changed; each
// keeps its impulses through the carry.
void detail::world_state::make_contacts(bool lists_changed) {
    const std::vector<circle_pair>& entries = step_box_contacts();
    if (contacts_current_ && !lists_changed && same_entries(entries, contacts_made_from_)) {
        return;
    }
    clock_.enter(detail::step_stage::contacts);
    keep_impulses();
    if (carried_.by_circle) {
        carried_.to_slots(slot_of_circle_);
    }
    detail::colour_pairs(pairs_, inverse_mass_.span(), carried_.pairs, pair_contacts_,
                         colour_marks_);
    detail::colour_boxes(entries, carried_.boxes, box_solver_contacts_);
    carried_.pairs.clear();
    carried_.boxes.clear();
    contacts_made_from_ = entries;
    contacts_current_ = true;
}

// Prepare: the solver's state and the circles' shapes, then each contact from where the step
// starts the circles and boxes, its impulses scaled from the last step's substep to this
// one's.
void detail::world_state::prepare_contacts(float h, const detail::solver_kernels& solver) {
    clock_.enter(detail::step_stage::prepare);
    const particles_view p = slots();
    const detail::task_runner tasks = task_runner();
    const float ratio = impulses_h_ > 0.0F ? h / impulses_h_ : 1.0F;
    impulses_h_ = h;
    // The step's boxes: static ones, then the kinematic ones where the step starts them,
    // with their velocities in contacts.
    const std::size_t statics = static_box_count();
    const std::size_t kinematic = kinematic_box_count();
    step_box_records_.assign(box_records_.data(), box_records_.data() + 4 * statics);
    step_box_vx_.assign(statics + kinematic, 0.0F);
    step_box_vy_.assign(statics + kinematic, 0.0F);
    for (std::size_t k = 0; k < kinematic; ++k) {
        step_box_records_.insert(
            step_box_records_.end(),
            {kinematic_.min_x[k], kinematic_.min_y[k], kinematic_.max_x[k], kinematic_.max_y[k]});
        step_box_vx_[statics + k] = kinematic_.contact_vx[k];
        step_box_vy_[statics + k] = kinematic_.contact_vy[k];
    }
    const detail::step_boxes boxes{step_box_records_.data(), step_box_vx_.data(),
                                   step_box_vy_.data()};
    const std::size_t n = size();
    bodies_.resize(4 * n);
    shapes_.resize(4 * n);
    float* const state = bodies_.data();
    float* const shapes = shapes_.data();
    for_each_circle_block(tasks, p, [&](const particles_view& c, std::size_t first) {
        solver.bodies_in(c, state + 4 * first, shapes + 4 * first);
    });
    const detail::pair_prepare_view pairs = pair_contacts_.prepare_view();
    for_each_range(tasks, 0, pair_contacts_.size(), [&](std::size_t begin, std::size_t end) {
        solver.prepare_pairs(state, shapes, pairs, begin, end, ratio);
    });
    for_each_range(tasks, 0, box_solver_contacts_.size(), [&](std::size_t begin, std::size_t end) {
        detail::prepare_boxes(p, boxes, box_solver_contacts_, begin, end, ratio);
    });
    start_x_.resize(n);
    start_y_.resize(n);
    std::copy(x_.data(), x_.data() + n, start_x_.data());
    std::copy(y_.data(), y_.data() + n, start_y_.data());
}

void detail::world_state::solve_step(float dt, const detail::kernel_table& kernels) {
    const detail::solver_kernels& solver = detail::solver_table(kernels.id);
    const detail::task_runner tasks = task_runner();
    const int substeps = options_.substeps;
    const float h = dt / static_cast<float>(substeps);
    const particles_view p = slots();

    prepare_contacts(h, solver);
    const detail::solver_bodies bodies{bodies_.data()};
    // At most 0.45 of the substep rate with two relax passes or more, a third with one (twice
    // that with a box or static circle): stiffer, a resting column of moving circles rings
    // (docs/world-design.md, "Soft contacts").
    const float most = (options_.relax_iterations == 1 ? 1.0F / 3.0F : 0.45F) / h;
    const float hertz = std::min(options_.contact_hertz, most);
    detail::solve_parameters solve{};
    solve.inverse_h = 1.0F / h;
    solve.max_push = options_.max_push_speed;
    solve.friction = options_.friction;
    solve.keep_max_normal = options_.restitution > 0.0F; // only restitution reads it
    solve.moving = soft_of(hertz, options_.contact_damping_ratio, h);
    solve.fixed = soft_of(2.0F * hertz, options_.contact_damping_ratio, h);
    float* const state = bodies_.data();
    const detail::pair_contacts_view pair_view = pair_contacts_.view();
    const detail::box_contacts_view box_view = box_solver_contacts_.view();
    // One pass over every contact: the pairs colour by colour, then the boxes.
    const auto pass = [&](auto&& pairs, auto&& boxes) {
        by_colour(tasks, pair_contacts_, pairs);
        by_colour(tasks, box_solver_contacts_, boxes);
    };
    const auto solve_pass = [&](const detail::solve_parameters& with) {
        pass([&](std::size_t b,
                 std::size_t e) { solver.solve_pairs(bodies, pair_view, b, e, with); },
             [&](std::size_t b, std::size_t e) {
                 solver.solve_boxes(bodies, box_view, b, e, with);
             });
    };

    for (int s = 0; s < substeps; ++s) {
        kinematic_substep_start(s);
        solve.elapsed = static_cast<float>(s) * h;
        clock_.enter(detail::step_stage::integrate_velocities);
        for_each_circle_block(tasks, p, [&](const particles_view& c, std::size_t first) {
            solver.integrate_velocities(c, state + 4 * first, options_.gravity_x * h,
                                        options_.gravity_y * h);
        });
        clock_.enter(detail::step_stage::warm_start);
        pass(
            [&](std::size_t b, std::size_t e) { solver.warm_start_pairs(bodies, pair_view, b, e); },
            [&](std::size_t b, std::size_t e) { solver.warm_start_boxes(bodies, box_view, b, e); });
        clock_.enter(detail::step_stage::solve);
        solve.use_bias = true;
        solve_pass(solve);
        clock_.enter(detail::step_stage::fast);
        // the velocities the sweeps and the look for fast circles read
        for_each_circle_block(tasks, p, [&](const particles_view& c, std::size_t first) {
            solver.velocities_out(c, state + 4 * first);
        });
        find_fast_circles(h, fast_floor_, kernels);
        note_kinematic_starts(h);
        clock_.enter(detail::step_stage::integrate_positions);
        for_each_circle_block(tasks, p, [&](const particles_view& c, std::size_t first) {
            solver.integrate_positions(c, state + 4 * first, h, start_x_.data() + first,
                                       start_y_.data() + first);
        });
        clock_.enter(detail::step_stage::sweep);
        sweep_fast_circles();
        clock_.enter(detail::step_stage::kinematic);
        sweep_kinematic_boxes();
        clock_.enter(detail::step_stage::relax);
        solve.use_bias = false;
        solve.elapsed = static_cast<float>(s + 1) * h;
        for (int r = 0; r < options_.relax_iterations; ++r) {
            solve_pass(solve);
        }
    }
    if (options_.restitution > 0.0F) {
        clock_.enter(detail::step_stage::restitution);
        const detail::restitution_parameters bounce{options_.restitution,
                                                    options_.restitution_threshold};
        pass([&](std::size_t b,
                 std::size_t e) { solver.restitution_pairs(bodies, pair_view, b, e, bounce); },
             [&](std::size_t b, std::size_t e) {
                 solver.restitution_boxes(bodies, box_view, b, e, bounce);
             });
    }
    clock_.enter(detail::step_stage::scatter);
    for_each_circle_block(tasks, p, [&](const particles_view& c, std::size_t first) {
        solver.velocities_out(c, state + 4 * first);
    });
}

} // namespace simdcollide
