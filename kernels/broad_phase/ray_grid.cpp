// The ray grid (ray_grid.hpp). Why the walk finds what testing every circle finds: every
// circle that fits a cell is listed in each cell its box, grown by `pad`, reaches; where
// the ray enters a circle (at t, as the kernel computes it) lies within that box, so the walk
// tests the circle in the cell it is in at t. Once the best hit so far comes before the
// ray leaves the cell being walked, every circle not yet tested is entered later. The kernel's
// t is off the exact geometry by rounding, about 2^-22 of the coordinates, the ray and the
// distance involved: `pad` covers it for rays within `reach_`; rays beyond test every circle.
#include "broad_phase/ray_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdcollide::detail {

namespace ray_grid_impl {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/swept.inl"

#include "pairwise/reference/rays.inl"
} // namespace ray_grid_impl

namespace {

constexpr double circles_per_cell = 8.0;
constexpr double pad_of_cell = 1.0 / 64.0;
constexpr double reach_in_cells = 16384.0; // pad_of_cell * 2^20
// A packet of rays in cell order: at most this many rays (a vector of floats on AVX2) ...
constexpr std::size_t packet_rays = 8;
// ... and at most this many circles in the cells it spans, unless its rays all start in one
// cell (which may hold more).
constexpr std::uint32_t packet_circles = 32;

bool fits(float x, float y, float r) {
    return std::isfinite(x) && std::isfinite(y) && std::isfinite(r) && r >= 0.0F;
}

} // namespace

circle_ray_grid::circle_ray_grid(circles_cview circles) : all_(circles), all_index_(circles.count) {
    const std::size_t n = circles.count;
    std::iota(all_index_.begin(), all_index_.end(), 0U);
    // The bulk: on each axis the middle 62/64 of a sample of at most 4 096 centres, widened by
    // its own spread on both sides (docs/world-design.md, "Grids over the bulk"). Circles
    // outside it are tested by every ray, so that a few far ones do not stretch the cells.
    std::vector<double> sample_x, sample_y;
    const std::size_t stride = std::max<std::size_t>(1, n / 4096);
    for (std::size_t i = 0; i < n; i += stride) {
        if (fits(circles.x[i], circles.y[i], circles.radius[i])) {
            sample_x.push_back(circles.x[i]);
            sample_y.push_back(circles.y[i]);
        }
    }
    const auto bulk_of = [](std::vector<double>& v, double& lo, double& hi) {
        lo = -std::numeric_limits<double>::infinity();
        hi = std::numeric_limits<double>::infinity();
        if (v.empty()) {
            return;
        }
        std::sort(v.begin(), v.end());
        const double first = v[v.size() / 64];
        const double last = v[v.size() - 1 - v.size() / 64];
        lo = first - (last - first);
        hi = last + (last - first);
    };
    bulk_of(sample_x, bulk_[0], bulk_[1]);
    bulk_of(sample_y, bulk_[2], bulk_[3]);
    double min_x = std::numeric_limits<double>::infinity();
    double min_y = min_x;
    double max_x = -min_x;
    double max_y = -min_x;
    double radius_sum = 0.0;
    std::size_t finite = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (in_bulk(circles.x[i], circles.y[i], circles.radius[i])) {
            min_x = std::min<double>(min_x, circles.x[i]);
            max_x = std::max<double>(max_x, circles.x[i]);
            min_y = std::min<double>(min_y, circles.y[i]);
            max_y = std::max<double>(max_y, circles.y[i]);
            radius_sum += circles.radius[i];
            ++finite;
        }
    }
    if (finite > 0) {
        const double area = (max_x - min_x) * (max_y - min_y);
        cell_ = std::sqrt(area * circles_per_cell / static_cast<double>(finite));
        cell_ = std::max(cell_, 2.0 * radius_sum / static_cast<double>(finite));
        cell_ = std::max({cell_, (max_x - min_x) / 4096.0, (max_y - min_y) / 4096.0});
        if (!(cell_ > 0.0) || !std::isfinite(cell_)) {
            cell_ = std::isfinite(cell_) ? 1.0 : std::max(max_x - min_x, max_y - min_y);
        }
        // The cells cover every fitting circle's grown box: radius <= cell, plus the pad.
        const double border = cell_ * (1.0 + pad_of_cell);
        origin_x_ = min_x - border;
        origin_y_ = min_y - border;
        columns_ = static_cast<std::int64_t>(std::ceil((max_x - min_x + 2.0 * border) / cell_));
        rows_ = static_cast<std::int64_t>(std::ceil((max_y - min_y + 2.0 * border) / cell_));
        const double extent =
            std::max({std::abs(origin_x_), std::abs(origin_y_),
                      std::abs(origin_x_ + columns_ * cell_), std::abs(origin_y_ + rows_ * cell_)});
        reach_ = reach_in_cells * cell_ - 2.0 * extent;
    }
    inverse_cell_ = 1.0 / cell_;
    const double pad = cell_ * pad_of_cell;
    const auto column = [&](double v) { return cell_at(v, origin_x_, columns_); };
    const auto row = [&](double v) { return cell_at(v, origin_y_, rows_); };
    // Cells of circle i's grown box, by a count, then a fill (each cell's circles ascending).
    const auto in_cells = [&](std::size_t i) {
        return in_bulk(circles.x[i], circles.y[i], circles.radius[i]) &&
               static_cast<double>(circles.radius[i]) <= cell_ && columns_ > 0;
    };
    cell_start_.assign(static_cast<std::size_t>(columns_ * rows_) + 1, 0);
    const auto for_each_cell = [&](std::size_t i, auto body) {
        const double x = circles.x[i];
        const double y = circles.y[i];
        const double r = static_cast<double>(circles.radius[i]) + pad;
        for (std::int64_t q = row(y - r); q <= row(y + r); ++q) {
            for (std::int64_t c = column(x - r); c <= column(x + r); ++c) {
                body(static_cast<std::size_t>(q * columns_ + c));
            }
        }
    };
    for (std::size_t i = 0; i < n; ++i) {
        if (in_cells(i)) {
            for_each_cell(i, [&](std::size_t c) { ++cell_start_[c + 1]; });
        } else {
            other_x_.push_back(circles.x[i]);
            other_y_.push_back(circles.y[i]);
            other_radius_.push_back(circles.radius[i]);
            other_index_.push_back(static_cast<std::uint32_t>(i));
        }
    }
    std::partial_sum(cell_start_.begin(), cell_start_.end(), cell_start_.begin());
    const std::size_t entries = cell_start_.back();
    x_.resize(entries);
    y_.resize(entries);
    radius_.resize(entries);
    index_.resize(entries);
    std::vector<std::uint32_t> next(cell_start_.begin(), cell_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
        if (in_cells(i)) {
            for_each_cell(i, [&](std::size_t c) {
                const std::uint32_t at = next[c]++;
                x_[at] = circles.x[i];
                y_[at] = circles.y[i];
                radius_[at] = circles.radius[i];
                index_[at] = static_cast<std::uint32_t>(i);
            });
        }
    }
}

void circle_ray_grid::cast_all(const kernel_table& t, rays_cview rays, ray_hits_view hits,
                               const task_runner& run) const {
    // The rays by the cell their origin is in (the nearest cell for those outside), by a
    // counting sort.
    const std::size_t cells = cell_start_.size() - 1;
    std::vector<std::uint32_t> cell_of(rays.count);
    std::vector<std::uint32_t> start(cells + 1, 0);
    for (std::size_t i = 0; i < rays.count; ++i) {
        std::uint32_t c = 0;
        if (columns_ > 0) {
            c = static_cast<std::uint32_t>(cell_at(rays.y[i], origin_y_, rows_) * columns_ +
                                           cell_at(rays.x[i], origin_x_, columns_));
        }
        cell_of[i] = c;
        ++start[c + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::uint32_t> order(rays.count);
    std::vector<std::uint32_t> cell_in_order(rays.count);
    for (std::size_t i = 0; i < rays.count; ++i) {
        const std::uint32_t at = start[cell_of[i]]++;
        order[at] = static_cast<std::uint32_t>(i);
        cell_in_order[at] = cell_of[i];
    }
    constexpr std::size_t rays_per_task = 512;
    sum_over_blocks(run, rays.count, rays_per_task, [&](std::size_t begin, std::size_t end) {
        // The block's rays copied in cell order, so that the packets read them in a row, and
        // their hits written in that order, then copied to the caller's.
        const std::size_t m = end - begin;
        std::vector<float> ray_x(m), ray_y(m), ray_dx(m), ray_dy(m);
        for (std::size_t k = 0; k < m; ++k) {
            const std::size_t i = order[begin + k];
            ray_x[k] = rays.x[i];
            ray_y[k] = rays.y[i];
            ray_dx[k] = rays.dx[i];
            ray_dy[k] = rays.dy[i];
        }
        const rays_cview in_order(ray_x.data(), ray_y.data(), ray_dx.data(), ray_dy.data(), m);
        std::vector<float> fraction(m), point_x(m), point_y(m), normal_x(m), normal_y(m);
        std::vector<std::uint32_t> shape(m);
        const ray_hits_view hits_in_order({fraction, point_x, point_y, normal_x, normal_y, shape});
        const std::uint32_t* cell = cell_in_order.data() + begin;
        std::vector<ray_best> best(m);
        for (std::size_t k = 0; k < m;) {
            // A packet: up to packet_rays rays in a row whose cells' circles, from the first
            // ray's cell to the last one's, are few; every ray of it tests all of them at once.
            std::size_t e = k + 1;
            if (columns_ > 0) {
                const std::uint32_t first = cell_start_[cell[k]];
                while (e < m && e - k < packet_rays &&
                       (cell[e] == cell[e - 1] ||
                        cell_start_[cell[e] + 1] - first <= packet_circles)) {
                    ++e;
                }
                const std::uint32_t last = cell_start_[cell[e - 1] + 1];
                t.queries.rays_circle_run(rays_cview(ray_x.data() + k, ray_y.data() + k,
                                                     ray_dx.data() + k, ray_dy.data() + k, e - k),
                                          x_.data() + first, y_.data() + first,
                                          radius_.data() + first, index_.data() + first,
                                          last - first, best.data() + k);
            }
            const tested_cells tested{cell[k], cell[e - 1]};
            for (; k < e; ++k) {
                cast(t, ray_x[k], ray_y[k], ray_dx[k], ray_dy[k], best[k], tested);
                write_ray_hit(in_order, k, best[k], hits_in_order);
            }
        }
        for (std::size_t k = 0; k < m; ++k) {
            copy_ray_hit(hits_in_order, k, hits, order[begin + k]);
        }
        return std::size_t{0};
    });
}

void circle_ray_grid::cast(const kernel_table& t, float ox, float oy, float dx, float dy,
                           ray_best& best, tested_cells tested) const {
    // The ray's extent: its length and its distance from the origin, in the kernel's terms.
    const double extent =
        std::abs(double{dx}) + std::abs(double{dy}) + std::abs(double{ox}) + std::abs(double{oy});
    if (!(extent <= reach_)) {
        if (all_.count > 0) {
            t.queries.ray_circle_run(ox, oy, dx, dy, all_.x, all_.y, all_.radius, all_index_.data(),
                                     all_.count, best);
        }
        return;
    }
    t.queries.ray_circle_run(ox, oy, dx, dy, other_x_.data(), other_y_.data(), other_radius_.data(),
                             other_index_.data(), other_x_.size(), best);
    walk(t, ox, oy, dx, dy, best, tested);
}

void circle_ray_grid::walk(const kernel_table& t, float ox, float oy, float dx, float dy,
                           ray_best& best, tested_cells tested) const {
    if (columns_ == 0) {
        return;
    }
    const double o[2] = {ox, oy};
    const double d[2] = {dx, dy};
    // Times from distances by one multiplication each (off by an ulp or so of a double from
    // the division: far within the pad).
    const double inverse_d[2] = {1.0 / d[0], 1.0 / d[1]};
    const double lo[2] = {origin_x_, origin_y_};
    const std::int64_t cells[2] = {columns_, rows_};
    // The part [t0, t1] of the segment within the grid.
    double t0 = 0.0;
    double t1 = 1.0;
    for (int a = 0; a < 2; ++a) {
        const double hi = lo[a] + static_cast<double>(cells[a]) * cell_;
        if (d[a] == 0.0) {
            if (o[a] < lo[a] || o[a] > hi) {
                return;
            }
            continue;
        }
        const double ta = (lo[a] - o[a]) * inverse_d[a];
        const double tb = (hi - o[a]) * inverse_d[a];
        t0 = std::max(t0, std::min(ta, tb));
        t1 = std::min(t1, std::max(ta, tb));
    }
    if (t0 > t1) {
        return;
    }
    std::int64_t at[2];
    std::int64_t step[2];
    for (int a = 0; a < 2; ++a) {
        const double p = o[a] + t0 * d[a];
        at[a] = cell_at(p, lo[a], cells[a]);
        step[a] = d[a] > 0.0 ? 1 : (d[a] < 0.0 ? -1 : 0);
    }
    // When the ray leaves the current cell across axis a: its next boundary's t.
    const auto leaves = [&](int a) {
        if (step[a] == 0) {
            return std::numeric_limits<double>::infinity();
        }
        const double boundary = lo[a] + static_cast<double>(at[a] + (step[a] > 0 ? 1 : 0)) * cell_;
        return (boundary - o[a]) * inverse_d[a];
    };
    for (;;) {
        const std::size_t c = static_cast<std::size_t>(at[1] * columns_ + at[0]);
        const std::uint32_t begin = cell_start_[c];
        const std::uint32_t end = cell_start_[c + 1];
        if (end > begin && (c < tested.first || c > tested.last)) {
            t.queries.ray_circle_run(ox, oy, dx, dy, x_.data() + begin, y_.data() + begin,
                                     radius_.data() + begin, index_.data() + begin, end - begin,
                                     best);
        }
        const double tx = leaves(0);
        const double ty = leaves(1);
        const double exit = std::min(tx, ty);
        if (exit >= t1 || static_cast<double>(best.time) < exit) {
            return;
        }
        const int a = tx <= ty ? 0 : 1;
        at[a] += step[a];
        if (at[a] < 0 || at[a] >= cells[a]) {
            return;
        }
    }
}

} // namespace simdcollide::detail

namespace simdcollide::detail {

void write_ray_hit(rays_cview rays, std::size_t i, const ray_best& best, ray_hits_view hits) {
    using namespace ray_grid_impl;
    if (best.shape == no_shape) {
        store_ray_hit(rays, i, hits, 1.0F, {0.0F, 0.0F}, no_shape);
        return;
    }
    const unit_vector n =
        best.inside ? unit_vector{0.0F, 0.0F}
                    : ray_circle_normal(best.mx, best.my, rays.dx[i], rays.dy[i], best.time);
    store_ray_hit(rays, i, hits, best.time, n, best.shape);
}

} // namespace simdcollide::detail
