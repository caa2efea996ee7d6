// The cells of a static_box_grid (static_boxes.hpp) as queries see them: which cells a circle
// or a path covers, and the candidate boxes those cells list. For the grid's own queries and
// for push_out_all, which visits the candidates as it pushes.
#pragma once

#include <simdcollide/static_boxes.hpp>

#include "broad_phase/query_pad.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide {

struct cell_range {
    std::int64_t x0, y0, x1, y1;
    [[nodiscard]] bool within(const cell_range& o) const {
        return x0 >= o.x0 && x1 <= o.x1 && y0 >= o.y0 && y1 <= o.y1;
    }
};

// Monotonic: a <= b implies cell(a) <= cell(b), which is what makes overlapping intervals
// share a cell (rounded subtraction and multiplication by a positive constant are
// monotonic; a multiplication, not a division by the size, as a query takes four). NaN and
// -inf go to cell 0, +inf to the last.
inline std::int64_t cell_of(float v, float origin, double cells_per_unit, std::int64_t count) {
    const double t = (static_cast<double>(v) - origin) * cells_per_unit;
    if (!(t >= 0.0)) {
        return 0;
    }
    if (t >= static_cast<double>(count - 1)) {
        return count - 1;
    }
    return static_cast<std::int64_t>(t);
}

inline cell_range range_of(const float x, const float y, float reach, float origin_x,
                           float origin_y, double cells_per_unit, std::int64_t columns,
                           std::int64_t rows) {
    // Invalid circles get the cells of every box the brute force can push them with (both
    // found by fuzz_many). A non-finite centre or reach: every cell, since the brute force
    // can still push it (a NaN x clamps to a box's edge, and the push moves it along y). A
    // negative reach (radius < 0) is taken as 0: such a circle is still pushed out of a box
    // its centre is deep inside, and those boxes are in the centre's cells.
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(reach)) {
        return {0, 0, columns - 1, rows - 1};
    }
    reach = std::max(reach, 0.0F);
    const float pad = detail::query_pad(x, y, reach);
    return {cell_of(x - reach - pad, origin_x, cells_per_unit, columns),
            cell_of(y - reach - pad, origin_y, cells_per_unit, rows),
            cell_of(x + reach + pad, origin_x, cells_per_unit, columns),
            cell_of(y + reach + pad, origin_y, cells_per_unit, rows)};
}

// A circle's candidate boxes: ascending, without repeats, every box in the cells of the range
// asked for (and perhaps others); `covered` is the cells whose boxes they hold, at least that
// range.
struct candidate_list {
    const std::uint32_t* first;
    const std::uint32_t* last;
    cell_range covered;
    bool in_place; // a block's list in the grid, not the scratch vector
};

// Grants the free functions below access to the grid's cells without making them public.
class static_box_query {
public:
    explicit static_box_query(const static_box_grid& g) : g_(g) {}

    cell_range range(float x, float y, float reach) const {
        return range_of(x, y, reach, g_.origin_x_, g_.origin_y_, g_.cells_per_unit_, g_.columns_,
                        g_.rows_);
    }

    // The boxes of `r`'s cells with index > `after` (all when after < 0). A range of at most
    // 2 x 2 cells (a circle no wider than a cell) is one block's list, read in place: no
    // copy, no sort. A wider one gathers the blocks that tile it into `scratch` and sorts.
    [[gnu::always_inline]] candidate_list lookup(const cell_range& r, std::int64_t after,
                                                 std::vector<std::uint32_t>& scratch) const {
        if (r.x1 - r.x0 <= 1 && r.y1 - r.y0 <= 1) {
            const std::size_t block = block_at(r.x0, r.y0);
            const std::uint32_t* first = g_.listed_.data() + g_.block_start_[block];
            const std::uint32_t* last = g_.listed_.data() + g_.block_start_[block + 1];
            if (after >= 0) {
                first = std::upper_bound(first, last, static_cast<std::uint32_t>(after));
            }
            return {first, last, tiled_by_blocks(r), true};
        }
        return gather(r, after, scratch);
    }

private:
    // lookup for a range wider than a block, kept out of line: the block case is the one a
    // query takes almost always, once per circle.
    [[gnu::noinline]] candidate_list gather(const cell_range& r, std::int64_t after,
                                            std::vector<std::uint32_t>& scratch) const {
        scratch.clear();
        for (std::int64_t by = r.y0; by <= r.y1; by += 2) {
            for (std::int64_t bx = r.x0; bx <= r.x1; bx += 2) {
                const std::size_t block = block_at(bx, by);
                for (std::uint32_t k = g_.block_start_[block]; k < g_.block_start_[block + 1];
                     ++k) {
                    if (static_cast<std::int64_t>(g_.listed_[k]) > after) {
                        scratch.push_back(g_.listed_[k]);
                    }
                }
            }
        }
        std::sort(scratch.begin(), scratch.end());
        scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
        return {scratch.data(), scratch.data() + scratch.size(), tiled_by_blocks(r), false};
    }

    [[nodiscard]] std::size_t block_at(std::int64_t bx, std::int64_t by) const {
        return static_cast<std::size_t>(by * g_.columns_ + bx);
    }

    // The cells of the blocks from r's first cell on, every second one, up to r's last.
    [[nodiscard]] cell_range tiled_by_blocks(const cell_range& r) const {
        return {r.x0, r.y0, std::min(r.x0 + ((r.x1 - r.x0) | 1), g_.columns_ - 1),
                std::min(r.y0 + ((r.y1 - r.y0) | 1), g_.rows_ - 1)};
    }

    const static_box_grid& g_;
};

} // namespace simdcollide
