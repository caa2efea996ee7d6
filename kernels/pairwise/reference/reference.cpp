// The library's copy of the scalar reference, and its kernel table.
//
// Compiled with -fno-tree-vectorize (see CMakeLists.txt) so that "reference" in benchmarks
// means scalar code; bench/autovec.cpp compiles the same loops with GCC's best
// auto-vectorisation for comparison.
#include "pairwise/kernel_table.hpp"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <simdcollide/circle_circle.hpp>
#include <simdcollide/response.hpp>
#include <simdcollide/soa.hpp>

namespace simdcollide::detail::reference_impl {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"
#include "pairwise/reference/weights.inl"

#include "pairwise/reference/box_box.inl"
#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/circle_circle.inl"
#include "pairwise/reference/in_order.inl"
#include "pairwise/reference/response.inl"
#include "pairwise/reference/swept.inl"
#include "pairwise/reference/world.inl"

// After swept.inl, whose slabs and unit vectors the rays use.
#include "pairwise/reference/rays.inl"
#include "pairwise/reference/regions.inl"
} // namespace simdcollide::detail::reference_impl

namespace simdcollide::detail {

const kernel_table& reference_table() noexcept {
    static constexpr kernel_table table{
        isa::reference,
        {
            &reference_impl::closest_point_loop,
            &reference_impl::distance_squared_loop,
            &reference_impl::overlap_loop,
            &reference_impl::contact_loop,
            &reference_impl::push_out_loop,
            &reference_impl::push_out_box_loop,
            &reference_impl::closest_point_box_loop,
            &reference_impl::distance_squared_box_loop,
            &reference_impl::overlap_box_loop,
            &reference_impl::contact_box_loop,
        },
        {
            &reference_impl::circle_distance_squared_loop,
            &reference_impl::circle_overlap_loop,
            &reference_impl::circle_contact_loop,
            &reference_impl::circle_separate_loop,
            &reference_impl::circle_pair_contact_loop,
            &reference_impl::circle_pair_corrections_loop,
            &apply_pair_corrections,
        },
        {
            &reference_impl::box_overlap_loop,
            &reference_impl::box_contact_loop,
            &reference_impl::box_overlap_box_loop,
            &reference_impl::box_contact_box_loop,
            &reference_impl::box_separate_loop,
            &reference_impl::box_separate_box_loop,
        },
        {
            &reference_impl::respond_circle_aabb_loop,
            &reference_impl::respond_circle_circle_loop,
        },
        {
            &reference_impl::sweep_box_loop,
            &reference_impl::sweep_one_box_loop,
            &reference_impl::sweep_circle_loop,
        },
        {
            &reference_impl::separate_in_order_loop,
            &reference_impl::permute_loop,
            &reference_impl::fastest_loop,
        },
        {
            &reference_impl::ray_circles_loop,
            &reference_impl::ray_boxes_loop,
            &reference_impl::ray_circle_run_loop,
            &reference_impl::rays_circle_run_loop,
            &reference_impl::circles_in_region_loop,
            &reference_impl::circles_near_point_loop,
            &reference_impl::boxes_in_region_loop,
            &reference_impl::boxes_near_point_loop,
        },
    };
    return table;
}

} // namespace simdcollide::detail
