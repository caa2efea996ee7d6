// The soft step's solver (docs/world-design.md, "The step"): its contacts and their
// impulses, the circles as the solver sees them, and its stages, each over all the contacts
// at once, colour by colour on the workers (world_solve.cpp). The step runs them in its
// order (world_step.cpp).
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/containers.hpp>
#include <simdcollide/world.hpp>

#include "world/solver/carry.hpp"
#include "world/solver/contacts.hpp"
#include "world/world_slots.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

struct world_materials;

struct dynamic_boxes;
struct kinematic_boxes;
struct solver_kernels;
struct task_runner;
struct world_boxes;

struct solver_state {
    // The contacts, in colour order, and the impulses while the contacts are made again;
    // the box entries the box contacts were made from, and whether the contacts are the
    // lists' (else the carry holds their impulses).
    pair_contacts pairs;
    box_contacts boxes;
    // The dynamic boxes' contacts (world_dynamic_boxes.hpp), made every step: with a circle
    // or another dynamic box, and with a static or kinematic box. A dynamic box is the
    // solver's body slots + its index.
    pair_contacts dynamic_pairs;
    box_contacts dynamic_fixed;
    impulse_carry carried;
    std::vector<circle_pair> made_from;
    bool current = false;
    // Each body's place where the step began (the slots, then the dynamic boxes), its state
    // in the solver (solver_bodies: its velocity and its move since the step began) and its
    // shape then (x, y, radius or half width, inverse mass); the substep the impulses were
    // last accumulated over (0: none).
    aligned_floats start_x, start_y, bodies, shapes;
    float impulses_h = 0.0F;
    // The step's boxes (step_boxes): the static ones, then the kinematic ones where the step
    // starts them, with their velocities in contacts.
    std::vector<float> box_records, box_vx, box_vy;
    std::vector<std::uint32_t> colour_marks; // the colouring's scratch
};

/// The impulses from the contacts into the carry, where the contacts hold them.
void keep_impulses(solver_state& solver, const task_runner& tasks);
/// The same, the carry then keyed by the caller's index: the slots are about to change, or
/// circles to be removed.
void keep_impulses_by_circle(solver_state& solver, std::span<const std::uint32_t> circle_of_slot,
                             const task_runner& tasks);

/// Whether two lists hold the same entries in the same order.
[[nodiscard]] bool same_entries(std::span<const circle_pair> l, std::span<const circle_pair> r);

/// Whether the contacts must be made again: the lists changed, or the box entries did.
[[nodiscard]] bool contacts_due(const solver_state& solver, bool lists_changed,
                                const std::vector<circle_pair>& box_entries);
/// The contacts stage: the contacts of the lists, coloured, each with its impulses from the
/// carry and its materials from its bodies' (refreshed for the slots).
void make_contacts(solver_state& solver, std::span<const circle_pair> pairs,
                   const std::vector<circle_pair>& box_entries, const circle_slots& slots,
                   const world_materials& materials, const task_runner& tasks);

/// The prepare stage: the solver's state and the bodies' shapes, then each contact from
/// where the step starts the circles and the boxes, its impulses scaled from the last step's
/// substep to h.
void prepare_contacts(solver_state& solver, circle_slots& slots, const world_boxes& boxes,
                      const kinematic_boxes& kinematic, dynamic_boxes& dynamic, float h,
                      const solver_kernels& kernels, const task_runner& tasks);

/// What the solve and relax passes of a substep of h read, from the options.
[[nodiscard]] solve_parameters solve_parameters_of(const world_options& options, float h);

/// Gravity's kick of a substep of h on every moving circle and dynamic box.
void integrate_velocities(solver_state& solver, circle_slots& slots, dynamic_boxes& dynamic,
                          const world_options& options, float h, const solver_kernels& kernels,
                          const task_runner& tasks);
/// The warm start: each contact's accumulated impulses applied.
void warm_start(solver_state& solver, const solver_kernels& kernels, const task_runner& tasks);
/// `times` passes over every contact, each the pairs colour by colour, then the boxes, then
/// the dynamic boxes' pairs and fixed boxes: the solve stage (one pass) with the bias, the
/// relax stage (relax_iterations) without.
void solve_contacts(solver_state& solver, const solve_parameters& with, int times,
                    const solver_kernels& kernels, const task_runner& tasks);
/// The solver's velocities into the slots and the dynamic boxes, where the sweeps and the
/// step's end read them.
void velocities_out(const solver_state& solver, circle_slots& slots, dynamic_boxes& dynamic,
                    const solver_kernels& kernels, const task_runner& tasks);
/// x += v h for every moving circle and dynamic box, in the slots, the boxes and the
/// solver's moves.
void integrate_positions(solver_state& solver, circle_slots& slots, dynamic_boxes& dynamic, float h,
                         const solver_kernels& kernels, const task_runner& tasks);
/// The restitution stage, after the substeps.
void restitution(solver_state& solver, const world_options& options, const solver_kernels& kernels,
                 const task_runner& tasks);

/// Slot i's velocity and move, as a sweep left them, into the solver's state.
inline void settle_in_solver(solver_state& solver, const circle_fields& slots,
                             std::size_t i) noexcept {
    solver.bodies[4 * i] = slots.vx[i];
    solver.bodies[4 * i + 1] = slots.vy[i];
    solver.bodies[4 * i + 2] = slots.x[i] - solver.start_x[i];
    solver.bodies[4 * i + 3] = slots.y[i] - solver.start_y[i];
}

} // namespace simdcollide::detail
