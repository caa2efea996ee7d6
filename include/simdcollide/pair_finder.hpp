// Finding every overlapping pair among many circles (docs/behaviour.md "Many against many").
//
// reference::find_pairs tests all n(n-1)/2 pairs. pair_finder gives the same list, in the
// same order, from a uniform grid rebuilt on every call.
#pragma once

#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide {

namespace detail {
class world_state;
struct task_runner;

/// Cells of `size` from (origin_x, origin_y), columns x rows of them.
struct grid_shape {
    double origin_x = 0.0;
    double origin_y = 0.0;
    double size = 1.0;
    std::int64_t columns = 1;
    std::int64_t rows = 1;

    /// Monotonic in v (a <= b gives cell(a) <= cell(b)), which is what makes a query
    /// rectangle conservative. NaN and -inf go to the first cell, +inf to the last.
    [[nodiscard]] std::int64_t column(float v) const {
        return clamp_cell((v - origin_x) / size, columns);
    }
    [[nodiscard]] std::int64_t row(float v) const {
        return clamp_cell((v - origin_y) / size, rows);
    }
    [[nodiscard]] std::size_t cell(float x, float y) const {
        return static_cast<std::size_t>(row(y) * columns + column(x));
    }
    [[nodiscard]] std::size_t cells() const { return static_cast<std::size_t>(columns * rows); }

    static std::int64_t clamp_cell(double t, std::int64_t count) {
        if (!(t >= 0.0)) {
            return 0;
        }
        return t >= static_cast<double>(count - 1) ? count - 1 : static_cast<std::int64_t>(t);
    }
};

/// A grid for circles: its shape, and r_small, the largest radius it is made for. Circles
/// no larger than r_small that can touch (|d|^2 < (r_i + r_j + margin)^2) lie in the same
/// or adjacent cells; larger ones are for the caller to search otherwise.
struct circle_grid {
    grid_shape shape;
    float r_small = 0.0F;
    bool empty = true; ///< no circle with a finite centre and radius
};

/// Circles counting-sorted into the cells of a grid (kernels/broad_phase/circle_grid.hpp): what
/// pair_finder searches, and what the particle world keeps to list a few circles again.
struct circle_cells {
    static constexpr std::uint32_t nowhere = 0xFFFFFFFFU; ///< the cell of a non-finite circle
    circle_grid grid;
    /// Cell k holds the sorted entries cell_start[k] to cell_start[k + 1] - 1.
    std::vector<std::uint32_t> cell_start{0};
    std::vector<std::uint32_t> order;          ///< each sorted entry's circle index
    std::vector<float> x, y, radius;           ///< each sorted entry's fields, for locality
    std::vector<std::uint32_t> large;          ///< circles with radius > r_small, ascending
    std::vector<std::uint32_t> cell_of_circle; ///< scratch: each circle's cell
    std::vector<std::uint32_t> by_bucket;      ///< scratch on workers: circles by bucket of cells
    std::vector<std::size_t> bucket_at;        ///< scratch on workers: where each block's go
};

/// Circles whose values changed after a sort into circle_cells (the world's circles listed
/// again since that sort): kernels/broad_phase/circle_grid.hpp's for_each_near skips their sorted
/// entries and finds them here instead, with their values now. Those no larger than the
/// grid's r_small are kept by the cell of that grid their centre is in now, so that they
/// are found by cell as the sorted entries are; larger ones are tested one by one.
///
/// Why: in a large settled pile hundreds to thousands of circles leave their margins each
/// step; testing each listed circle against every changed one, or sorting every circle into
/// cells again, would cost more than finding the changed ones by cell here.
class moved_circles {
public:
    /// None changed, for `count` circles. Call it before anything else, and again whenever
    /// the circles are sorted into cells again.
    void clear(std::size_t count);
    /// `changed` (each below the count given to clear, none twice) now have the values
    /// `circles` holds, `cells` being sorted from an earlier state of `circles`: they are
    /// added, or their entries moved.
    void add(const circle_cells& cells, circles_cview circles,
             std::span<const std::uint32_t> changed);
    /// How many circles changed since clear.
    [[nodiscard]] std::size_t size() const noexcept { return count_; }
    [[nodiscard]] bool contains(std::uint32_t circle) const noexcept { return state_[circle] != 0; }
    /// Calls visit(j) for each changed circle j no larger than r_small whose centre is in
    /// one of the cells first_cell to last_cell.
    template <class Visit>
    void for_each_in_cells(std::size_t first_cell, std::size_t last_cell, Visit visit) const {
        const std::uint64_t from = std::uint64_t{first_cell} << 32U;
        const std::uint64_t to = std::uint64_t{last_cell + 1} << 32U;
        auto at = lower_bound(from);
        for (; at != by_cell_.end() && *at < to; ++at) {
            visit(static_cast<std::uint32_t>(*at));
        }
    }
    /// The changed circles larger than r_small, and every changed circle when the grid is
    /// empty (it has no cells to find them by). Changed circles that are not pairable_circle
    /// are in neither: they are near nothing.
    [[nodiscard]] std::span<const std::uint32_t> one_by_one() const noexcept { return others_; }

private:
    [[nodiscard]] std::vector<std::uint64_t>::const_iterator lower_bound(std::uint64_t key) const;

    std::vector<std::uint8_t> state_; // per circle: 0 unchanged, 1 changed, 2 changing now
    std::size_t count_ = 0;
    std::vector<std::uint64_t> by_cell_; // (cell << 32 | circle), ascending
    std::vector<std::uint64_t> fresh_, merged_;
    std::vector<std::uint32_t> others_, others_next_;
};
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
    /// Throws std::invalid_argument for null arrays or a negative or non-finite margin.
    std::span<const circle_pair> find(circles_cview circles, float margin = 0.0F);
    /// The same list, found on `w`'s workers (workers.hpp): each searches bands of cells into
    /// a list of its own, and the lists are put in order together. More scratch: the pairs
    /// are held twice while they are put in order.
    std::span<const circle_pair> find(circles_cview circles, float margin, const workers& w);

    /// Cells of the last call's grid (the memory bound above, observable).
    [[nodiscard]] std::size_t cell_count() const noexcept { return cells_.cell_start.size() - 1; }

private:
    friend class detail::world_state;
    // find on the tasks' workers (the world's, or a workers object's).
    std::span<const circle_pair> find_on(circles_cview circles, float margin,
                                         const detail::task_runner& tasks);
    std::span<const circle_pair> find_on_workers(circles_cview circles, float margin,
                                                 const detail::task_runner& tasks);
    std::span<const circle_pair> pairs_among_large(circles_cview circles, float margin,
                                                   const detail::task_runner& tasks);
    void sort_groups(std::size_t first_circle, std::size_t last_circle);

    std::vector<circle_pair> pairs_;
    detail::circle_cells cells_;
    std::vector<circle_pair> found_;                    // pairs in the order found
    std::vector<std::uint32_t> group_start_, fill_;     // counting sort by first index
    std::vector<circle_pair> among_large_pairs_;        // the pairs among the large circles
    std::vector<std::vector<circle_pair>> found_parts_; // on workers: each task's pairs,
    std::vector<std::size_t> part_sizes_;               // how many of them it found,
    std::vector<std::size_t> bucket_at_;                // where they go by bucket,
    std::vector<circle_pair> sorting_;                  // and all of them by bucket
};

namespace reference {
/// All pairs, brute force: O(n^2). The definition pair_finder reproduces.
std::vector<circle_pair> find_pairs(circles_cview circles, float margin = 0.0F);
} // namespace reference

} // namespace simdcollide
