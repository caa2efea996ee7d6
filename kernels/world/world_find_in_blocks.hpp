// find_in_blocks, the searches of the lists (world_lists.cpp) and of a relisting
// (world_relist.cpp) split over the workers and joined in order.
#pragma once

#include "runtime/tasks.hpp"
#include "world/world_lists.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace simdcollide::detail {

// Circles a worker looks for entries for at a time: enough that handing them over costs
// little beside the search.
inline constexpr std::size_t searches_per_task = 1024;

// find(i, out, candidates) for each i < count in turn into `out` (cleared first), each call
// appending its entries to out (candidates: its scratch): join_in_blocks over blocks of
// searches_per_task, each block with scratch of its own.
// The blocks' lists and scratch are the lists'.
template <class Find>
void find_in_blocks(contact_lists& lists, std::size_t count, std::vector<circle_pair>& out,
                    const task_runner& tasks, Find&& find) {
    const std::size_t blocks =
        std::max<std::size_t>(1, (count + searches_per_task - 1) / searches_per_task);
    if (lists.candidates_of_block.size() < blocks) {
        lists.candidates_of_block.resize(blocks);
    }
    join_in_blocks(
        tasks, count, searches_per_task, lists.found_of_block, out,
        [&](std::size_t first, std::size_t end, std::vector<circle_pair>& found, std::size_t k) {
            for (std::size_t i = first; i < end; ++i) {
                find(i, found, lists.candidates_of_block[k]);
            }
        });
}

} // namespace simdcollide::detail
