// The scalar reference's formulas (kernels/pairwise/reference/*.inl) for the world's own code, in
// namespace detail::world_impl: the box contacts of the lists, the impulses of the passes
// after the first.
#pragma once

#include <simdcollide/world.hpp>

#include "pairwise/world_records.hpp"

#include "pairwise/kernel_table.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdcollide::detail::world_impl {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"
#include "pairwise/reference/weights.inl"

#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/circle_circle.inl"
#include "pairwise/reference/response.inl"
#include "pairwise/reference/world.inl"
} // namespace simdcollide::detail::world_impl
