// sweep_all: each move's first impact among a set of static boxes, through the grid or, in
// the reference, against every box (static_boxes.hpp).
#include <simdcollide/static_boxes.hpp>

#include "pairwise/swept_checks.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace simdcollide {
namespace detail::sweep_all_impl {
// The reference's per-move math (see push_out_all.cpp for why a namespace of this file).
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/swept.inl"
} // namespace detail::sweep_all_impl

namespace {

// A move's first impact so far among the boxes seen, in ascending box index: a later box
// takes its place only with an earlier time.
struct first_impact {
    detail::sweep_all_impl::impact_result impact = detail::sweep_all_impl::no_impact();
    std::uint32_t box = no_box;

    void offer(const detail::sweep_all_impl::impact_result& k, std::uint32_t index) {
        if (k.hit && (box == no_box || k.time < impact.time)) {
            impact = k;
            box = index;
        }
    }
};

std::size_t store_first(impacts_view out, std::span<std::uint32_t> box, std::size_t i,
                        const first_impact& f) {
    detail::sweep_all_impl::store_impact(out, i, f.impact);
    box[i] = f.box;
    return f.box == no_box ? 0 : 1;
}

detail::sweep_all_impl::impact_result sweep_one(circles_cview c, displacements_cview d,
                                                std::size_t i, aabbs_view b, std::uint32_t k) {
    return detail::sweep_all_impl::sweep_box_of(c.x[i], c.y[i], c.radius[i], d.dx[i], d.dy[i],
                                                b.min_x[k], b.min_y[k], b.max_x[k], b.max_y[k]);
}

// Each move's first impact among the boxes `candidates(i)` lists for move i, ascending.
template <class Candidates>
std::size_t first_impacts(circles_cview c, displacements_cview d, aabbs_view boxes,
                          impacts_view out, std::span<std::uint32_t> box, Candidates candidates) {
    std::size_t hits = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        first_impact first;
        for (const std::uint32_t k : candidates(i)) {
            first.offer(sweep_one(c, d, i, boxes, k), k);
        }
        hits += store_first(out, box, i, first);
    }
    return hits;
}

std::vector<std::uint32_t> every_box(aabbs_view boxes) {
    std::vector<std::uint32_t> all(boxes.count);
    for (std::uint32_t k = 0; k < boxes.count; ++k) {
        all[k] = k;
    }
    return all;
}

// sweep_all of checked arguments.
std::size_t sweep_all_checked(circles_cview circles, displacements_cview moves,
                              const static_box_grid& grid, impacts_view out,
                              std::span<std::uint32_t> box) {
    const aabbs_view boxes = grid.boxes();
    // With few boxes, every box is a candidate: cheaper than asking the grid.
    if (boxes.count <= static_box_grid::brute_force_below) {
        const std::vector<std::uint32_t> all = every_box(boxes);
        return first_impacts(
            circles, moves, boxes, out, box, [&](std::size_t) -> const auto& { return all; });
    }
    std::vector<std::uint32_t> near;
    return first_impacts(
        circles, moves, boxes, out, box, [&](std::size_t i) -> const auto& {
            grid.candidates_along(circles.x[i], circles.y[i], circles.radius[i], moves.dx[i],
                                  moves.dy[i], near);
            return near;
        });
}

} // namespace

std::size_t sweep_all(circles_cview circles, displacements_cview moves, const static_box_grid& grid,
                      impacts_view out, std::span<std::uint32_t> box) {
    detail::check_sweep_all(circles, moves, out, box);
    return sweep_all_checked(circles, moves, grid, out, box);
}

std::size_t sweep_all(circles_cview circles, displacements_cview moves, const static_box_grid& grid,
                      impacts_view out, std::span<std::uint32_t> box, const workers& w) {
    detail::check_sweep_all(circles, moves, out, box);
    // Each move's first impact depends on that move alone.
    constexpr std::size_t moves_per_task = 1024;
    return detail::sum_over_blocks(
        detail::runner_of(w), circles.count, moves_per_task, [&](std::size_t i, std::size_t e) {
            return sweep_all_checked(detail::slice(circles, i, e), detail::slice(moves, i, e), grid,
                                     detail::slice(out, i, e), detail::slice(box, i, e));
        });
}

namespace reference {
std::size_t sweep_all(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                      impacts_view out, std::span<std::uint32_t> box) {
    detail::check_sweep_all(circles, moves, out, box);
    detail::require_fields("sweep_all", "boxes", boxes.count,
                           {boxes.min_x, boxes.min_y, boxes.max_x, boxes.max_y});
    const std::vector<std::uint32_t> all = every_box(boxes);
    return first_impacts(
        circles, moves, boxes, out, box, [&](std::size_t) -> const auto& { return all; });
}
} // namespace reference

} // namespace simdcollide
