// The kinematic_sweep stage (docs/world-design.md, "Kinematic boxes"): a circle's move that is
// fast against a kinematic box is swept in the box's frame, so that a box pushes a circle at any
// speed without passing through it. The sweeps are scalar code compiled once, on the reference's
// per-move math (swept.inl): the same bits on every instruction set. Each circle's sweep reads the
// boxes and writes that circle alone, so the workers take blocks of circles and the bits do not
// depend on their number.
#include "world/world_filters.hpp"
#include "world/world_kinematic.hpp"
#include "world/world_materials.hpp"

#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_impact.hpp"
#include "world/world_slots.hpp"
#include "world/world_solve.hpp"
#include "world/world_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace simdcollide {
namespace detail::world_kinematic_sweep_impl {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/swept.inl"
} // namespace detail::world_kinematic_sweep_impl

namespace {

namespace math = detail::world_kinematic_sweep_impl;

// Whether the path of a circle of radius r from (sx, sy) by (dx, dy) can meet the box record
// b: its bounds against the box's.
bool path_meets(float sx, float sy, float dx, float dy, float r, const float* b) {
    const float ex = sx + dx;
    const float ey = sy + dy;
    return std::min(sx, ex) - r <= b[2] && std::max(sx, ex) + r >= b[0] &&
           std::min(sy, ey) - r <= b[3] && std::max(sy, ey) + r >= b[1];
}

// on_circle(e) for each of `count` listed circles, in blocks on the workers: each writes its
// own circle alone, so the bits do not depend on who runs which block.
template <class OnCircle>
void for_each_listed_circle(const detail::task_runner& tasks, std::size_t count,
                            OnCircle&& on_circle) {
    detail::for_each_item(tasks, detail::task_blocks(count), [&](std::size_t block) {
        const detail::task_block range = detail::block_of(block, count);
        for (std::size_t e = range.first; e < range.end; ++e) {
            on_circle(e);
        }
    });
}

// The entries as the kinematic sweeps take them, made in the step's first substep that sweeps: the
// circles (slots, ascending), each one's first entry and its boxes.
void index_kinematic_circles(detail::kinematic_boxes& kinematic) {
    if (kinematic.circles_current) {
        return;
    }
    kinematic.circles.clear();
    kinematic.first_box.clear();
    kinematic.box_of.clear();
    for (const circle_pair e : kinematic.entries) {
        if (kinematic.circles.empty() || kinematic.circles.back() != e.a) {
            kinematic.circles.push_back(e.a);
            kinematic.first_box.push_back(static_cast<std::uint32_t>(kinematic.box_of.size()));
        }
        kinematic.box_of.push_back(e.b);
    }
    kinematic.first_box.push_back(static_cast<std::uint32_t>(kinematic.box_of.size()));
    kinematic.start_x.resize(kinematic.circles.size());
    kinematic.start_y.resize(kinematic.circles.size());
    kinematic.circles_current = true;
}

} // namespace

// Before a substep's positions are integrated, over h, after find_fast_circles: whether any
// listed circle can be fast against a box in it, and if so where each starts the substep. None can
// where the fastest circle, plus the furthest a box moves, stays below the least speed a circle
// must reach to be fast (fast_floor, with what gravity adds): (s + g h) h + furthest <
// sweep_from r for every circle, the test the sweeps make of each. Most substeps of most worlds.
void detail::note_kinematic_starts(kinematic_boxes& kinematic, const circle_slots& slots,
                                   const sweep_state& sweeps, const world_options& options,
                                   float h) {
    auto& k = kinematic;
    k.sweeps = false;
    if (kinematic.entries.empty() ||
        !(options.sweep_from < std::numeric_limits<float>::infinity())) {
        return;
    }
    const float below = sweeps.floor - k.furthest_move / h;
    if (below > 0.0F && sweeps.fastest < below * below) {
        return;
    }
    k.sweeps = true;
    index_kinematic_circles(kinematic);
    for (std::size_t e = 0; e < kinematic.circles.size(); ++e) {
        kinematic.start_x[e] = slots.x[kinematic.circles[e]];
        kinematic.start_y[e] = slots.y[kinematic.circles[e]];
    }
}

// The kinematic_sweep stage: each listed circle's move of the substep (after the sweep stage),
// where it is fast against a box (longer, less the box's move, than sweep_from times its radius),
// swept against the box in its own frame (the box still where it started the substep, the circle
// moving by its move less the box's): at an impact the circle stops there, its velocity relative to
// the box answers (respond_to_impact), and the rest of its move in that frame, less its part into
// the box, slides on; then it is carried by the box's move. Boxes in ascending order, each from
// where the last left the circle. A slower move is left to the contacts, as against a static box.
void detail::sweep_kinematic_boxes(const kinematic_boxes& kinematic, circle_slots& slots,
                                   solver_state& solver, const world_options& options,
                                   const world_materials& materials, const world_filters& filters,
                                   const task_runner& tasks) {
    if (!kinematic.sweeps) {
        return;
    }
    const auto& k = kinematic;
    const std::size_t count = kinematic.circles.size();
    const float slow_reach = options.sweep_from;
    for_each_listed_circle(tasks, count, [&](std::size_t e) {
        const std::uint32_t c = kinematic.circles[e];
        const float r = slots.radius[c];
        const float sx = kinematic.start_x[e];
        const float sy = kinematic.start_y[e];
        float ex = slots.x[c];
        float ey = slots.y[c];
        // Its move and the furthest a box moves adding up to less than its slow reach, the
        // circle is slow against each of its boxes: most are.
        const float slack = slow_reach * r - k.furthest_move;
        if (slack > 0.0F && (ex - sx) * (ex - sx) + (ey - sy) * (ey - sy) < slack * slack) {
            return;
        }
        bool hit_any = false;
        for (std::uint32_t q = kinematic.first_box[e]; q < kinematic.first_box[e + 1]; ++q) {
            const std::uint32_t b = kinematic.box_of[q];
            const auto box = static_cast<std::uint32_t>(materials.box_friction.size() + b);
            if (filters.active && !filters.collides_with_box(c, box)) {
                continue;
            }
            const float* const from = k.box_from.data() + 4 * std::size_t{b};
            const float mx = k.centre_move[2 * std::size_t{b}];
            const float my = k.centre_move[2 * std::size_t{b} + 1];
            const float dx = (ex - sx) - mx;
            const float dy = (ey - sy) - my;
            const float slow = slow_reach * r;
            if (dx * dx + dy * dy < slow * slow || !path_meets(sx, sy, dx, dy, r, from)) {
                continue;
            }
            const math::impact_result hit =
                math::sweep_box_of(sx, sy, r, dx, dy, from[0], from[1], from[2], from[3]);
            if (!hit.hit) {
                continue;
            }
            float vx = slots.vx[c] - k.contact_vx[b];
            float vy = slots.vy[c] - k.contact_vy[b];
            detail::respond_to_impact(
                vx, vy, hit.normal_x, hit.normal_y,
                combined_restitution(materials.body_restitution[c],
                                     materials.step_box_restitution[box]),
                combined_friction(materials.body_friction[c], materials.step_box_friction[box]));
            slots.vx[c] = vx + k.contact_vx[b];
            slots.vy[c] = vy + k.contact_vy[b];
            const detail::slide rest =
                detail::slide_after(hit.time, hit.normal_x, hit.normal_y, dx, dy);
            ex = (sx + hit.time * dx) + rest.x + mx;
            ey = (sy + hit.time * dy) + rest.y + my;
            hit_any = true;
        }
        if (hit_any) {
            slots.x[c] = ex;
            slots.y[c] = ey;
            settle_in_solver(solver, slots, c);
        }
    });
}

} // namespace simdcollide
