// The ray casts of queries.hpp with a given table and runner: what the public entry points
// call, and what the world's ray casts call with its own workers.
#pragma once

#include "pairwise/kernel_table.hpp"
#include "runtime/tasks.hpp"

#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::detail {

/// What every ray cast checks before it writes anything (queries.hpp): the rays, the hits,
/// that the hits share no memory with each other or the rays, and that every ray is finite.
void check_ray_cast(rays_cview rays, ray_hits_view hits);

/// cast_rays (queries.hpp): the same checks, then `t`'s kernels on `run`'s workers.
std::size_t cast_rays_with(const kernel_table& t, rays_cview rays, circles_cview circles,
                           ray_hits_view hits, const task_runner& run = {});
std::size_t cast_rays_with(const kernel_table& t, rays_cview rays, aabbs_view boxes,
                           ray_hits_view hits, const task_runner& run = {});

} // namespace simdcollide::detail
