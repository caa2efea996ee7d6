// The world's own pool of workers (world_options::workers without task callbacks): threads
// started with the pool and stopped with it, which wait for the next task by spinning for a
// while and then by sleeping, so that the many short tasks of a step start at once. A task
// cut into fewer ranges than there are workers is left to the workers with a share of it;
// the others wait on, and sleep once no task has had a share for them for a while.
#pragma once

#include <simdcollide/workers.hpp>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace simdcollide::detail {

class worker_pool {
public:
    /// Starts workers - 1 threads (the thread that runs a task is worker 0). Throws
    /// std::system_error if a thread cannot be started (and stops those it started).
    explicit worker_pool(std::size_t workers);
    ~worker_pool();
    worker_pool(const worker_pool&) = delete;
    worker_pool& operator=(const worker_pool&) = delete;

    /// Callbacks for this pool: enqueue runs the task on the workers with a share of its
    /// ranges (every worker, where it has as many ranges as there are workers) and returns
    /// null once it has run. Tasks from several threads run one after another.
    [[nodiscard]] task_callbacks callbacks() noexcept;

    /// How many of the pool's threads sleep now, waiting for a task with a share for them.
    [[nodiscard]] std::size_t sleeping() noexcept;

private:
    // Each worker's share of the task's items: a contiguous run, [next, end), so that the
    // same worker tends to take the same circles from one stage to the next (a circle's data
    // then stays in that core's cache). A worker done with its share takes from the others'.
    struct alignas(64) share {
        std::atomic<std::size_t> next{0}; // the first item of the share not yet taken
        std::size_t end = 0;
    };

    static void* enqueue(task_function* task, std::size_t item_count, std::size_t min_range,
                         void* task_context, void* user_context);
    void run(task_function* task, std::size_t item_count, std::size_t min_range,
             void* task_context);
    void work(std::uint32_t worker);
    bool join(std::uint64_t number);
    void take(std::uint32_t worker);
    bool take_from(share& s, std::uint32_t worker);
    [[nodiscard]] std::size_t first_range(std::size_t worker, std::size_t ranges) const noexcept;
    [[nodiscard]] bool has_share(std::size_t worker, std::size_t ranges) const noexcept;
    void stop() noexcept;
    void publish(bool stopping, std::size_t ranges);
    void sleep(std::uint32_t worker, std::uint64_t seen);
    void wait_a_little() const noexcept;

    bool yield_;           // spin by yielding the core (more workers than cores), not pausing
    std::mutex run_mutex_; // one task at a time
    std::mutex mutex_;     // for the sleepers: asleep_, sleepers_ and the sleep on wake_
    std::vector<std::condition_variable> wake_; // one a worker
    std::vector<std::uint8_t> asleep_;          // one a worker: 1 while it waits on wake_
    std::size_t sleepers_ = 0;
    std::atomic<bool> stopping_{false}; // set with a new task number
    // The task under way and who is in it, in one word: its number (one more for each task)
    // above bit 32, bit 31 once it is closed, and below that how many workers are in it. A
    // worker joins only an open task; the caller closes a task once every range has been
    // taken and nobody is in it, so it never waits for a worker that is slow to wake.
    static constexpr int number_shift = 32;
    static constexpr std::uint64_t closed_bit = std::uint64_t{1} << 31;
    std::atomic<std::uint64_t> state_{closed_bit};
    // How many ranges the task under way has: written before its number, read by a worker
    // that sees the number to tell whether it has a share (a later task's count, read late,
    // only makes it join a task that is over, or leave its range to the caller).
    std::atomic<std::size_t> ranges_{0};
    // The task under way: written while it is closed, read by the workers in it.
    task_function* task_ = nullptr;
    std::size_t min_range_ = 1;
    void* task_context_ = nullptr;
    std::vector<share> shares_; // one a worker
    std::vector<std::thread> threads_;
};

} // namespace simdcollide::detail
