// The scalar reference's formulas (kernels/pairwise/reference/*.inl) that the world's own
// code uses, in namespace detail::world_impl: the circle-AABB distance and contact of the
// lists and of the kinematic boxes' sweeps.
#pragma once

#include <simdcollide/shapes.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdcollide::detail::world_impl {
// minmax.inl first: circle_aabb.inl uses it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
} // namespace simdcollide::detail::world_impl
