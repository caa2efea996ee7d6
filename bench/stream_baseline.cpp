// The memory-bandwidth bar for push-out, compiled with -O3 -march=native: the same bytes
// read (x, y, radius, four box fields) and written (x, y), with next to no arithmetic.
// The loop takes __restrict parameters so that GCC vectorises it without nine-way alias
// checks: a scalar "bar" would measure the loop, not the memory.
#include "native_loops.hpp"

namespace simdcollide::bench {
namespace {

void stream(std::size_t n, float* __restrict x, float* __restrict y, const float* __restrict r,
            const float* __restrict min_x, const float* __restrict min_y,
            const float* __restrict max_x, const float* __restrict max_y) {
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = x[i] + (max_x[i] - min_x[i]) * r[i];
        y[i] = y[i] + (max_y[i] - min_y[i]);
    }
}

} // namespace

void stream_like_push_out(circles_view c, aabbs_view b) {
    stream(c.count, c.x, c.y, c.radius, b.min_x, b.min_y, b.max_x, b.max_y);
}

} // namespace simdcollide::bench
