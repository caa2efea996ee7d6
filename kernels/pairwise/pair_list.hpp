// The pair-list kernels without their argument checks: the public calls run them after
// checking, and the particle world, whose pairs come from pair_finder and are valid by
// construction, runs them directly (the checks cost a pass over the list per call, three
// calls per substep).
#pragma once

#include "pairwise/kernel_table.hpp"

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <span>

namespace simdcollide::detail {

/// contact(circles, pairs, out, workspace) on table `t`, unchecked: every index must be
/// below circles.count, and out.count == pairs.size().
std::size_t contact_unchecked(const kernel_table& t, circles_cview circles,
                              std::span<const circle_pair> pairs, contacts_view out,
                              separation_workspace& workspace);

/// separate(circles, pairs, mode, workspace) on table `t`, unchecked: every index must be
/// below circles.count, and a != b in every pair.
std::size_t separate_unchecked(const kernel_table& t, particles_view circles,
                               std::span<const circle_pair> pairs, separation_weighting mode,
                               separation_workspace& workspace);

/// The workspace's scratch, grown to at least `floats` floats.
float* scratch_of(separation_workspace& workspace, std::size_t floats);

} // namespace simdcollide::detail
