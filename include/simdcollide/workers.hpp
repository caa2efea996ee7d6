// Workers: how a particle_world spreads a step over several threads, on a pool of its own or
// on the host's.
//
// A step is cut into tasks, each a count of items that are independent of each other (a
// block of circles, say). Which worker runs which item, and in which order, changes no
// result: every item writes only its own data, and the items are cut by the data alone,
// never by the worker count, so a step gives the same bits with any number of workers
// (docs/behaviour.md, "Workers").
//
// A host with a pool of its own hands the world two callbacks, in the shape Box2D v3 uses:
// `enqueue` starts a task and returns a handle, `finish` waits for that handle. enqueue
// must see that task(begin, end, worker, task_context) is called, once for each range of a
// split of [0, item_count) into ranges of at least min_range items (the last may be
// shorter), each with a worker index below the world's worker count, and no two ranges
// running at once with the same index. It may run the whole task before it returns (then
// it returns null, and finish is not called for it). Tasks are enqueued and finished one at
// a time, from the thread that called step (or the batch entry point).
//
// The batch entry points (static_boxes.hpp's push_out_all, swept.hpp's sweep_all,
// pair_finder::find, and the circle-box and circle-circle kernels over arrays) take a
// `workers` object: the same threads or callbacks, kept from call to call. They cut their
// work by the data alone too, and give the bits of the call without workers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace simdcollide {

namespace detail {
class worker_pool;
} // namespace detail

/// The most workers accepted, here and in world_options::workers.
inline constexpr int max_workers = 256;

/// A task's work on items [begin, end), run by worker `worker`; task_context is what
/// enqueue was given. Never throws.
using task_function = void(std::size_t begin, std::size_t end, std::uint32_t worker,
                           void* task_context);

/// Starts `task` over item_count items (see the top of this file); returns a handle for
/// finish, or null when the task has already run. user_context is task_callbacks'.
using enqueue_task_function = void*(task_function* task, std::size_t item_count,
                                    std::size_t min_range, void* task_context, void* user_context);

/// Returns once every range of the task enqueue returned `user_task` for has run.
using finish_task_function = void(void* user_task, void* user_context);

/// A host's task system: both callbacks, or neither (the world's own pool, or one thread).
struct task_callbacks {
    enqueue_task_function* enqueue = nullptr;
    finish_task_function* finish = nullptr;
    void* user_context = nullptr; ///< passed to both, as the host likes
};

/// Workers for the batch entry points: the calling thread alone, threads of their own, or a
/// host's task system. Several threads may use one with threads of its own: their tasks run
/// one after another (on a host's callbacks, as the host allows). A task must not call an
/// entry point with the workers that run it. A moved-from object is one worker.
class workers {
public:
    /// One worker: the calling thread. Starts no thread.
    workers() noexcept;
    /// `count` workers (1 to max_workers), the calling thread among them: starts count - 1
    /// threads, stopped when the object is destroyed. Throws std::invalid_argument for a count
    /// out of range, std::system_error if a thread cannot be started.
    explicit workers(int count);
    /// `count` workers (1 to max_workers) on the host's task system (the top of this file):
    /// starts no thread. Throws std::invalid_argument for a count out of range, or unless
    /// both callbacks are given.
    workers(int count, const task_callbacks& host);
    ~workers();
    workers(workers&&) noexcept;
    workers& operator=(workers&&) noexcept;
    workers(const workers&) = delete;
    workers& operator=(const workers&) = delete;

    /// The worker count.
    [[nodiscard]] int count() const noexcept { return count_; }
    /// Where tasks go: the host's callbacks, the own threads' (finish is null: enqueue runs
    /// the task before it returns), or none (one worker: the calling thread runs them).
    [[nodiscard]] const task_callbacks& callbacks() const noexcept { return callbacks_; }

private:
    std::unique_ptr<detail::worker_pool> pool_;
    task_callbacks callbacks_{};
    int count_ = 1;
};

} // namespace simdcollide
