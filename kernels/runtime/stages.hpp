// Stages in order on the workers with one hand-off for them all (tasks.hpp hands off each
// task alone): a pass of the soft step's solver is a stage a colour, each a few microseconds
// of work on a small world, and the workers wait for each other between colours without
// the task being handed out and collected again (docs/performance.md, "The soft step on
// workers", has what it gains).
#pragma once

#include "runtime/tasks.hpp"

#include <cstddef>
#include <span>
#include <type_traits>

namespace simdcollide::detail {

/// Block `block` of stage `stage`; context is run_stages'. Never throws.
using stage_function = void(std::size_t stage, std::size_t block, void* context);

/// body(s, k, context) for every k < blocks_of[s] of every stage s, on the runner's workers:
/// the blocks of a stage in any order and on any worker, every one of them before any block
/// of the next stage. One task for all: the workers in it take blocks as they come, and
/// whoever finishes a stage's last block opens the next, so a task run on one thread (a host
/// may run it inside enqueue) still runs every stage. The blocks of a stage must write
/// disjoint data; then the results are those of a loop over stages and blocks.
void run_stages(const task_runner& tasks, std::span<const std::size_t> blocks_of,
                stage_function* body, void* context);

/// run_stages with a callable body(stage, block), which must not throw.
template <class Body>
void run_stages(const task_runner& tasks, std::span<const std::size_t> blocks_of, Body&& body) {
    run_stages(
        tasks, blocks_of,
        [](std::size_t stage, std::size_t block, void* context) {
            (*static_cast<std::remove_reference_t<Body>*>(context))(stage, block);
        },
        &body);
}

} // namespace simdcollide::detail
