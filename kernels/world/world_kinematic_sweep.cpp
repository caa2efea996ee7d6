// The kinematic stage (docs/world-design.md, "Kinematic boxes"): a circle's move that is fast
// against a kinematic box is swept in the box's frame, so that a box pushes a circle at any speed
// without passing through it. The sweeps are scalar code compiled once, on the reference's per-move
// math (swept.inl): the same bits on every instruction set. Each circle's sweep reads the boxes and
// writes that circle alone, so the workers take blocks of circles and the bits do not depend on
// their number.
#include "world/world_state.hpp"

#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_impact.hpp"

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

} // namespace

// Before a substep's positions are integrated, over h, after find_fast_circles: whether any
// listed circle can be fast against a box in it, and if so where each starts the substep. None can
// where the fastest circle, plus the furthest a box moves, stays below the least speed a circle
// must reach to be fast (fast_floor, with what gravity adds): (s + g h) h + furthest <
// sweep_from r for every circle, the test the sweeps make of each. Most substeps of most worlds.
void detail::world_state::note_kinematic_starts(float h) {
    auto& k = kinematic_;
    k.sweeps = false;
    if (kinematic_found_.empty() ||
        !(options_.sweep_from < std::numeric_limits<float>::infinity())) {
        return;
    }
    const float below = fast_floor_ - k.furthest_move / h;
    if (below > 0.0F && fastest_ < below * below) {
        return;
    }
    k.sweeps = true;
    index_kinematic_circles();
    for (std::size_t e = 0; e < kinematic_circles_.size(); ++e) {
        kinematic_start_x_[e] = x_[kinematic_circles_[e]];
        kinematic_start_y_[e] = y_[kinematic_circles_[e]];
    }
}

// The kinematic stage: each listed circle's move of the substep (after the sweep stage), where it
// is fast against a box (longer, less the box's move, than sweep_from times its radius), swept
// against the box in its own frame (the box still where it started the substep, the circle moving
// by its move less the box's): at an impact the circle stops there, its velocity relative to the
// box answers (respond_to_impact), and the rest of its move in that frame, less its part into the
// box, slides on; then it is carried by the box's move. Boxes in ascending order, each from where
// the last left the circle. A slower move is left to the contacts, as against a static box.
void detail::world_state::sweep_kinematic_boxes() {
    if (!kinematic_.sweeps) {
        return;
    }
    const auto& k = kinematic_;
    const std::size_t count = kinematic_circles_.size();
    const float slow_reach = options_.sweep_from;
    for_each_listed_circle(task_runner(), count, [&](std::size_t e) {
        const std::uint32_t c = kinematic_circles_[e];
        const float r = radius_[c];
        const float sx = kinematic_start_x_[e];
        const float sy = kinematic_start_y_[e];
        float ex = x_[c];
        float ey = y_[c];
        // Its move and the furthest a box moves adding up to less than its slow reach, the
        // circle is slow against each of its boxes: most are.
        const float slack = slow_reach * r - k.furthest_move;
        if (slack > 0.0F && (ex - sx) * (ex - sx) + (ey - sy) * (ey - sy) < slack * slack) {
            return;
        }
        bool hit_any = false;
        for (std::uint32_t q = kinematic_first_[e]; q < kinematic_first_[e + 1]; ++q) {
            const std::uint32_t b = kinematic_box_of_[q];
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
            float vx = vx_[c] - k.contact_vx[b];
            float vy = vy_[c] - k.contact_vy[b];
            detail::respond_to_impact(vx, vy, hit.normal_x, hit.normal_y, options_.restitution,
                                      options_.friction);
            vx_[c] = vx + k.contact_vx[b];
            vy_[c] = vy + k.contact_vy[b];
            const detail::slide rest =
                detail::slide_after(hit.time, hit.normal_x, hit.normal_y, dx, dy);
            ex = (sx + hit.time * dx) + rest.x + mx;
            ey = (sy + hit.time * dy) + rest.y + my;
            hit_any = true;
        }
        if (hit_any) {
            x_[c] = ex;
            y_[c] = ey;
            settle_in_solver(c);
        }
    });
}

} // namespace simdcollide
