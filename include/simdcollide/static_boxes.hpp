// Many circles against a fixed set of static boxes (docs/behaviour.md "Many against many").
//
// The rule: for each circle, the boxes act in ascending box index, each push-out seeing the
// position the previous one left. reference::push_out_all is exactly that, as nested loops.
// static_box_grid is a broad phase built once over the boxes; its push_out_all gives
// bit-identical results, visiting only the boxes near each circle.
//
// Consequences that hold (and are tested): a circle resting across the seam of two adjacent
// boxes forming one flat floor is pushed out once, not twice; a circle wedged in the inside
// corner between two boxes ends outside both.
//
// sweep_all sweeps moving circles (swept.hpp) against the whole set: each move's first
// impact among the boxes, through the grid or, in the reference, against every box.
#pragma once

#include <simdcollide/containers.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace simdcollide {

/// A uniform grid over a fixed set of static boxes, built once and queried every step.
///
/// Each cell starts a block of 2 x 2 cells, and each block lists, in ascending index, every
/// box that overlaps one of its cells; so a circle no wider than a cell finds its candidates
/// in one list, with nothing to merge or sort.
///
/// Memory is bounded whatever the boxes: the cell size grows until there are at most
/// cell_bound(boxes) cells and the listings total at most listing_bound(boxes) entries (one
/// huge box over everything therefore coarsens the grid instead of filling it). The grid
/// covers the bulk of the boxes: a few boxes far from the rest, anywhere in the float range,
/// are listed in its edge blocks rather than stretching every cell over the distance.
class static_box_grid {
public:
    /// With this many boxes or fewer, push_out_all skips the grid and runs every box against
    /// every circle with the SIMD kernel, which is then the faster of the two.
    static constexpr std::size_t brute_force_below = 48;

    /// The most cells and block listings a grid of `boxes` boxes holds: 4 bytes each.
    static constexpr std::size_t cell_bound(std::size_t boxes) noexcept { return 4 * boxes + 64; }
    static constexpr std::size_t listing_bound(std::size_t boxes) noexcept {
        return 16 * boxes + 1024;
    }

    static_box_grid() = default;

    /// Copies `boxes` and builds the grid. Throws std::invalid_argument for a null array
    /// with a non-zero count, or naming the first invalid box (non-finite, or min > max).
    explicit static_box_grid(aabbs_view boxes);

    [[nodiscard]] std::size_t size() const noexcept { return boxes_.size(); }
    [[nodiscard]] aabbs_view boxes() const noexcept { return boxes_.view(); }
    /// Cells in the grid and box listings in their blocks: the memory bound above, observable.
    [[nodiscard]] std::size_t cell_count() const noexcept { return block_start_.size() - 1; }
    [[nodiscard]] std::size_t listing_count() const noexcept { return listed_.size(); }

    /// Replaces `out`'s contents with every box that can be in contact with a circle at
    /// (x, y) of radius r with the given margin, in ascending order and without repeats, and
    /// perhaps some boxes near it that cannot (those listed in the same blocks).
    /// Invalid circles get what push-out can act on: every box for a non-finite centre or
    /// r + margin, and for r + margin < 0 the boxes around the centre.
    void candidates(float x, float y, float r, float margin, std::vector<std::uint32_t>& out) const;

    /// Replaces `out`'s contents with every box that a circle of radius r moving in a
    /// straight line from (x, y) by (dx, dy) can touch on the way, in ascending order and
    /// without repeats, and perhaps some boxes near its path: the boxes near the rectangle
    /// that bounds the path. Every box for a non-finite value or a negative radius.
    void candidates_along(float x, float y, float r, float dx, float dy,
                          std::vector<std::uint32_t>& out) const;

private:
    friend class static_box_query;
    aabb_set boxes_;
    float origin_x_ = 0;
    float origin_y_ = 0;
    double cells_per_unit_ = 1; // 1 / the cell size
    std::int64_t columns_ = 1;
    std::int64_t rows_ = 1;
    std::vector<std::uint32_t> block_start_{0, 0}; // block c lists listed_[start[c], start[c+1])
    std::vector<std::uint32_t> listed_;
};

/// Pushes every circle out of every box of `grid` by docs/behaviour.md's rule (boxes in ascending
/// index, each seeing the position the last left), bit-identical to
/// reference::push_out_all(circles, grid.boxes(), margin). Writes circles.x and circles.y.
/// Returns the number of (circle, box) pushes. Throws std::invalid_argument for a null array
/// or a bad margin.
std::size_t push_out_all(circles_view circles, const static_box_grid& grid, float margin = 0.0F);
/// The same on `w`'s workers, with the same bits and count: each takes blocks of circles.
std::size_t push_out_all(circles_view circles, const static_box_grid& grid, float margin,
                         const workers& w);

/// What sweep_all writes for a move that hits no box.
inline constexpr std::uint32_t no_box = std::numeric_limits<std::uint32_t>::max();

/// Every move against every box of `grid`: each move's first impact, the earliest among the
/// boxes (ties: the lowest box index), into `out`, and the index of the box it hits into
/// `box[i]` (no_box where it hits none). Visits only the boxes near each move's path; the
/// result is bit-identical to reference::sweep_all over grid.boxes(). Returns the number of
/// moves that hit a box. `box` must have the circles' count.
std::size_t sweep_all(circles_cview circles, displacements_cview moves, const static_box_grid& grid,
                      impacts_view out, std::span<std::uint32_t> box);
/// The same on `w`'s workers (workers.hpp), with the same bits: each takes blocks of moves.
std::size_t sweep_all(circles_cview circles, displacements_cview moves, const static_box_grid& grid,
                      impacts_view out, std::span<std::uint32_t> box, const workers& w);

namespace reference {
/// The brute force: for each circle, for each box in ascending index, the pairwise
/// reference push-out. O(circles * boxes).
std::size_t push_out_all(circles_view circles, aabbs_view boxes, float margin = 0.0F);
/// The brute force: every move against every box, in ascending box index. O(moves * boxes).
std::size_t sweep_all(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                      impacts_view out, std::span<std::uint32_t> box);
} // namespace reference

} // namespace simdcollide
