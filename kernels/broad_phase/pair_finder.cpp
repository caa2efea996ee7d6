// The circle-circle broad phase: all-pairs reference, and the grid that reproduces it.
#include <simdcollide/pair_finder.hpp>

#include "broad_phase/circle_grid.hpp"
#include "broad_phase/pair_search.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"

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

// The small circles' pairs among sorted entries whose cells lie in rows [row_begin,
// row_end), appended to found from its `count`th element: each pair of small circles in the
// same or adjacent cells is tested once, from the one earlier in the sorted order (a circle
// against the later circles of its own cell and of the next cell in its row, which are
// consecutive in the sorted order, and against the three cells above it, consecutive too).
// within_reach is symmetric to the bit (a difference and its negation square alike), so the
// side it is tested from does not matter. Branch-free: whether a candidate pairs is close to
// random, so each one is written and the end of the list advances only for a real pair.
// Returns the new count.
std::size_t pairs_in_rows(const detail::circle_cells& cells, float margin, std::int64_t row_begin,
                          std::int64_t row_end, std::vector<circle_pair>& found,
                          std::size_t count) {
    const detail::grid_shape& g = cells.grid.shape;
    const float r_small = cells.grid.r_small;
    const std::vector<std::uint32_t>& cell_start = cells.cell_start;
    const std::vector<std::uint32_t>& order = cells.order;
    const float* sorted_x = cells.x.data();
    const float* sorted_y = cells.y.data();
    const float* sorted_r = cells.radius.data();
    const auto test_range = [&](std::uint32_t s, std::uint32_t first, std::uint32_t last) {
        if (count + (last - first) > found.size()) {
            found.resize(std::max(2 * found.size(), count + (last - first)));
        }
        const std::uint32_t i = order[s];
        const float xi = sorted_x[s];
        const float yi = sorted_y[s];
        const float ri = sorted_r[s];
        circle_pair* out = found.data();
        for (std::uint32_t t = first; t < last; ++t) {
            const std::uint32_t j = order[t];
            const bool take = static_cast<int>(sorted_r[t] <= r_small) &
                              static_cast<int>(within_reach(xi, yi, ri, sorted_x[t], sorted_y[t],
                                                            sorted_r[t], margin));
            out[count] = {std::min(i, j), std::max(i, j)};
            count += take ? 1 : 0;
        }
    };
    for (std::int64_t cy = row_begin; cy < row_end; ++cy) {
        for (std::int64_t cx = 0; cx < g.columns; ++cx) {
            const auto k = static_cast<std::size_t>(cy * g.columns + cx);
            const std::uint32_t begin = cell_start[k];
            const std::uint32_t end = cell_start[k + 1];
            if (begin == end) {
                continue;
            }
            const std::uint32_t row_end_entry = cx + 1 < g.columns ? cell_start[k + 2] : end;
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
                test_range(s, s + 1, row_end_entry);
                test_range(s, above_begin, above_end);
            }
        }
    }
    return count;
}

// The pairs of the large circles large[first, last) with the small ones whose cells their
// reach covers, appended to found from its `count`th element; returns the new count.
std::size_t pairs_of_large(circles_cview c, const detail::circle_cells& cells, float margin,
                           std::size_t first, std::size_t last, std::vector<circle_pair>& found,
                           std::size_t count) {
    const float r_small = cells.grid.r_small;
    for (std::size_t k = first; k < last; ++k) {
        const std::uint32_t l = cells.large[k];
        detail::for_each_entry_within(
            cells, c.x[l], c.y[l], c.radius[l] + r_small + margin, [&](std::uint32_t s) {
                const std::uint32_t j = cells.order[s];
                if (cells.radius[s] <= r_small && // large-large pairs are found apart
                    within_reach(c.x[l], c.y[l], c.radius[l], c.x[j], c.y[j], c.radius[j],
                                 margin)) {
                    if (count == found.size()) {
                        found.resize(std::max<std::size_t>(2 * found.size(), 64));
                    }
                    found[count++] = {std::min(l, j), std::max(l, j)};
                }
            });
    }
    return count;
}

// An insertion sort by second circle: a circle's partners are few. Indices, not pointers:
// begin + 1 would be past the end of an empty group at the list's end (undefined, found by
// fuzz_many).
void sort_by_second(std::span<circle_pair> group) {
    for (std::size_t p = 1; p < group.size(); ++p) {
        const circle_pair moving = group[p];
        std::size_t q = p;
        for (; q > 0 && group[q - 1].b > moving.b; --q) {
            group[q] = group[q - 1];
        }
        group[q] = moving;
    }
}

// Rows of cells that each search task takes: about entries_per_task sorted entries.
std::vector<std::int64_t> row_bands(const detail::circle_cells& cells,
                                    std::size_t entries_per_task) {
    const detail::grid_shape& g = cells.grid.shape;
    std::vector<std::int64_t> bands{0};
    std::size_t band_start = 0;
    for (std::int64_t cy = 0; cy < g.rows; ++cy) {
        const std::size_t row_end =
            cells.cell_start[static_cast<std::size_t>((cy + 1) * g.columns)];
        if (row_end - band_start >= entries_per_task && cy + 1 < g.rows) {
            bands.push_back(cy + 1);
            band_start = row_end;
        }
    }
    bands.push_back(g.rows);
    return bands;
}

} // namespace

pair_finder::pair_finder() : search_(std::make_unique<detail::pair_search>()) {}
pair_finder::~pair_finder() = default;
pair_finder::pair_finder(const pair_finder& other)
    : search_(std::make_unique<detail::pair_search>(*other.search_)) {}
pair_finder& pair_finder::operator=(const pair_finder& other) {
    if (this != &other) {
        search_ = std::make_unique<detail::pair_search>(*other.search_);
    }
    return *this;
}
pair_finder::pair_finder(pair_finder&& other) noexcept : search_(std::move(other.search_)) {}
pair_finder& pair_finder::operator=(pair_finder&& other) noexcept {
    search_.swap(other.search_);
    return *this;
}

std::span<const circle_pair> pair_finder::find(circles_cview c, float margin) {
    return search_->find_on(c, margin, detail::task_runner{});
}

std::span<const circle_pair> pair_finder::find(circles_cview c, float margin, const workers& w) {
    return search_->find_on(c, margin, detail::runner_of(w));
}

std::size_t pair_finder::cell_count() const noexcept {
    return search_->cell_count();
}

std::span<const circle_pair> detail::pair_search::find_on(circles_cview c, float margin,
                                                          const detail::task_runner& tasks) {
    check(c, margin);
    const std::size_t n = c.count;
    // pairs_ and the cells keep their lengths from the last search until they are filled
    // again: each place is written once then, and only places past the last length are
    // zeroed first (a pile of a million circles lists some three million pairs in some two
    // million cells: zeroing them all is two passes over some 32 MB on one thread).
    const auto none = [&] {
        cells_.cell_start.assign(1, 0);
        pairs_.clear();
        return std::span<const circle_pair>(pairs_);
    };
    if (n < 2) {
        return none();
    }
    // Cell size from the typical radius; circles above r_small are searched separately.
    cells_.grid = detail::circle_grid_for(c, margin, tasks);
    if (cells_.grid.empty) {
        return none();
    }
    detail::sort_into_cells(c, cells_, tasks);
    // Below this many circles one thread's search takes about as long as handing it over.
    constexpr std::size_t parallel_from = 16384;
    if (tasks.parallel() && n >= parallel_from) {
        return find_on_workers(c, margin, tasks);
    }

    // Small circles, then large circles against the small ones whose cells their reach covers.
    std::size_t found = pairs_in_rows(cells_, margin, 0, cells_.grid.shape.rows, found_, 0);
    found = pairs_of_large(c, cells_, margin, 0, cells_.large.size(), found_, found);

    // The pairs among the large circles: the same search over them alone, with cells sized
    // from their own median radius. Fewer than half the circles are large (larger than twice
    // the median), so this recursion ends, and the whole search stays O(n log n) however
    // the radii spread (testing each large circle against every other was quadratic: in
    // the world's listing, where a falling circle's search radius grows with its speed,
    // most of a falling pile was large).
    const std::span<const circle_pair> among = pairs_among_large(c, margin, tasks);
    if (found + among.size() > found_.size()) {
        found_.resize(found + among.size());
    }
    for (const circle_pair q : among) {
        found_[found++] = q;
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
    sort_groups(0, n);
    return pairs_;
}

std::span<const circle_pair>
detail::pair_search::pairs_among_large(circles_cview c, float margin,
                                       const detail::task_runner& tasks) {
    const std::size_t large_count = cells_.large.size();
    among_large_pairs_.clear();
    if (large_count < 2) {
        return among_large_pairs_;
    }
    std::vector<float> lx(large_count), ly(large_count), lr(large_count);
    for (std::size_t k = 0; k < large_count; ++k) {
        const std::uint32_t l = cells_.large[k];
        lx[k] = c.x[l];
        ly[k] = c.y[l];
        lr[k] = c.radius[l];
    }
    detail::pair_search among_large;
    const circles_cview large(lx.data(), ly.data(), lr.data(), large_count);
    const std::span<const circle_pair> pairs = among_large.find_on(large, margin, tasks);
    among_large_pairs_.reserve(pairs.size());
    for (const circle_pair q : pairs) { // large is ascending, so a stays below b
        among_large_pairs_.push_back({cells_.large[q.a], cells_.large[q.b]});
    }
    return among_large_pairs_;
}

// Each group of first circles [first, last) sorted by second circle.
void detail::pair_search::sort_groups(std::size_t first_circle, std::size_t last_circle) {
    for (std::size_t i = first_circle; i < last_circle; ++i) {
        sort_by_second(std::span<circle_pair>(pairs_).subspan(
            group_start_[i], group_start_[i + 1] - group_start_[i]));
    }
}

// The same search on the workers: bands of rows of cells and runs of large circles, each
// into a list of its own (a part); then the parts are put in order together, in buckets of
// first circles: each part's pairs are counted and copied by bucket (each part into its own
// places in each bucket, parts in order), and each bucket is sorted by first circle and then
// by second alone. Every pair is found once, so the sorted list is the one above, however
// the work was cut.
std::span<const circle_pair>
detail::pair_search::find_on_workers(circles_cview c, float margin,
                                     const detail::task_runner& tasks) {
    const std::size_t n = c.count;
    constexpr std::size_t entries_per_task = 2048;
    constexpr std::size_t large_per_task = 64;
    const std::vector<std::int64_t> bands = row_bands(cells_, entries_per_task);
    const std::size_t band_count = bands.size() - 1;
    const std::size_t large_tasks = (cells_.large.size() + large_per_task - 1) / large_per_task;
    const std::size_t parts = band_count + large_tasks;
    if (found_parts_.size() < parts) {
        found_parts_.resize(parts);
    }
    part_sizes_.assign(parts, 0);
    detail::for_each_item(tasks, parts, [&](std::size_t k) {
        std::vector<circle_pair>& found = found_parts_[k];
        if (k < band_count) {
            part_sizes_[k] = pairs_in_rows(cells_, margin, bands[k], bands[k + 1], found, 0);
        } else {
            const std::size_t first = (k - band_count) * large_per_task;
            part_sizes_[k] =
                pairs_of_large(c, cells_, margin, first,
                               std::min(cells_.large.size(), first + large_per_task), found, 0);
        }
    });
    const std::span<const circle_pair> among = pairs_among_large(c, margin, tasks);
    const std::size_t all_parts = parts + 1; // the pairs among the large circles last
    const auto part = [&](std::size_t k) {
        return k < parts ? std::span<const circle_pair>(found_parts_[k].data(), part_sizes_[k])
                         : among;
    };

    // Each part's pairs by bucket of first circles, then each bucket counting-sorted by
    // first circle into pairs_, then each group by second circle.
    constexpr std::size_t circles_per_bucket = 4096;
    const std::size_t buckets = (n + circles_per_bucket - 1) / circles_per_bucket;
    detail::bucket_places at(bucket_at_, all_parts, buckets);
    detail::for_each_item(tasks, all_parts, [&](std::size_t k) {
        for (const circle_pair q : part(k)) {
            ++at.at(k, q.a / circles_per_bucket);
        }
    });
    const std::size_t total = at.place();
    sorting_.resize(total);
    detail::for_each_item(tasks, all_parts, [&](std::size_t k) {
        for (const circle_pair q : part(k)) {
            sorting_[at.at(k, q.a / circles_per_bucket)++] = q;
        }
    });
    pairs_.resize(total);
    detail::for_each_item(tasks, buckets, [&](std::size_t b) {
        const std::size_t begin = at.bucket_begin(b);
        const std::size_t end = at.bucket_end(b);
        const std::size_t first_circle = b * circles_per_bucket;
        const std::size_t circles = std::min(n, first_circle + circles_per_bucket) - first_circle;
        std::vector<std::size_t> fill(circles + 1, 0); // group i of the bucket starts at fill[i]
        for (std::size_t p = begin; p < end; ++p) {
            ++fill[sorting_[p].a - first_circle + 1];
        }
        fill[0] = begin;
        for (std::size_t i = 0; i < circles; ++i) {
            fill[i + 1] += fill[i];
        }
        const std::vector<std::size_t> group_start(fill.begin(), fill.end());
        for (std::size_t p = begin; p < end; ++p) {
            pairs_[fill[sorting_[p].a - first_circle]++] = sorting_[p];
        }
        for (std::size_t i = 0; i < circles; ++i) {
            sort_by_second(std::span<circle_pair>(pairs_).subspan(
                group_start[i], group_start[i + 1] - group_start[i]));
        }
    });
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
