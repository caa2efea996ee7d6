// The world's own pool of workers (worker_pool.hpp).
#include "runtime/worker_pool.hpp"

#include "runtime/spin_wait.hpp"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace simdcollide::detail {

namespace {

// How long a worker spins for the next task before it sleeps: a step's tasks follow each
// other within microseconds, and waking a sleeping thread takes tens of them.
constexpr auto spin_for = std::chrono::microseconds(200);

} // namespace

worker_pool::worker_pool(std::size_t workers)
    // More workers than cores: a spinning thread would hold a core that another needs.
    : yield_(workers > std::max(1U, std::thread::hardware_concurrency())),
      wake_(std::max<std::size_t>(workers, 1)), asleep_(std::max<std::size_t>(workers, 1), 0),
      shares_(std::max<std::size_t>(workers, 1)) {
    threads_.reserve(workers > 1 ? workers - 1 : 0);
    try {
        for (std::size_t w = 1; w < workers; ++w) {
            threads_.emplace_back([this, w] { work(static_cast<std::uint32_t>(w)); });
        }
    } catch (...) {
        stop();
        throw;
    }
}

worker_pool::~worker_pool() {
    stop();
}

void worker_pool::stop() noexcept {
    publish(true, 0);
    for (std::thread& t : threads_) {
        t.join();
    }
}

// The next task number, open, nobody in it, of `ranges` ranges; the last task is closed and
// empty. Under the mutex, so that a worker about to sleep either sees the new number or is
// woken here: each sleeper with a share of the new task, or every sleeper to stop.
void worker_pool::publish(bool stopping, std::size_t ranges) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stopping) {
        stopping_.store(true, std::memory_order_relaxed);
    }
    ranges_.store(ranges, std::memory_order_relaxed);
    const std::uint64_t number = (state_.load(std::memory_order_relaxed) >> number_shift) + 1;
    state_.store(number << number_shift, std::memory_order_release);
    if (sleepers_ == 0) {
        return;
    }
    for (std::size_t w = 1; w < shares_.size(); ++w) {
        if (asleep_[w] != 0 && (stopping || has_share(w, ranges))) {
            wake_[w].notify_one();
        }
    }
}

// The first of worker w's ranges in a task of `ranges` ranges: ranges * w / workers, rounded
// up (run() says why).
std::size_t worker_pool::first_range(std::size_t worker, std::size_t ranges) const noexcept {
    const std::size_t workers = shares_.size();
    return (ranges * worker + workers - 1) / workers;
}

// Whether worker w has a share of a task of `ranges` ranges. Every worker has one where
// there are no fewer ranges than workers.
bool worker_pool::has_share(std::size_t worker, std::size_t ranges) const noexcept {
    return first_range(worker, ranges) < first_range(worker + 1, ranges);
}

std::size_t worker_pool::sleeping() noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    return sleepers_;
}

task_callbacks worker_pool::callbacks() noexcept {
    return {&worker_pool::enqueue, nullptr, this};
}

void* worker_pool::enqueue(task_function* task, std::size_t item_count, std::size_t min_range,
                           void* task_context, void* user_context) {
    static_cast<worker_pool*>(user_context)->run(task, item_count, min_range, task_context);
    return nullptr;
}

void worker_pool::run(task_function* task, std::size_t item_count, std::size_t min_range,
                      void* task_context) {
    const std::lock_guard<std::mutex> one_at_a_time(run_mutex_);
    task_ = task;
    min_range_ = min_range > 0 ? min_range : 1;
    task_context_ = task_context;
    // Worker w of W takes ranges [first(w), first(w + 1)) of the task's R ranges first, with
    // first(w) = R w / W rounded up, so that a task cut like the last one gives each worker
    // the same circles again. Rounded up, the calling thread's share is never empty: with
    // fewer ranges than workers (a step that keeps fewer busy), it takes the first.
    const std::size_t workers = shares_.size();
    const std::size_t ranges = (item_count + min_range_ - 1) / min_range_;
    const auto first = [&](std::size_t w) {
        return std::min(item_count, first_range(w, ranges) * min_range_);
    };
    for (std::size_t w = 0; w < workers; ++w) {
        shares_[w].next.store(first(w), std::memory_order_relaxed);
        shares_[w].end = first(w + 1);
    }
    publish(false, ranges);
    take(0);
    // Every range is taken now; the task closes once those in it have finished theirs. A
    // worker that wakes later finds it closed, so no one waits for the slowest to wake.
    std::uint64_t s = state_.load(std::memory_order_acquire);
    for (;;) {
        if ((s & (closed_bit - 1)) != 0) {
            wait_a_little();
            s = state_.load(std::memory_order_acquire);
        } else if (state_.compare_exchange_weak(s, s | closed_bit, std::memory_order_acq_rel,
                                                std::memory_order_acquire)) {
            return;
        }
    }
}

void worker_pool::wait_a_little() const noexcept {
    detail::wait_a_little(yield_);
}

// Ranges of min_range items from the worker's own share, then from each other share in turn
// (a worker that is late or slow leaves the rest of its share to the others).
void worker_pool::take(std::uint32_t worker) {
    const std::size_t workers = shares_.size();
    for (std::size_t k = 0; k < workers; ++k) {
        share& s = shares_[(worker + k) % workers];
        while (take_from(s, worker)) {
        }
    }
}

// One range from the front of share s; false once s has none left. Looked at before it is
// written: workers that find a share empty then leave its line in its owner's cache.
bool worker_pool::take_from(share& s, std::uint32_t worker) {
    if (s.next.load(std::memory_order_relaxed) >= s.end) {
        return false;
    }
    const std::size_t begin = s.next.fetch_add(min_range_, std::memory_order_relaxed);
    if (begin >= s.end) {
        return false;
    }
    const std::size_t end = s.end - begin < min_range_ ? s.end : begin + min_range_;
    task_(begin, end, worker, task_context_);
    return true;
}

// Joins the task numbered `number` if it is still open; false once it is closed or over.
bool worker_pool::join(std::uint64_t number) {
    std::uint64_t s = state_.load(std::memory_order_acquire);
    while ((s >> number_shift) == number && (s & closed_bit) == 0) {
        if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
            return true;
        }
    }
    return false;
}

// Waits for the next task with a share for this worker: spinning while one came within
// spin_for, sleeping after that. A task without a share for it (a step that keeps fewer
// workers busy) neither draws it in nor keeps it spinning.
void worker_pool::work(std::uint32_t worker) {
    std::uint64_t seen = 0;
    const auto number_now = [this] {
        return state_.load(std::memory_order_acquire) >> number_shift;
    };
    for (;;) {
        const auto spin_until = std::chrono::steady_clock::now() + spin_for;
        for (unsigned spins = 1;; ++spins) {
            const std::uint64_t now = number_now();
            if (now != seen) {
                seen = now;
                if (stopping_.load(std::memory_order_relaxed)) {
                    return;
                }
                if (has_share(worker, ranges_.load(std::memory_order_relaxed))) {
                    break;
                }
            } else if ((spins & 63U) == 0 && std::chrono::steady_clock::now() > spin_until) {
                sleep(worker, seen);
            } else {
                wait_a_little();
            }
        }
        if (join(seen)) {
            take(worker);
            state_.fetch_sub(1, std::memory_order_release);
        }
    }
}

// Sleeps until a task after `seen` is published (publish wakes only the workers with a share
// of it, and all of them to stop; a sleeper woken otherwise looks and sleeps again).
void worker_pool::sleep(std::uint32_t worker, std::uint64_t seen) {
    std::unique_lock<std::mutex> lock(mutex_);
    asleep_[worker] = 1;
    ++sleepers_;
    wake_[worker].wait(
        lock, [&] { return (state_.load(std::memory_order_acquire) >> number_shift) != seen; });
    asleep_[worker] = 0;
    --sleepers_;
}

} // namespace simdcollide::detail
