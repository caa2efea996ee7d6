// The reference loops compiled with -O3 -march=native (see bench/CMakeLists.txt): GCC's
// best auto-vectorisation of the scalar code, the bar a hand-written SIMD path must clear.
// Included in a namespace of its own so that none of its -march=native symbols can stand
// in for the library's baseline ones.
#include "native_loops.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <simdcollide/soa.hpp>

namespace simdcollide::bench::autovec {
#include "reference/circle_aabb.inl"
} // namespace simdcollide::bench::autovec

namespace simdcollide::bench {

const detail::circle_aabb_kernels_table& autovec_circle_aabb() {
    static constexpr detail::circle_aabb_kernels_table table{
        &autovec::closest_point_loop, &autovec::distance_squared_loop, &autovec::overlap_loop,
        &autovec::contact_loop,       &autovec::push_out_loop,
    };
    return table;
}

} // namespace simdcollide::bench
