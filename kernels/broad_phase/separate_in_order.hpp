// separate_in_order without its argument checks, and the checks alone: the public calls
// (pair_groups.hpp), over grouped pairs or blocks, check and then run it; the fuzzer runs it
// on every table.
#pragma once

#include "pairwise/kernel_table.hpp"

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/pair_groups.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::detail {

/// separate_in_order's checks: the circles are `circle_count`, none of the four fields it
/// reads is null, rounds >= 0, and x and y share memory with no other array. Throws
/// std::invalid_argument otherwise.
void require_in_order_arguments(particles_view circles, std::size_t circle_count, int rounds);

/// separate_in_order (kernel_table.hpp, world_kernels_table::separate_in_order) on table
/// `t`, unchecked: every index below circles.count, a != b, groups as pair_groups makes them.
void separate_in_order_unchecked(const kernel_table& t, particles_view circles,
                                 const pair_groups& groups, separation_weighting mode, int rounds,
                                 separation_workspace& workspace);

} // namespace simdcollide::detail
