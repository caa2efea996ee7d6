// push_out_all: many circles pushed out of a static box set, through the grid or, in the
// reference, by every box (static_boxes.hpp).
//
// Both push with the reference's per-pair math (circle_aabb.inl, included below in a
// namespace of this file), so they agree bit for bit whenever the grid visits every box the
// brute force would push with, in the same order. It does: candidates are visited in
// ascending index, and a box that is not a candidate cannot be in contact (its cells do not
// meet the circle's inflated bounding square). When a push moves the circle out of the cells
// its candidates came from, they are looked up again, keeping only boxes after the current.
#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/static_boxes.hpp>

#include "broad_phase/static_box_query.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide {
namespace detail::push_out_impl {
// minmax.inl first: circle_aabb.inl uses it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
} // namespace detail::push_out_impl

namespace {

// One push-out of the circle at (x, y) by one box: docs/behaviour.md 5 and 7, as push_out_loop.
bool push_one(float& x, float& y, float r, aabbs_view b, std::uint32_t k, float margin) {
    // Most candidates are misses with the centre outside the box: contact_of's own test for
    // that case (d2 > 0 and not d2 < reach^2), decided before its square root and division.
    const float d2 = detail::push_out_impl::distance_squared_of(x, y, b.min_x[k], b.min_y[k],
                                                                b.max_x[k], b.max_y[k]);
    const float reach = r + margin;
    if (d2 > 0.0F && !(d2 < reach * reach)) {
        return false;
    }
    const detail::push_out_impl::contact_result c = detail::push_out_impl::contact_of(
        x, y, r, b.min_x[k], b.min_y[k], b.max_x[k], b.max_y[k], margin);
    if (c.hit && c.depth > 0.0F) {
        x += c.normal_x * c.depth;
        y += c.normal_y * c.depth;
        return true;
    }
    return false;
}

void check_push_out_all(circles_view c, float margin) {
    detail::require_fields("push_out_all", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_margin("push_out_all", margin);
    detail::require_apart("push_out_all",
                          {detail::writes("circles.x", c.x, c.count),
                           detail::writes("circles.y", c.y, c.count),
                           detail::reads("circles.radius", c.radius, c.count)},
                          detail::in_place::allowed);
}

// push_out_all of checked arguments.
std::size_t push_out_checked(circles_view c, const static_box_grid& grid, float margin) {
    if (grid.size() == 0) {
        return 0;
    }
    const aabbs_view boxes = grid.boxes();
    if (boxes.count <= static_box_grid::brute_force_below) {
        // Few boxes: every circle against each box in ascending order with the SIMD one-box
        // kernel. Circles are independent, so box-major order gives the circle-major result.
        std::size_t pushes = 0;
        for (std::size_t k = 0; k < boxes.count; ++k) {
            pushes += push_out(
                c,
                aabb::from_min_max(boxes.min_x[k], boxes.min_y[k], boxes.max_x[k], boxes.max_y[k]),
                margin);
        }
        return pushes;
    }
    const static_box_query q(grid);
    std::vector<std::uint32_t> scratch;
    std::size_t pushes = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        float x = c.x[i];
        float y = c.y[i];
        const float r = c.radius[i];
        const float reach = r + margin;
        candidate_list list = q.lookup(q.range(x, y, reach), -1, scratch);
        bool moved = false;
        const std::uint32_t* next = list.first;
        while (next != list.last) {
            const std::uint32_t box = *next++;
            if (!push_one(x, y, r, boxes, box, margin)) {
                continue;
            }
            ++pushes;
            moved = true;
            const cell_range now = q.range(x, y, reach);
            if (!now.within(list.covered)) { // new cells may hold later boxes it now touches
                list = q.lookup(now, box, scratch);
                next = list.first;
            }
        }
        if (moved) {
            c.x[i] = x;
            c.y[i] = y;
        }
    }
    return pushes;
}

} // namespace

std::size_t push_out_all(circles_view c, const static_box_grid& grid, float margin) {
    check_push_out_all(c, margin);
    return push_out_checked(c, grid, margin);
}

std::size_t push_out_all(circles_view c, const static_box_grid& grid, float margin,
                         const workers& w) {
    check_push_out_all(c, margin);
    // Each circle is pushed out alone, so blocks of circles give the bits of one pass.
    constexpr std::size_t circles_per_task = 1024;
    return detail::sum_over_blocks(
        detail::runner_of(w), c.count, circles_per_task, [&](std::size_t begin, std::size_t end) {
            return push_out_checked(detail::slice(c, begin, end), grid, margin);
        });
}

namespace reference {

std::size_t push_out_all(circles_view c, aabbs_view b, float margin) {
    detail::require_fields("push_out_all", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_fields("push_out_all", "boxes", b.count, {b.min_x, b.min_y, b.max_x, b.max_y});
    detail::require_margin("push_out_all", margin);
    std::size_t pushes = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        for (std::size_t k = 0; k < b.count; ++k) {
            pushes +=
                push_one(c.x[i], c.y[i], c.radius[i], b, static_cast<std::uint32_t>(k), margin) ? 1
                                                                                                : 0;
        }
    }
    return pushes;
}

} // namespace reference
} // namespace simdcollide
