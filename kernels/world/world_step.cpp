// The step: every stage of it, named once (world_profile.hpp's step_stage) and run here, in
// order, on one worker or many (docs/world-design.md, "The step"). Each stage is a function
// over the parts of the world it reads and writes, in the file named for it.
#include "world/world_state.hpp"

#include "pairwise/kernel_table.hpp"
#include "runtime/tasks.hpp"
#include "world/solver/solver_table.hpp"
#include "world/world_errors.hpp"

#include <string>

namespace simdcollide {

using detail::number;
using detail::refuse;
using detail::step_stage;

void detail::world_state::step(float dt) {
    if (!(dt > 0.0F && dt <= max_time_step) ||
        !(dt / static_cast<float>(options_.substeps) >= min_substep)) {
        refuse("time step is " + number(dt) + ", must be finite, at most " + number(max_time_step) +
               ", and at least " + number(min_substep) + " a substep (" +
               std::to_string(options_.substeps) + " substeps)");
    }
    // Resolved before anything changes: the first call reads SIMDCOLLIDE_ISA and may throw
    // isa_unavailable, which then leaves the world as it was.
    const detail::kernel_table& kernels = detail::active_table();
    const detail::solver_kernels& solver = detail::solver_table(kernels.id);
    const int substeps = options_.substeps;
    // may refuse a kinematic box's move, before anything changes
    const bool kinematic_moves = kinematic_boxes_move(kinematic_);
    plan_kinematic_step(kinematic_, substeps, dt);
    const detail::task_runner tasks = task_runner();
    clock_.begin_step();
    const bool edited = circles_changed_ || boxes_.changed || materials_.stale || filters_.stale;
    if (sleep_.stays_asleep(edited, kinematic_moves, circles_, dynamic_, kinematic_)) {
        // Nothing moves: no touch begins or ends; the sensors, which may have moved, look.
        clock_.enter(step_stage::events);
        events_.last.began.clear();
        events_.last.ended.clear();
        events_.last.hits.clear();
        find_sensor_events(sensors_, slots_, dynamic_, filters_, kernels, tasks);
        finish_kinematic_step(kinematic_);
        clock_.stop();
        return;
    }

    clock_.enter(step_stage::sort);
    const bool resorted =
        circles_changed_ || slots_.circle_of_slot.size() != size() || steps_ % sort_every == 0;
    if (resorted) {
        // the slots change: the impulses go by the caller's indices
        keep_impulses_by_circle(solver_, slots_.circle_of_slot, tasks);
        events_.to_circles(slots_.circle_of_slot); // and the touches
        sort_slots(circles_, slots_, lists_, tasks);
        circles_changed_ = false;
    }

    clock_.enter(step_stage::gather);
    gather(circles_, slots_, kernels, tasks);

    clock_.enter(step_stage::lists);
    const listing listed = listing_needed(lists_, slots_, boxes_.changed, options_, dt, tasks);
    bool pairs_changed = resorted;
    switch (listed) {
    case listing::kept:
        break;
    case listing::some:
        pairs_changed =
            relist_leavers(lists_, slots_, boxes_, options_, dt, tasks) || pairs_changed;
        ++lists_.listings.partial;
        break;
    case listing::all:
        list_contacts(lists_, slots_, boxes_, options_, dt, tasks);
        boxes_.changed = false;
        pairs_changed = true;
        ++lists_.listings.full;
        break;
    }
    list_kinematic_entries(kinematic_, lists_, slots_, boxes_.count(), listed, resorted, tasks);
    list_dynamic_box_entries(dynamic_, lists_, slots_, boxes_, kinematic_, options_, dt, tasks);
    filters_.stale = filters_.stale || resorted;
    filters_.refresh(slots_);
    if (filters_.active) {
        filter_lists(listed != listing::kept);
    }
    const float h = dt / static_cast<float>(substeps);
    sweeps_.static_circles_current = false;
    sweeps_.floor = fast_floor(slots_, options_, h, tasks);

    const std::vector<circle_pair>& box_entries = step_box_entries(lists_, kinematic_);
    // The contacts depend on the pairs, the box entries and the inverse masses alone (a
    // changed inverse mass lists everything again): kept where none changed.
    // ... and the materials, which a sort renumbers and an edit changes.
    materials_.stale = materials_.stale || resorted;
    materials_.refresh(slots_);
    const bool materials_changed = materials_.changed;
    if (contacts_due(solver_, pairs_changed, box_entries) || materials_changed) {
        clock_.enter(step_stage::contacts);
        make_contacts(solver_, lists_.pairs, box_entries, slots_, materials_, tasks);
    }
    // The dynamic boxes' entries are listed every step; their contacts are made again where
    // the entries changed.
    if (dynamic_.count() > 0 || solver_.dynamic_pairs.size() + solver_.dynamic_fixed.size() > 0) {
        clock_.enter(step_stage::contacts);
        dynamic_contacts_made_ +=
            make_dynamic_box_contacts(solver_, dynamic_, slots_, resorted || materials_changed,
                                      materials_, tasks)
                ? 1
                : 0;
    }
    materials_.changed = false;

    clock_.enter(step_stage::prepare);
    prepare_contacts(solver_, slots_, boxes_, kinematic_, dynamic_, h, solver, tasks);

    detail::solve_parameters solve = solve_parameters_of(options_, h);
    // only restitution and the hits read it
    solve.keep_max_normal = materials_.max_restitution > 0.0F || events_.on;
    for (int s = 0; s < substeps; ++s) {
        kinematic_substep_start(kinematic_, boxes_, s, substeps);
        solve.elapsed = static_cast<float>(s) * h;
        clock_.enter(step_stage::integrate_velocities);
        integrate_velocities(solver_, slots_, dynamic_, options_, h, solver, tasks);
        clock_.enter(step_stage::warm_start);
        warm_start(solver_, solver, tasks);
        clock_.enter(step_stage::solve);
        solve.use_bias = true;
        solve_contacts(solver_, solve, 1, solver, tasks);
        clock_.enter(step_stage::fast_circles);
        // what the look and the sweeps read
        velocities_out(solver_, slots_, dynamic_, solver, tasks);
        find_fast_circles(sweeps_, slots_, options_, h, kernels, tasks);
        note_kinematic_starts(kinematic_, slots_, sweeps_, options_, h);
        clock_.enter(step_stage::integrate_positions);
        integrate_positions(solver_, slots_, dynamic_, h, solver, tasks);
        clock_.enter(step_stage::sweep);
        sweep_fast_circles(sweeps_, slots_, solver_, boxes_, materials_, filters_, tasks);
        clock_.enter(step_stage::kinematic_sweep);
        sweep_kinematic_boxes(kinematic_, slots_, solver_, options_, materials_, filters_, tasks);
        clock_.enter(step_stage::relax);
        solve.use_bias = false;
        solve.elapsed = static_cast<float>(s + 1) * h;
        solve_contacts(solver_, solve, options_.relax_iterations, solver, tasks);
    }
    if (materials_.max_restitution > 0.0F) {
        clock_.enter(step_stage::restitution);
        restitution(solver_, options_, solver, tasks);
    }

    clock_.enter(step_stage::scatter);
    velocities_out(solver_, slots_, dynamic_, solver, tasks);
    keep_dynamic_box_impulses(solver_, dynamic_, slots_);
    finish_kinematic_step(kinematic_);
    scatter(slots_, circles_, kernels, tasks);
    if (events_.on || sensors_.count() > 0) {
        clock_.enter(step_stage::events);
    }
    if (events_.on) {
        find_contact_events(events_, solver_, lists_.pairs, slots_, boxes_, kinematic_, dynamic_,
                            tasks);
    }
    find_sensor_events(sensors_, slots_, dynamic_, filters_, kernels, tasks);
    sleep_.after_step(options_, dt, kinematic_moves, circles_, dynamic_, kinematic_);
    clock_.stop();
    ++steps_;
}

} // namespace simdcollide
