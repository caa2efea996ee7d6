// Circle against axis-aligned box, pairwise: circle i of `circles` against box i of `boxes`.
//
// Every function here runs on the active instruction set (dispatch.hpp); the functions of
// the same name in namespace simdcollide::reference run the scalar reference. The two give
// bit-identical results for valid input, whatever the length and alignment of the views.
//
// Common preconditions, checked on every call before anything is written:
// - every view has the same count, else std::invalid_argument;
// - a view with count > 0 has no null pointer it needs, else std::invalid_argument;
// - `margin` (where taken) is finite and >= 0, else std::invalid_argument;
// - no array a kernel writes shares memory with another array of the call, except that an
//   output may be the very array an input is (same start, same count: each element is read
//   before it is written, as push_out writes the centres it reads), else
//   std::invalid_argument (a check of a few dozen comparisons, whatever the count).
// Not checked (see validate.hpp): finite values, radius >= 0, min <= max. An invalid
// element (NaN, infinity, negative radius, inverted box) changes only its own results.
//
// The math, from the behaviour contract (docs/behaviour.md "Circle against AABB"):
// - closest point s = clamp(c, box); d2 = |c - s|^2.
// - centre outside (d2 > 0): contact iff d2 < (r + margin)^2; normal (c - s) / |c - s| (from
//   the box towards the circle), depth r - |c - s|, point s.
// - centre inside or on the boundary (d2 == 0): the circle leaves through the nearest face
//   (ties: max_x beats min_x, max_y beats min_y, a y face beats an x face); normal is that
//   face's outward axis, depth face distance + r, point the centre projected onto the face;
//   contact iff depth > -margin (so with no margin, depth > 0).
// Rounding: |c - s| = sqrt(d2) correctly rounded, and the normal is (c - s) * (1 / |c - s|),
// one division for both components, so each component is within about an ulp of the
// correctly rounded quotient. Every instruction set computes exactly these operations.
#pragma once

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace simdcollide {

/// Writes to `out` the point of each box nearest to each circle's centre (the clamp of the
/// centre into the box). Radii are not read and may be null.
void closest_point(circles_cview circles, aabbs_view boxes, points_view out);

/// Writes to `out[i]` the squared distance from centre i to box i, in length units squared:
/// 0 when the centre is inside the box or on its boundary. Radii are not read.
void distance_squared(circles_cview circles, aabbs_view boxes, std::span<float> out);

/// Writes `mask[i] = 1` where circle i and box i are in contact, else 0, and returns the
/// number of contacts. Touching exactly is not a contact; with `margin > 0`, circles within
/// `margin` of the box count too.
std::size_t overlap(circles_cview circles, aabbs_view boxes, std::span<std::uint8_t> mask,
                    float margin = 0.0F);

/// Returns the number of pairs in contact, as overlap() would, writing nothing.
[[nodiscard]] std::size_t count_overlaps(circles_cview circles, aabbs_view boxes,
                                         float margin = 0.0F);

/// Writes each pair's contact (normal from the box towards the circle, depth, point) to
/// `out`; pairs not in contact get zeros. Returns the number of contacts.
std::size_t contact(circles_cview circles, aabbs_view boxes, contacts_view out,
                    float margin = 0.0F);

/// Pushes each circle out of its box, which has infinite mass: for every contact with a
/// positive depth, `c += normal * depth`, so afterwards the circle touches the box from
/// outside (to float rounding). Writes only `circles.x` and `circles.y`; a circle it does not
/// move keeps its bits exactly. A negative depth (possible with a margin) never moves a circle.
/// Returns how many circles it moved.
std::size_t push_out(circles_view circles, aabbs_view boxes, float margin = 0.0F);

/// Every circle against the same box (a floor, a wall): each of these does what the form
/// above does with that box repeated, bit for bit, without a box array. The box is not
/// checked (see validate.hpp); an invalid one gives what it gives repeated.
void closest_point(circles_cview circles, const aabb& box, points_view out);
void distance_squared(circles_cview circles, const aabb& box, std::span<float> out);
std::size_t overlap(circles_cview circles, const aabb& box, std::span<std::uint8_t> mask,
                    float margin = 0.0F);
[[nodiscard]] std::size_t count_overlaps(circles_cview circles, const aabb& box,
                                         float margin = 0.0F);
std::size_t contact(circles_cview circles, const aabb& box, contacts_view out, float margin = 0.0F);
std::size_t push_out(circles_view circles, const aabb& box, float margin = 0.0F);

/// Each kernel above on `w`'s workers (workers.hpp): the same checks and the same bits, every
/// worker taking blocks of the circles (each circle's result depends on it alone).
void closest_point(circles_cview circles, aabbs_view boxes, points_view out, const workers& w);
void distance_squared(circles_cview circles, aabbs_view boxes, std::span<float> out,
                      const workers& w);
std::size_t overlap(circles_cview circles, aabbs_view boxes, std::span<std::uint8_t> mask,
                    float margin, const workers& w);
[[nodiscard]] std::size_t count_overlaps(circles_cview circles, aabbs_view boxes, float margin,
                                         const workers& w);
std::size_t contact(circles_cview circles, aabbs_view boxes, contacts_view out, float margin,
                    const workers& w);
std::size_t push_out(circles_view circles, aabbs_view boxes, float margin, const workers& w);
std::size_t push_out(circles_view circles, const aabb& box, float margin, const workers& w);
void closest_point(circles_cview circles, const aabb& box, points_view out, const workers& w);
void distance_squared(circles_cview circles, const aabb& box, std::span<float> out,
                      const workers& w);
std::size_t overlap(circles_cview circles, const aabb& box, std::span<std::uint8_t> mask,
                    float margin, const workers& w);
[[nodiscard]] std::size_t count_overlaps(circles_cview circles, const aabb& box, float margin,
                                         const workers& w);
std::size_t contact(circles_cview circles, const aabb& box, contacts_view out, float margin,
                    const workers& w);

/// The scalar reference: the same functions, same preconditions, run element by element in
/// portable C++. It defines the results that every SIMD path reproduces bit for bit.
namespace reference {
void closest_point(circles_cview circles, aabbs_view boxes, points_view out);
void distance_squared(circles_cview circles, aabbs_view boxes, std::span<float> out);
std::size_t overlap(circles_cview circles, aabbs_view boxes, std::span<std::uint8_t> mask,
                    float margin = 0.0F);
[[nodiscard]] std::size_t count_overlaps(circles_cview circles, aabbs_view boxes,
                                         float margin = 0.0F);
std::size_t contact(circles_cview circles, aabbs_view boxes, contacts_view out,
                    float margin = 0.0F);
std::size_t push_out(circles_view circles, aabbs_view boxes, float margin = 0.0F);
void closest_point(circles_cview circles, const aabb& box, points_view out);
void distance_squared(circles_cview circles, const aabb& box, std::span<float> out);
std::size_t overlap(circles_cview circles, const aabb& box, std::span<std::uint8_t> mask,
                    float margin = 0.0F);
[[nodiscard]] std::size_t count_overlaps(circles_cview circles, const aabb& box,
                                         float margin = 0.0F);
std::size_t contact(circles_cview circles, const aabb& box, contacts_view out, float margin = 0.0F);
std::size_t push_out(circles_view circles, const aabb& box, float margin = 0.0F);
} // namespace reference

} // namespace simdcollide
