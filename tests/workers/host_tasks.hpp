// Host task systems for the worker tests (workers.hpp's callbacks): one that runs the whole
// task at once inside enqueue; one that runs its ranges from the last to the first, each
// with another worker index (user context: the worker count, an int); one that runs them on
// a thread of its own, waited for in finish. And every way the tests run a batch call on
// several workers: pools of 1 to 16 and those hosts.
#pragma once

#include <simdcollide/workers.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace simdcollide::testing {

inline void* run_inline(task_function* task, std::size_t items, std::size_t /*min_range*/,
                        void* context, void* /*user*/) {
    task(0, items, 0, context);
    return nullptr;
}

inline void* run_in_reverse(task_function* task, std::size_t items, std::size_t min_range,
                            void* context, void* user) {
    const auto workers = static_cast<std::size_t>(*static_cast<int*>(user));
    std::size_t ranges = (items + min_range - 1) / min_range;
    while (ranges-- > 0) {
        const std::size_t begin = ranges * min_range;
        task(begin, std::min(items, begin + min_range),
             static_cast<std::uint32_t>(ranges % workers), context);
    }
    return nullptr;
}

inline void* run_on_a_thread(task_function* task, std::size_t items, std::size_t min_range,
                             void* context, void* /*user*/) {
    return new std::thread([=] {
        for (std::size_t begin = 0; begin < items; begin += min_range) {
            task(begin, std::min(items, begin + min_range), 0, context);
        }
    });
}

inline void never_called(void* /*task*/, void* /*user*/) {
    ADD_FAILURE() << "finish with no task";
}

inline void join_thread(void* task, void* /*user*/) {
    auto* thread = static_cast<std::thread*>(task);
    thread->join();
    delete thread;
}

// Every way a batch call can run on several workers.
struct worker_setup {
    std::string name;
    std::function<workers()> make;
};

inline std::vector<worker_setup> worker_setups() {
    static int reverse_workers = 4;
    std::vector<worker_setup> setups;
    for (int count : {1, 2, 3, 4, 7, 16}) {
        setups.push_back({std::to_string(count) + " workers", [count] { return workers(count); }});
    }
    setups.push_back({"host inline", [] {
                          return workers(3, {&run_inline, &never_called, nullptr});
                      }});
    setups.push_back(
        {"host in reverse", [] {
             return workers(reverse_workers, {&run_in_reverse, &never_called, &reverse_workers});
         }});
    setups.push_back({"host thread", [] {
                          return workers(2, {&run_on_a_thread, &join_thread, nullptr});
                      }});
    return setups;
}

} // namespace simdcollide::testing
