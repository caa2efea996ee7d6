// Stages in order on the workers (kernels/runtime/stages.hpp), as the soft step's passes run
// them: every block of every stage once, a stage's blocks after all of the one before, and
// what a stage wrote seen by the next, on the world's pools and on hosts that run a task
// inside enqueue, in reverse, or on a thread of their own.
#include "host_tasks.hpp"
#include "runtime/stages.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

// Stages of every kind a pass has: several blocks, one, none (a colour with no contacts).
std::vector<std::size_t> some_stages() {
    std::vector<std::size_t> blocks_of{0, 3, 1, 0, 0, 16, 2, 1, 1, 7, 0};
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::size_t> blocks(0, 9);
    for (int s = 0; s < 60; ++s) {
        blocks_of.push_back(blocks(rng));
    }
    return blocks_of;
}

// Each stage s doubles, block by block, what stage s - 1 left in the other array, plus s:
// data a stage reads is what other blocks, maybe on other workers, wrote before it.
std::vector<std::uint64_t> run_on(const detail::task_runner& tasks,
                                  const std::vector<std::size_t>& blocks_of,
                                  std::vector<std::uint32_t>& runs) {
    constexpr std::size_t per_block = 8;
    const std::size_t width = 16 * per_block;
    std::vector<std::uint64_t> even(width, 1);
    std::vector<std::uint64_t> odd(width, 1);
    std::vector<std::atomic<std::uint32_t>> ran(blocks_of.size() * 16);
    std::vector<std::atomic<std::uint32_t>> done(blocks_of.size());
    std::atomic<bool> in_order{true};
    detail::run_stages(tasks, blocks_of, [&](std::size_t s, std::size_t k) {
        for (std::size_t earlier = 0; earlier < s; ++earlier) {
            if (done[earlier].load() != blocks_of[earlier]) {
                in_order = false;
            }
        }
        const std::vector<std::uint64_t>& from = s % 2 == 0 ? odd : even;
        std::vector<std::uint64_t>& to = s % 2 == 0 ? even : odd;
        // block k of a stage of b blocks writes the k-th of b equal parts of the array
        const std::size_t begin = k * width / blocks_of[s];
        const std::size_t end = (k + 1) * width / blocks_of[s];
        for (std::size_t i = begin; i < end; ++i) {
            to[i] = 2 * from[(i + 1) % width] + s;
        }
        ++ran[s * 16 + k];
        ++done[s];
    });
    EXPECT_TRUE(in_order.load()) << "a block ran before the stage before it was over";
    runs.clear();
    for (const auto& r : ran) {
        runs.push_back(r.load());
    }
    std::vector<std::uint64_t> both = even;
    both.insert(both.end(), odd.begin(), odd.end());
    return both;
}

TEST(stages, run_in_order_each_block_once_on_every_setup) {
    const std::vector<std::size_t> blocks_of = some_stages();
    std::vector<std::uint32_t> one_runs;
    const std::vector<std::uint64_t> one = run_on(detail::task_runner{}, blocks_of, one_runs);
    for (std::size_t s = 0; s < blocks_of.size(); ++s) {
        for (std::size_t k = 0; k < 16; ++k) {
            ASSERT_EQ(one_runs[s * 16 + k], k < blocks_of[s] ? 1U : 0U) << s << " " << k;
        }
    }
    for (const worker_setup& setup : worker_setups()) {
        SCOPED_TRACE(setup.name);
        const workers w = setup.make();
        for (const std::size_t busy : {std::size_t{0}, std::size_t{2}}) {
            SCOPED_TRACE(busy);
            detail::task_runner tasks = detail::runner_of(w);
            tasks.busy_at_most = busy;
            for (int round = 0; round < 20; ++round) {
                std::vector<std::uint32_t> runs;
                ASSERT_EQ(run_on(tasks, blocks_of, runs), one);
                ASSERT_EQ(runs, one_runs);
            }
        }
    }
}

TEST(stages, with_no_block_run_nothing) {
    const workers w(4);
    int calls = 0;
    const std::vector<std::size_t> none{0, 0, 0};
    detail::run_stages(detail::runner_of(w), none, [&](std::size_t, std::size_t) { ++calls; });
    detail::run_stages(detail::runner_of(w), std::vector<std::size_t>{},
                       [&](std::size_t, std::size_t) { ++calls; });
    EXPECT_EQ(calls, 0);
}

} // namespace
} // namespace simdcollide::testing
