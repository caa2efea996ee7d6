// Finding every overlapping pair among many circles (docs/behaviour.md "Many against many").
//
// reference::find_pairs tests all n(n-1)/2 pairs. pair_finder gives the same list, in the
// same order, from a uniform grid rebuilt on every call.
#pragma once

#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace simdcollide {

namespace detail {
class pair_search;
} // namespace detail

/// Finds every pair of circles (i, j), i < j, with |c_j - c_i|^2 < (r_i + r_j + margin)^2
/// (margin 0: exactly the pairs in contact), each once, ordered by i then j. Keep one per
/// simulation: it reuses its memory from call to call.
///
/// How: circles are counting-sorted into a uniform grid of cells 2 * r_small + margin wide,
/// where r_small is twice the median radius (capped at the largest radius; above 4 096
/// circles, the median of an evenly spaced sample of the radii, unless half the circles or
/// more would then be larger than r_small, when the exact one is taken); circles no
/// larger than r_small find their partners in the 3 x 3 cells around them, each pair tested
/// once (a circle against later circles of its cell, the next cell and the three above),
/// then put in order by a counting sort. Larger circles (fewer than half) each search the
/// cells their reach covers for smaller ones, and find the pairs among themselves by the
/// same search over them alone, with cells from their own median: O(n log n) at worst,
/// however the radii spread; a circle whose reach covers many cells costs that many. Memory
/// is O(circles) whatever the radii: each grid has at most 2 * circles + 64 cells,
/// coarsened if the centres spread wider. A few circles far from the rest (anywhere in the
/// float range) do not coarsen it: the grid then covers the bulk of the centres (on each
/// axis, the middle 62/64 of them widened by their own spread on both sides), and circles
/// outside it are kept in its edge cells, where they cost a test against their cell's
/// neighbours. The caller's indexing is kept: pairs name the caller's indices.
///
/// Circles with a non-finite centre, or a radius that is negative or not finite (invalid
/// input), are in no pair, here and in reference::find_pairs.
class pair_finder {
public:
    /// A copy keeps the original's memory; a finder moved from may only be assigned to or
    /// destroyed.
    pair_finder();
    ~pair_finder();
    pair_finder(const pair_finder& other);
    pair_finder& operator=(const pair_finder& other);
    pair_finder(pair_finder&& other) noexcept;
    pair_finder& operator=(pair_finder&& other) noexcept;

    /// Throws std::invalid_argument for null arrays or a negative or non-finite margin.
    std::span<const circle_pair> find(circles_cview circles, float margin = 0.0F);
    /// The same list, found on `w`'s workers (workers.hpp): each searches bands of cells into
    /// a list of its own, and the lists are put in order together. More scratch: the pairs
    /// are held twice while they are put in order.
    std::span<const circle_pair> find(circles_cview circles, float margin, const workers& w);

    /// Cells of the last call's grid (the memory bound above, observable).
    [[nodiscard]] std::size_t cell_count() const noexcept;

private:
    std::unique_ptr<detail::pair_search> search_; // the grid and the lists, reused
};

namespace reference {
/// All pairs, brute force: O(n^2). The definition pair_finder reproduces.
std::vector<circle_pair> find_pairs(circles_cview circles, float margin = 0.0F);
} // namespace reference

} // namespace simdcollide
