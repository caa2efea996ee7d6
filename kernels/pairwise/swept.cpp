// Public swept-circle entry points: check the arguments once, then call the chosen table;
// and sweep_all, a move's first impact among a box set.
#include <simdcollide/swept.hpp>

#include "pairwise/kernel_table.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace simdcollide {
namespace detail::swept_impl {
// The reference's per-move math, for sweep_all's grid path (see static_boxes.cpp for why a
// namespace of this file).
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/swept.inl"
} // namespace detail::swept_impl

namespace {

#define SIMDCOLLIDE_MOVE_READS(c, d)                                                               \
    detail::reads("circles.x", (c).x, (c).count), detail::reads("circles.y", (c).y, (c).count),    \
        detail::reads("circles.radius", (c).radius, (c).count),                                    \
        detail::reads("moves.dx", (d).dx, (d).count), detail::reads("moves.dy", (d).dy, (d).count)
#define SIMDCOLLIDE_IMPACT_WRITES(out)                                                             \
    detail::writes("out.time", (out).time, (out).count),                                           \
        detail::writes("out.normal_x", (out).normal_x, (out).count),                               \
        detail::writes("out.normal_y", (out).normal_y, (out).count)

// What every sweep checks: the moving circles, their moves and the impacts, all of one count.
void check_moves(const char* kernel, circles_cview c, displacements_cview d, impacts_view out) {
    detail::require_fields(kernel, "circles", c.count, {c.x, c.y, c.radius});
    detail::require_count(kernel, "moves", c.count, d.count);
    detail::require_fields(kernel, "moves", d.count, {d.dx, d.dy});
    detail::require_count(kernel, "out", c.count, out.count);
    detail::require_fields(kernel, "out", out.count, {out.time, out.normal_x, out.normal_y});
}

std::size_t sweep_boxes_with(const detail::kernel_table& t, circles_cview c, displacements_cview d,
                             aabbs_view b, impacts_view out, const detail::task_runner& run = {}) {
    check_moves("sweep", c, d, out);
    detail::require_count("sweep", "boxes", c.count, b.count);
    detail::require_fields("sweep", "boxes", b.count, {b.min_x, b.min_y, b.max_x, b.max_y});
    detail::require_apart(
        "sweep",
        {SIMDCOLLIDE_MOVE_READS(c, d), detail::reads("boxes.min_x", b.min_x, b.count),
         detail::reads("boxes.min_y", b.min_y, b.count),
         detail::reads("boxes.max_x", b.max_x, b.count),
         detail::reads("boxes.max_y", b.max_y, b.count), SIMDCOLLIDE_IMPACT_WRITES(out)},
        detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.swept.box(detail::slice(c, i, e), detail::slice(d, i, e),
                               detail::slice(b, i, e), detail::slice(out, i, e));
        });
}

std::size_t sweep_one_box_with(const detail::kernel_table& t, circles_cview c,
                               displacements_cview d, const aabb& b, impacts_view out,
                               const detail::task_runner& run = {}) {
    check_moves("sweep", c, d, out);
    detail::require_apart("sweep", {SIMDCOLLIDE_MOVE_READS(c, d), SIMDCOLLIDE_IMPACT_WRITES(out)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.swept.one_box(detail::slice(c, i, e), detail::slice(d, i, e), b,
                                   detail::slice(out, i, e));
        });
}

std::size_t sweep_circles_with(const detail::kernel_table& t, circles_cview c,
                               displacements_cview d, circles_cview o, impacts_view out,
                               const detail::task_runner& run = {}) {
    check_moves("sweep", c, d, out);
    detail::require_count("sweep", "obstacles", c.count, o.count);
    detail::require_fields("sweep", "obstacles", o.count, {o.x, o.y, o.radius});
    detail::require_apart("sweep",
                          {SIMDCOLLIDE_MOVE_READS(c, d), detail::reads("obstacles.x", o.x, o.count),
                           detail::reads("obstacles.y", o.y, o.count),
                           detail::reads("obstacles.radius", o.radius, o.count),
                           SIMDCOLLIDE_IMPACT_WRITES(out)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.swept.circle(detail::slice(c, i, e), detail::slice(d, i, e),
                                  detail::slice(o, i, e), detail::slice(out, i, e));
        });
}

void check_sweep_all(circles_cview c, displacements_cview d, impacts_view out,
                     std::span<std::uint32_t> box) {
    check_moves("sweep_all", c, d, out);
    detail::require_count("sweep_all", "box", c.count, box.size());
    detail::require_apart("sweep_all",
                          {SIMDCOLLIDE_MOVE_READS(c, d),
                           SIMDCOLLIDE_IMPACT_WRITES(out),
                           {"box", box.data(), box.size(), sizeof(std::uint32_t), true}},
                          detail::in_place::refused);
}

#undef SIMDCOLLIDE_IMPACT_WRITES
#undef SIMDCOLLIDE_MOVE_READS

// A move's first impact so far among the boxes seen, in ascending box index: a later box
// takes its place only with an earlier time.
struct first_impact {
    detail::swept_impl::impact_result impact = detail::swept_impl::no_impact();
    std::uint32_t box = no_box;

    void offer(const detail::swept_impl::impact_result& k, std::uint32_t index) {
        if (k.hit && (box == no_box || k.time < impact.time)) {
            impact = k;
            box = index;
        }
    }
};

std::size_t store_first(impacts_view out, std::span<std::uint32_t> box, std::size_t i,
                        const first_impact& f) {
    detail::swept_impl::store_impact(out, i, f.impact);
    box[i] = f.box;
    return f.box == no_box ? 0 : 1;
}

detail::swept_impl::impact_result sweep_one(circles_cview c, displacements_cview d, std::size_t i,
                                            aabbs_view b, std::uint32_t k) {
    return detail::swept_impl::sweep_box_of(c.x[i], c.y[i], c.radius[i], d.dx[i], d.dy[i],
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

} // namespace

std::size_t sweep(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                  impacts_view out) {
    return sweep_boxes_with(detail::active_table(), circles, moves, boxes, out);
}
std::size_t sweep(circles_cview circles, displacements_cview moves, const aabb& box,
                  impacts_view out) {
    return sweep_one_box_with(detail::active_table(), circles, moves, box, out);
}
std::size_t sweep(circles_cview circles, displacements_cview moves, circles_cview obstacles,
                  impacts_view out) {
    return sweep_circles_with(detail::active_table(), circles, moves, obstacles, out);
}

namespace {

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
    check_sweep_all(circles, moves, out, box);
    return sweep_all_checked(circles, moves, grid, out, box);
}

std::size_t sweep_all(circles_cview circles, displacements_cview moves, const static_box_grid& grid,
                      impacts_view out, std::span<std::uint32_t> box, const workers& w) {
    check_sweep_all(circles, moves, out, box);
    // Each move's first impact depends on that move alone.
    constexpr std::size_t moves_per_task = 1024;
    return detail::sum_over_blocks(
        detail::runner_of(w), circles.count, moves_per_task, [&](std::size_t i, std::size_t e) {
            return sweep_all_checked(detail::slice(circles, i, e), detail::slice(moves, i, e), grid,
                                     detail::slice(out, i, e), detail::slice(box, i, e));
        });
}

std::size_t sweep(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                  impacts_view out, const workers& w) {
    return sweep_boxes_with(detail::active_table(), circles, moves, boxes, out,
                            detail::runner_of(w));
}
std::size_t sweep(circles_cview circles, displacements_cview moves, const aabb& box,
                  impacts_view out, const workers& w) {
    return sweep_one_box_with(detail::active_table(), circles, moves, box, out,
                              detail::runner_of(w));
}
std::size_t sweep(circles_cview circles, displacements_cview moves, circles_cview obstacles,
                  impacts_view out, const workers& w) {
    return sweep_circles_with(detail::active_table(), circles, moves, obstacles, out,
                              detail::runner_of(w));
}

namespace reference {
std::size_t sweep(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                  impacts_view out) {
    return sweep_boxes_with(detail::reference_table(), circles, moves, boxes, out);
}
std::size_t sweep(circles_cview circles, displacements_cview moves, const aabb& box,
                  impacts_view out) {
    return sweep_one_box_with(detail::reference_table(), circles, moves, box, out);
}
std::size_t sweep(circles_cview circles, displacements_cview moves, circles_cview obstacles,
                  impacts_view out) {
    return sweep_circles_with(detail::reference_table(), circles, moves, obstacles, out);
}

std::size_t sweep_all(circles_cview circles, displacements_cview moves, aabbs_view boxes,
                      impacts_view out, std::span<std::uint32_t> box) {
    check_sweep_all(circles, moves, out, box);
    detail::require_fields("sweep_all", "boxes", boxes.count,
                           {boxes.min_x, boxes.min_y, boxes.max_x, boxes.max_y});
    const std::vector<std::uint32_t> all = every_box(boxes);
    return first_impacts(
        circles, moves, boxes, out, box, [&](std::size_t) -> const auto& { return all; });
}
} // namespace reference

} // namespace simdcollide
