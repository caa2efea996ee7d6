// The public workers object: a pool of its own, or the host's callbacks, kept for the batch
// entry points.
#include <simdcollide/workers.hpp>

#include "runtime/worker_pool.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace simdcollide {
namespace {

void require_count(int count) {
    if (count < 1 || count > max_workers) {
        throw std::invalid_argument("workers: count is " + std::to_string(count) +
                                    ", must be from 1 to " + std::to_string(max_workers));
    }
}

} // namespace

workers::workers() noexcept = default;

workers::workers(int count) : count_(count) {
    require_count(count);
    if (count > 1) {
        pool_ = std::make_unique<detail::worker_pool>(static_cast<std::size_t>(count));
        callbacks_ = pool_->callbacks();
    }
}

workers::workers(int count, const task_callbacks& host) : callbacks_(host), count_(count) {
    require_count(count);
    if (host.enqueue == nullptr || host.finish == nullptr) {
        throw std::invalid_argument(std::string("workers: the host's callbacks have ") +
                                    (host.enqueue == nullptr && host.finish == nullptr
                                         ? "neither enqueue nor finish"
                                     : host.enqueue == nullptr ? "finish but no enqueue"
                                                               : "enqueue but no finish") +
                                    ": give both");
    }
}

workers::~workers() = default;

// The source keeps no callbacks into the pool it gave away.
workers::workers(workers&& other) noexcept
    : pool_(std::move(other.pool_)), callbacks_(std::exchange(other.callbacks_, {})),
      count_(std::exchange(other.count_, 1)) {}

workers& workers::operator=(workers&& other) noexcept {
    if (this != &other) {
        pool_ = std::move(other.pool_);
        callbacks_ = std::exchange(other.callbacks_, {});
        count_ = std::exchange(other.count_, 1);
    }
    return *this;
}

} // namespace simdcollide
