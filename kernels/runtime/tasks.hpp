// Running independent items on the workers (workers.hpp): for_each_item(tasks, items, f)
// calls f(k) once for every k < items, on the host's callbacks or the world's pool, and
// returns when all have run. The items must write disjoint data; then the results are those
// of a loop over k, whoever ran which item.
#pragma once

#include <simdcollide/workers.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <type_traits>
#include <vector>

namespace simdcollide::detail {

/// Where a world's tasks run: `callbacks` (the host's or the pool's; none: the caller's
/// thread), for `workers` workers, of which at most `busy_at_most` take part in a task (0:
/// all): its items are then cut into at most that many ranges. Who runs an item changes no
/// result, so neither count changes a bit.
struct task_runner {
    task_callbacks callbacks{};
    std::size_t workers = 1;
    std::size_t busy_at_most = 0;

    [[nodiscard]] bool parallel() const noexcept {
        return workers > 1 && callbacks.enqueue != nullptr && busy_at_most != 1;
    }
    /// The least range of a task of `items` items.
    [[nodiscard]] std::size_t min_range(std::size_t items) const noexcept {
        return busy_at_most > 1 && busy_at_most < workers
                   ? (items + busy_at_most - 1) / busy_at_most
                   : 1;
    }
};

/// The runner of a public workers object (workers.hpp).
[[nodiscard]] inline task_runner runner_of(const simdcollide::workers& w) noexcept {
    return {w.callbacks(), static_cast<std::size_t>(w.count())};
}

template <class Item>
class item_task {
public:
    explicit item_task(Item& item) : item_(item) {}

    // task_function: the items of [begin, end). An item that throws does not stop the
    // others; the exception of the lowest such item is kept for the caller.
    static void run(std::size_t begin, std::size_t end, std::uint32_t /*worker*/, void* context) {
        auto& self = *static_cast<item_task*>(context);
        for (std::size_t k = begin; k < end; ++k) {
            try {
                self.item_(k);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(self.mutex_);
                if (k < self.failed_item_) {
                    self.failed_item_ = k;
                    self.error_ = std::current_exception();
                }
            }
        }
    }

    void rethrow() const {
        if (error_) {
            std::rethrow_exception(error_);
        }
    }

private:
    Item& item_;
    std::mutex mutex_;
    std::exception_ptr error_;
    std::size_t failed_item_ = std::numeric_limits<std::size_t>::max();
};

/// item(k) for k < items, on the runner's workers; rethrows the exception of the lowest
/// item that threw, once every item has run.
template <class Item>
void for_each_item(const task_runner& tasks, std::size_t items, Item&& item) {
    if (!tasks.parallel() || items < 2) {
        for (std::size_t k = 0; k < items; ++k) {
            item(k);
        }
        return;
    }
    item_task<std::remove_reference_t<Item>> task(item);
    void* const handle =
        tasks.callbacks.enqueue(&item_task<std::remove_reference_t<Item>>::run, items,
                                tasks.min_range(items), &task, tasks.callbacks.user_context);
    if (handle != nullptr) {
        tasks.callbacks.finish(handle, tasks.callbacks.user_context);
    }
    task.rethrow();
}

/// Items a worker takes at a time in the element-wise batch kernels: enough that a task's
/// start costs little beside its work.
inline constexpr std::size_t items_per_task = 16384;

/// block(begin, end) over [0, n) cut into ranges of `size` items (the last may be shorter),
/// on the runner's workers; returns what the calls return folded by combine(sum, value), in
/// block order. For work whose items are independent and whose fold does not depend on how
/// [0, n) is cut (a sum of counts, a maximum): one call over [0, n) when the runner has one
/// worker.
template <class Block, class Combine>
auto combine_over_blocks(const task_runner& tasks, std::size_t n, std::size_t size, Block&& block,
                         Combine&& combine) {
    using value = decltype(block(std::size_t{0}, n));
    const std::size_t blocks = (n + size - 1) / size;
    if (!tasks.parallel() || blocks < 2) {
        return block(std::size_t{0}, n);
    }
    std::vector<value> of_block(blocks);
    for_each_item(tasks, blocks, [&](std::size_t k) {
        of_block[k] = block(k * size, std::min(n, (k + 1) * size));
    });
    value folded = of_block[0];
    for (std::size_t k = 1; k < blocks; ++k) {
        folded = combine(folded, of_block[k]);
    }
    return folded;
}

/// find(first, end, list, k) for each block k of [0, count) cut into ranges of `size` items,
/// each appending its entries to `list`; `out` (cleared first) gets the blocks' lists joined
/// in block order, so it holds the entries of one pass over [0, count) however the blocks
/// were shared out. On the runner's workers, each block into a list of its own in of_block;
/// with one worker, or one block, a single call find(0, count, out, 0).
template <class T, class Find>
void join_in_blocks(const task_runner& tasks, std::size_t count, std::size_t size,
                    std::vector<std::vector<T>>& of_block, std::vector<T>& out, Find&& find) {
    out.clear();
    const std::size_t blocks = (count + size - 1) / size;
    if (!tasks.parallel() || blocks < 2) {
        find(std::size_t{0}, count, out, std::size_t{0});
        return;
    }
    if (of_block.size() < blocks) {
        of_block.resize(blocks);
    }
    for_each_item(tasks, blocks, [&](std::size_t k) {
        of_block[k].clear();
        find(k * size, std::min(count, (k + 1) * size), of_block[k], k);
    });
    for (std::size_t k = 0; k < blocks; ++k) {
        out.insert(out.end(), of_block[k].begin(), of_block[k].end());
    }
}

/// combine_over_blocks for the batch entry points: the sum of what the calls return.
template <class Block>
std::size_t sum_over_blocks(const task_runner& tasks, std::size_t n, std::size_t size,
                            Block&& block) {
    return combine_over_blocks(tasks, n, size, block,
                               [](std::size_t sum, std::size_t count) { return sum + count; });
}

/// Where the items of a counting sort on the workers go, in two rounds: items come in parts
/// (blocks of circles, a search's lists), each part counts its items by bucket (at(k, b)),
/// place() turns the counts into where each part's items go (buckets in order, parts in
/// order within each), each part copies its items there (at(k, b)++), and then each bucket,
/// [bucket_begin(b), bucket_end(b)), is sorted alone. The result is a one-thread sort's,
/// item for item, however the parts are shared out. The counters live in `storage`, each
/// part's apart from the others' (a cache line written by two workers would pass between
/// their cores at every count).
class bucket_places {
public:
    bucket_places(std::vector<std::size_t>& storage, std::size_t parts, std::size_t buckets)
        : at_(storage), parts_(parts), buckets_(buckets) {
        at_.assign(parts * buckets, 0);
    }

    [[nodiscard]] std::size_t& at(std::size_t part, std::size_t bucket) noexcept {
        return at_[part * buckets_ + bucket];
    }

    /// The counts become the places; returns how many items there are.
    std::size_t place() noexcept {
        std::size_t total = 0;
        for (std::size_t b = 0; b < buckets_; ++b) {
            for (std::size_t k = 0; k < parts_; ++k) {
                const std::size_t count = at(k, b);
                at(k, b) = total;
                total += count;
            }
        }
        return total;
    }

    /// Once every part has copied its items: bucket b's, which end where the last part's
    /// end in it.
    [[nodiscard]] std::size_t bucket_begin(std::size_t b) const noexcept {
        return b == 0 ? 0 : bucket_end(b - 1);
    }
    [[nodiscard]] std::size_t bucket_end(std::size_t b) const noexcept {
        return at_[(parts_ - 1) * buckets_ + b];
    }

private:
    std::vector<std::size_t>& at_;
    std::size_t parts_;
    std::size_t buckets_;
};

} // namespace simdcollide::detail
