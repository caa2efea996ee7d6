// The reference loops compiled with -O3 -march=native (see bench/CMakeLists.txt): GCC's
// best auto-vectorisation of the scalar code, the bar a hand-written SIMD path must clear.
// Included in a namespace of its own so that none of its -march=native symbols can stand
// in for the library's baseline ones.
#include "native_loops.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <simdcollide/circle_circle.hpp>
#include <simdcollide/response.hpp>
#include <simdcollide/soa.hpp>

namespace simdcollide::bench::autovec {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"
#include "pairwise/reference/weights.inl"

#include "pairwise/reference/box_box.inl"
#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/circle_circle.inl"
#include "pairwise/reference/response.inl"
} // namespace simdcollide::bench::autovec

namespace simdcollide::bench {

const detail::circle_aabb_kernels_table& autovec_circle_aabb() {
    static constexpr detail::circle_aabb_kernels_table table{
        &autovec::closest_point_loop,     &autovec::distance_squared_loop,
        &autovec::overlap_loop,           &autovec::contact_loop,
        &autovec::push_out_loop,          &autovec::push_out_box_loop,
        &autovec::closest_point_box_loop, &autovec::distance_squared_box_loop,
        &autovec::overlap_box_loop,       &autovec::contact_box_loop,
    };
    return table;
}

const detail::circle_circle_kernels_table& autovec_circle_circle() {
    static constexpr detail::circle_circle_kernels_table table{
        &autovec::circle_distance_squared_loop, &autovec::circle_overlap_loop,
        &autovec::circle_contact_loop,          &autovec::circle_separate_loop,
        &autovec::circle_pair_contact_loop,     &autovec::circle_pair_corrections_loop,
        &detail::apply_pair_corrections,
    };
    return table;
}

const detail::box_box_kernels_table& autovec_box_box() {
    static constexpr detail::box_box_kernels_table table{
        &autovec::box_overlap_loop,     &autovec::box_contact_loop,
        &autovec::box_overlap_box_loop, &autovec::box_contact_box_loop,
        &autovec::box_separate_loop,    &autovec::box_separate_box_loop,
    };
    return table;
}

const detail::response_kernels_table& autovec_response() {
    static constexpr detail::response_kernels_table table{
        &autovec::respond_circle_aabb_loop,
        &autovec::respond_circle_circle_loop,
    };
    return table;
}

} // namespace simdcollide::bench
