// Finding every overlapping pair among many circles (SPEC.md "Many against many").
//
// reference::find_pairs tests all n(n-1)/2 pairs. pair_finder gives the same list, in the
// same order, from a uniform grid rebuilt on every call.
#pragma once

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide {

/// Finds every pair of circles (i, j), i < j, with |c_j - c_i|^2 < (r_i + r_j + margin)^2
/// (margin 0: exactly the pairs in contact), each once, ordered by i then j. Keep one per
/// simulation: it reuses its memory from call to call.
///
/// How: circles are counting-sorted into a uniform grid of cells 2 * r_small + margin wide,
/// where r_small is twice the median radius (capped at the largest radius); circles no
/// larger than r_small find their partners in the 3 x 3 cells around them, each pair tested
/// once (a circle against later circles of its cell, the next cell and the three above),
/// then put in order by a counting sort. Larger circles
/// (rare in practice) each search the cells their reach covers and every other larger
/// circle; many of them make a call slow, never wrong. Memory is O(circles) whatever the
/// radii: the grid has at most 2 * circles + 64 cells, coarsened if the centres spread
/// wider. The caller's indexing is kept: pairs name the caller's indices.
///
/// Circles with a non-finite centre or radius (invalid input) are in no pair.
class pair_finder {
public:
    /// Throws std::invalid_argument for null arrays or a negative or non-finite margin.
    std::span<const circle_pair> find(circles_cview circles, float margin = 0.0F);

    /// Cells of the last call's grid (the memory bound above, observable).
    [[nodiscard]] std::size_t cell_count() const noexcept { return cell_start_.size() - 1; }

private:
    std::vector<circle_pair> pairs_;
    std::vector<std::uint32_t> cell_start_{0};
    std::vector<std::uint32_t> order_; // circle indices sorted by cell
    std::vector<float> sorted_x_, sorted_y_, sorted_r_;
    std::vector<std::uint32_t> cell_of_circle_;
    std::vector<circle_pair> found_;                // pairs in the order found
    std::vector<std::uint32_t> group_start_, fill_; // counting sort by first index
};

namespace reference {
/// All pairs, brute force: O(n^2). The definition pair_finder reproduces.
std::vector<circle_pair> find_pairs(circles_cview circles, float margin = 0.0F);
} // namespace reference

} // namespace simdcollide
