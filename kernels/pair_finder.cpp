// The circle-circle broad phase: all-pairs reference, and the grid that reproduces it.
#include <simdcollide/pair_finder.hpp>

#include "arguments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simdcollide {
namespace {

// The one contact test both sides use: d = c_j - c_i with i < j, as the brute force forms it.
bool within_reach(float xi, float yi, float ri, float xj, float yj, float rj, float margin) {
    const float dx = xj - xi;
    const float dy = yj - yi;
    const float reach = ri + rj + margin;
    return dx * dx + dy * dy < reach * reach;
}

bool finite_circle(float x, float y, float r) {
    return std::isfinite(x) && std::isfinite(y) && std::isfinite(r);
}

void check(circles_cview c, float margin) {
    detail::require_fields("find_pairs", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_margin("find_pairs", margin);
}

struct grid_shape {
    double origin_x, origin_y, size;
    std::int64_t columns, rows;

    // Monotonic in v (see static_boxes.cpp): a <= b gives cell(a) <= cell(b).
    std::int64_t column(float v) const { return clamp_cell((v - origin_x) / size, columns); }
    std::int64_t row(float v) const { return clamp_cell((v - origin_y) / size, rows); }
    static std::int64_t clamp_cell(double t, std::int64_t count) {
        if (!(t >= 0.0)) {
            return 0;
        }
        return t >= static_cast<double>(count - 1) ? count - 1 : static_cast<std::int64_t>(t);
    }
};

} // namespace

std::span<const circle_pair> pair_finder::find(circles_cview c, float margin) {
    check(c, margin);
    pairs_.clear();
    const std::size_t n = c.count;
    cell_start_.assign(1, 0);
    if (n < 2) {
        return pairs_;
    }

    // Cell size from the typical radius; circles above r_small are searched separately.
    std::vector<float> radii(c.radius, c.radius + n);
    std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(n / 2),
                     radii.end());
    float largest = 0.0F;
    double lo_x = std::numeric_limits<double>::infinity(), lo_y = lo_x;
    double hi_x = -lo_x, hi_y = -lo_x;
    for (std::size_t i = 0; i < n; ++i) {
        if (finite_circle(c.x[i], c.y[i], c.radius[i])) {
            largest = std::max(largest, c.radius[i]);
            lo_x = std::min<double>(lo_x, c.x[i]);
            lo_y = std::min<double>(lo_y, c.y[i]);
            hi_x = std::max<double>(hi_x, c.x[i]);
            hi_y = std::max<double>(hi_y, c.y[i]);
        }
    }
    if (!(lo_x <= hi_x)) {
        return pairs_; // no valid circle
    }
    const float r_small = std::min(largest, 2.0F * std::max(radii[n / 2], 0.0F));
    // Neighbours within 2 r_small + margin are in adjacent cells; the small relative pad
    // keeps that true when float rounding lets d2 < reach^2 for a true distance a hair over.
    double size = (2.0 * r_small + margin) * (1.0 + 1e-5) + 1e-30;
    const double width = hi_x - lo_x;
    const double height = hi_y - lo_y;
    const double max_cells = 2.0 * static_cast<double>(n) + 64.0;
    if (r_small == 0.0F && margin == 0.0F) {
        size = std::max(std::max(width, height) / std::sqrt(static_cast<double>(n)), 1e-30);
    }
    while ((std::floor(width / size) + 1.0) * (std::floor(height / size) + 1.0) > max_cells) {
        size *= 2.0;
    }
    const grid_shape g{lo_x, lo_y, size, static_cast<std::int64_t>(std::floor(width / size)) + 1,
                       static_cast<std::int64_t>(std::floor(height / size)) + 1};
    const auto cells = static_cast<std::size_t>(g.columns * g.rows);

    // Counting sort by cell; sorted copies of the fields for locality.
    cell_start_.assign(cells + 1, 0);
    cell_of_circle_.resize(n);
    std::vector<std::uint32_t> large;
    for (std::size_t i = 0; i < n; ++i) {
        const bool valid = finite_circle(c.x[i], c.y[i], c.radius[i]);
        const auto cell =
            valid ? static_cast<std::uint32_t>(g.row(c.y[i]) * g.columns + g.column(c.x[i]))
                  : std::numeric_limits<std::uint32_t>::max();
        cell_of_circle_[i] = cell;
        if (valid) {
            ++cell_start_[cell + 1];
            if (c.radius[i] > r_small) {
                large.push_back(static_cast<std::uint32_t>(i));
            }
        }
    }
    for (std::size_t k = 0; k < cells; ++k) {
        cell_start_[k + 1] += cell_start_[k];
    }
    const std::size_t placed = cell_start_[cells];
    order_.resize(placed);
    sorted_x_.resize(placed);
    sorted_y_.resize(placed);
    sorted_r_.resize(placed);
    {
        std::vector<std::uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
        for (std::size_t i = 0; i < n; ++i) {
            if (cell_of_circle_[i] != std::numeric_limits<std::uint32_t>::max()) {
                const std::uint32_t at = fill[cell_of_circle_[i]]++;
                order_[at] = static_cast<std::uint32_t>(i);
                sorted_x_[at] = c.x[i];
                sorted_y_[at] = c.y[i];
                sorted_r_[at] = c.radius[i];
            }
        }
    }

    // Small circles: partners j > i among the small circles of the 3 x 3 cells around.
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t cell = cell_of_circle_[i];
        if (cell == std::numeric_limits<std::uint32_t>::max() || c.radius[i] > r_small) {
            continue;
        }
        const std::int64_t cx = cell % g.columns;
        const std::int64_t cy = cell / g.columns;
        // Branch-free: whether a candidate pairs is close to random, so each one is written
        // and the end of the row advances only for a real pair.
        const std::int64_t x0 = std::max<std::int64_t>(cx - 1, 0);
        const std::int64_t x1 = std::min(cx + 1, g.columns - 1);
        std::size_t candidates = 0;
        for (std::int64_t y = std::max<std::int64_t>(cy - 1, 0); y <= std::min(cy + 1, g.rows - 1);
             ++y) {
            candidates += cell_start_[static_cast<std::size_t>(y * g.columns + x1) + 1] -
                          cell_start_[static_cast<std::size_t>(y * g.columns + x0)];
        }
        row_.resize(candidates);
        std::size_t found_in_row = 0;
        const float xi = c.x[i];
        const float yi = c.y[i];
        const float ri = c.radius[i];
        for (std::int64_t y = std::max<std::int64_t>(cy - 1, 0); y <= std::min(cy + 1, g.rows - 1);
             ++y) {
            // The cells x0..x1 of one row are consecutive in the sorted order.
            const std::uint32_t first = cell_start_[static_cast<std::size_t>(y * g.columns + x0)];
            const std::uint32_t last =
                cell_start_[static_cast<std::size_t>(y * g.columns + x1) + 1];
            for (std::uint32_t s = first; s < last; ++s) {
                const std::uint32_t j = order_[s];
                const bool take =
                    static_cast<int>(j > i) & static_cast<int>(sorted_r_[s] <= r_small) &
                    static_cast<int>(
                        within_reach(xi, yi, ri, sorted_x_[s], sorted_y_[s], sorted_r_[s], margin));
                row_[found_in_row] = {static_cast<std::uint32_t>(i), j};
                found_in_row += take ? 1 : 0;
            }
        }
        row_.resize(found_in_row);
        std::sort(row_.begin(), row_.end(),
                  [](const circle_pair& a, const circle_pair& b) { return a.b < b.b; });
        pairs_.insert(pairs_.end(), row_.begin(), row_.end());
    }

    // Large circles: every circle whose centre lies within reach, and every other large one.
    if (!large.empty()) {
        for (const std::uint32_t l : large) {
            const float reach = c.radius[l] + r_small + margin;
            const float pad = (std::fabs(c.x[l]) + std::fabs(c.y[l]) + reach) * 1e-5F +
                              std::numeric_limits<float>::min();
            const std::int64_t x0 = g.column(c.x[l] - reach - pad);
            const std::int64_t x1 = g.column(c.x[l] + reach + pad);
            const std::int64_t y0 = g.row(c.y[l] - reach - pad);
            const std::int64_t y1 = g.row(c.y[l] + reach + pad);
            for (std::int64_t y = y0; y <= y1; ++y) {
                for (std::int64_t x = x0; x <= x1; ++x) {
                    const auto k = static_cast<std::size_t>(y * g.columns + x);
                    for (std::uint32_t s = cell_start_[k]; s < cell_start_[k + 1]; ++s) {
                        const std::uint32_t j = order_[s];
                        if (sorted_r_[s] > r_small) {
                            continue; // large-large pairs below
                        }
                        const std::uint32_t a = std::min(l, j);
                        const std::uint32_t b = std::max(l, j);
                        if (within_reach(c.x[a], c.y[a], c.radius[a], c.x[b], c.y[b], c.radius[b],
                                         margin)) {
                            pairs_.push_back({a, b});
                        }
                    }
                }
            }
            for (const std::uint32_t j : large) {
                if (j > l && within_reach(c.x[l], c.y[l], c.radius[l], c.x[j], c.y[j], c.radius[j],
                                          margin)) {
                    pairs_.push_back({l, j});
                }
            }
        }
        std::sort(pairs_.begin(), pairs_.end(), [](const circle_pair& p, const circle_pair& q) {
            return p.a != q.a ? p.a < q.a : p.b < q.b;
        });
    }
    return pairs_;
}

namespace reference {

std::vector<circle_pair> find_pairs(circles_cview c, float margin) {
    check(c, margin);
    std::vector<circle_pair> pairs;
    for (std::size_t i = 0; i < c.count; ++i) {
        for (std::size_t j = i + 1; j < c.count; ++j) {
            if (within_reach(c.x[i], c.y[i], c.radius[i], c.x[j], c.y[j], c.radius[j], margin)) {
                pairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
            }
        }
    }
    return pairs;
}

} // namespace reference
} // namespace simdcollide
