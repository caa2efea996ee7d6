// Circle against circle: pairwise (circle i of `a` against circle i of `b`) and over a pair
// list into one set of circles, as a broad phase produces it.
//
// Every function here runs on the active instruction set (dispatch.hpp); those of the same
// name in simdcollide::reference run the scalar reference, with bit-identical results.
//
// The math, from the behaviour contract (docs/behaviour.md "Circle against circle"): d = b.c - a.c,
// R = a.r + b.r; a contact iff |d|^2 < R^2 (touching is not a contact); normal d / |d| from
// a towards b, (1, 0) when the centres coincide; depth R - |d|; contact point
// a.c + n * (a.r - depth / 2), the midpoint of the two surface points. The normal is computed
// as d * (1 / |d|), one division for both components (within about an ulp of d / |d|).
//
// Preconditions, checked on every call before anything is written (std::invalid_argument):
// views of equal count, no null array a kernel needs, pair indices in range and a != b,
// and no array a kernel writes sharing memory with another array of the call. A pairwise
// kernel may write an output over the very array an input is (same start and count); the
// pair-list kernels, which read circles by index, may not.
// Not checked (validate.hpp): finite values, radius >= 0, inverse_mass >= 0 and finite.
//
// What an invalid circle (a non-finite field, a negative radius or inverse mass) can
// affect: in a pairwise call, only its own pair's results. In a pair list, the results of
// every pair it is in, so the circles paired with it: with separate over a pair list
// (Jacobi, from the positions at the start of the call) those partners and no further; with
// separate_in_order (pair_groups.hpp) a partner it moved carries that to the pairs after,
// so it can reach any circle joined to it by a chain of pairs. Pairs of valid circles only,
// with no invalid circle among their neighbours, keep their results.
//
// Weights: every valid inverse mass, from 0 and the subnormals to the largest float, splits
// a separation as the contract says, in floats: where the two weights sum to more than 2^24
// or to less than 2^-24 (but not 0), both are first scaled by one power of two chosen from
// the larger, so that their sum can neither overflow nor vanish. Other weights are used as
// they are.
#pragma once

#include <simdcollide/containers.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace simdcollide {

/// How separation splits the correction between the two circles (docs/behaviour.md, the
/// projection method of position-based dynamics). In every mode a static circle (inverse_mass == 0)
/// gets weight 0 and never moves, and if both weights are 0 nothing moves.
enum class separation_weighting {
    inverse_mass, ///< wa = a.inverse_mass, wb = b.inverse_mass (the default)
    equal,        ///< wa = wb = 1: each moves half the depth
    by_radius,    ///< wa = b.radius, wb = a.radius: the larger circle moves less
};

/// Writes `out[i] = |b.c - a.c|^2`, in length units squared. Radii are not read.
void distance_squared(circles_cview a, circles_cview b, std::span<float> out);

/// Writes `mask[i] = 1` where a[i] and b[i] are in contact, else 0; returns the count.
std::size_t overlap(circles_cview a, circles_cview b, std::span<std::uint8_t> mask);

/// Returns the number of pairs in contact, writing nothing.
[[nodiscard]] std::size_t count_overlaps(circles_cview a, circles_cview b);

/// Writes each pair's contact (normal from a towards b, depth, point) to `out`; pairs not in
/// contact get zeros. Returns the number of contacts.
std::size_t contact(circles_cview a, circles_cview b, contacts_view out);

/// Separates each pair in contact (a[i] against b[i], independently): a moves by
/// -n * depth * wa / (wa + wb) and b by +n * depth * wb / (wa + wb), computed (with extreme
/// weights scaled, see above) as share = depth / (wa + wb) then n * (share * w). Reads x,
/// y, radius, inverse_mass of both sides; writes x and y of the circles that move (a circle
/// that does not move keeps its bits exactly). Returns the number of pairs that moved.
/// Afterwards a pair that moved touches (to float rounding).
std::size_t separate(particles_view a, particles_view b,
                     separation_weighting mode = separation_weighting::inverse_mass);

/// Reusable scratch memory for pair-list separation: eight floats per circle (the sums of
/// its corrections and their number, and a packed copy of the circle for SIMD gathers).
/// Keep one per simulation to avoid an allocation per call; its contents between calls
/// mean nothing.
class separation_workspace {
public:
    aligned_floats scratch;
};

/// The contact of every listed pair of circles of one set: pair k's (normal from circle
/// pairs[k].a towards pairs[k].b, depth, point) into out[k], zeros where not in contact.
/// Reads x, y and radius; out.count must equal pairs.size(), and indices are checked as for
/// separate below. Returns the number of contacts. `workspace` is scratch (four floats per
/// circle); the overload without one allocates it.
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out,
                    separation_workspace& workspace);
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out);

/// Separates every listed pair of circles of one set, where a circle may sit in many pairs.
///
/// How pairs that share a circle combine (Jacobi with averaging): every pair's correction
/// is computed from the positions at the start of the call; each circle's corrections are
/// summed in pair order, and the circle then moves by their mean (sum / number of pairs that
/// moved it). So the result does not depend on how pairs are grouped into SIMD blocks or
/// threads, only on the list's order, and a circle pushed from several sides moves by a
/// compromise instead of the sum, which keeps stacks and piles from exploding. One call
/// does not remove every overlap in a pile; call it again (iterations) for that.
///
/// Reads x, y, radius, inverse_mass; writes x and y of the circles that move. Indices must
/// be < circles.count and a != b in every pair (checked once per call, before anything is
/// written). Returns the number of circles that moved.
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode, separation_workspace& workspace);

/// The same, with a workspace allocated for this call.
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode = separation_weighting::inverse_mass);

/// The kernels above that pair a[i] with b[i], on `w`'s workers (workers.hpp): the same checks
/// and the same bits, every worker taking blocks of the pairs. (The pair-list forms share
/// circles between pairs and run on the calling thread.)
void distance_squared(circles_cview a, circles_cview b, std::span<float> out, const workers& w);
std::size_t overlap(circles_cview a, circles_cview b, std::span<std::uint8_t> mask,
                    const workers& w);
[[nodiscard]] std::size_t count_overlaps(circles_cview a, circles_cview b, const workers& w);
std::size_t contact(circles_cview a, circles_cview b, contacts_view out, const workers& w);
std::size_t separate(particles_view a, particles_view b, separation_weighting mode,
                     const workers& w);

namespace reference {
void distance_squared(circles_cview a, circles_cview b, std::span<float> out);
std::size_t overlap(circles_cview a, circles_cview b, std::span<std::uint8_t> mask);
[[nodiscard]] std::size_t count_overlaps(circles_cview a, circles_cview b);
std::size_t contact(circles_cview a, circles_cview b, contacts_view out);
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out,
                    separation_workspace& workspace);
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out);
std::size_t separate(particles_view a, particles_view b,
                     separation_weighting mode = separation_weighting::inverse_mass);
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode, separation_workspace& workspace);
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode = separation_weighting::inverse_mass);
} // namespace reference

} // namespace simdcollide
