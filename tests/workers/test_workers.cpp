// Workers (workers.hpp): a world steps to the same bits with any number of workers, on its
// own pool or on a host's callbacks however they run the ranges (at once, in reverse, on
// another thread), on every instruction set; a task that throws reaches the caller; bad
// worker options are refused.
#include "broad_phase/circle_grid.hpp"
#include "host_tasks.hpp"
#include "runtime/tasks.hpp"
#include "runtime/worker_pool.hpp"
#include "scenes/scenes.hpp"
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <simdcollide/simdcollide.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace simdcollide::testing {
namespace {

// A pile of 4 200 circles falling into a container with obstacles: radii 0.2 to 0.5, a
// tenth of them static, random velocities.
void fill(particle_world& world, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    aabb_set boxes = open_container(40.0F, 120.0F);
    for (int k = 0; k < 6; ++k) {
        boxes.push_back(aabb::from_origin_size(unit(rng) * 36.0F, 2.0F + unit(rng) * 20.0F,
                                               1.0F + 3.0F * unit(rng), 0.5F + unit(rng)));
    }
    world.set_boxes(boxes.view());
    for (std::size_t i = 0; i < 4200; ++i) {
        const circle c{0.6F + static_cast<float>(i % 48) * 0.8F + 0.1F * unit(rng),
                       1.0F + static_cast<float>(i / 48) * 0.85F, 0.2F + 0.3F * unit(rng)};
        world.add_circle(c, i % 10 == 0 ? 0.0F : 0.5F + unit(rng), 2.0F * unit(rng) - 1.0F,
                         2.0F * unit(rng) - 1.0F);
    }
}

std::vector<std::uint32_t> state_of(particle_world& world) {
    const particles_view p = world.particles();
    std::vector<std::uint32_t> out;
    out.reserve(4 * p.count);
    for (std::size_t i = 0; i < p.count; ++i) {
        out.insert(out.end(), {bits(p.x[i]), bits(p.y[i]), bits(p.vx[i]), bits(p.vy[i])});
    }
    return out;
}

// The options the scenes step with: the defaults; bouncy and slippery; and more substeps
// with several relax passes.
std::vector<world_options> option_sets() {
    std::vector<world_options> out(3);
    out[1].restitution = 0.6F;
    out[1].restitution_threshold = 0.1F;
    out[1].friction = 0.0F;
    out[2].substeps = 3;
    out[2].relax_iterations = 2;
    return out;
}

#ifdef NDEBUG
constexpr int steps = 40;
#else
// Debug builds (the sanitizer job's) run some twenty times slower: fewer steps.
constexpr int steps = 10;
#endif
constexpr int compare_every = 10;

// Steps a world with `options` next to one with a single worker, comparing bits.
void expect_same_as_one_worker(const world_options& options, const char* what) {
    world_options one = options;
    one.workers = 1;
    one.tasks = {};
    particle_world want(one);
    particle_world got(options);
    fill(want, 7);
    fill(got, 7);
    for (int s = 1; s <= steps; ++s) {
        want.step(1.0F / 60.0F);
        got.step(1.0F / 60.0F);
        if (s % compare_every == 0) {
            ASSERT_EQ(state_of(got), state_of(want)) << what << ", step " << s;
        }
    }
}

class workers_same_bits : public on_each_isa {};

TEST_P(workers_same_bits, any_worker_count_gives_one_workers_bits) {
    for (const world_options& base : option_sets()) {
        for (int workers : {2, 3, 4, 7, 16}) {
            world_options o = base;
            o.workers = workers;
            expect_same_as_one_worker(o, ("workers " + std::to_string(workers)).c_str());
        }
    }
}

// Hostile circles step to the same bits on several workers: extreme inverse masses, one
// circle far from the rest, one whose radius spans many blocks' circles, and positions
// and velocities the caller set to NaN and infinity between steps (NaN counts as equal to
// NaN: the world never reads a NaN's payload to pick a path).
TEST_P(workers_same_bits, hostile_circles_step_as_on_one_worker) {
    const auto hostile = [](int workers) {
        world_options o;
        o.workers = workers;
        auto world = std::make_unique<particle_world>(o);
        fill(*world, 5);
        world->add_circle({1e7F, -3e6F, 0.5F}, 1.0F);
        world->add_circle({20.0F, 40.0F, 30.0F}, 0.0F);
        world->add_circle({5.0F, 30.0F, 0.3F}, 3e37F);
        world->add_circle({6.0F, 30.0F, 0.3F}, 1e-30F);
        world->step(1.0F / 60.0F);
        const particles_view p = world->particles();
        p.x[17] = std::numeric_limits<float>::quiet_NaN();
        p.vy[1234] = std::numeric_limits<float>::infinity();
        p.y[2222] = -std::numeric_limits<float>::infinity();
        for (int s = 0; s < steps / 4; ++s) {
            world->step(1.0F / 60.0F);
        }
        return world;
    };
    const auto one = hostile(1);
    const particles_view want = one->particles();
    for (int workers : {3, 16}) {
        const auto got_world = hostile(workers);
        const particles_view got = got_world->particles();
        for (std::size_t i = 0; i < want.count; ++i) {
            for (const auto& [g, w] :
                 {std::pair{got.x[i], want.x[i]}, std::pair{got.y[i], want.y[i]},
                  std::pair{got.vx[i], want.vx[i]}, std::pair{got.vy[i], want.vy[i]}}) {
                ASSERT_TRUE(bits(g) == bits(w) || (std::isnan(g) && std::isnan(w)))
                    << workers << " workers, circle " << i << ": " << g << " against " << w;
            }
        }
    }
}

TEST_P(workers_same_bits, host_callbacks_give_one_workers_bits) {
    int workers = 3;
    for (const world_options& base : option_sets()) {
        world_options o = base;
        o.workers = workers;
        o.tasks = {&run_inline, &never_called, nullptr};
        expect_same_as_one_worker(o, "inline");
        o.tasks = {&run_in_reverse, &never_called, &workers};
        expect_same_as_one_worker(o, "in reverse");
        o.tasks = {&run_on_a_thread, &join_thread, nullptr};
        expect_same_as_one_worker(o, "on another thread");
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, workers_same_bits, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

// 2 400 circles packed among 400 kinematic boxes going every way, most at up to 2 m/s and a
// quarter at up to 60 m/s (fast enough to be swept against): over 1 024 circles near a box,
// so that the kinematic sweeps and the solver take blocks on the workers (in blocks of 1 024 slots,
// so that the step keeps two busy). 3 and 7 workers step it to the bits of one.
TEST(workers_kinematic, kinematic_boxes_on_workers_give_one_workers_bits) {
    const auto stepped = [](int workers) {
        particle_world world({.gravity_y = 0.0F, .workers = workers});
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (int k = 0; k < 400; ++k) {
            const float top = k % 4 == 0 ? 60.0F : 2.0F;
            world.add_kinematic_box(
                aabb::from_origin_size(unit(rng) * 30.0F, unit(rng) * 30.0F, 1.0F, 1.0F),
                top * (2.0F * unit(rng) - 1.0F), top * (2.0F * unit(rng) - 1.0F));
        }
        for (std::size_t i = 0; i < 2400; ++i) {
            world.add_circle({static_cast<float>(i % 48) * 0.65F,
                              static_cast<float>(i / 48) * 0.65F, 0.2F + 0.1F * unit(rng)},
                             0.5F + unit(rng), unit(rng) - 0.5F, unit(rng) - 0.5F);
        }
        for (int s = 0; s < 10; ++s) {
            world.step(1.0F / 60.0F);
        }
        EXPECT_GT(detail::state_of(world).kinematic_circle_count(), 1024U);
        return state_of(world);
    };
    const std::vector<std::uint32_t> want = stepped(1);
    EXPECT_EQ(stepped(3), want);
    EXPECT_EQ(stepped(7), want);
}

// 600 crates of several sizes and masses falling among 1 500 circles onto the floor and
// onto static and kinematic boxes: enough boxes that their listing takes blocks on the
// workers. 2, 3 and 16 workers step the circles and the crates to the bits of one.
TEST(workers_dynamic_boxes, crates_among_circles_on_workers_give_one_workers_bits) {
    const auto stepped = [](int workers) {
        particle_world world({.workers = workers});
        aabb_set boxes = open_container(40.0F, 80.0F);
        boxes.push_back(aabb::from_min_max(10.0F, 8.0F, 14.0F, 8.5F)); // a shelf
        world.set_boxes(boxes.view());
        world.add_kinematic_box(aabb::from_min_max(25.0F, 0.0F, 27.0F, 2.0F), -1.0F, 0.0F);
        std::mt19937 rng(9);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t k = 0; k < 600; ++k) {
            const float x = 0.5F + 1.3F * static_cast<float>(k % 30);
            const float y = 1.0F + 1.1F * static_cast<float>(k / 30);
            world.add_dynamic_box(
                aabb::from_origin_size(x, y, 0.4F + 0.6F * unit(rng), 0.3F + 0.6F * unit(rng)),
                0.25F + 2.0F * unit(rng), unit(rng) - 0.5F, 0.0F);
        }
        for (std::size_t i = 0; i < 1500; ++i) {
            world.add_circle({0.6F + 0.52F * static_cast<float>(i % 75),
                              24.0F + 0.52F * static_cast<float>(i / 75), 0.15F + 0.1F * unit(rng)},
                             0.5F + unit(rng));
        }
        for (int s = 0; s < 40; ++s) {
            world.step(1.0F / 60.0F);
        }
        std::vector<std::uint32_t> out = state_of(world);
        const dynamic_boxes_view b = world.dynamic_boxes();
        for (std::size_t j = 0; j < b.count; ++j) {
            out.insert(out.end(), {bits(b.x[j]), bits(b.y[j]), bits(b.vx[j]), bits(b.vy[j])});
            EXPECT_TRUE(std::isfinite(b.x[j]) && std::isfinite(b.y[j])) << "crate " << j;
        }
        return out;
    };
    const std::vector<std::uint32_t> want = stepped(1);
    EXPECT_EQ(stepped(2), want);
    EXPECT_EQ(stepped(3), want);
    EXPECT_EQ(stepped(16), want);
}

// 4 200 circles (enough that the step keeps two workers busy) shot at 30 to 60 m/s,
// bouncing without loss, through a field of static circles inside a container, so that
// each substep finds hundreds of fast circles and sweeps them (continuous collision) in
// several blocks on the workers; 3 and 16 workers step it to the bits of one.
TEST(workers_sweep, fast_circles_are_found_and_swept_on_the_workers_with_one_workers_bits) {
    const auto stepped = [](int workers) {
        particle_world world(
            {.gravity_y = 0.0F, .restitution = 1.0F, .friction = 0.0F, .workers = workers});
        world.set_boxes(open_container(60.0F, 90.0F).view());
        std::mt19937 rng(12);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t i = 0; i < 4200; ++i) {
            const bool obstacle = i % 6 == 0;
            const float speed = obstacle ? 0.0F : 30.0F + 30.0F * unit(rng);
            const float angle = 6.2831853F * unit(rng);
            world.add_circle({1.0F + static_cast<float>(i % 58) * 1.0F,
                              1.0F + static_cast<float>(i / 58) * 1.1F, 0.2F + 0.2F * unit(rng)},
                             obstacle ? 0.0F : 0.5F + unit(rng), speed * std::cos(angle),
                             speed * std::sin(angle));
        }
        std::size_t fast = 0;
        for (int s = 0; s < 8; ++s) {
            world.step(1.0F / 60.0F);
            fast += detail::state_of(world).look_for_fast_circles(1.0F / 60.0F);
        }
        EXPECT_GT(fast, 8U * 4U * 128U); // over two blocks of sweeps a substep
        return state_of(world);
    };
    const std::vector<std::uint32_t> want = stepped(1);
    EXPECT_EQ(stepped(3), want);
    EXPECT_EQ(stepped(16), want);
}

// The grid's shape for a listing, measured in runs of circles on 3 and 7 workers: the one
// thread's shape, also with invalid circles, large ones and one far from the rest.
TEST(workers_listing, the_grids_shape_is_one_threads_on_any_number_of_workers) {
    for (const bool far : {false, true}) {
        std::mt19937 rng(31);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        circle_set c;
        for (std::size_t i = 0; i < 60000; ++i) {
            const float r = i % 97 == 0 ? 3.0F : 0.2F + 0.2F * unit(rng);
            c.push_back({unit(rng) * 300.0F, unit(rng) * 200.0F, r});
        }
        c.x[40000] = std::numeric_limits<float>::quiet_NaN();
        c.radius[50000] = -1.0F;
        if (far) {
            c.x[59999] = 1e7F; // in the last run
        }
        const detail::circle_grid want = detail::circle_grid_for(c.view(), 0.1F);
        for (const std::size_t workers : {3U, 7U}) {
            detail::worker_pool pool(workers);
            const detail::circle_grid got =
                detail::circle_grid_for(c.view(), 0.1F, {pool.callbacks(), workers});
            EXPECT_EQ(bits(got.r_small), bits(want.r_small)) << far;
            EXPECT_EQ(got.shape.columns, want.shape.columns) << far;
            EXPECT_EQ(got.shape.rows, want.shape.rows) << far;
            EXPECT_EQ(got.shape.origin_x, want.shape.origin_x) << far;
            EXPECT_EQ(got.shape.origin_y, want.shape.origin_y) << far;
            EXPECT_EQ(got.shape.size, want.shape.size) << far;
        }
    }
}

// A world large enough that its full listing (the sort into cells, the pair search) runs
// on the workers: 40 000 circles, some large, listed in full on the first step and again
// when they are sorted into slots; 3 and 16 workers give one worker's bits.
TEST(workers_listing, a_large_world_lists_on_the_workers_with_one_workers_bits) {
    const auto stepped = [](int workers) {
        particle_world world({.workers = workers});
        world.set_boxes(open_container(200.0F, 400.0F).view());
        std::mt19937 rng(8);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t i = 0; i < 40000; ++i) {
            const float r = i % 50 == 0 ? 1.5F : 0.2F + 0.2F * unit(rng);
            world.add_circle({1.0F + static_cast<float>(i % 200) * 0.99F,
                              1.0F + static_cast<float>(i / 200) * 0.99F, r},
                             0.5F + unit(rng), unit(rng) - 0.5F, unit(rng) - 0.5F);
        }
        for (int s = 0; s < 3; ++s) {
            world.step(1.0F / 60.0F);
        }
        EXPECT_GE(world.listings().full, 1U);
        return state_of(world);
    };
    const std::vector<std::uint32_t> want = stepped(1);
    EXPECT_EQ(stepped(3), want);
    EXPECT_EQ(stepped(16), want);
}

// A large world that relists a few thousand circles a step on the workers (the search for
// the leavers' pairs, the merge of its list of over 65 536 pairs chunk by chunk),
// rows_with_movers; 3 and 16 workers give one worker's bits.
TEST(workers_listing, a_large_world_relists_on_the_workers_with_one_workers_bits) {
    const auto stepped = [](int workers) {
        particle_world world = rows_with_movers(workers);
        for (int s = 0; s < 30; ++s) {
            world.step(1.0F / 60.0F);
        }
        EXPECT_GE(world.listings().partial, 3U);
        EXPECT_GT(world.last_pair_count(), 65536U);
        return state_of(world);
    };
    const std::vector<std::uint32_t> want = stepped(1);
    EXPECT_EQ(stepped(3), want);
    EXPECT_EQ(stepped(16), want);
}

// The runner: every item once, on the pool or on callbacks, and an item's exception (the
// lowest item's, when several throw) reaches the caller after every item has run.
TEST(workers_tasks, every_item_runs_once_and_the_lowest_failure_is_thrown) {
    detail::worker_pool pool(4);
    int reverse_workers = 4;
    const detail::task_runner runners[] = {
        {pool.callbacks(), 4},
        {{&run_in_reverse, &never_called, &reverse_workers}, 4},
        {{&run_on_a_thread, &join_thread, nullptr}, 2},
        {{}, 1},
    };
    for (const detail::task_runner& runner : runners) {
        std::vector<std::atomic<int>> ran(1000);
        detail::for_each_item(runner, ran.size(), [&](std::size_t k) { ++ran[k]; });
        for (const std::atomic<int>& r : ran) {
            ASSERT_EQ(r.load(), 1);
        }
        std::atomic<int> calls{0};
        const auto failing = [&](std::size_t k) {
            ++calls;
            if (k == 700) {
                throw std::runtime_error("item 700");
            }
            if (k == 300) {
                throw std::bad_alloc();
            }
        };
        EXPECT_THROW(detail::for_each_item(runner, 1000, failing), std::bad_alloc);
        if (runner.parallel()) {
            EXPECT_EQ(calls.load(), 1000);
        }
    }
}

// The pool's split of a task: the ranges of min_range items from item 0 (the last may be
// shorter), each run once, by a worker below the pool's count, for any count of items.
TEST(workers_tasks, the_pool_runs_each_range_of_min_range_items_once) {
    for (const std::size_t workers : {1U, 2U, 3U, 7U}) {
        detail::worker_pool pool(workers);
        const task_callbacks callbacks = pool.callbacks();
        for (const std::size_t items : {0U, 1U, 2U, 3U, 5U, 64U, 1000U}) {
            for (const std::size_t min_range : {1U, 3U, 64U}) {
                struct seen {
                    std::vector<std::atomic<int>> begun, ended;
                    std::atomic<bool> worker_in_range{true};
                    std::size_t workers;
                } got{std::vector<std::atomic<int>>(items + 1),
                      std::vector<std::atomic<int>>(items + 1),
                      {true},
                      workers};
                const auto task = [](std::size_t begin, std::size_t end, std::uint32_t worker,
                                     void* context) {
                    auto& g = *static_cast<seen*>(context);
                    ++g.begun[begin];
                    ++g.ended[end];
                    if (worker >= g.workers) {
                        g.worker_in_range = false;
                    }
                };
                void* const handle =
                    callbacks.enqueue(task, items, min_range, &got, callbacks.user_context);
                EXPECT_EQ(handle, nullptr);
                for (std::size_t at = 0; at <= items; ++at) {
                    const bool starts = at < items && at % min_range == 0;
                    const bool ends = at > 0 && (at % min_range == 0 || at == items);
                    ASSERT_EQ(got.begun[at].load(), starts ? 1 : 0)
                        << workers << " workers, " << items << " items by " << min_range;
                    ASSERT_EQ(got.ended[at].load(), ends ? 1 : 0)
                        << workers << " workers, " << items << " items by " << min_range;
                }
                EXPECT_TRUE(got.worker_in_range.load());
            }
        }
    }
}

// Each worker of the pool starts on a share of its own; one held up in an item leaves the
// rest of its share to the others. Item 0 waits for all the others: were its share's next
// item left to the worker held up in it, the task would never end (the wait gives up after
// a minute, and the test fails).
TEST(workers_tasks, the_pools_workers_take_what_a_held_up_worker_leaves) {
    for (const std::size_t workers : {2U, 4U}) {
        detail::worker_pool pool(workers);
        constexpr std::size_t items = 16;
        std::atomic<std::size_t> others_done{0};
        std::atomic<bool> gave_up{false};
        detail::for_each_item({pool.callbacks(), workers}, items, [&](std::size_t k) {
            if (k != 0) {
                ++others_done;
                return;
            }
            const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
            while (others_done.load() != items - 1) {
                if (std::chrono::steady_clock::now() > until) {
                    gave_up = true;
                    return;
                }
                std::this_thread::yield();
            }
        });
        EXPECT_FALSE(gave_up.load()) << workers << " workers";
        EXPECT_EQ(others_done.load(), items - 1);
    }
}

// Many short tasks back to back, as a step hands over: each range runs once, before its task
// returns, and never again after (a worker that wakes late must not join a task that is over,
// nor run a range of the next one twice). Every task's counts are checked as it returns and
// once more at the end.
TEST(workers_tasks, short_tasks_back_to_back_run_each_range_once) {
    for (const std::size_t workers : {2U, 3U, 7U, 16U}) {
        detail::worker_pool pool(workers);
        const task_callbacks callbacks = pool.callbacks();
        constexpr std::size_t tasks = 5000;
        constexpr std::size_t most_items = 5;
        std::vector<std::array<std::atomic<int>, most_items>> ran(tasks);
        std::mt19937 rng(static_cast<std::uint32_t>(workers));
        std::uniform_int_distribution<std::size_t> items_of(1, most_items);
        std::vector<std::size_t> items(tasks);
        for (std::size_t t = 0; t < tasks; ++t) {
            items[t] = items_of(rng);
            const auto task = [](std::size_t begin, std::size_t end, std::uint32_t /*worker*/,
                                 void* context) {
                auto& counts = *static_cast<std::array<std::atomic<int>, most_items>*>(context);
                for (std::size_t k = begin; k < end; ++k) {
                    ++counts[k];
                }
            };
            callbacks.enqueue(task, items[t], 1, &ran[t], callbacks.user_context);
            for (std::size_t k = 0; k < most_items; ++k) {
                ASSERT_EQ(ran[t][k].load(), k < items[t] ? 1 : 0)
                    << workers << " workers, task " << t << ", item " << k;
            }
        }
        for (std::size_t t = 0; t < tasks; ++t) {
            for (std::size_t k = 0; k < most_items; ++k) {
                ASSERT_EQ(ran[t][k].load(), k < items[t] ? 1 : 0)
                    << workers << " workers, task " << t << ", item " << k << ", at the end";
            }
        }
    }
}

// A host whose enqueue fails (as when it cannot allocate a task) on its n-th call.
struct failing_host {
    int calls_left;
};
void* enqueue_or_fail(task_function* task, std::size_t items, std::size_t /*min_range*/,
                      void* context, void* user) {
    auto& host = *static_cast<failing_host*>(user);
    if (host.calls_left-- == 0) {
        throw std::bad_alloc();
    }
    task(0, items, 0, context);
    return nullptr;
}

TEST(workers_tasks, a_failed_task_reaches_the_caller_of_step) {
    const auto five_steps = [](int fail_at) {
        failing_host host{fail_at};
        world_options o;
        o.workers = 2;
        o.tasks = {&enqueue_or_fail, &never_called, &host};
        auto world = std::make_unique<particle_world>(o);
        fill(*world, 3);
        bool threw = false;
        try {
            for (int s = 0; s < 5; ++s) {
                world->step(1.0F / 60.0F);
            }
        } catch (const std::bad_alloc&) {
            threw = true;
        }
        world.reset(); // the world can still be destroyed
        return std::pair{threw, fail_at - host.calls_left};
    };
    // How many tasks five steps enqueue; then each of the first, a middle and the last fails.
    const int tasks = five_steps(-1).second;
    ASSERT_GT(tasks, 20);
    for (int fail_at : {0, tasks / 2, tasks - 1}) {
        EXPECT_TRUE(five_steps(fail_at).first) << "failing at task " << fail_at << " of " << tasks;
    }
}

// Worlds made and destroyed, stepped or not: their threads start and stop with them (a
// thread left running or a lost wake-up hangs here), and each steps to the bits of one.
TEST(workers_tasks, own_pool_starts_and_stops_with_the_world) {
    particle_world one;
    fill(one, 11);
    one.step(1.0F / 60.0F);
    for (int k = 0; k < 20; ++k) {
        world_options o;
        o.workers = 1 + k % 5;
        particle_world world(o);
        if (k % 2 == 0) {
            fill(world, 11);
            world.step(1.0F / 60.0F);
            EXPECT_EQ(state_of(world), state_of(one)) << o.workers << " workers";
        }
    }
}

TEST(workers_tasks, bad_worker_options_are_refused) {
    for (int workers : {0, -1, world_options::max_workers + 1}) {
        world_options o;
        o.workers = workers;
        EXPECT_THROW(particle_world{o}, std::invalid_argument) << workers;
    }
    world_options o;
    o.workers = 2;
    o.tasks.enqueue = &run_inline;
    EXPECT_THROW(particle_world{o}, std::invalid_argument);
    o.tasks = {};
    o.tasks.finish = &join_thread;
    EXPECT_THROW(particle_world{o}, std::invalid_argument);
    try {
        o.workers = 0;
        particle_world{o};
        ADD_FAILURE() << "workers 0 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("workers is 0"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace simdcollide::testing
