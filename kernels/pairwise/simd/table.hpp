// The kernel table of one instruction set: the addresses of every SIMD kernel instantiated
// for `Arch`. Included only by kernels/pairwise/isa/*.cpp, each of which instantiates simd_table
// for its own architecture under its own compiler flags.
#pragma once

#include "pairwise/kernel_table.hpp"
#include "pairwise/simd/box_box.hpp"
#include "pairwise/simd/circle_aabb.hpp"
#include "pairwise/simd/circle_circle.hpp"
#include "pairwise/simd/isa_of.hpp"
#include "pairwise/simd/rays.hpp"
#include "pairwise/simd/regions.hpp"
#include "pairwise/simd/response.hpp"
#include "pairwise/simd/separate_in_order.hpp"
#include "pairwise/simd/swept.hpp"
#include "pairwise/simd/world_circles.hpp"
#include "pairwise/simd/world_pair_arch.hpp"

namespace simdcollide::detail {

template <class Arch>
const kernel_table& simd_table() noexcept {
    using World = simd::world_pair_arch<Arch>; // separation in order: AVX2 code on AVX-512
    // constexpr: the table is constant-initialised, so no per-ISA file has a dynamic
    // initialiser that could run on a CPU without that instruction set.
    static constexpr kernel_table table{
        simd::isa_of<Arch>,
        {
            &simd::circle_aabb<Arch>::closest_point,
            &simd::circle_aabb<Arch>::distance_squared,
            &simd::circle_aabb<Arch>::overlap,
            &simd::circle_aabb<Arch>::contact,
            &simd::circle_aabb<Arch>::push_out,
            &simd::circle_aabb<Arch>::push_out_box,
            &simd::circle_aabb<Arch>::closest_point_box,
            &simd::circle_aabb<Arch>::distance_squared_box,
            &simd::circle_aabb<Arch>::overlap_box,
            &simd::circle_aabb<Arch>::contact_box,
        },
        {
            &simd::circle_circle<Arch>::distance_squared,
            &simd::circle_circle<Arch>::overlap,
            &simd::circle_circle<Arch>::contact,
            &simd::circle_circle<Arch>::separate,
            &simd::circle_circle<Arch>::pair_contact,
            &simd::circle_circle<Arch>::pair_corrections,
            &simd::circle_circle<Arch>::apply_corrections,
        },
        {
            &simd::box_box<Arch>::overlap,
            &simd::box_box<Arch>::contact,
            &simd::box_box<Arch>::overlap_box,
            &simd::box_box<Arch>::contact_box,
            &simd::box_box<Arch>::separate,
            &simd::box_box<Arch>::separate_box,
        },
        {
            &simd::response<Arch>::circle_aabb,
            &simd::response<Arch>::circle_circle,
        },
        {
            &simd::swept<Arch>::sweep_box,
            &simd::swept<Arch>::sweep_one_box,
            &simd::swept<Arch>::sweep_circle,
        },
        {
            &simd::in_order<World>::separate_in_order,
            &simd::world_circles<Arch>::permute,
            &simd::world_circles<Arch>::fastest,
        },
        {
            &simd::rays<Arch>::ray_circles,
            &simd::rays<Arch>::ray_boxes,
            &simd::rays<Arch>::ray_circle_run,
            &simd::rays<Arch>::rays_circle_run,
            &simd::regions<Arch>::circles_in_region,
            &simd::regions<Arch>::circles_near_point,
            &simd::regions<Arch>::boxes_in_region,
            &simd::regions<Arch>::boxes_near_point,
        },
    };
    return table;
}

} // namespace simdcollide::detail
