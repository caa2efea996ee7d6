// The soft step's solver stages (docs/world-design.md, "The step"): the contacts made from
// the lists and coloured when the lists change, prepared once a step, and the passes over
// them, which the step (world_step.cpp) runs in its order. Within a colour no moving circle
// appears twice, so each colour's contacts are cut among the workers, and the colours follow
// one another as the stages of one task (runtime/stages.hpp): a worker done with its part of
// a colour waits for the others' without handing anything back.
#include "world/world_solve.hpp"

#include "world/world_materials.hpp"

#include "runtime/circle_blocks.hpp"
#include "runtime/stages.hpp"
#include "runtime/tasks.hpp"
#include "world/solver/colours.hpp"
#include "world/solver/prepare.hpp"
#include "world/solver/solver_table.hpp"
#include "world/world_boxes.hpp"
#include "world/world_dynamic_boxes.hpp"
#include "world/world_kinematic.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace simdcollide {

namespace {

// Contacts a worker takes at a time within a colour, at least: fewer cost more to share out
// than to solve (docs/performance.md, "The soft step on workers").
constexpr std::size_t contacts_per_task = 256;

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

// The stages of passes over the contacts (runtime/stages.hpp): a colour a stage, each cut
// among the workers as for_each_range cuts, the overflow (the last colour) in one block; the
// circle pairs, the circles' boxes, the dynamic boxes' pairs and their fixed boxes, in turn.
class pass_stages {
public:
    enum class set : std::uint8_t { pairs, boxes, dynamic_pairs, dynamic_fixed };
    struct range {
        set contacts;
        std::size_t begin, end, share;
    };

    pass_stages(const detail::task_runner& tasks, const detail::solver_state& solver) {
        const std::size_t busy = tasks.busy_at_most == 0 ? tasks.workers : tasks.busy_at_most;
        const auto add = [&](const auto& contacts, set which) {
            const std::size_t colours = contacts.colours();
            for (std::size_t c = 0; c < colours; ++c) {
                const std::size_t begin = contacts.colour_start[c];
                const std::size_t end = contacts.colour_start[c + 1];
                if (begin == end) {
                    continue;
                }
                const std::size_t parts =
                    c + 1 == colours || !tasks.parallel()
                        ? 1
                        : std::clamp<std::size_t>((end - begin) / contacts_per_task, 1, busy);
                ranges_.push_back({which, begin, end, (end - begin + parts - 1) / parts});
                blocks_.push_back(parts);
            }
        };
        add(solver.pairs, set::pairs);
        add(solver.boxes, set::boxes);
        add(solver.dynamic_pairs, set::dynamic_pairs);
        add(solver.dynamic_fixed, set::dynamic_fixed);
    }

    /// The stages of `times` passes, one after another.
    [[nodiscard]] std::vector<std::size_t> blocks(std::size_t times) const {
        std::vector<std::size_t> all;
        all.reserve(times * blocks_.size());
        for (std::size_t t = 0; t < times; ++t) {
            all.insert(all.end(), blocks_.begin(), blocks_.end());
        }
        return all;
    }
    /// Block k of stage s (of any pass).
    [[nodiscard]] range block(std::size_t s, std::size_t k) const noexcept {
        range r = ranges_[s % ranges_.size()];
        r.begin += k * r.share;
        r.end = std::min(r.end, r.begin + r.share);
        return r;
    }

private:
    std::vector<range> ranges_;
    std::vector<std::size_t> blocks_;
};

// body(circles, first) for blocks of the circles of `slots`, among the runner's workers.
template <class Body>
void for_each_circle_block(const detail::task_runner& tasks, detail::circle_slots& slots,
                           Body&& body) {
    const particles_view p = slots.view();
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

// `times` passes over every contact, each the contact sets of pass_stages in turn, colour by
// colour, as the stages of one task on the workers: pairs(view, begin, end) for the sets of
// pair contacts, boxes(view, begin, end) for those of box contacts.
template <class Pairs, class Boxes>
void passes(const detail::task_runner& tasks, detail::solver_state& solver, std::size_t times,
            Pairs&& pairs, Boxes&& boxes) {
    const pass_stages stages(tasks, solver);
    const std::vector<std::size_t> blocks = stages.blocks(times);
    const detail::pair_contacts_view pair_view = solver.pairs.view();
    const detail::box_contacts_view box_view = solver.boxes.view();
    const detail::pair_contacts_view dynamic_pair_view = solver.dynamic_pairs.view();
    const detail::box_contacts_view dynamic_fixed_view = solver.dynamic_fixed.view();
    detail::run_stages(tasks, blocks, [&](std::size_t s, std::size_t k) {
        const pass_stages::range r = stages.block(s, k);
        switch (r.contacts) {
        case pass_stages::set::pairs:
            pairs(pair_view, r.begin, r.end);
            break;
        case pass_stages::set::boxes:
            boxes(box_view, r.begin, r.end);
            break;
        case pass_stages::set::dynamic_pairs:
            pairs(dynamic_pair_view, r.begin, r.end);
            break;
        case pass_stages::set::dynamic_fixed:
            boxes(dynamic_fixed_view, r.begin, r.end);
            break;
        }
    });
}

// The dynamic boxes' shapes as the prepare stage reads them.
detail::dynamic_box_shapes shapes_of(const detail::dynamic_boxes& d) {
    return {d.x.data(), d.y.data(), d.half_width.data(), d.half_height.data(),
            d.inverse_mass.data()};
}

} // namespace

void detail::keep_impulses(solver_state& solver, const task_runner& tasks) {
    if (solver.current) {
        solver.carried.take(solver.pairs, solver.boxes, tasks);
        solver.current = false;
    }
}

void detail::keep_impulses_by_circle(solver_state& solver,
                                     std::span<const std::uint32_t> circle_of_slot,
                                     const task_runner& tasks) {
    keep_impulses(solver, tasks);
    if (!solver.carried.by_circle) {
        solver.carried.to_circles(circle_of_slot, tasks);
    }
}

bool detail::same_entries(std::span<const circle_pair> l, std::span<const circle_pair> r) {
    return std::equal(l.begin(), l.end(), r.begin(), r.end(),
                      [](circle_pair x, circle_pair y) { return x.a == y.a && x.b == y.b; });
}

bool detail::contacts_due(const solver_state& solver, bool lists_changed,
                          const std::vector<circle_pair>& box_entries) {
    return !solver.current || lists_changed || !same_entries(box_entries, solver.made_from);
}

void detail::make_contacts(solver_state& solver, std::span<const circle_pair> pairs,
                           const std::vector<circle_pair>& box_entries, const circle_slots& slots,
                           const world_materials& materials, const task_runner& tasks) {
    keep_impulses(solver, tasks);
    if (solver.carried.by_circle) {
        solver.carried.to_slots(slots.slot_of_circle, tasks);
    }
    detail::colour_pairs(pairs, slots.inverse_mass.span(), materials.bodies(), solver.carried.pairs,
                         solver.pairs, solver.colour_marks, tasks);
    detail::colour_boxes(box_entries, materials.bodies(), materials.step_boxes(),
                         solver.carried.boxes, solver.boxes);
    solver.carried.pairs.clear();
    solver.carried.boxes.clear();
    solver.made_from = box_entries;
    solver.current = true;
}

void detail::prepare_contacts(solver_state& solver, circle_slots& slots, const world_boxes& boxes,
                              const kinematic_boxes& kinematic, dynamic_boxes& dynamic, float h,
                              const solver_kernels& kernels, const task_runner& tasks) {
    const float ratio = solver.impulses_h > 0.0F ? h / solver.impulses_h : 1.0F;
    solver.impulses_h = h;
    // The step's boxes: static ones, then the kinematic ones where the step starts them,
    // with their velocities in contacts.
    const std::size_t statics = boxes.count();
    const std::size_t moving = kinematic.count();
    solver.box_records.assign(boxes.records.data(), boxes.records.data() + 4 * statics);
    solver.box_vx.assign(statics + moving, 0.0F);
    solver.box_vy.assign(statics + moving, 0.0F);
    for (std::size_t k = 0; k < moving; ++k) {
        solver.box_records.insert(
            solver.box_records.end(),
            {kinematic.min_x[k], kinematic.min_y[k], kinematic.max_x[k], kinematic.max_y[k]});
        solver.box_vx[statics + k] = kinematic.contact_vx[k];
        solver.box_vy[statics + k] = kinematic.contact_vy[k];
    }
    const detail::step_boxes step_boxes{solver.box_records.data(), solver.box_vx.data(),
                                        solver.box_vy.data()};
    const std::size_t n = slots.size();
    const std::size_t m = dynamic.count();
    solver.bodies.resize(4 * (n + m));
    solver.shapes.resize(4 * (n + m));
    float* const state = solver.bodies.data();
    float* const shapes = solver.shapes.data();
    for_each_circle_block(tasks, slots, [&](const particles_view& c, std::size_t first) {
        kernels.bodies_in(c, state + 4 * first, shapes + 4 * first);
    });
    kernels.bodies_in(dynamic.view(), state + 4 * n, shapes + 4 * n);
    const detail::pair_prepare_view pairs = solver.pairs.prepare_view();
    for_each_range(tasks, 0, solver.pairs.size(), [&](std::size_t begin, std::size_t end) {
        kernels.prepare_pairs(state, shapes, pairs, begin, end, ratio);
    });
    const particles_view p = slots.view();
    for_each_range(tasks, 0, solver.boxes.size(), [&](std::size_t begin, std::size_t end) {
        detail::prepare_boxes(p, step_boxes, solver.boxes, begin, end, ratio);
    });
    const detail::dynamic_box_shapes dynamic_shapes = shapes_of(dynamic);
    detail::prepare_dynamic_pairs(p, dynamic_shapes, state, solver.dynamic_pairs, ratio);
    detail::prepare_dynamic_fixed(n, dynamic_shapes, step_boxes, state, solver.dynamic_fixed,
                                  ratio);
    solver.start_x.resize(n + m);
    solver.start_y.resize(n + m);
    std::copy(slots.x.data(), slots.x.data() + n, solver.start_x.data());
    std::copy(slots.y.data(), slots.y.data() + n, solver.start_y.data());
    std::copy(dynamic.x.data(), dynamic.x.data() + m, solver.start_x.data() + n);
    std::copy(dynamic.y.data(), dynamic.y.data() + m, solver.start_y.data() + n);
}

detail::solve_parameters detail::solve_parameters_of(const world_options& options, float h) {
    // At most 0.45 of the substep rate with two relax passes or more, a third with one (twice
    // that with a box or static circle): stiffer, a resting column of moving circles rings
    // (docs/world-design.md, "Soft contacts").
    const float most = (options.relax_iterations == 1 ? 1.0F / 3.0F : 0.45F) / h;
    const float hertz = std::min(options.contact_hertz, most);
    solve_parameters solve{};
    solve.inverse_h = 1.0F / h;
    solve.max_push = options.max_push_speed;
    solve.moving = soft_of(hertz, options.contact_damping_ratio, h);
    solve.fixed = soft_of(2.0F * hertz, options.contact_damping_ratio, h);
    return solve;
}

void detail::integrate_velocities(solver_state& solver, circle_slots& slots, dynamic_boxes& dynamic,
                                  const world_options& options, float h,
                                  const solver_kernels& kernels, const task_runner& tasks) {
    float* const state = solver.bodies.data();
    const float gx_h = options.gravity_x * h;
    const float gy_h = options.gravity_y * h;
    for_each_circle_block(tasks, slots, [&](const particles_view& c, std::size_t first) {
        kernels.integrate_velocities(c, state + 4 * first, gx_h, gy_h);
    });
    kernels.integrate_velocities(dynamic.view(), state + 4 * slots.size(), gx_h, gy_h);
}

void detail::warm_start(solver_state& solver, const solver_kernels& kernels,
                        const task_runner& tasks) {
    const detail::solver_bodies bodies{solver.bodies.data()};
    passes(
        tasks, solver, 1,
        [&](const detail::pair_contacts_view& c, std::size_t b, std::size_t e) {
            kernels.warm_start_pairs(bodies, c, b, e);
        },
        [&](const detail::box_contacts_view& c, std::size_t b, std::size_t e) {
            kernels.warm_start_boxes(bodies, c, b, e);
        });
}

void detail::solve_contacts(solver_state& solver, const solve_parameters& with, int times,
                            const solver_kernels& kernels, const task_runner& tasks) {
    const detail::solver_bodies bodies{solver.bodies.data()};
    passes(
        tasks, solver, static_cast<std::size_t>(times),
        [&](const detail::pair_contacts_view& c, std::size_t b, std::size_t e) {
            kernels.solve_pairs(bodies, c, b, e, with);
        },
        [&](const detail::box_contacts_view& c, std::size_t b, std::size_t e) {
            kernels.solve_boxes(bodies, c, b, e, with);
        });
}

void detail::velocities_out(const solver_state& solver, circle_slots& slots, dynamic_boxes& dynamic,
                            const solver_kernels& kernels, const task_runner& tasks) {
    const float* const state = solver.bodies.data();
    for_each_circle_block(tasks, slots, [&](const particles_view& c, std::size_t first) {
        kernels.velocities_out(c, state + 4 * first);
    });
    kernels.velocities_out(dynamic.view(), state + 4 * slots.size());
}

void detail::integrate_positions(solver_state& solver, circle_slots& slots, dynamic_boxes& dynamic,
                                 float h, const solver_kernels& kernels, const task_runner& tasks) {
    float* const state = solver.bodies.data();
    for_each_circle_block(tasks, slots, [&](const particles_view& c, std::size_t first) {
        kernels.integrate_positions(c, state + 4 * first, h, solver.start_x.data() + first,
                                    solver.start_y.data() + first);
    });
    const std::size_t n = slots.size();
    kernels.integrate_positions(dynamic.view(), state + 4 * n, h, solver.start_x.data() + n,
                                solver.start_y.data() + n);
}

void detail::restitution(solver_state& solver, const world_options& options,
                         const solver_kernels& kernels, const task_runner& tasks) {
    const detail::solver_bodies bodies{solver.bodies.data()};
    const detail::restitution_parameters bounce{options.restitution_threshold};
    passes(
        tasks, solver, 1,
        [&](const detail::pair_contacts_view& c, std::size_t b, std::size_t e) {
            kernels.restitution_pairs(bodies, c, b, e, bounce);
        },
        [&](const detail::box_contacts_view& c, std::size_t b, std::size_t e) {
            kernels.restitution_boxes(bodies, c, b, e, bounce);
        });
}

} // namespace simdcollide
