// The grid over a static box set (static_boxes.hpp): its cells sized and filled, and the
// candidate boxes near a circle or along a move.
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/validate.hpp>

#include "broad_phase/bulk_extent.hpp"
#include "broad_phase/query_pad.hpp"
#include "broad_phase/static_box_query.hpp"
#include "runtime/arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace simdcollide {

namespace {

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

} // namespace simdcollide
