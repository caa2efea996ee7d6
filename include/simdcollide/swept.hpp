// Swept circles: where along a straight move a circle first touches a box or a still circle
// (its time of impact), however long the move. A fast circle tested only where it starts and
// ends can pass through a thin wall; swept, it cannot.
//
// Every function here runs on the active instruction set (dispatch.hpp); the functions of the
// same name in namespace simdcollide::reference run the scalar reference. The two give
// bit-identical results for valid input, whatever the length and alignment of the views.
//
// The math, from the behaviour contract (docs/behaviour.md "Swept circles"): circle (c, r)
// moves to c + d; its impact is the smallest t in [0, 1] at which it touches the obstacle,
// with the contact normal there (from the obstacle towards the circle):
// - a circle already in contact at t = 0 (as the contact kernels define it) has its impact at
//   t = 0 with that contact's normal if the move goes further in (d . n < 0), and none if it
//   does not, so a circle can always leave what it overlaps;
// - against a box: the centre against the box grown by r, its faces pushed out by r and its
//   corners rounded into quarter circles of radius r about the box's corners;
// - against a still circle (b, rb): the centre against the circle of radius r + rb about b.
//   For two moving circles, pass the first's move minus the second's: the impact is where
//   they touch, as a fraction of both moves.
// Touching counts: a move that ends exactly touching has its impact at t = 1, and one that
// grazes the obstacle has one where it touches. A move along a surface it touches (d . n =
// 0) has none, nor has a zero move.
//
// Common preconditions, checked on every call before anything is written:
// - every view has the same count, else std::invalid_argument;
// - a view with count > 0 has no null pointer it needs, else std::invalid_argument;
// - the outputs share no memory with each other or with an input, else std::invalid_argument.
// Not checked (see validate.hpp): finite values, radius >= 0, min <= max. An invalid element
// changes only its own results.
#pragma once

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>

namespace simdcollide {

/// Circle i moving by displacement i against box i: writes each move's impact to `out` (see
/// impacts_view: time 1 and normal (0, 0) where there is none). Returns the number of impacts.
std::size_t sweep(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                  impacts_view out);

/// Every move against the same box, bit for bit as the form above with that box repeated.
/// The box is not checked.
std::size_t sweep(circles_cview circles, displacements_cview moves, const aabb& box,
                  impacts_view out);

/// Circle i moving by displacement i against still circle i of `obstacles`. Returns the
/// number of impacts.
std::size_t sweep(circles_cview circles, displacements_cview moves, circles_cview obstacles,
                  impacts_view out);

/// The sweeps above on `w`'s workers (workers.hpp): the same checks and the same bits, every
/// worker taking blocks of the moves.
std::size_t sweep(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                  impacts_view out, const workers& w);
std::size_t sweep(circles_cview circles, displacements_cview moves, const aabb& box,
                  impacts_view out, const workers& w);
std::size_t sweep(circles_cview circles, displacements_cview moves, circles_cview obstacles,
                  impacts_view out, const workers& w);

/// The scalar reference: the same functions, same preconditions, run element by element in
/// portable C++. It defines the results that every SIMD path reproduces bit for bit.
namespace reference {
std::size_t sweep(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                  impacts_view out);
std::size_t sweep(circles_cview circles, displacements_cview moves, const aabb& box,
                  impacts_view out);
std::size_t sweep(circles_cview circles, displacements_cview moves, circles_cview obstacles,
                  impacts_view out);
} // namespace reference

} // namespace simdcollide
