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

    // Small circles: each pair of small circles in the same or adjacent cells is tested
    // once, from the one earlier in the sorted order: a circle against the later circles of
    // its own cell and of the next cell in its row (consecutive in the sorted order), and
    // against the three cells above it (consecutive too). within_reach is symmetric to the
    // bit (a difference and its negation square alike), so the side it is tested from does
    // not matter. Branch-free: whether a candidate pairs is close to random, so each one is
    // written and the end of the list advances only for a real pair.
    found_.clear();
    std::size_t found = 0;
    const auto reserve = [&](std::size_t more) {
        if (found + more > found_.size()) {
            found_.resize(std::max(2 * found_.size(), found + more));
        }
    };
    const auto test_range = [&](std::uint32_t s, std::uint32_t first, std::uint32_t last) {
        reserve(last - first);
        const std::uint32_t i = order_[s];
        const float xi = sorted_x_[s];
        const float yi = sorted_y_[s];
        const float ri = sorted_r_[s];
        circle_pair* out = found_.data();
        for (std::uint32_t t = first; t < last; ++t) {
            const std::uint32_t j = order_[t];
            const bool take = static_cast<int>(sorted_r_[t] <= r_small) &
                              static_cast<int>(within_reach(xi, yi, ri, sorted_x_[t], sorted_y_[t],
                                                            sorted_r_[t], margin));
            out[found] = {std::min(i, j), std::max(i, j)};
            found += take ? 1 : 0;
        }
    };
    for (std::int64_t cy = 0; cy < g.rows; ++cy) {
        for (std::int64_t cx = 0; cx < g.columns; ++cx) {
            const auto k = static_cast<std::size_t>(cy * g.columns + cx);
            const std::uint32_t begin = cell_start_[k];
            const std::uint32_t end = cell_start_[k + 1];
            if (begin == end) {
                continue;
            }
            const std::uint32_t row_end = cx + 1 < g.columns ? cell_start_[k + 2] : end;
            std::uint32_t above_begin = 0;
            std::uint32_t above_end = 0;
            if (cy + 1 < g.rows) {
                const auto above = static_cast<std::size_t>((cy + 1) * g.columns);
                above_begin = cell_start_[above + static_cast<std::size_t>(
                                                      std::max<std::int64_t>(cx - 1, 0))];
                above_end =
                    cell_start_[above + static_cast<std::size_t>(std::min(cx + 1, g.columns - 1)) +
                                1];
            }
            for (std::uint32_t s = begin; s < end; ++s) {
                if (sorted_r_[s] > r_small) {
                    continue;
                }
                test_range(s, s + 1, row_end);
                test_range(s, above_begin, above_end);
            }
        }
    }

    // Large circles: every circle whose centre lies within reach, and every other large one.
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
                    if (within_reach(c.x[l], c.y[l], c.radius[l], c.x[j], c.y[j], c.radius[j],
                                     margin)) {
                        reserve(1);
                        found_[found++] = {std::min(l, j), std::max(l, j)};
                    }
                }
            }
        }
        for (const std::uint32_t j : large) {
            if (j > l &&
                within_reach(c.x[l], c.y[l], c.radius[l], c.x[j], c.y[j], c.radius[j], margin)) {
                reserve(1);
                found_[found++] = {l, j};
            }
        }
    }

    // Into the brute force's order: a counting sort by first index, then each circle's few
    // partners by second index.
    group_start_.assign(n + 1, 0);
    for (std::size_t k = 0; k < found; ++k) {
        ++group_start_[found_[k].a + 1];
    }
    for (std::size_t i = 0; i < n; ++i) {
        group_start_[i + 1] += group_start_[i];
    }
    pairs_.resize(found);
    fill_.assign(group_start_.begin(), group_start_.end() - 1);
    for (std::size_t k = 0; k < found; ++k) {
        pairs_[fill_[found_[k].a]++] = found_[k];
    }
    for (std::size_t i = 0; i < n; ++i) {
        circle_pair* first = pairs_.data() + group_start_[i];
        circle_pair* last = pairs_.data() + group_start_[i + 1];
        for (circle_pair* p = first + 1; p < last; ++p) { // insertion sort: groups are small
            const circle_pair moving = *p;
            circle_pair* q = p;
            for (; q > first && (q - 1)->b > moving.b; --q) {
                *q = *(q - 1);
            }
            *q = moving;
        }
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
