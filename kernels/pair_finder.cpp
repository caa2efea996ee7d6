// The circle-circle broad phase: all-pairs reference, and the grid that reproduces it.
#include <simdcollide/pair_finder.hpp>

#include "arguments.hpp"
#include "circle_grid.hpp"

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

void check(circles_cview c, float margin) {
    detail::require_fields("find_pairs", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_margin("find_pairs", margin);
}

} // namespace

std::span<const circle_pair> pair_finder::find(circles_cview c, float margin) {
    check(c, margin);
    pairs_.clear();
    const std::size_t n = c.count;
    cells_.cell_start.assign(1, 0);
    if (n < 2) {
        return pairs_;
    }
    // Cell size from the typical radius; circles above r_small are searched separately.
    cells_.grid = detail::circle_grid_for(c, margin);
    if (cells_.grid.empty) {
        return pairs_;
    }
    detail::sort_into_cells(c, cells_);
    const detail::grid_shape& g = cells_.grid.shape;
    const float r_small = cells_.grid.r_small;
    const std::vector<std::uint32_t>& cell_start = cells_.cell_start;
    const std::vector<std::uint32_t>& order = cells_.order;
    const std::vector<float>& sorted_x = cells_.x;
    const std::vector<float>& sorted_y = cells_.y;
    const std::vector<float>& sorted_r = cells_.radius;

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
        const std::uint32_t i = order[s];
        const float xi = sorted_x[s];
        const float yi = sorted_y[s];
        const float ri = sorted_r[s];
        circle_pair* out = found_.data();
        for (std::uint32_t t = first; t < last; ++t) {
            const std::uint32_t j = order[t];
            const bool take = static_cast<int>(sorted_r[t] <= r_small) &
                              static_cast<int>(within_reach(xi, yi, ri, sorted_x[t], sorted_y[t],
                                                            sorted_r[t], margin));
            out[found] = {std::min(i, j), std::max(i, j)};
            found += take ? 1 : 0;
        }
    };
    for (std::int64_t cy = 0; cy < g.rows; ++cy) {
        for (std::int64_t cx = 0; cx < g.columns; ++cx) {
            const auto k = static_cast<std::size_t>(cy * g.columns + cx);
            const std::uint32_t begin = cell_start[k];
            const std::uint32_t end = cell_start[k + 1];
            if (begin == end) {
                continue;
            }
            const std::uint32_t row_end = cx + 1 < g.columns ? cell_start[k + 2] : end;
            std::uint32_t above_begin = 0;
            std::uint32_t above_end = 0;
            if (cy + 1 < g.rows) {
                const auto above = static_cast<std::size_t>((cy + 1) * g.columns);
                above_begin =
                    cell_start[above + static_cast<std::size_t>(std::max<std::int64_t>(cx - 1, 0))];
                above_end =
                    cell_start[above + static_cast<std::size_t>(std::min(cx + 1, g.columns - 1)) +
                               1];
            }
            for (std::uint32_t s = begin; s < end; ++s) {
                if (sorted_r[s] > r_small) {
                    continue;
                }
                test_range(s, s + 1, row_end);
                test_range(s, above_begin, above_end);
            }
        }
    }

    // Large circles: each against the small circles whose cells its reach covers.
    for (const std::uint32_t l : cells_.large) {
        detail::for_each_entry_within(cells_, c.x[l], c.y[l], c.radius[l] + r_small + margin,
                                      [&](std::uint32_t s) {
                                          const std::uint32_t j = order[s];
                                          if (sorted_r[s] <= r_small && // large-large pairs below
                                              within_reach(c.x[l], c.y[l], c.radius[l], c.x[j],
                                                           c.y[j], c.radius[j], margin)) {
                                              reserve(1);
                                              found_[found++] = {std::min(l, j), std::max(l, j)};
                                          }
                                      });
    }

    // The pairs among the large circles: the same search over them alone, with cells sized
    // from their own median radius. Fewer than half the circles are large (larger than twice
    // the median), so this recursion ends, and the whole search stays O(n log n) however
    // the radii spread (testing each large circle against every other was quadratic: in
    // the world's listing, where a falling circle's search radius grows with its speed,
    // most of a falling pile was large).
    const std::size_t large_count = cells_.large.size();
    if (large_count > 1) {
        std::vector<float> lx(large_count), ly(large_count), lr(large_count);
        for (std::size_t k = 0; k < large_count; ++k) {
            const std::uint32_t l = cells_.large[k];
            lx[k] = c.x[l];
            ly[k] = c.y[l];
            lr[k] = c.radius[l];
        }
        pair_finder among_large;
        const std::span<const circle_pair> pairs =
            among_large.find(circles_cview(lx.data(), ly.data(), lr.data(), large_count), margin);
        reserve(pairs.size());
        for (const circle_pair q : pairs) { // large is ascending, so a stays below b
            found_[found++] = {cells_.large[q.a], cells_.large[q.b]};
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
    // Insertion sort of each group by b: groups are small. Indices, not pointers: first + 1
    // would be past the end for an empty last group (undefined, found by fuzz_many).
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t first = group_start_[i];
        for (std::size_t p = first + 1; p < group_start_[i + 1]; ++p) {
            const circle_pair moving = pairs_[p];
            std::size_t q = p;
            for (; q > first && pairs_[q - 1].b > moving.b; --q) {
                pairs_[q] = pairs_[q - 1];
            }
            pairs_[q] = moving;
        }
    }
    return pairs_;
}

namespace reference {

std::vector<circle_pair> find_pairs(circles_cview c, float margin) {
    check(c, margin);
    std::vector<circle_pair> pairs;
    const auto pairable = [&](std::size_t i) {
        return detail::pairable_circle(c.x[i], c.y[i], c.radius[i]);
    };
    for (std::size_t i = 0; i < c.count; ++i) {
        for (std::size_t j = i + 1; j < c.count; ++j) {
            if (pairable(i) && pairable(j) &&
                within_reach(c.x[i], c.y[i], c.radius[i], c.x[j], c.y[j], c.radius[j], margin)) {
                pairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
            }
        }
    }
    return pairs;
}

} // namespace reference
} // namespace simdcollide
