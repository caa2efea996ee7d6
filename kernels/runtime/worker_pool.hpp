// The world's own pool of workers (world_options::workers without task callbacks): threads
// started with the pool and stopped with it, which wait for the next task by spinning for a
// while and then by sleeping, so that the many short tasks of a step start at once.
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

    /// Callbacks for this pool: enqueue runs the task on every worker and returns null once
    /// it has run. Tasks from several threads run one after another.
    [[nodiscard]] task_callbacks callbacks() noexcept;

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
    void take(std::uint32_t worker);
    bool take_from(share& s, std::uint32_t worker);
    void stop() noexcept;
    void wait_a_little() const noexcept;

    bool yield_;           // spin by yielding the core (more workers than cores), not pausing
    std::mutex run_mutex_; // one task at a time
    std::mutex mutex_;     // for the sleep on wake_
    std::condition_variable wake_;
    std::atomic<bool> stopping_{false};        // set with generation_ moved on
    std::atomic<std::uint64_t> generation_{0}; // one more for each task
    std::atomic<std::size_t> busy_{0};         // threads not done with the task
    // The task under way: written before generation_ moves on, read after.
    task_function* task_ = nullptr;
    std::size_t min_range_ = 1;
    void* task_context_ = nullptr;
    std::vector<share> shares_; // one a worker
    std::vector<std::thread> threads_;
};

} // namespace simdcollide::detail
