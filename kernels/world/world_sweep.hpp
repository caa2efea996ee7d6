// Continuous collision (docs/world-design.md, "Continuous collision"): each substep's fast
// circles, and their moves swept against the boxes and static circles near their paths
// (world_sweep.cpp).
#pragma once

#include <simdcollide/static_boxes.hpp>
#include <simdcollide/world.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::detail {

struct world_filters;
struct world_materials;

struct circle_slots;
struct kernel_table;
struct solver_state;
struct task_runner;
struct world_boxes;

struct sweep_state {
    // The substep's fast circles (slots, ascending; found a block of circles at a time) and
    // where each started it.
    std::vector<std::uint32_t> fast;
    std::vector<std::vector<std::uint32_t>> fast_of_block;
    std::vector<float> fast_start_x, fast_start_y;
    float floor = 0.0F; // fast_floor() for the step's substeps
    // The substep's largest squared speed before its positions, where find_fast_circles
    // looked at it; infinity where it did not.
    float fastest = 0.0F;
    // The static circles' bounding squares in a grid of their own (current while
    // static_circles_current, which each step clears), the slot of each (found a block of
    // slots at a time), and each block of sweeps' candidates.
    static_box_grid static_circles;
    std::vector<std::uint32_t> static_slots;
    std::vector<std::vector<std::uint32_t>> static_of_block, near_of_block;
    bool static_circles_current = false;
};

/// The least speed a moving circle must pass to be fast in a substep of h (with what gravity
/// adds in it; negative: one is always fast; infinity: no circle can be).
[[nodiscard]] float fast_floor(const circle_slots& slots, const world_options& options, float h,
                               const task_runner& tasks);

/// The fast_circles stage, before a substep's positions are integrated, over h: the fast circles
/// and where each starts, with sweeps.floor the step's fast_floor.
void find_fast_circles(sweep_state& sweeps, circle_slots& slots, const world_options& options,
                       float h, const kernel_table& kernels, const task_runner& tasks);

/// The sweep stage: each fast circle's move of the substep swept; stopped at its first
/// impact, its velocity answering it, the rest of the move along the surface swept again.
void sweep_fast_circles(sweep_state& sweeps, circle_slots& slots, solver_state& solver,
                        const world_boxes& boxes, const world_materials& materials,
                        const world_filters& filters, const task_runner& tasks);

} // namespace simdcollide::detail
