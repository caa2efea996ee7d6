// Axis-aligned box against axis-aligned box, pairwise: box i of `first` against box i of
// `second`, or every box against one box.
//
// Every function here runs on the active instruction set (dispatch.hpp); the functions of
// the same name in namespace simdcollide::reference run the scalar reference. The two give
// bit-identical results for valid input, whatever the length and alignment of the views.
//
// Common preconditions, checked on every call before anything is written:
// - every view has the same count, else std::invalid_argument;
// - a view with count > 0 has no null pointer, else std::invalid_argument;
// - `margin` is finite and >= 0, else std::invalid_argument;
// - no array a kernel writes shares memory with another array of the call, except that an
//   output may be the very array an input is (same start, same count: each element is read
//   before it is written), else std::invalid_argument.
// Not checked (see validate.hpp): finite values, min <= max. An invalid box (NaN, infinity,
// inverted) changes only its own pair's results.
//
// The math, from the behaviour contract (docs/behaviour.md "Box against box"), for box A
// (of `first`) and box B (of `second`):
// - on each axis, A leaves B by the shorter of two moves: towards + by B.max - A.min, or
//   towards - by A.max - B.min (a tie: towards +); that move is the axis' depth, negative
//   where the boxes are apart on that axis;
// - a contact iff both depths > -margin: the boxes grown by the margin overlap, and touching
//   exactly is not a contact;
// - its axis is the one with the smaller depth (a tie: y); the normal is that axis' unit
//   vector in A's direction of leaving (from B towards A); depth is that axis' depth;
// - the point lies on B's face that A leaves through, midway along the overlap of the two
//   boxes' extents on the other axis (each end halved, then added).
// So one box inside another leaves through the nearest face of the outer box, coincident
// boxes leave towards +y when square (towards + along their shorter axis otherwise), and a
// box of zero size inside another leaves through the face a circle of radius 0 at that point
// would (circle_aabb.hpp).
//
// Separation (docs/behaviour.md, "Box against box" 6) moves a pair in contact (margin 0)
// apart along the contact's axis by its depth in all: A by +n * depth * wa / (wa + wb), B by
// -n * depth * wb / (wa + wb), a box moving by shifting its min and max on that axis alike.
// The weights are those of circle pairs (separation_weighting, circle_circle.hpp), with a
// box's size its half-extent along the axis, (max - min) / 2 computed as 0.5 max - 0.5 min:
// inverse mass (the default), equal, or by size (wa = B's half-extent, wb = A's: the larger
// box moves less). A static box (inverse mass 0) has weight 0 in every mode; extreme weights
// are scaled as circle_circle.hpp says.
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace simdcollide {

/// Writes `mask[i] = 1` where box i of `first` and box i of `second` are in contact, else 0,
/// and returns the number of contacts.
std::size_t overlap(aabbs_view first, aabbs_view second, std::span<std::uint8_t> mask,
                    float margin = 0.0F);

/// Returns the number of pairs in contact, as overlap() would, writing nothing.
[[nodiscard]] std::size_t count_overlaps(aabbs_view first, aabbs_view second, float margin = 0.0F);

/// Writes each pair's contact (normal from the second box towards the first, depth, point)
/// to `out`; pairs not in contact get zeros. Returns the number of contacts.
std::size_t contact(aabbs_view first, aabbs_view second, contacts_view out, float margin = 0.0F);

/// Every box of `boxes` as the first against the same box as the second (a floor, a
/// platform): each does what the form above does with that box repeated, bit for bit. The
/// box is not checked (see validate.hpp).
std::size_t overlap(aabbs_view boxes, const aabb& box, std::span<std::uint8_t> mask,
                    float margin = 0.0F);
[[nodiscard]] std::size_t count_overlaps(aabbs_view boxes, const aabb& box, float margin = 0.0F);
std::size_t contact(aabbs_view boxes, const aabb& box, contacts_view out, float margin = 0.0F);

/// Separates each pair in contact (box i of `first` against box i of `second`, each pair on
/// its own) as the rule above says. Reads both views' bounds and inverse masses; writes the
/// bounds of the boxes that move (a box that does not move keeps its bits exactly). Returns
/// the number of pairs that moved. Afterwards a pair that moved touches (to float rounding).
/// Preconditions as above (`inverse_mass` not null where count > 0); not checked: inverse
/// masses >= 0 and finite.
std::size_t separate(box_bodies_view first, box_bodies_view second,
                     separation_weighting mode = separation_weighting::inverse_mass);

/// Moves every box with inverse mass > 0 out of `box`, which does not move, by exactly its
/// depth along the contact's normal: the form above with `box` repeated at inverse mass 0
/// and weighting `equal`, bit for bit. Returns the number of boxes moved.
std::size_t separate(box_bodies_view boxes, const aabb& box);

/// Each kernel above on `w`'s workers (workers.hpp): the same checks and the same bits, every
/// worker taking blocks of the pairs.
std::size_t overlap(aabbs_view first, aabbs_view second, std::span<std::uint8_t> mask, float margin,
                    const workers& w);
[[nodiscard]] std::size_t count_overlaps(aabbs_view first, aabbs_view second, float margin,
                                         const workers& w);
std::size_t contact(aabbs_view first, aabbs_view second, contacts_view out, float margin,
                    const workers& w);
std::size_t overlap(aabbs_view boxes, const aabb& box, std::span<std::uint8_t> mask, float margin,
                    const workers& w);
[[nodiscard]] std::size_t count_overlaps(aabbs_view boxes, const aabb& box, float margin,
                                         const workers& w);
std::size_t contact(aabbs_view boxes, const aabb& box, contacts_view out, float margin,
                    const workers& w);
std::size_t separate(box_bodies_view first, box_bodies_view second, separation_weighting mode,
                     const workers& w);
std::size_t separate(box_bodies_view boxes, const aabb& box, const workers& w);

/// The scalar reference: the same functions, same preconditions, run pair by pair in
/// portable C++. It defines the results that every SIMD path reproduces bit for bit.
namespace reference {
std::size_t overlap(aabbs_view first, aabbs_view second, std::span<std::uint8_t> mask,
                    float margin = 0.0F);
[[nodiscard]] std::size_t count_overlaps(aabbs_view first, aabbs_view second, float margin = 0.0F);
std::size_t contact(aabbs_view first, aabbs_view second, contacts_view out, float margin = 0.0F);
std::size_t overlap(aabbs_view boxes, const aabb& box, std::span<std::uint8_t> mask,
                    float margin = 0.0F);
[[nodiscard]] std::size_t count_overlaps(aabbs_view boxes, const aabb& box, float margin = 0.0F);
std::size_t contact(aabbs_view boxes, const aabb& box, contacts_view out, float margin = 0.0F);
std::size_t separate(box_bodies_view first, box_bodies_view second,
                     separation_weighting mode = separation_weighting::inverse_mass);
std::size_t separate(box_bodies_view boxes, const aabb& box);
} // namespace reference

} // namespace simdcollide
