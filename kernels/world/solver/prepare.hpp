// The soft step's first stage for circle-box contacts (docs/world-design.md, "The step"):
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

/// Contacts [begin, end) of `c` from the circles (slots) as they are; impulses times
/// `impulse_ratio` (this substep over the last step's).
void prepare_boxes(const particles_view& circles, const step_boxes& boxes, box_contacts& c,
                   std::size_t begin, std::size_t end, float impulse_ratio);

} // namespace simdcollide::detail
