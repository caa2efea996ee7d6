// Circles against a static box set: the brute force, and the grid that reproduces it.
//
// Both push with the reference's per-pair math (circle_aabb.inl, included below in a
// namespace of this file), so they agree bit for bit whenever the grid visits every box the
// brute force would push with, in the same order. It does: candidates are visited in
// ascending index, and a box that is not a candidate cannot be in contact (its cells do not
// meet the circle's inflated bounding square). When a push moves the circle into another
// range of cells, the candidates are gathered again, keeping only boxes after the current.
#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/validate.hpp>

#include "arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace simdcollide {
namespace detail::static_boxes_impl {
// minmax.inl first: circle_aabb.inl uses it.
#include "reference/minmax.inl"

#include "reference/circle_aabb.inl"
} // namespace detail::static_boxes_impl

namespace {

// One push-out of the circle at (x, y) by one box: SPEC.md 5 and 7, as push_out_loop.
bool push_one(float& x, float& y, float r, aabbs_view b, std::uint32_t k, float margin) {
    const detail::static_boxes_impl::contact_result c = detail::static_boxes_impl::contact_of(
        x, y, r, b.min_x[k], b.min_y[k], b.max_x[k], b.max_y[k], margin);
    if (c.hit && c.depth > 0.0F) {
        x += c.normal_x * c.depth;
        y += c.normal_y * c.depth;
        return true;
    }
    return false;
}

struct cell_range {
    std::int64_t x0, y0, x1, y1;
    bool operator==(const cell_range&) const = default;
};

// How far beyond r + margin a box can be and still be in contact after float rounding of
// d2: a tiny relative pad, so that the query square is conservative.
float query_pad(float x, float y, float reach) {
    return (std::fabs(x) + std::fabs(y) + reach) * 1e-5F + std::numeric_limits<float>::min();
}

} // namespace

// --- the grid ---------------------------------------------------------------------------

namespace {

// Monotonic: a <= b implies cell(a) <= cell(b), which is what makes overlapping intervals
// share a cell. NaN and -inf go to cell 0, +inf to the last.
std::int64_t cell_of(float v, float origin, float size, std::int64_t count) {
    const double t = (static_cast<double>(v) - origin) / size;
    if (!(t >= 0.0)) {
        return 0;
    }
    if (t >= static_cast<double>(count - 1)) {
        return count - 1;
    }
    return static_cast<std::int64_t>(t);
}

} // namespace

static_box_grid::static_box_grid(aabbs_view boxes) {
    const validation v = validate(boxes);
    if (!v) {
        throw std::invalid_argument("simdcollide::static_box_grid: " + v.reason);
    }
    const std::size_t n = boxes.count;
    boxes_.resize(n);
    std::copy_n(boxes.min_x, n, boxes_.min_x.data());
    std::copy_n(boxes.min_y, n, boxes_.min_y.data());
    std::copy_n(boxes.max_x, n, boxes_.max_x.data());
    std::copy_n(boxes.max_y, n, boxes_.max_y.data());
    if (n == 0) {
        return;
    }
    float lo_x = boxes.min_x[0], lo_y = boxes.min_y[0];
    float hi_x = boxes.max_x[0], hi_y = boxes.max_y[0];
    std::vector<float> extents(n);
    for (std::size_t i = 0; i < n; ++i) {
        lo_x = std::min(lo_x, boxes.min_x[i]);
        lo_y = std::min(lo_y, boxes.min_y[i]);
        hi_x = std::max(hi_x, boxes.max_x[i]);
        hi_y = std::max(hi_y, boxes.max_y[i]);
        extents[i] = std::max(boxes.max_x[i] - boxes.min_x[i], boxes.max_y[i] - boxes.min_y[i]);
    }
    // Start from the median box size (most boxes then touch a few cells), but no finer than
    // the area per box; then coarsen until the memory bound holds.
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(n / 2),
                     extents.end());
    const double width = static_cast<double>(hi_x) - lo_x;
    const double height = static_cast<double>(hi_y) - lo_y;
    double size =
        std::max<double>(extents[n / 2], std::sqrt(width * height / static_cast<double>(n)));
    if (!(size > 0.0)) {
        size = std::max({width, height, 1.0});
    }
    const double max_cells = 4.0 * static_cast<double>(n) + 64.0;
    const double max_listings = 8.0 * static_cast<double>(n) + 1024.0;
    for (;;) {
        const double columns = std::floor(width / size) + 1.0;
        const double rows = std::floor(height / size) + 1.0;
        if (columns * rows <= max_cells) {
            origin_x_ = lo_x;
            origin_y_ = lo_y;
            cell_size_ = static_cast<float>(size);
            columns_ = static_cast<std::int64_t>(columns);
            rows_ = static_cast<std::int64_t>(rows);
            double listings = 0.0;
            for (std::size_t i = 0; i < n && listings <= max_listings; ++i) {
                const std::int64_t cx0 = cell_of(boxes.min_x[i], origin_x_, cell_size_, columns_);
                const std::int64_t cx1 = cell_of(boxes.max_x[i], origin_x_, cell_size_, columns_);
                const std::int64_t cy0 = cell_of(boxes.min_y[i], origin_y_, cell_size_, rows_);
                const std::int64_t cy1 = cell_of(boxes.max_y[i], origin_y_, cell_size_, rows_);
                listings += static_cast<double>((cx1 - cx0 + 1) * (cy1 - cy0 + 1));
            }
            if (listings <= max_listings) {
                break;
            }
        }
        size *= 2.0;
    }

    // Counting sort of (cell, box) listings, boxes ascending within each cell.
    const auto cells = static_cast<std::size_t>(columns_ * rows_);
    cell_start_.assign(cells + 1, 0);
    const auto each_listing = [&](auto&& visit) {
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t cx0 = cell_of(boxes_.min_x[i], origin_x_, cell_size_, columns_);
            const std::int64_t cx1 = cell_of(boxes_.max_x[i], origin_x_, cell_size_, columns_);
            const std::int64_t cy0 = cell_of(boxes_.min_y[i], origin_y_, cell_size_, rows_);
            const std::int64_t cy1 = cell_of(boxes_.max_y[i], origin_y_, cell_size_, rows_);
            for (std::int64_t cy = cy0; cy <= cy1; ++cy) {
                for (std::int64_t cx = cx0; cx <= cx1; ++cx) {
                    visit(static_cast<std::size_t>(cy * columns_ + cx),
                          static_cast<std::uint32_t>(i));
                }
            }
        }
    };
    each_listing([&](std::size_t cell, std::uint32_t) { ++cell_start_[cell + 1]; });
    for (std::size_t c = 0; c < cells; ++c) {
        cell_start_[c + 1] += cell_start_[c];
    }
    listed_.resize(cell_start_[cells]);
    std::vector<std::uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
    each_listing([&](std::size_t cell, std::uint32_t box) { listed_[fill[cell]++] = box; });
}

namespace {

cell_range range_of(const float x, const float y, float reach, float origin_x, float origin_y,
                    float size, std::int64_t columns, std::int64_t rows) {
    // Invalid circles get the cells of every box the brute force can push them with (both
    // found by fuzz_many). A non-finite centre or reach: every cell, since the brute force
    // can still push it (a NaN x clamps to a box's edge, and the push moves it along y). A
    // negative reach (radius < 0) is taken as 0: such a circle is still pushed out of a box
    // its centre is deep inside, and those boxes are in the centre's cells.
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(reach)) {
        return {0, 0, columns - 1, rows - 1};
    }
    reach = std::max(reach, 0.0F);
    const float pad = query_pad(x, y, reach);
    return {cell_of(x - reach - pad, origin_x, size, columns),
            cell_of(y - reach - pad, origin_y, size, rows),
            cell_of(x + reach + pad, origin_x, size, columns),
            cell_of(y + reach + pad, origin_y, size, rows)};
}

} // namespace

// Grants the free functions below access to the grid's cells without making them public.
class static_box_query {
public:
    explicit static_box_query(const static_box_grid& g) : g_(g) {}

    cell_range range(float x, float y, float reach) const {
        return range_of(x, y, reach, g_.origin_x_, g_.origin_y_, g_.cell_size_, g_.columns_,
                        g_.rows_);
    }

    // The boxes listed in `r`'s cells with index > `after` (all when after < 0), ascending.
    void gather(const cell_range& r, std::int64_t after, std::vector<std::uint32_t>& out) const {
        out.clear();
        for (std::int64_t cy = r.y0; cy <= r.y1; ++cy) {
            for (std::int64_t cx = r.x0; cx <= r.x1; ++cx) {
                const auto cell = static_cast<std::size_t>(cy * g_.columns_ + cx);
                for (std::uint32_t k = g_.cell_start_[cell]; k < g_.cell_start_[cell + 1]; ++k) {
                    if (static_cast<std::int64_t>(g_.listed_[k]) > after) {
                        out.push_back(g_.listed_[k]);
                    }
                }
            }
        }
        if (!(r.x0 == r.x1 && r.y0 == r.y1)) { // one cell's listing is already ascending
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
        }
    }

private:
    const static_box_grid& g_;
};

void static_box_grid::candidates(float x, float y, float r, float margin,
                                 std::vector<std::uint32_t>& out) const {
    if (boxes_.size() == 0) {
        out.clear();
        return;
    }
    const static_box_query q(*this);
    q.gather(q.range(x, y, r + margin), -1, out);
}

std::size_t push_out_all(circles_view c, const static_box_grid& grid, float margin) {
    detail::require_fields("push_out_all", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_margin("push_out_all", margin);
    if (grid.size() == 0) {
        return 0;
    }
    const aabbs_view boxes = grid.boxes();
    if (boxes.count <= static_box_grid::brute_force_below) {
        // Few boxes: every circle against each box in ascending order with the SIMD one-box
        // kernel. Circles are independent, so box-major order gives the circle-major result.
        std::size_t pushes = 0;
        for (std::size_t k = 0; k < boxes.count; ++k) {
            pushes += push_out(
                c,
                aabb::from_min_max(boxes.min_x[k], boxes.min_y[k], boxes.max_x[k], boxes.max_y[k]),
                margin);
        }
        return pushes;
    }
    const static_box_query q(grid);
    std::vector<std::uint32_t> candidates;
    std::size_t pushes = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        float x = c.x[i];
        float y = c.y[i];
        const float r = c.radius[i];
        const float reach = r + margin;
        cell_range range = q.range(x, y, reach);
        q.gather(range, -1, candidates);
        bool moved = false;
        for (std::size_t k = 0; k < candidates.size(); ++k) {
            const std::uint32_t box = candidates[k];
            if (!push_one(x, y, r, boxes, box, margin)) {
                continue;
            }
            ++pushes;
            moved = true;
            const cell_range now = q.range(x, y, reach);
            if (!(now == range)) { // new cells may hold later boxes it now touches
                range = now;
                q.gather(range, box, candidates);
                k = static_cast<std::size_t>(-1); // restart at the first later box
            }
        }
        if (moved) {
            c.x[i] = x;
            c.y[i] = y;
        }
    }
    return pushes;
}

namespace reference {

std::size_t push_out_all(circles_view c, aabbs_view b, float margin) {
    detail::require_fields("push_out_all", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_fields("push_out_all", "boxes", b.count, {b.min_x, b.min_y, b.max_x, b.max_y});
    detail::require_margin("push_out_all", margin);
    std::size_t pushes = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        for (std::size_t k = 0; k < b.count; ++k) {
            pushes +=
                push_one(c.x[i], c.y[i], c.radius[i], b, static_cast<std::uint32_t>(k), margin) ? 1
                                                                                                : 0;
        }
    }
    return pushes;
}

} // namespace reference
} // namespace simdcollide
