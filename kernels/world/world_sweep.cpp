// Continuous collision (docs/world-design.md, "Continuous collision"; the sweep stage): each
// substep's fast circles, their moves swept against the boxes and static circles near their paths,
// so that none passes through a wall or a static circle however fast it goes.
//
// The sweeps use the reference's per-move math (swept.inl) in scalar code shared by every
// instruction set, and each fast circle reads only static obstacles and writes only itself:
// the same bits on every instruction set and at any worker count. A world with no fast
// circle runs none of this and keeps its bits.
#include "world/world_sweep.hpp"

#include "pairwise/kernel_table.hpp"
#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_boxes.hpp"
#include "world/world_filters.hpp"
#include "world/world_impact.hpp"
#include "world/world_materials.hpp"
#include "world/world_slots.hpp"
#include "world/world_solve.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simdcollide {
namespace detail::world_sweep_impl {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
#include "pairwise/reference/swept.inl"
} // namespace detail::world_sweep_impl

namespace {

namespace sweep = detail::world_sweep_impl;

// No obstacle hit: what a fast circle's sweep skips on its second part.
constexpr std::uint32_t none = ~std::uint32_t{0};

// The first impact of a move among a fast circle's obstacles, and which it was (boxes by
// their index, static circles numbered after them). Ties go to the one offered first.
struct first_hit {
    sweep::impact_result impact = sweep::no_impact();
    std::uint32_t obstacle = none;

    void offer(const sweep::impact_result& k, std::uint32_t which) {
        if (k.hit && (obstacle == none || k.time < impact.time)) {
            impact = k;
            obstacle = which;
        }
    }
};

// Whether circle i can move further than sweep_from times its radius in a substep of h:
// speed + `gain` > sweep_from * r / h, compared squared (no square root), a threshold below
// 0 always passed. `gain` is what gravity can add to the speed before the move.
struct fast_test {
    const float* vx;
    const float* vy;
    const float* radius;
    const float* inverse_mass;
    float sweep_from;
    float inverse_h;
    float gain;

    // Without branches (& and |, not && and ||), so that GCC vectorises the loops over it.
    // The speed circle i must pass: sweep_from * r / h - gain.
    [[nodiscard]] float threshold_of(std::size_t i) const {
        return sweep_from * radius[i] * inverse_h - gain;
    }

    [[nodiscard]] bool operator()(std::size_t i) const {
        const float threshold = threshold_of(i);
        const float v2 = vx[i] * vx[i] + vy[i] * vy[i];
        return static_cast<bool>(
            static_cast<int>(inverse_mass[i] > 0.0F) &
            (static_cast<int>(threshold < 0.0F) | static_cast<int>(v2 > threshold * threshold)));
    }
};

fast_test fast_test_of(const detail::circle_slots& slots, const world_options& options, float h,
                       float gain) {
    return {slots.vx.data(),
            slots.vy.data(),
            slots.radius.data(),
            slots.inverse_mass.data(),
            options.sweep_from,
            1.0F / h,
            gain};
}

float gravity_of(const world_options& o) {
    return std::sqrt(o.gravity_x * o.gravity_x + o.gravity_y * o.gravity_y);
}

// The slots i < n where keep(i) holds, ascending, into `out`: block by block on the
// workers (join_in_blocks; of_block holds the blocks' lists).
template <class Keep>
void slots_where(const detail::task_runner& tasks, std::size_t n, Keep&& keep,
                 std::vector<std::vector<std::uint32_t>>& of_block,
                 std::vector<std::uint32_t>& out) {
    detail::join_in_blocks(tasks, n, detail::circles_per_task, of_block, out,
                           [&](std::size_t first, std::size_t end,
                               std::vector<std::uint32_t>& found, std::size_t /*block*/) {
                               for (std::size_t i = first; i < end; ++i) {
                                   if (keep(i)) {
                                       found.push_back(static_cast<std::uint32_t>(i));
                                   }
                               }
                           });
}

} // namespace

namespace {

// The least threshold of `fast` over the moving circles of [first, end) (infinity: none).
float least_threshold(const fast_test& fast, std::size_t first, std::size_t end) {
    float floor = std::numeric_limits<float>::infinity();
    std::size_t i = first;
#if defined(__SSE2__)
    // Four circles at a time (a minimum is exact in any order); a loop of scalar minimums
    // was about 2% of a step of the 10 000-circle pile.
    __m128 least = _mm_set1_ps(floor);
    const __m128 sweep_from = _mm_set1_ps(fast.sweep_from);
    const __m128 inverse_h = _mm_set1_ps(fast.inverse_h);
    const __m128 gain = _mm_set1_ps(fast.gain);
    for (; i + 4 <= end; i += 4) {
        // threshold_of(i), the same operations in the same order
        const __m128 t = _mm_sub_ps(
            _mm_mul_ps(_mm_mul_ps(sweep_from, _mm_loadu_ps(fast.radius + i)), inverse_h), gain);
        const __m128 moving = _mm_cmpgt_ps(_mm_loadu_ps(fast.inverse_mass + i), _mm_setzero_ps());
        least = _mm_min_ps(least, _mm_or_ps(_mm_and_ps(moving, t), _mm_andnot_ps(moving, least)));
    }
    alignas(16) float lanes[4];
    _mm_store_ps(lanes, least);
    for (const float lane : lanes) {
        floor = lane < floor ? lane : floor;
    }
#endif
    for (; i < end; ++i) {
        const float threshold = fast.threshold_of(i);
        floor = fast.inverse_mass[i] > 0.0F && threshold < floor ? threshold : floor;
    }
    return floor;
}

} // namespace

// The step's floor for find_fast_circles with substeps of h: the least threshold of
// fast_test over the moving circles (negative: one is always fast), block by block on the
// workers. Each substep then first compares the largest speed with it, reading two arrays
// where fast_test reads four.
float detail::fast_floor(const circle_slots& slots, const world_options& options, float h,
                         const task_runner& tasks) {
    const fast_test fast = fast_test_of(slots, options, h, gravity_of(options) * h);
    if (!(fast.sweep_from < std::numeric_limits<float>::infinity())) {
        return std::numeric_limits<float>::infinity();
    }
    return detail::combine_over_blocks(
        tasks, slots.size(), detail::items_per_task,
        [&](std::size_t first, std::size_t end) { return least_threshold(fast, first, end); },
        [](float least, float f) { return f < least ? f : least; });
}

// Before a substep's positions are integrated, over h: the fast circles (their speed now,
// with a margin of what gravity adds in h) and where each starts. `floor` is fast_floor(h): no
// circle is fast unless one is always fast (floor < 0) or the fastest passes it.
void detail::find_fast_circles(sweep_state& sweeps, circle_slots& slots,
                               const world_options& options, float h, const kernel_table& kernels,
                               const task_runner& tasks) {
    const float floor = sweeps.floor;
    sweeps.fast.clear();
    sweeps.fastest = std::numeric_limits<float>::infinity(); // not known
    if (!(floor < std::numeric_limits<float>::infinity())) {
        return;
    }
    if (floor >= 0.0F) {
        // Block by block on the workers: the largest of the blocks' largest is the same
        // number, however the circles are cut (a NaN never wins in either).
        const particles_view p = slots.view();
        sweeps.fastest = detail::combine_over_blocks(
            tasks, slots.size(), detail::items_per_task,
            [&](std::size_t first, std::size_t end) {
                return kernels.world.fastest(detail::circles_of(p, {first, end}));
            },
            [](float most, float f) { return f > most ? f : most; });
        if (!(sweeps.fastest > floor * floor)) {
            return;
        }
    }
    const fast_test fast = fast_test_of(slots, options, h, gravity_of(options) * h);
    slots_where(tasks, slots.size(), fast, sweeps.fast_of_block, sweeps.fast);
    sweeps.fast_start_x.resize(sweeps.fast.size());
    sweeps.fast_start_y.resize(sweeps.fast.size());
    for (std::size_t k = 0; k < sweeps.fast.size(); ++k) {
        sweeps.fast_start_x[k] = slots.x[sweeps.fast[k]];
        sweeps.fast_start_y[k] = slots.y[sweeps.fast[k]];
    }
}

std::size_t detail::world_state::look_for_fast_circles(float dt) {
    const float h = dt / static_cast<float>(options_.substeps);
    const detail::task_runner tasks = task_runner();
    sweeps_.floor = fast_floor(slots_, options_, h, tasks);
    std::size_t found = 0;
    const detail::kernel_table& kernels = detail::active_table();
    for (int s = 0; s < options_.substeps; ++s) {
        find_fast_circles(sweeps_, slots_, options_, h, kernels, tasks);
        found += sweeps_.fast.size();
    }
    return found;
}

namespace {

// Fast circles a worker sweeps at a time: each takes two or more grid queries.
constexpr std::size_t sweeps_per_task = 64;

// The static circles as boxes (each one's bounding square) in a grid of their own, for the
// sweeps to find those near a path; made at most once a step, when a sweep first needs it.
void list_static_circles(detail::sweep_state& sweeps, const detail::circle_slots& slots,
                         const detail::task_runner& tasks) {
    const auto square_of = [&](std::size_t i) {
        return aabb::from_min_max(slots.x[i] - slots.radius[i], slots.y[i] - slots.radius[i],
                                  slots.x[i] + slots.radius[i], slots.y[i] + slots.radius[i]);
    };
    // A static circle that is not valid (a caller wrote a non-finite centre into
    // particles()) stops nothing: the grid takes valid boxes only.
    const auto listed = [&](std::size_t i) {
        const aabb square = square_of(i);
        return slots.inverse_mass[i] == 0.0F && std::isfinite(square.min_x) &&
               std::isfinite(square.min_y) && std::isfinite(square.max_x) &&
               std::isfinite(square.max_y) && square.min_x <= square.max_x &&
               square.min_y <= square.max_y;
    };
    slots_where(tasks, slots.size(), listed, sweeps.static_of_block, sweeps.static_slots);
    aabb_set squares;
    for (const std::uint32_t s : sweeps.static_slots) {
        squares.push_back(square_of(s));
    }
    sweeps.static_circles = static_box_grid(squares.view());
    sweeps.static_circles_current = true;
}

// The sweep of fast circle k (sweeps.fast[k]), with `near` as the grid queries' scratch.
void sweep_fast_circle(const detail::sweep_state& sweeps, detail::circle_slots& slots,
                       detail::solver_state& solver, const detail::world_boxes& boxes_of_world,
                       const detail::world_materials& materials,
                       const detail::world_filters& filters, std::size_t k,
                       std::vector<std::uint32_t>& near) {
    const float* const boxes = boxes_of_world.records.data();
    const static_box_grid& grid = boxes_of_world.grid;
    const auto box_count = static_cast<std::uint32_t>(grid.size());
    const std::uint32_t f = sweeps.fast[k];
    const float r = slots.radius[f];
    // The first impact of the move from (sx, sy) by (dx, dy) among the boxes (by index)
    // and the static circles (box_count + their index), skipping obstacle `skip`.
    const auto first_impact = [&](float sx, float sy, float dx, float dy, std::uint32_t skip) {
        first_hit first;
        grid.candidates_along(sx, sy, r, dx, dy, near);
        for (const std::uint32_t e : near) {
            const float* b = boxes + 4 * std::size_t{e};
            if (e != skip && (!filters.active || filters.collides_with_box(f, e))) {
                first.offer(sweep::sweep_box_of(sx, sy, r, dx, dy, b[0], b[1], b[2], b[3]), e);
            }
        }
        sweeps.static_circles.candidates_along(sx, sy, r, dx, dy, near);
        for (const std::uint32_t c : near) {
            const std::uint32_t s = sweeps.static_slots[c];
            if (box_count + c != skip && (!filters.active || filters.bodies_collide(f, s))) {
                first.offer(sweep::sweep_circle_of(sx, sy, r, dx, dy, slots.x[s], slots.y[s],
                                                   slots.radius[s]),
                            box_count + c);
            }
        }
        return first;
    };
    const float sx = sweeps.fast_start_x[k];
    const float sy = sweeps.fast_start_y[k];
    const float dx = slots.x[f] - sx;
    const float dy = slots.y[f] - sy;
    const first_hit hit = first_impact(sx, sy, dx, dy, none);
    if (hit.obstacle == none) {
        return;
    }
    // The pair's materials: the circle's with the box's, or with the static circle's.
    const auto respond = [&](const sweep::impact_result& i, std::uint32_t obstacle) {
        const bool box = obstacle < box_count;
        const std::size_t other = box ? obstacle : sweeps.static_slots[obstacle - box_count];
        const detail::material_arrays with = box ? materials.step_boxes() : materials.bodies();
        detail::respond_to_impact(
            slots.vx[f], slots.vy[f], i.normal_x, i.normal_y,
            detail::combined_restitution(materials.body_restitution[f], with.restitution[other]),
            detail::combined_friction(materials.body_friction[f], with.friction[other]));
    };
    const sweep::impact_result& a = hit.impact;
    respond(a, hit.obstacle);
    // Up to the impact, then the rest of the move less its part into the surface.
    const float ix = sx + a.time * dx;
    const float iy = sy + a.time * dy;
    const detail::slide rest = detail::slide_after(a.time, a.normal_x, a.normal_y, dx, dy);
    const float rx = rest.x;
    const float ry = rest.y;
    const first_hit second = first_impact(ix, iy, rx, ry, hit.obstacle);
    const float t = second.obstacle == none ? 1.0F : second.impact.time;
    if (second.obstacle != none) {
        respond(second.impact, second.obstacle);
    }
    slots.x[f] = ix + t * rx;
    slots.y[f] = iy + t * ry;
    settle_in_solver(solver, slots, f);
}

} // namespace

// The sweep stage: each fast circle's move of the substep swept; stopped at its first
// impact, its velocity answering it, the rest of the move along the surface swept again.
void detail::sweep_fast_circles(sweep_state& sweeps, circle_slots& slots, solver_state& solver,
                                const world_boxes& boxes, const world_materials& materials,
                                const world_filters& filters, const task_runner& tasks) {
    if (sweeps.fast.empty()) {
        return;
    }
    if (!sweeps.static_circles_current) {
        list_static_circles(sweeps, slots, tasks);
    }

    // Each fast circle's sweep reads only the obstacles, which stay where they are, and
    // writes only that circle: blocks of them on the workers, each with its own candidates.
    const std::size_t blocks = (sweeps.fast.size() + sweeps_per_task - 1) / sweeps_per_task;
    sweeps.near_of_block.resize(blocks);
    detail::for_each_item(tasks, blocks, [&](std::size_t block) {
        std::vector<std::uint32_t>& near = sweeps.near_of_block[block];
        const std::size_t end = std::min(sweeps.fast.size(), (block + 1) * sweeps_per_task);
        for (std::size_t k = block * sweeps_per_task; k < end; ++k) {
            sweep_fast_circle(sweeps, slots, solver, boxes, materials, filters, k, near);
        }
    });
}

} // namespace simdcollide
