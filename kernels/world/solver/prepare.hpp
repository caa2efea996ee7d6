// The soft step's first stage for the contacts with boxes (docs/world-design.md, "The step"):
// each contact's normal, separation and approach speed from where the circles and boxes are
// when the step begins, its impulses scaled to the substep. Scalar code compiled once: the
// same bits on every instruction set, each contact written alone, so any cut among workers.
// (The circle pairs, many more, are prepared by the solver's kernels: solver_table.hpp.)
#pragma once

#include "world/solver/contacts.hpp"

#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::detail {

/// The boxes of the step, by box number: records of (min x, min y, max x, max y) where the
/// step starts them, and the velocity of each in contacts (0 for a static box).
struct step_boxes {
    const float* records;
    const float* vx;
    const float* vy;
};

/// The dynamic boxes where the step starts them, by index: centres, half-sizes and inverse
/// masses. Box j is the solver's body slots + j.
struct dynamic_box_shapes {
    const float* x;
    const float* y;
    const float* half_width;
    const float* half_height;
    const float* inverse_mass;
};

/// Contacts [begin, end) of `c` from the circles (slots) as they are; impulses times
/// `impulse_ratio` (this substep over the last step's).
void prepare_boxes(const particles_view& circles, const step_boxes& boxes, box_contacts& c,
                   std::size_t begin, std::size_t end, float impulse_ratio);

/// The contacts of a dynamic box with a circle or another dynamic box (bodies a < b, so b
/// is a box), from the circles (slots), the boxes and the solver's state (velocities) as
/// the step starts them: the normal from a towards b (box against box: as box_box.hpp's
/// contact with b first), the separation along it, the shares and the approach speed as for
/// circle pairs; impulses times `impulse_ratio`.
void prepare_dynamic_pairs(const particles_view& circles, const dynamic_box_shapes& boxes,
                           const float* state, pair_contacts& c, float impulse_ratio);

/// The contacts of a dynamic box (body first_box_body + j) with a static or kinematic box:
/// the normal from the fixed box towards the dynamic one, as box_box.hpp's contact gives it.
void prepare_dynamic_fixed(std::size_t first_box_body, const dynamic_box_shapes& dynamic,
                           const step_boxes& boxes, const float* state, box_contacts& c,
                           float impulse_ratio);

} // namespace simdcollide::detail
