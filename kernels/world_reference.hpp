// The scalar reference's formulas (kernels/reference/*.inl) for the world's own code, in
// namespace detail::world_impl: the box contacts of the lists, the impulses of the passes
// after the first.
#pragma once

#include <simdcollide/world.hpp>

#include "world_records.hpp"

#include "kernel_table.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdcollide::detail::world_impl {
// minmax.inl first: the others use it.
#include "reference/minmax.inl"
#include "reference/weights.inl"

#include "reference/circle_aabb.inl"
#include "reference/circle_circle.inl"
#include "reference/response.inl"
#include "reference/world.inl"
} // namespace simdcollide::detail::world_impl
