// The soft step's kernels (docs/world-design.md, "The step"): one table for the reference
// (solver/reference.cpp) and one for each instruction set (solver/simd/, solver/isa/), all
// giving the same bits. The world calls the table of the instruction set its pairwise
// kernels run (kernel_table::id). Entries never check arguments: the world already did.
#pragma once

#include "world/solver/contacts.hpp"

#include <simdcollide/dispatch.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::detail {

struct solver_kernels {
    /// The circles' velocities and moves into the solver's state (dx = dy = 0), and their
    /// shapes, (x, y, radius, inverse mass), into `shapes`, for the circles of the view.
    void (*bodies_in)(particles_view, float* state, float* shapes);
    /// Prepare, contacts [begin, end) in any cut: each contact's normal (from a towards b;
    /// (1, 0) where the centres coincide), separation, shares of a velocity change and
    /// approach speed from the circles' shapes and state as the step begins; its impulses
    /// times impulse_ratio (this substep over the last step's), its largest impulse 0.
    void (*prepare_pairs)(const float* state, const float* shapes, const pair_prepare_view&,
                          std::size_t begin, std::size_t end, float impulse_ratio);
    /// The velocities out of the solver's state into the view's vx and vy.
    void (*velocities_out)(particles_view, const float* state);
    /// Integrate velocities: v += (gx_h, gy_h) for every circle with inverse mass > 0.
    void (*integrate_velocities)(particles_view, float* state, float gx_h, float gy_h);
    /// Integrate positions: x += v * h for every circle with inverse mass > 0; then each
    /// circle's move since the step began, (x - x0, y - y0), into its state's (dx, dy).
    void (*integrate_positions)(particles_view, float* state, float h, const float* x0,
                                const float* y0);
    /// Warm start, contacts [begin, end) of one colour (or the overflow, in order): each
    /// contact's accumulated impulses applied to its moving circles.
    void (*warm_start_pairs)(const solver_bodies&, const pair_contacts_view&, std::size_t begin,
                             std::size_t end);
    void (*warm_start_boxes)(const solver_bodies&, const box_contacts_view&, std::size_t begin,
                             std::size_t end);
    /// Solve (use_bias) or relax, contacts [begin, end): the soft normal impulse, then
    /// friction within friction times it, each accumulated and applied.
    void (*solve_pairs)(const solver_bodies&, const pair_contacts_view&, std::size_t begin,
                        std::size_t end, const solve_parameters&);
    void (*solve_boxes)(const solver_bodies&, const box_contacts_view&, std::size_t begin,
                        std::size_t end, const solve_parameters&);
    /// Restitution, contacts [begin, end): a contact that approached faster than the
    /// threshold and pushed in the step leaves at restitution times that speed.
    void (*restitution_pairs)(const solver_bodies&, const pair_contacts_view&, std::size_t begin,
                              std::size_t end, const restitution_parameters&);
    void (*restitution_boxes)(const solver_bodies&, const box_contacts_view&, std::size_t begin,
                              std::size_t end, const restitution_parameters&);
};

/// The reference's table (solver/reference.cpp).
const solver_kernels& solver_reference() noexcept;

/// The table of one instruction set (solver/simd/solver.hpp), instantiated in its own object
/// (solver/isa/*.cpp).
template <class Arch>
const solver_kernels& simd_solver_table() noexcept;

/// The table for `which`, or the reference's where this build has none for it.
const solver_kernels& solver_table(isa which) noexcept;

} // namespace simdcollide::detail
