// Continuous collision (docs/world-design.md, "Continuous collision"; the sweep stage): each
// substep's fast circles, their moves swept against the boxes and static circles near their paths,
// so that none passes through a wall or a static circle however fast it goes.
//
// The sweeps use the reference's per-move math (swept.inl) in scalar code shared by every
// instruction set, and each fast circle reads only static obstacles and writes only itself:
// the same bits on every instruction set and at any worker count. A world with no fast
// circle runs none of this and keeps its bits.
#include "world/world_state.hpp"

#include "pairwise/kernel_table.hpp"
#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_impact.hpp"

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

fast_test fast_test_of(const detail::world_state& w, const particles_view& p, float h, float gain) {
    return {p.vx, p.vy, p.radius, p.inverse_mass, w.options().sweep_from, 1.0F / h, gain};
}

// Whether any of n circles passes `fast`: a loop GCC vectorises, since most substeps of
// most worlds have no fast circle.
bool any_fast(const fast_test& fast, std::size_t n) {
    if (!(fast.sweep_from < std::numeric_limits<float>::infinity())) {
        return false;
    }
    int any = 0;
    for (std::size_t i = 0; i < n; ++i) {
        any |= fast(i) ? 1 : 0;
    }
    return any != 0;
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

// Whether a step of substeps of h has a circle that can be fast in it: by its speed now and
// all that gravity can add over the step (a world in bands steps outside them if so).
bool detail::world_state::fast_in_step(float h) {
    const float dt = h * static_cast<float>(options_.substeps);
    return any_fast(fast_test_of(*this, slots(), h, gravity_of(options_) * dt), size());
}

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
float detail::world_state::fast_floor(float h) {
    const fast_test fast = fast_test_of(*this, slots(), h, gravity_of(options_) * h);
    if (!(fast.sweep_from < std::numeric_limits<float>::infinity())) {
        return std::numeric_limits<float>::infinity();
    }
    return detail::combine_over_blocks(
        task_runner(), size(), detail::items_per_task,
        [&](std::size_t first, std::size_t end) { return least_threshold(fast, first, end); },
        [](float least, float f) { return f < least ? f : least; });
}

// Before a substep's positions are integrated, over h: the fast circles (their speed now,
// with a margin of what gravity adds in h) and where each starts. `floor` is fast_floor(h): no
// circle is fast unless one is always fast (floor < 0) or the fastest passes it.
void detail::world_state::find_fast_circles(float h, float floor,
                                            const detail::kernel_table& kernels) {
    fast_.clear();
    fastest_ = std::numeric_limits<float>::infinity(); // not known
    if (!(floor < std::numeric_limits<float>::infinity())) {
        return;
    }
    if (floor >= 0.0F) {
        // Block by block on the workers: the largest of the blocks' largest is the same
        // number, however the circles are cut (a NaN never wins in either).
        const particles_view p = slots();
        fastest_ = detail::combine_over_blocks(
            task_runner(), p.count, detail::items_per_task,
            [&](std::size_t first, std::size_t end) {
                return kernels.world.fastest(detail::circles_of(p, {first, end}));
            },
            [](float most, float f) { return f > most ? f : most; });
        if (!(fastest_ > floor * floor)) {
            return;
        }
    }
    const fast_test fast = fast_test_of(*this, slots(), h, gravity_of(options_) * h);
    slots_where(task_runner(), size(), fast, fast_of_block_, fast_);
    fast_start_x_.resize(fast_.size());
    fast_start_y_.resize(fast_.size());
    for (std::size_t k = 0; k < fast_.size(); ++k) {
        fast_start_x_[k] = x_[fast_[k]];
        fast_start_y_[k] = y_[fast_[k]];
    }
}

std::size_t detail::world_state::look_for_fast_circles(float dt) {
    const float h = dt / static_cast<float>(options_.substeps);
    const float floor = fast_floor(h);
    std::size_t found = 0;
    const detail::kernel_table& kernels = detail::active_table();
    for (int s = 0; s < options_.substeps; ++s) {
        find_fast_circles(h, floor, kernels);
        found += fast_.size();
    }
    return found;
}

// The static circles as boxes (each one's bounding square) in a grid of their own, for the
// sweeps to find those near a path; made at most once a step, when a sweep first needs it.
void detail::world_state::list_static_circles() {
    const auto square_of = [&](std::size_t i) {
        return aabb::from_min_max(x_[i] - radius_[i], y_[i] - radius_[i], x_[i] + radius_[i],
                                  y_[i] + radius_[i]);
    };
    // A static circle that is not valid (a caller wrote a non-finite centre into
    // particles()) stops nothing: the grid takes valid boxes only.
    const auto listed = [&](std::size_t i) {
        const aabb square = square_of(i);
        return inverse_mass_[i] == 0.0F && std::isfinite(square.min_x) &&
               std::isfinite(square.min_y) && std::isfinite(square.max_x) &&
               std::isfinite(square.max_y) && square.min_x <= square.max_x &&
               square.min_y <= square.max_y;
    };
    slots_where(task_runner(), size(), listed, static_of_block_, static_slots_);
    aabb_set squares;
    for (const std::uint32_t s : static_slots_) {
        squares.push_back(square_of(s));
    }
    static_circles_ = static_box_grid(squares.view());
    static_circles_current_ = true;
}

namespace {

// Fast circles a worker sweeps at a time: each takes two or more grid queries.
constexpr std::size_t sweeps_per_task = 64;

} // namespace

// The sweep stage: each fast circle's move of the substep swept; stopped at its first
// impact, its velocity answering it, the rest of the move along the surface swept again.
void detail::world_state::sweep_fast_circles() {
    if (fast_.empty()) {
        return;
    }
    if (!static_circles_current_) {
        list_static_circles();
    }
    const float* const boxes = box_records_.data();
    const auto box_count = static_cast<std::uint32_t>(grid_.size());
    // Each fast circle's sweep reads only the obstacles, which stay where they are, and
    // writes only that circle: blocks of them on the workers, each with its own candidates.
    const std::size_t blocks = (fast_.size() + sweeps_per_task - 1) / sweeps_per_task;
    near_of_block_.resize(blocks);
    detail::for_each_item(task_runner(), blocks, [&](std::size_t block) {
        std::vector<std::uint32_t>& near = near_of_block_[block];
        const std::size_t end = std::min(fast_.size(), (block + 1) * sweeps_per_task);
        for (std::size_t k = block * sweeps_per_task; k < end; ++k) {
            sweep_fast_circle(k, boxes, box_count, near);
        }
    });
}

// The sweep of fast circle k (fast_[k]), with `near` as the grid queries' scratch.
void detail::world_state::sweep_fast_circle(std::size_t k, const float* boxes,
                                            std::uint32_t box_count,
                                            std::vector<std::uint32_t>& near) {
    const std::uint32_t f = fast_[k];
    const float r = radius_[f];
    // The first impact of the move from (sx, sy) by (dx, dy) among the boxes (by index)
    // and the static circles (box_count + their index), skipping obstacle `skip`.
    const auto first_impact = [&](float sx, float sy, float dx, float dy, std::uint32_t skip) {
        first_hit first;
        grid_.candidates_along(sx, sy, r, dx, dy, near);
        for (const std::uint32_t e : near) {
            const float* b = boxes + 4 * std::size_t{e};
            if (e != skip) {
                first.offer(sweep::sweep_box_of(sx, sy, r, dx, dy, b[0], b[1], b[2], b[3]), e);
            }
        }
        static_circles_.candidates_along(sx, sy, r, dx, dy, near);
        for (const std::uint32_t c : near) {
            const std::uint32_t s = static_slots_[c];
            if (box_count + c != skip) {
                first.offer(sweep::sweep_circle_of(sx, sy, r, dx, dy, x_[s], y_[s], radius_[s]),
                            box_count + c);
            }
        }
        return first;
    };
    const float sx = fast_start_x_[k];
    const float sy = fast_start_y_[k];
    const float dx = x_[f] - sx;
    const float dy = y_[f] - sy;
    const first_hit hit = first_impact(sx, sy, dx, dy, none);
    if (hit.obstacle == none) {
        return;
    }
    const sweep::impact_result& a = hit.impact;
    detail::respond_to_impact(vx_[f], vy_[f], a.normal_x, a.normal_y, options_.restitution,
                              options_.friction);
    // Up to the impact, then the rest of the move less its part into the surface.
    const float ix = sx + a.time * dx;
    const float iy = sy + a.time * dy;
    const detail::slide rest = detail::slide_after(a.time, a.normal_x, a.normal_y, dx, dy);
    const float rx = rest.x;
    const float ry = rest.y;
    const first_hit second = first_impact(ix, iy, rx, ry, hit.obstacle);
    const float t = second.obstacle == none ? 1.0F : second.impact.time;
    if (second.obstacle != none) {
        const sweep::impact_result& b = second.impact;
        detail::respond_to_impact(vx_[f], vy_[f], b.normal_x, b.normal_y, options_.restitution,
                                  options_.friction);
    }
    x_[f] = ix + t * rx;
    y_[f] = iy + t * ry;
    settle_in_solver(f);
}

} // namespace simdcollide
