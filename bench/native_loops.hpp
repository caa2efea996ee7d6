// The two benchmark-only files compiled with -O3 -march=native declare their entry points
// here. They include nothing heavier than this, so no inline function of Google Benchmark or
// the standard library gets a -march=native copy that the linker could keep for everyone.
#pragma once

#include "pairwise/kernel_table.hpp"

namespace simdcollide::bench {

/// GCC's auto-vectorisation of the reference loops (autovec.cpp).
const detail::circle_aabb_kernels_table& autovec_circle_aabb();
const detail::circle_circle_kernels_table& autovec_circle_circle();
const detail::response_kernels_table& autovec_response();
const detail::box_box_kernels_table& autovec_box_box();

/// Reads x, y, radius and the four box fields and writes x and y, as push-out does, at
/// memory speed: the bandwidth bar for push-out (stream_baseline.cpp).
void stream_like_push_out(circles_view circles, aabbs_view boxes);

} // namespace simdcollide::bench
