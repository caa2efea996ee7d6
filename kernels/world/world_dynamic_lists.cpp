// The dynamic boxes' entries (world_dynamic_boxes.hpp): listed afresh every step, each box
// with what it can touch as it moves in the step. A box's region is its bounds grown by the
// furthest it can go (its speed times dt, gravity's fall, the pair margin); a circle is
// listed with it where the circle's listed reach (where the lists hold it for the step) meets
// the region, another box where their regions meet, a static box or a kinematic box's path
// where it meets the region.
#include "world/world_dynamic_boxes.hpp"

#include "broad_phase/circle_grid.hpp"
#include "runtime/tasks.hpp"
#include "world/world_boxes.hpp"
#include "world/world_kinematic.hpp"
#include "world/world_lists.hpp"
#include "world/world_slots.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace simdcollide {
namespace detail::world_dynamic_lists_impl {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
} // namespace detail::world_dynamic_lists_impl

namespace {

namespace math = detail::world_dynamic_lists_impl;

// Boxes a worker lists at a time: 1 000 crates make 8 blocks, enough to share among a few
// workers (on 2, the crate pile's lists stage did not measurably shrink: docs/performance.md).
constexpr std::size_t boxes_per_task = 128;

struct bounds {
    float min_x, min_y, max_x, max_y;

    [[nodiscard]] bool meets(const bounds& o) const noexcept {
        return min_x <= o.max_x && o.min_x <= max_x && min_y <= o.max_y && o.min_y <= max_y;
    }
};

bool by_a_then_b(circle_pair l, circle_pair r) {
    return l.a != r.a ? l.a < r.a : l.b < r.b;
}

bool finite(const bounds& r) {
    return std::isfinite((r.max_x - r.min_x) + (r.max_y - r.min_y));
}

// Box j's region for a step of dt: where it can go in it. A region past the float range
// falls back to the box grown by the pair margin alone (a region that size is no box the
// grids take), and a box not finite (the caller's edit) meets nothing.
bounds region_of(const detail::dynamic_boxes& d, std::size_t j, float dt, float fall,
                 float margin) {
    const float speed = std::sqrt(d.vx[j] * d.vx[j] + d.vy[j] * d.vy[j]);
    const aabb box = d.bounds(j);
    for (const float reach : {speed * dt + fall + margin, margin}) {
        const bounds r{box.min_x - reach, box.min_y - reach, box.max_x + reach, box.max_y + reach};
        if (finite(r)) {
            return r;
        }
    }
    constexpr float inf = std::numeric_limits<float>::infinity();
    return {inf, inf, -inf, -inf};
}

} // namespace

void detail::list_dynamic_box_entries(dynamic_boxes& dynamic, contact_lists& lists,
                                      const circle_slots& slots, const world_boxes& boxes,
                                      const kinematic_boxes& kinematic,
                                      const world_options& options, float dt,
                                      const task_runner& tasks) {
    dynamic.pairs.clear();
    dynamic.fixed.clear();
    const std::size_t m = dynamic.count();
    if (m == 0) {
        return;
    }
    const std::size_t n = slots.size();
    const auto body_of_box = [&](std::size_t j) { return static_cast<std::uint32_t>(n + j); };
    const float fall = step_fall(options, dt);
    dynamic.region.resize(4 * m);
    for (std::size_t j = 0; j < m; ++j) {
        const bounds r = region_of(dynamic, j, dt, fall, options.pair_margin);
        std::copy_n(&r.min_x, 4, dynamic.region.data() + 4 * j);
    }
    const auto region = [&](std::size_t j) {
        const float* const r = dynamic.region.data() + 4 * j;
        return bounds{r[0], r[1], r[2], r[3]};
    };

    const std::size_t blocks = (m + boxes_per_task - 1) / boxes_per_task;
    if (dynamic.near_of_block.size() < blocks) {
        dynamic.near_of_block.resize(blocks);
    }

    // The circles, through the cells of the listed circles: a few cells a box. On the
    // workers, blocks of boxes joined in order: the entries of one pass over the boxes.
    if (n > 0) {
        if (!lists.cells_current) {
            lists.sort_cells(tasks);
        }
        detail::join_in_blocks(
            tasks, m, boxes_per_task, dynamic.found_of_block, dynamic.pairs,
            [&](std::size_t first, std::size_t end, std::vector<circle_pair>& out, std::size_t) {
                for (std::size_t j = first; j < end; ++j) {
                    const bounds r = region(j);
                    if (!finite(r)) {
                        continue;
                    }
                    const float half_x = (r.max_x - r.min_x) * 0.5F;
                    const float half_y = (r.max_y - r.min_y) * 0.5F;
                    detail::for_each_candidate_within(
                        lists.listed_cells, lists.relisted, r.min_x + half_x, r.min_y + half_y,
                        std::max(half_x, half_y), [&](std::uint32_t i) {
                            const float reach = lists.search_radius[i];
                            if (math::distance_squared_of(lists.listed_x[i], lists.listed_y[i],
                                                          r.min_x, r.min_y, r.max_x,
                                                          r.max_y) <= reach * reach) {
                                out.push_back({i, body_of_box(j)});
                            }
                        });
                }
            });
    }
    // The other dynamic boxes: sweep and prune along x over the regions.
    dynamic.by_left.resize(m);
    for (std::size_t j = 0; j < m; ++j) {
        dynamic.by_left[j] = static_cast<std::uint32_t>(j);
    }
    std::sort(dynamic.by_left.begin(), dynamic.by_left.end(),
              [&](std::uint32_t l, std::uint32_t r) {
                  const float lx = dynamic.region[4 * l];
                  const float rx = dynamic.region[4 * r];
                  return lx != rx ? lx < rx : l < r;
              });
    for (std::size_t s = 0; s < m; ++s) {
        const std::uint32_t j = dynamic.by_left[s];
        const bounds rj = region(j);
        for (std::size_t t = s + 1; t < m; ++t) {
            const std::uint32_t k = dynamic.by_left[t];
            const bounds rk = region(k);
            if (rk.min_x > rj.max_x) {
                break;
            }
            if (rj.meets(rk)) {
                dynamic.pairs.push_back({body_of_box(std::min(j, k)), body_of_box(std::max(j, k))});
            }
        }
    }
    std::sort(dynamic.pairs.begin(), dynamic.pairs.end(), by_a_then_b);

    // The static boxes, through their grid, and the kinematic boxes' paths over the step: on
    // the workers as the circles are.
    const std::size_t statics = boxes.count();
    detail::join_in_blocks(
        tasks, m, boxes_per_task, dynamic.found_of_block, dynamic.fixed,
        [&](std::size_t first, std::size_t end, std::vector<circle_pair>& out, std::size_t k) {
            std::vector<std::uint32_t>& near = dynamic.near_of_block[k];
            for (std::size_t j = first; j < end; ++j) {
                const bounds r = region(j);
                if (statics > 0 && finite(r)) {
                    const float half_x = (r.max_x - r.min_x) * 0.5F;
                    const float half_y = (r.max_y - r.min_y) * 0.5F;
                    boxes.grid.candidates(r.min_x + half_x, r.min_y + half_y,
                                          std::sqrt(half_x * half_x + half_y * half_y), 0.0F, near);
                    for (const std::uint32_t b : near) {
                        const float* const s = boxes.records.data() + 4 * std::size_t{b};
                        if (r.meets({s[0], s[1], s[2], s[3]})) {
                            out.push_back({body_of_box(j), b});
                        }
                    }
                }
                for (std::size_t b = 0; b < kinematic.count(); ++b) {
                    const float* const path_end = kinematic.step_end.data() + 4 * b;
                    const bounds path{std::min(kinematic.min_x[b], path_end[0]),
                                      std::min(kinematic.min_y[b], path_end[1]),
                                      std::max(kinematic.max_x[b], path_end[2]),
                                      std::max(kinematic.max_y[b], path_end[3])};
                    if (r.meets(path)) {
                        out.push_back({body_of_box(j), static_cast<std::uint32_t>(statics + b)});
                    }
                }
            }
        });
}

} // namespace simdcollide
