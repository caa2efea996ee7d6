// Circles against a static box set: the brute force, and the grid that reproduces it.
//
// Both push with the reference's per-pair math (circle_aabb.inl, included below in a
// namespace of this file), so they agree bit for bit whenever the grid visits every box the
// brute force would push with, in the same order. It does: candidates are visited in
// ascending index, and a box that is not a candidate cannot be in contact (its cells do not
// meet the circle's inflated bounding square). When a push moves the circle out of the cells
// its candidates came from, they are looked up again, keeping only boxes after the current.
#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/validate.hpp>

#include "broad_phase/bulk_extent.hpp"
#include "broad_phase/query_pad.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace simdcollide {
namespace detail::static_boxes_impl {
// minmax.inl first: circle_aabb.inl uses it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
} // namespace detail::static_boxes_impl

namespace {

// One push-out of the circle at (x, y) by one box: docs/behaviour.md 5 and 7, as push_out_loop.
bool push_one(float& x, float& y, float r, aabbs_view b, std::uint32_t k, float margin) {
    // Most candidates are misses with the centre outside the box: contact_of's own test for
    // that case (d2 > 0 and not d2 < reach^2), decided before its square root and division.
    const float d2 = detail::static_boxes_impl::distance_squared_of(x, y, b.min_x[k], b.min_y[k],
                                                                    b.max_x[k], b.max_y[k]);
    const float reach = r + margin;
    if (d2 > 0.0F && !(d2 < reach * reach)) {
        return false;
    }
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
    [[nodiscard]] bool within(const cell_range& o) const {
        return x0 >= o.x0 && x1 <= o.x1 && y0 >= o.y0 && y1 <= o.y1;
    }
};

} // namespace

// --- the grid ---------------------------------------------------------------------------

namespace {

// Monotonic: a <= b implies cell(a) <= cell(b), which is what makes overlapping intervals
// share a cell (rounded subtraction and multiplication by a positive constant are
// monotonic; a multiplication, not a division by the size, as a query takes four). NaN and
// -inf go to cell 0, +inf to the last.
std::int64_t cell_of(float v, float origin, double cells_per_unit, std::int64_t count) {
    const double t = (static_cast<double>(v) - origin) * cells_per_unit;
    if (!(t >= 0.0)) {
        return 0;
    }
    if (t >= static_cast<double>(count - 1)) {
        return count - 1;
    }
    return static_cast<std::int64_t>(t);
}

// The bulk of the boxes (bulk_extent, from the centres of at most about 4 096 of them),
// as the bounds of the boxes whose centres lie in it.
detail::extent bulk_of(aabbs_view boxes, const detail::extent& whole) {
    const std::size_t step = boxes.count / 4096 + 1;
    std::vector<float> xs, ys;
    for (std::size_t i = 0; i < boxes.count; i += step) {
        xs.push_back(boxes.min_x[i] * 0.5F + boxes.max_x[i] * 0.5F); // no overflow
        ys.push_back(boxes.min_y[i] * 0.5F + boxes.max_y[i] * 0.5F);
    }
    const detail::extent bulk = detail::bulk_extent(xs, ys, whole);
    // Then the bounds of the boxes whose centres lie inside it.
    detail::extent tight{whole.hi_x, whole.hi_y, whole.lo_x, whole.lo_y};
    for (std::size_t i = 0; i < boxes.count; ++i) {
        const double x = boxes.min_x[i] * 0.5F + boxes.max_x[i] * 0.5F;
        const double y = boxes.min_y[i] * 0.5F + boxes.max_y[i] * 0.5F;
        if (x >= bulk.lo_x && x <= bulk.hi_x && y >= bulk.lo_y && y <= bulk.hi_y) {
            tight = {std::min<double>(tight.lo_x, boxes.min_x[i]),
                     std::min<double>(tight.lo_y, boxes.min_y[i]),
                     std::max<double>(tight.hi_x, boxes.max_x[i]),
                     std::max<double>(tight.hi_y, boxes.max_y[i])};
        }
    }
    return tight.lo_x <= tight.hi_x ? tight : bulk;
}

} // namespace

static_box_grid::static_box_grid(aabbs_view boxes) {
    detail::require_fields("static_box_grid", "boxes", boxes.count,
                           {boxes.min_x, boxes.min_y, boxes.max_x, boxes.max_y});
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
    // The grid covers the bulk of the boxes (bulk_extent.hpp, from their centres): a few far
    // from the rest lie in its edge cells (cells are clamped, so a query still meets them)
    // instead of stretching every cell over the float range.
    const detail::extent covered = bulk_of(boxes, {lo_x, lo_y, hi_x, hi_y});
    // Start from the median box size (most boxes then touch a few cells), but with blocks no
    // smaller than the area per box (cells a quarter of it, the finest the cell bound allows);
    // then coarsen until the memory bound holds.
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(n / 2),
                     extents.end());
    const double width = covered.width();
    const double height = covered.height();
    const double finest = std::sqrt(width * height / (4.0 * static_cast<double>(n)));
    double size = std::max<double>(extents[n / 2], finest);
    if (!(size > 0.0)) {
        size = std::max({width, height, 1.0});
    }
    const double max_cells = static_cast<double>(static_box_grid::cell_bound(n));
    const double max_listings = static_cast<double>(static_box_grid::listing_bound(n));
    // Block (bx, by) is the 2 x 2 cells from cell (bx, by) on; box i is listed in every block
    // that meets a cell it overlaps.
    const auto blocks_of = [&](std::size_t i) -> cell_range {
        const std::int64_t cx0 = cell_of(boxes.min_x[i], origin_x_, cells_per_unit_, columns_);
        const std::int64_t cy0 = cell_of(boxes.min_y[i], origin_y_, cells_per_unit_, rows_);
        return {std::max<std::int64_t>(cx0 - 1, 0), std::max<std::int64_t>(cy0 - 1, 0),
                cell_of(boxes.max_x[i], origin_x_, cells_per_unit_, columns_),
                cell_of(boxes.max_y[i], origin_y_, cells_per_unit_, rows_)};
    };
    for (;;) {
        const double columns = std::floor(width / size) + 1.0;
        const double rows = std::floor(height / size) + 1.0;
        if (columns * rows <= max_cells) {
            origin_x_ = static_cast<float>(covered.lo_x);
            origin_y_ = static_cast<float>(covered.lo_y);
            cells_per_unit_ = 1.0 / size;
            columns_ = static_cast<std::int64_t>(columns);
            rows_ = static_cast<std::int64_t>(rows);
            double listings = 0.0;
            for (std::size_t i = 0; i < n && listings <= max_listings; ++i) {
                const cell_range b = blocks_of(i);
                listings += static_cast<double>((b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1));
            }
            if (listings <= max_listings) {
                break;
            }
        }
        size *= 2.0;
    }

    // Counting sort of (block, box) listings; boxes go in ascending, so each list is sorted.
    const auto cells = static_cast<std::size_t>(columns_ * rows_);
    block_start_.assign(cells + 1, 0);
    const auto each_listing = [&](auto&& visit) {
        for (std::size_t i = 0; i < n; ++i) {
            const cell_range b = blocks_of(i);
            for (std::int64_t by = b.y0; by <= b.y1; ++by) {
                for (std::int64_t bx = b.x0; bx <= b.x1; ++bx) {
                    visit(static_cast<std::size_t>(by * columns_ + bx),
                          static_cast<std::uint32_t>(i));
                }
            }
        }
    };
    each_listing([&](std::size_t block, std::uint32_t) { ++block_start_[block + 1]; });
    for (std::size_t c = 0; c < cells; ++c) {
        block_start_[c + 1] += block_start_[c];
    }
    listed_.resize(block_start_[cells]);
    std::vector<std::uint32_t> fill(block_start_.begin(), block_start_.end() - 1);
    each_listing([&](std::size_t block, std::uint32_t box) { listed_[fill[block]++] = box; });
}

namespace {

cell_range range_of(const float x, const float y, float reach, float origin_x, float origin_y,
                    double cells_per_unit, std::int64_t columns, std::int64_t rows) {
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

} // namespace

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

void static_box_grid::candidates(float x, float y, float r, float margin,
                                 std::vector<std::uint32_t>& out) const {
    if (boxes_.size() == 0) {
        out.clear();
        return;
    }
    const static_box_query q(*this);
    const candidate_list list = q.lookup(q.range(x, y, r + margin), -1, out);
    if (list.in_place) {
        out.assign(list.first, list.last);
    }
}

void static_box_grid::candidates_along(float x, float y, float r, float dx, float dy,
                                       std::vector<std::uint32_t>& out) const {
    out.clear();
    const float end_x = x + dx;
    const float end_y = y + dy;
    if (!std::isfinite(end_x) || !std::isfinite(end_y) || !std::isfinite(x) || !std::isfinite(y) ||
        !(r >= 0.0F) || !std::isfinite(r)) {
        for (std::uint32_t k = 0; k < boxes_.size(); ++k) {
            out.push_back(k);
        }
        return;
    }
    if (boxes_.size() == 0) {
        return;
    }
    // The path's bounding box as a square's cells would be found (range_of): each side
    // padded by r and the query pad.
    const float pad = detail::query_pad(std::max(std::fabs(x), std::fabs(end_x)),
                                        std::max(std::fabs(y), std::fabs(end_y)), r);
    const cell_range path{
        cell_of(std::min(x, end_x) - r - pad, origin_x_, cells_per_unit_, columns_),
        cell_of(std::min(y, end_y) - r - pad, origin_y_, cells_per_unit_, rows_),
        cell_of(std::max(x, end_x) + r + pad, origin_x_, cells_per_unit_, columns_),
        cell_of(std::max(y, end_y) + r + pad, origin_y_, cells_per_unit_, rows_)};
    const static_box_query q(*this);
    const candidate_list list = q.lookup(path, -1, out);
    if (list.in_place) {
        out.assign(list.first, list.last);
    }
}

namespace {

void check_push_out_all(circles_view c, float margin) {
    detail::require_fields("push_out_all", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_margin("push_out_all", margin);
    detail::require_apart("push_out_all",
                          {detail::writes("circles.x", c.x, c.count),
                           detail::writes("circles.y", c.y, c.count),
                           detail::reads("circles.radius", c.radius, c.count)},
                          detail::in_place::allowed);
}

// push_out_all of checked arguments.
std::size_t push_out_checked(circles_view c, const static_box_grid& grid, float margin) {
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
    std::vector<std::uint32_t> scratch;
    std::size_t pushes = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        float x = c.x[i];
        float y = c.y[i];
        const float r = c.radius[i];
        const float reach = r + margin;
        candidate_list list = q.lookup(q.range(x, y, reach), -1, scratch);
        bool moved = false;
        const std::uint32_t* next = list.first;
        while (next != list.last) {
            const std::uint32_t box = *next++;
            if (!push_one(x, y, r, boxes, box, margin)) {
                continue;
            }
            ++pushes;
            moved = true;
            const cell_range now = q.range(x, y, reach);
            if (!now.within(list.covered)) { // new cells may hold later boxes it now touches
                list = q.lookup(now, box, scratch);
                next = list.first;
            }
        }
        if (moved) {
            c.x[i] = x;
            c.y[i] = y;
        }
    }
    return pushes;
}

} // namespace

std::size_t push_out_all(circles_view c, const static_box_grid& grid, float margin) {
    check_push_out_all(c, margin);
    return push_out_checked(c, grid, margin);
}

std::size_t push_out_all(circles_view c, const static_box_grid& grid, float margin,
                         const workers& w) {
    check_push_out_all(c, margin);
    // Each circle is pushed out alone, so blocks of circles give the bits of one pass.
    constexpr std::size_t circles_per_task = 1024;
    return detail::sum_over_blocks(
        detail::runner_of(w), c.count, circles_per_task, [&](std::size_t begin, std::size_t end) {
            return push_out_checked(detail::slice(c, begin, end), grid, margin);
        });
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
