// Ray casts, region queries and point queries over a caller's circles and boxes
// (docs/behaviour.md "Ray casts" and "Region and point queries"). particle_world has the
// same queries over everything it holds (world.hpp).
//
// Every function here runs on the active instruction set (dispatch.hpp); the functions of the
// same name in namespace simdcollide::reference run the scalar reference. The two give
// bit-identical results, whatever the length and alignment of the views. Each ray is tested
// against every shape, and each query against every shape: O(rays x shapes) and O(shapes).
//
// Common preconditions, checked on every call before anything is written, else
// std::invalid_argument naming the argument:
// - a view with count > 0 has no null pointer;
// - the hits have the rays' count and share no memory with each other or with an input;
// - every ray is finite (the error names the first that is not); a region is a valid box
//   (finite, min <= max); a point is finite and a distance finite and >= 0;
// - fewer than no_shape shapes.
// Shapes are not checked (validate.hpp): one with a value that is not finite changes only
// whether it is hit or reached.
#pragma once

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide {

/// Each ray's first hit among the circles (the lowest index on a tie) into `hits`; see
/// ray_hits_view for what a ray that hits nothing gets. Returns the number of rays that hit.
std::size_t cast_rays(rays_cview rays, circles_cview circles, ray_hits_view hits);
/// Each ray's first hit among the boxes.
std::size_t cast_rays(rays_cview rays, aabbs_view boxes, ray_hits_view hits);
/// The casts above on `w`'s workers (workers.hpp), each taking blocks of rays: the same
/// checks and the same bits.
std::size_t cast_rays(rays_cview rays, circles_cview circles, ray_hits_view hits, const workers& w);
std::size_t cast_rays(rays_cview rays, aabbs_view boxes, ray_hits_view hits, const workers& w);

/// Replaces `out` with the indices, ascending, of the circles that reach into `region`
/// (touching counts); returns how many.
std::size_t circles_in_region(circles_cview circles, const aabb& region,
                              std::vector<std::uint32_t>& out);
/// Replaces `out` with the indices, ascending, of the circles within `distance` of the point
/// (x, y) (0: the circles the point is in, their boundary included); returns how many.
std::size_t circles_near_point(circles_cview circles, float x, float y, float distance,
                               std::vector<std::uint32_t>& out);
/// The boxes that overlap or touch `region`.
std::size_t boxes_in_region(aabbs_view boxes, const aabb& region, std::vector<std::uint32_t>& out);
/// The boxes within `distance` of the point (x, y).
std::size_t boxes_near_point(aabbs_view boxes, float x, float y, float distance,
                             std::vector<std::uint32_t>& out);

/// The scalar reference: the same functions, same preconditions, one shape at a time in
/// portable C++. It defines the results that every SIMD path reproduces bit for bit.
namespace reference {
std::size_t cast_rays(rays_cview rays, circles_cview circles, ray_hits_view hits);
std::size_t cast_rays(rays_cview rays, aabbs_view boxes, ray_hits_view hits);
std::size_t circles_in_region(circles_cview circles, const aabb& region,
                              std::vector<std::uint32_t>& out);
std::size_t circles_near_point(circles_cview circles, float x, float y, float distance,
                               std::vector<std::uint32_t>& out);
std::size_t boxes_in_region(aabbs_view boxes, const aabb& region, std::vector<std::uint32_t>& out);
std::size_t boxes_near_point(aabbs_view boxes, float x, float y, float distance,
                             std::vector<std::uint32_t>& out);
} // namespace reference

} // namespace simdcollide
