// The uniform grid of circle centres that the broad phase (pair_finder) and the world's
// partial relisting share: its shape, the circles sorted into it, the circles changed since,
// how its cells are sized, and the sort into them.
#pragma once

#include <simdcollide/soa.hpp>

#include "broad_phase/query_pad.hpp"
#include "runtime/tasks.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

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

/// Circles counting-sorted into the cells of a grid (sort_into_cells below): what
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
/// again since that sort): for_each_near below skips their sorted
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

/// The grid for these circles and margin: cells 2 r_small + margin wide, r_small twice
/// the median radius (capped at the largest), coarsened until there are at most
/// 2 n + 64 cells, so memory stays O(n) however skewed the radii or spread the centres.
/// When cells of that size over every centre would be too many, the grid covers only the
/// bulk of the centres (bulk_extent.hpp) and the few outside it lie in its edge cells, so
/// that one far-away circle does not coarsen the cells of all the others.
/// Above 4 096 circles the median is that of an evenly spaced sample of the radii, unless
/// half or more of the circles are then above twice it (see circle_grid.cpp). Circles that
/// are not pairable_circle are left out of the other measures (the largest radius, the
/// extent of the centres). The pass over the circles runs on `tasks`' workers, with the
/// same result on any number.
circle_grid circle_grid_for(circles_cview circles, float margin, const task_runner& tasks = {});

/// Sorts the circles into cells.grid's cells (counting sort, stable: ascending index within
/// a cell), copying their fields in that order, and lists those larger than r_small. Circles
/// that are not pairable_circle are in no cell. On the tasks' workers, with the same result.
void sort_into_cells(circles_cview circles, circle_cells& cells, const task_runner& tasks = {});
void sort_into_cells_on_workers(circles_cview circles, circle_cells& cells,
                                const task_runner& tasks, std::size_t circles_per_task);

/// Whether a circle can be in a cell and a pair: a finite centre and a finite radius >= 0.
/// Others are invalid input (a valid circle may still be NaN after a simulation blew up)
/// and are in no cell and no pair: a negative radius would make the brute force's
/// d^2 < (r_i + r_j)^2 true for circles far apart (found by fuzz_many).
inline bool pairable_circle(float x, float y, float r) {
    return std::isfinite(x) && std::isfinite(y) && std::isfinite(r) && r >= 0.0F;
}

/// Calls visit(first_cell, last_cell) for each row of cells that the square of half-side
/// reach around (x, y) meets, widened by query_pad: the cells that can hold a centre within
/// reach of (x, y) after float rounding. The grid must not be empty.
template <class Visit>
void for_each_cell_run_within(const grid_shape& g, float x, float y, float reach, Visit visit) {
    const float pad = query_pad(x, y, reach);
    const std::int64_t x0 = g.column(x - reach - pad);
    const std::int64_t x1 = g.column(x + reach + pad);
    const std::int64_t y0 = g.row(y - reach - pad);
    const std::int64_t y1 = g.row(y + reach + pad);
    for (std::int64_t row = y0; row <= y1; ++row) {
        visit(static_cast<std::size_t>(row * g.columns + x0),
              static_cast<std::size_t>(row * g.columns + x1));
    }
}

/// Calls visit(s) for every sorted entry s of cells first_cell to last_cell (consecutive in
/// the sorted order).
template <class Visit>
void for_each_entry_in(const circle_cells& cells, std::size_t first_cell, std::size_t last_cell,
                       Visit visit) {
    for (std::uint32_t s = cells.cell_start[first_cell]; s < cells.cell_start[last_cell + 1]; ++s) {
        visit(s);
    }
}

/// Calls visit(s) for every sorted entry s of the cells that the square of half-side
/// reach around (x, y) meets, widened by query_pad: each circle whose centre can be within
/// reach of (x, y) after float rounding. The grid must not be empty.
template <class Visit>
void for_each_entry_within(const circle_cells& cells, float x, float y, float reach, Visit visit) {
    for_each_cell_run_within(cells.grid.shape, x, y, reach,
                             [&](std::size_t first_cell, std::size_t last_cell) {
                                 for_each_entry_in(cells, first_cell, last_cell, visit);
                             });
}

/// Calls visit(j) for every circle j of the circles `cells` was sorted from (with `moved` as
/// for_each_near) that can reach into the square of half-side reach around (x, y): at least
/// each one whose circle, as it is now, meets that square, and others; the caller tests
/// each. None twice.
template <class Visit>
void for_each_candidate_within(const circle_cells& cells, const moved_circles& moved, float x,
                               float y, float reach, Visit visit) {
    if (!cells.grid.empty) {
        const float r_small = cells.grid.r_small;
        for_each_cell_run_within(cells.grid.shape, x, y, reach + r_small,
                                 [&](std::size_t first_cell, std::size_t last_cell) {
                                     for_each_entry_in(
                                         cells, first_cell, last_cell, [&](std::uint32_t s) {
                                             const std::uint32_t j = cells.order[s];
                                             if (cells.radius[s] <= r_small && !moved.contains(j)) {
                                                 visit(j);
                                             }
                                         });
                                     moved.for_each_in_cells(first_cell, last_cell, visit);
                                 });
    }
    for (const std::uint32_t j : cells.large) {
        if (!moved.contains(j)) {
            visit(j);
        }
    }
    for (const std::uint32_t j : moved.one_by_one()) {
        visit(j);
    }
}

/// Calls near(j) for every circle j != v of `circles` with |c_j - c_v|^2 < (r_j + r_v)^2,
/// computed as d = c_j - c_v, reach = r_j + r_v: the pair test of a brute force over all j,
/// for the few cells within reach of v. `cells` must have been sorted from `circles`, and
/// every circle changed since is to be in `moved`: those are tested with their current
/// values, found by cell where no larger than the grid's r_small; the circles larger than
/// r_small one by one. As in pair_finder, a circle that is not pairable_circle is near
/// nothing.
template <class Near>
void for_each_near(const circle_cells& cells, circles_cview circles, std::uint32_t v,
                   const moved_circles& moved, Near near) {
    const float xv = circles.x[v];
    const float yv = circles.y[v];
    const float rv = circles.radius[v];
    if (!pairable_circle(xv, yv, rv)) {
        return;
    }
    const auto test = [&](std::uint32_t j, float xj, float yj, float rj) {
        const float dx = xj - xv;
        const float dy = yj - yv;
        const float reach = rj + rv;
        if (dx * dx + dy * dy < reach * reach) {
            near(j);
        }
    };
    const auto test_now = [&](std::uint32_t j) {
        if (j != v) {
            test(j, circles.x[j], circles.y[j], circles.radius[j]);
        }
    };
    if (!cells.grid.empty) {
        const float r_small = cells.grid.r_small;
        for_each_cell_run_within(
            cells.grid.shape, xv, yv, rv + r_small,
            [&](std::size_t first_cell, std::size_t last_cell) {
                for_each_entry_in(cells, first_cell, last_cell, [&](std::uint32_t s) {
                    const std::uint32_t j = cells.order[s];
                    if (cells.radius[s] <= r_small && j != v && !moved.contains(j)) {
                        test(j, cells.x[s], cells.y[s], cells.radius[s]);
                    }
                });
                moved.for_each_in_cells(first_cell, last_cell, test_now);
            });
    }
    for (const std::uint32_t j : cells.large) {
        if (j != v && !moved.contains(j)) {
            test(j, circles.x[j], circles.y[j], circles.radius[j]);
        }
    }
    for (const std::uint32_t j : moved.one_by_one()) {
        test_now(j);
    }
}

} // namespace simdcollide::detail
