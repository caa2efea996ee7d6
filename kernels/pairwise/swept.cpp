// Public swept-circle entry points: check the arguments once, then call the chosen table.
#include <simdcollide/swept.hpp>

#include "pairwise/kernel_table.hpp"
#include "pairwise/swept_checks.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide {

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

} // namespace

void detail::check_sweep_all(circles_cview c, displacements_cview d, impacts_view out,
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

} // namespace reference

} // namespace simdcollide
