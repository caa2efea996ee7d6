// The pair-list kernels without their argument checks: the public calls run them after
// checking, and the particle world, whose pairs come from pair_finder and are valid by
// construction, runs them directly (the checks cost a pass over the list per call, three
// calls per substep).
#pragma once

#include "pairwise/kernel_table.hpp"

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/pair_groups.hpp>
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

/// separate_in_order's checks (pair_groups.hpp), over grouped pairs or blocks alike: the
/// circles are `circle_count`, none of the four fields it reads is null, rounds >= 0, and x
/// and y share memory with no other array. Throws std::invalid_argument otherwise.
void require_in_order_arguments(particles_view circles, std::size_t circle_count, int rounds);

/// separate_in_order (kernel_table.hpp, world_kernels_table::separate_in_order) on table
/// `t`, unchecked: every index below circles.count, a != b, groups as pair_groups makes them.
void separate_in_order_unchecked(const kernel_table& t, particles_view circles,
                                 const pair_groups& groups, separation_weighting mode, int rounds,
                                 separation_workspace& workspace);

} // namespace simdcollide::detail
