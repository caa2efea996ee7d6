// How many workers a step keeps busy (world_options::workers): one for each
// circles_per_worker circles, so a world of fewer than two such steps on the calling thread
// alone. Seen through a host's callbacks that run each task at once and note how many
// ranges min_range lets it be cut into. That this changes no bit is test_workers.cpp's to
// show. The world's own pool leaves such a task to the workers with a share of it, and the
// others sleep.
#include "host_tasks.hpp"
#include "runtime/worker_pool.hpp"
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <simdcollide/simdcollide.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>

namespace simdcollide::testing {
namespace {

// What the host saw: tasks enqueued, and the most ranges any one could be cut into.
struct host_log {
    std::size_t tasks = 0;
    std::size_t most_ranges = 0;
};

void* run_and_log(task_function* task, std::size_t items, std::size_t min_range, void* context,
                  void* user) {
    auto& log = *static_cast<host_log*>(user);
    ++log.tasks;
    log.most_ranges = std::max(log.most_ranges, (items + min_range - 1) / min_range);
    return run_inline(task, items, min_range, context, nullptr);
}

// n circles in rows of 60, falling into a container, on `workers` workers of the host's
// (log).
particle_world logged_pile(std::size_t n, int workers, host_log& log) {
    world_options options;
    options.workers = workers;
    options.tasks = {&run_and_log, &never_called, &log};
    particle_world world(options);
    world.set_boxes(open_container(50.0F, 200.0F).view());
    for (std::size_t i = 0; i < n; ++i) {
        world.add_circle({0.5F + 0.8F * static_cast<float>(i % 60),
                          0.5F + 0.8F * static_cast<float>(i / 60), 0.35F},
                         1.0F, 0.0F, -1.0F);
    }
    return world;
}

TEST(busy_workers, a_small_world_steps_on_the_calling_thread) {
    host_log log;
    particle_world world = logged_pile(2 * world_options::circles_per_worker - 1, 8, log);
    for (int s = 0; s < 20; ++s) {
        world.step(1.0F / 60.0F);
    }
    EXPECT_EQ(log.tasks, 0U) << "tasks enqueued";
    EXPECT_GE(world.listings().partial + world.listings().full, 2U); // it listed on the way
}

TEST(busy_workers, a_step_keeps_a_worker_busy_for_each_circles_per_worker_circles) {
    // three times circles_per_worker circles: three workers busy at most
    for (const int workers : {2, 3, 8, 16}) {
        host_log log;
        particle_world world = logged_pile(3 * world_options::circles_per_worker, workers, log);
        for (int s = 0; s < 20; ++s) {
            world.step(1.0F / 60.0F);
        }
        EXPECT_GT(log.tasks, 0U) << workers << " workers";
        if (workers > 3) { // cut into at most three ranges, and some into more than one
            EXPECT_LE(log.most_ranges, 3U) << workers << " workers";
            EXPECT_GE(log.most_ranges, 2U) << workers << " workers";
        } else { // no more workers than may be busy: cut as finely as the tasks go
            EXPECT_GT(log.most_ranges, 3U) << workers << " workers";
        }
    }
}

// The workers that ran a task's ranges, one bit each (workers < 64).
struct who_ran {
    std::atomic<std::uint64_t> workers{0};
};

void note_worker(std::size_t /*begin*/, std::size_t /*end*/, std::uint32_t worker, void* context) {
    static_cast<who_ran*>(context)->workers |= std::uint64_t{1} << worker;
}

// A task of two ranges on 7 or 16 workers runs on the calling thread and the one worker with
// a share of it: the others do not join it, not even to take a range a slow worker leaves.
TEST(busy_workers, a_pools_workers_without_a_share_stay_out_of_a_task) {
    for (const std::size_t workers : {7U, 16U}) {
        detail::worker_pool pool(workers);
        const task_callbacks callbacks = pool.callbacks();
        who_ran ran;
        for (int t = 0; t < 3000; ++t) {
            callbacks.enqueue(&note_worker, 2, 1, &ran, callbacks.user_context);
        }
        EXPECT_LE(std::popcount(ran.workers.load()), 2) << workers << " workers";
        EXPECT_NE(ran.workers.load() & 1U, 0U) << workers << " workers";
    }
}

// Every range waits for a range of each worker to have started (giving up after a minute).
struct everyone_in {
    std::size_t workers;
    std::atomic<std::uint64_t> in{0};
    std::atomic<bool> gave_up{false};
};

void wait_for_everyone(std::size_t /*begin*/, std::size_t /*end*/, std::uint32_t worker,
                       void* context) {
    auto& e = *static_cast<everyone_in*>(context);
    e.in |= std::uint64_t{1} << worker;
    const std::uint64_t all = (std::uint64_t{1} << e.workers) - 1;
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (e.in.load() != all) {
        if (std::chrono::steady_clock::now() > until) {
            e.gave_up = true;
            return;
        }
        std::this_thread::yield();
    }
}

// Tasks of one range back to back: the other workers have no share of them, so they stop
// spinning and sleep although tasks keep coming. A task with a range for each worker then
// wakes them all: its ranges wait for one another, so it ends only once every worker runs.
TEST(busy_workers, idle_workers_sleep_and_wake_for_a_task_with_a_share_for_them) {
    for (const std::size_t workers : {4U, 16U}) {
        detail::worker_pool pool(workers);
        const task_callbacks callbacks = pool.callbacks();
        who_ran ran;
        const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
        while (pool.sleeping() != workers - 1 && std::chrono::steady_clock::now() < until) {
            callbacks.enqueue(&note_worker, 1, 1, &ran, callbacks.user_context);
        }
        EXPECT_EQ(pool.sleeping(), workers - 1) << workers << " workers";
        EXPECT_EQ(ran.workers.load(), 1U) << workers << " workers";
        everyone_in everyone{workers};
        callbacks.enqueue(&wait_for_everyone, workers, 1, &everyone, callbacks.user_context);
        EXPECT_FALSE(everyone.gave_up.load()) << workers << " workers";
    }
}

} // namespace
} // namespace simdcollide::testing
