// Sizing the uniform grid of circle centres (circle_grid.hpp).
#include "broad_phase/circle_grid.hpp"

#include "broad_phase/bulk_extent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace simdcollide::detail {
namespace {

// Up to this many circles the median radius is exact; above, it is the median of at most
// this many: every (n / median_sample, rounded up)-th radius. Copying and selecting among
// all of a million radii was most of this function's 3% of a step of the world's
// 1 000 000-circle pile in a profile (partial relistings there then sorted the listed
// circles into a grid again on about half the steps; since moved_circles, only the first
// after each full listing does, or one past relist_at_most circles listed again). Among all 10 000
// radii of the 10 000-circle pile it was still 1.2% of a step; with 4 096 (every third radius
// there), the step took 0.7% less (CHANGELOG).
constexpr std::size_t median_sample = std::size_t{1} << 12;

// The median of radius[0], radius[step], radius[2 step], ... (all of them for step 1).
float median_radius(const float* radius, std::size_t n, std::size_t step) {
    std::vector<float> radii;
    radii.reserve(n / step + 1);
    for (std::size_t i = 0; i < n; i += step) {
        radii.push_back(radius[i]);
    }
    const auto middle = radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2);
    std::nth_element(radii.begin(), middle, radii.end());
    return *middle;
}

// The bulk of the valid centres (bulk_extent), from every step-th circle.
extent bulk_of(circles_cview c, std::size_t step, const extent& whole) {
    std::vector<float> xs, ys;
    xs.reserve(c.count / step + 1);
    ys.reserve(c.count / step + 1);
    for (std::size_t i = 0; i < c.count; i += step) {
        if (pairable_circle(c.x[i], c.y[i], c.radius[i])) {
            xs.push_back(c.x[i]);
            ys.push_back(c.y[i]);
        }
    }
    const extent bulk = bulk_extent(xs, ys, whole);
    // Then the bounds of the centres inside it: one far circle leaves the others the grid
    // they have without it.
    extent tight{whole.hi_x, whole.hi_y, whole.lo_x, whole.lo_y};
    for (std::size_t i = 0; i < c.count; ++i) {
        const double x = c.x[i];
        const double y = c.y[i];
        if (pairable_circle(c.x[i], c.y[i], c.radius[i]) && x >= bulk.lo_x && x <= bulk.hi_x &&
            y >= bulk.lo_y && y <= bulk.hi_y) {
            tight = {std::min(tight.lo_x, x), std::min(tight.lo_y, y), std::max(tight.hi_x, x),
                     std::max(tight.hi_y, y)};
        }
    }
    return tight.lo_x <= tight.hi_x ? tight : bulk;
}

} // namespace

circle_grid circle_grid_for(circles_cview c, float margin, const task_runner& tasks) {
    const std::size_t n = c.count;
    circle_grid grid;
    if (n == 0) {
        return grid;
    }
    const std::size_t step = (n + median_sample - 1) / median_sample;
    float median = median_radius(c.radius, n, step);
    // The pairable circles' largest radius, how many are above twice the median (the large
    // ones, pair_finder.hpp) and the extent of their centres, in runs on the workers: the
    // largest, the least and the count are the same however the circles are cut.
    struct measures {
        float largest = 0.0F;
        std::size_t above = 0;
        double lo_x = std::numeric_limits<double>::infinity(), lo_y = lo_x;
        double hi_x = -lo_x, hi_y = -lo_x;
    };
    const auto [largest, above, lo_x, lo_y, hi_x, hi_y] = combine_over_blocks(
        tasks, n, items_per_task,
        [&](std::size_t first, std::size_t end) {
            measures run;
            for (std::size_t i = first; i < end; ++i) {
                if (pairable_circle(c.x[i], c.y[i], c.radius[i])) {
                    run.largest = std::max(run.largest, c.radius[i]);
                    run.above += c.radius[i] > 2.0F * median ? 1 : 0;
                    run.lo_x = std::min<double>(run.lo_x, c.x[i]);
                    run.lo_y = std::min<double>(run.lo_y, c.y[i]);
                    run.hi_x = std::max<double>(run.hi_x, c.x[i]);
                    run.hi_y = std::max<double>(run.hi_y, c.y[i]);
                }
            }
            return run;
        },
        [](const measures& a, const measures& b) {
            return measures{std::max(a.largest, b.largest), a.above + b.above,
                            std::min(a.lo_x, b.lo_x),       std::min(a.lo_y, b.lo_y),
                            std::max(a.hi_x, b.hi_x),       std::max(a.hi_y, b.hi_y)};
        });
    if (!(lo_x <= hi_x)) {
        return grid; // no valid circle
    }
    // pair_finder relies on fewer than half the circles being large, which the exact
    // median guarantees; a sample that misses that (radii whose pattern repeats with the
    // sampling step) falls back to it.
    if (step > 1 && 2 * above >= n) {
        median = median_radius(c.radius, n, 1);
    }
    grid.empty = false;
    grid.r_small = std::min(largest, 2.0F * std::max(median, 0.0F));
    // Neighbours within 2 r_small + margin are in adjacent cells; the small relative pad
    // keeps that true when float rounding lets d2 < reach^2 for a true distance a hair over.
    double size = (2.0 * grid.r_small + margin) * (1.0 + 1e-5) + 1e-30;
    const double max_cells = 2.0 * static_cast<double>(n) + 64.0;
    const auto cells_of = [](const extent& e, double s) {
        return (std::floor(e.width() / s) + 1.0) * (std::floor(e.height() / s) + 1.0);
    };
    extent covered{lo_x, lo_y, hi_x, hi_y};
    // A few centres far from the rest would stretch the cells over everything: the grid
    // then covers the bulk only, and those outside it fall into its edge cells (cells are
    // clamped, so every pair is still found; see grid_shape).
    if (cells_of(covered, size) > max_cells) {
        covered = bulk_of(c, step, covered);
    }
    if (grid.r_small == 0.0F && margin == 0.0F) {
        size = std::max(
            std::max(covered.width(), covered.height()) / std::sqrt(static_cast<double>(n)), 1e-30);
    }
    while (cells_of(covered, size) > max_cells) {
        size *= 2.0;
    }
    grid.shape = {covered.lo_x, covered.lo_y, size,
                  static_cast<std::int64_t>(std::floor(covered.width() / size)) + 1,
                  static_cast<std::int64_t>(std::floor(covered.height() / size)) + 1};
    return grid;
}

void sort_into_cells(circles_cview c, circle_cells& cells, const task_runner& tasks) {
    constexpr std::size_t circles_per_task = 16384;
    if (tasks.parallel() && c.count >= 2 * circles_per_task && !cells.grid.empty) {
        sort_into_cells_on_workers(c, cells, tasks, circles_per_task);
        return;
    }
    const grid_shape& g = cells.grid.shape;
    const std::size_t n = c.count;
    const std::size_t count = cells.grid.empty ? 0 : g.cells();
    constexpr std::uint32_t nowhere = circle_cells::nowhere;
    cells.cell_start.assign(count + 1, 0);
    cells.cell_of_circle.resize(n);
    cells.large.clear();
    for (std::size_t i = 0; i < n; ++i) {
        const bool valid = count > 0 && pairable_circle(c.x[i], c.y[i], c.radius[i]);
        const auto cell = valid ? static_cast<std::uint32_t>(g.cell(c.x[i], c.y[i])) : nowhere;
        cells.cell_of_circle[i] = cell;
        if (valid) {
            ++cells.cell_start[cell + 1];
            if (c.radius[i] > cells.grid.r_small) {
                cells.large.push_back(static_cast<std::uint32_t>(i));
            }
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
        cells.cell_start[k + 1] += cells.cell_start[k];
    }
    const std::size_t placed = cells.cell_start[count];
    cells.order.resize(placed);
    cells.x.resize(placed);
    cells.y.resize(placed);
    cells.radius.resize(placed);
    // Each cell's next free entry: cell_start shifted by one, restored by the fill below.
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t cell = cells.cell_of_circle[i];
        if (cell != nowhere) {
            const std::uint32_t at = cells.cell_start[cell]++;
            cells.order[at] = static_cast<std::uint32_t>(i);
            cells.x[at] = c.x[i];
            cells.y[at] = c.y[i];
            cells.radius[at] = c.radius[i];
        }
    }
    // Now cell_start[k] is where cell k ends, which is where cell k + 1 starts.
    for (std::size_t k = count; k > 0; --k) {
        cells.cell_start[k] = cells.cell_start[k - 1];
    }
    cells.cell_start[0] = 0;
}

// The same sort on the workers, in blocks of circles_per_task circles: each block finds its
// circles' cells and counts them by bucket of cells; each block then copies its circles
// into its places in each bucket (blocks in order, so a bucket holds its circles in
// ascending index), and each bucket is counting-sorted by cell alone (stably), so every
// cell holds its circles in ascending index, as above.
void sort_into_cells_on_workers(circles_cview c, circle_cells& cells, const task_runner& tasks,
                                std::size_t circles_per_task) {
    constexpr std::size_t cells_per_bucket = 4096;
    constexpr std::uint32_t nowhere = circle_cells::nowhere;
    const grid_shape& g = cells.grid.shape;
    const std::size_t n = c.count;
    const std::size_t count = g.cells();
    const std::size_t blocks = (n + circles_per_task - 1) / circles_per_task;
    const std::size_t buckets = (count + cells_per_bucket - 1) / cells_per_bucket;
    cells.cell_of_circle.resize(n);
    bucket_places at(cells.bucket_at, blocks, buckets);
    std::vector<std::vector<std::uint32_t>> large(blocks);
    const auto block_range = [&](std::size_t k) {
        return std::pair{k * circles_per_task, std::min(n, (k + 1) * circles_per_task)};
    };
    for_each_item(tasks, blocks, [&](std::size_t k) {
        const auto [first, last] = block_range(k);
        for (std::size_t i = first; i < last; ++i) {
            const bool valid = pairable_circle(c.x[i], c.y[i], c.radius[i]);
            const auto cell = valid ? static_cast<std::uint32_t>(g.cell(c.x[i], c.y[i])) : nowhere;
            cells.cell_of_circle[i] = cell;
            if (valid) {
                ++at.at(k, cell / cells_per_bucket);
                if (c.radius[i] > cells.grid.r_small) {
                    large[k].push_back(static_cast<std::uint32_t>(i));
                }
            }
        }
    });
    const std::size_t placed = at.place();
    cells.by_bucket.resize(placed);
    for_each_item(tasks, blocks, [&](std::size_t k) {
        const auto [first, last] = block_range(k);
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t cell = cells.cell_of_circle[i];
            if (cell != nowhere) {
                cells.by_bucket[at.at(k, cell / cells_per_bucket)++] =
                    static_cast<std::uint32_t>(i);
            }
        }
    });
    cells.cell_start.resize(count + 1);
    cells.order.resize(placed);
    cells.x.resize(placed);
    cells.y.resize(placed);
    cells.radius.resize(placed);
    for_each_item(tasks, buckets, [&](std::size_t b) {
        const std::size_t begin = at.bucket_begin(b);
        const std::size_t end = at.bucket_end(b);
        const std::size_t first_cell = b * cells_per_bucket;
        const std::size_t cells_here = std::min(count, first_cell + cells_per_bucket) - first_cell;
        std::vector<std::size_t> next(cells_here + 1, 0); // each cell's next free entry
        for (std::size_t p = begin; p < end; ++p) {
            ++next[cells.cell_of_circle[cells.by_bucket[p]] - first_cell + 1];
        }
        next[0] = begin;
        for (std::size_t j = 0; j < cells_here; ++j) {
            next[j + 1] += next[j];
            cells.cell_start[first_cell + j] = static_cast<std::uint32_t>(next[j]);
        }
        for (std::size_t p = begin; p < end; ++p) {
            const std::uint32_t i = cells.by_bucket[p];
            const std::size_t e = next[cells.cell_of_circle[i] - first_cell]++;
            cells.order[e] = i;
            cells.x[e] = c.x[i];
            cells.y[e] = c.y[i];
            cells.radius[e] = c.radius[i];
        }
    });
    cells.cell_start[count] = static_cast<std::uint32_t>(placed);
    cells.large.clear();
    for (const std::vector<std::uint32_t>& some : large) {
        cells.large.insert(cells.large.end(), some.begin(), some.end());
    }
}

void moved_circles::clear(std::size_t count) {
    state_.assign(count, 0);
    count_ = 0;
    by_cell_.clear();
    others_.clear();
}

// The changed circles' entries made again: the old entries of those changing now dropped
// and their new ones merged in, in one pass over the entries kept (O(size) a call, against
// the O(n) sort into cells this spares).
void moved_circles::add(const circle_cells& cells, circles_cview c,
                        std::span<const std::uint32_t> changed) {
    constexpr std::uint8_t was_changed = 1;
    constexpr std::uint8_t changing = 2;
    for (const std::uint32_t j : changed) {
        count_ += state_[j] == 0 ? 1 : 0;
        state_[j] = changing;
    }
    fresh_.clear();
    others_next_.clear();
    for (const std::uint32_t j : others_) {
        if (state_[j] != changing) {
            others_next_.push_back(j);
        }
    }
    for (const std::uint32_t j : changed) {
        if (!pairable_circle(c.x[j], c.y[j], c.radius[j])) {
            continue; // near nothing
        }
        if (cells.grid.empty || c.radius[j] > cells.grid.r_small) {
            others_next_.push_back(j);
        } else {
            fresh_.push_back(std::uint64_t{cells.grid.shape.cell(c.x[j], c.y[j])} << 32U | j);
        }
    }
    std::sort(fresh_.begin(), fresh_.end());
    merged_.clear();
    auto next = fresh_.begin();
    for (const std::uint64_t entry : by_cell_) {
        if (state_[static_cast<std::uint32_t>(entry)] == changing) {
            continue;
        }
        for (; next != fresh_.end() && *next < entry; ++next) {
            merged_.push_back(*next);
        }
        merged_.push_back(entry);
    }
    merged_.insert(merged_.end(), next, fresh_.end());
    by_cell_.swap(merged_);
    others_.swap(others_next_);
    for (const std::uint32_t j : changed) {
        state_[j] = was_changed;
    }
}

std::vector<std::uint64_t>::const_iterator moved_circles::lower_bound(std::uint64_t key) const {
    return std::lower_bound(by_cell_.begin(), by_cell_.end(), key);
}

} // namespace simdcollide::detail
