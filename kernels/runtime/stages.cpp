// Stages in order on the workers (stages.hpp).
#include "runtime/stages.hpp"

#include "runtime/spin_wait.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace simdcollide::detail {

namespace {

// The first stage from `stage` on that has a block (the count of stages if none has).
std::size_t open_from(std::span<const std::size_t> blocks_of, std::size_t stage) noexcept {
    while (stage < blocks_of.size() && blocks_of[stage] == 0) {
        ++stage;
    }
    return stage;
}

class stages_under_way {
public:
    stages_under_way(std::span<const std::size_t> blocks_of, stage_function* body, void* context,
                     std::size_t workers, bool yield)
        : blocks_of_(blocks_of), body_(body), context_(context), workers_(workers), yield_(yield),
          first_block_(blocks_of.size() + 1, 0), done_(blocks_of.size()) {
        for (std::size_t s = 0; s < blocks_of.size(); ++s) {
            first_block_[s + 1] = first_block_[s] + blocks_of[s];
        }
        taken_ = std::vector<std::atomic<std::uint8_t>>(first_block_.back());
        open_.store(open_from(blocks_of, 0), std::memory_order_relaxed);
    }

    // Worker w's part: in each stage, the blocks not yet taken, from the w-th of the workers'
    // equal shares on (so that a worker tends to take the same contacts, and their circles,
    // stage after stage), until every stage is over.
    void take_part(std::size_t w) noexcept {
        const std::size_t stages = blocks_of_.size();
        std::size_t next = 0;
        for (;;) {
            std::size_t s = open_.load(std::memory_order_acquire);
            while (s < next) {
                wait_a_little(yield_); // the last blocks of the open stage are under way elsewhere
                s = open_.load(std::memory_order_acquire);
            }
            if (s >= stages) {
                return;
            }
            const std::size_t blocks = blocks_of_[s];
            const std::size_t start = w * blocks / workers_;
            for (std::size_t j = 0; j < blocks; ++j) {
                const std::size_t k = (start + j) % blocks;
                std::atomic<std::uint8_t>& taken = taken_[first_block_[s] + k];
                if (taken.load(std::memory_order_relaxed) != 0 ||
                    taken.exchange(1, std::memory_order_acquire) != 0) {
                    continue;
                }
                body_(s, k, context_);
                if (done_[s].fetch_add(1, std::memory_order_acq_rel) + 1 == blocks) {
                    open_.store(open_from(blocks_of_, s + 1), std::memory_order_release);
                }
            }
            next = s + 1;
        }
    }

private:
    std::span<const std::size_t> blocks_of_;
    stage_function* body_;
    void* context_;
    std::size_t workers_;
    bool yield_; // more workers than cores: a waiting worker yields its core
    std::vector<std::size_t> first_block_;         // of each stage, in taken_
    std::vector<std::atomic<std::uint8_t>> taken_; // a flag a block
    std::vector<std::atomic<std::uint32_t>> done_; // blocks finished, a stage
    alignas(64) std::atomic<std::size_t> open_{0}; // the stage under way
};

} // namespace

void run_stages(const task_runner& tasks, std::span<const std::size_t> blocks_of,
                stage_function* body, void* context) {
    const std::size_t most =
        blocks_of.empty() ? 0 : *std::max_element(blocks_of.begin(), blocks_of.end());
    const std::size_t busy = tasks.busy_at_most == 0 ? tasks.workers : tasks.busy_at_most;
    const std::size_t workers = std::min(busy, most);
    if (!tasks.parallel() || workers < 2) {
        for (std::size_t s = 0; s < blocks_of.size(); ++s) {
            for (std::size_t k = 0; k < blocks_of[s]; ++k) {
                body(s, k, context);
            }
        }
        return;
    }
    static const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    stages_under_way run(blocks_of, body, context, workers, tasks.workers > cores);
    for_each_item(tasks, workers, [&](std::size_t w) { run.take_part(w); });
}

} // namespace simdcollide::detail
