// world_state::find_in_blocks, the searches of the lists (world_lists.cpp) and of a relisting
// (world_relist.cpp) split over the workers and joined in order.
#pragma once

#include "runtime/tasks.hpp"
#include "world/world_state.hpp"

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
template <class Find>
void world_state::find_in_blocks(std::size_t count, std::vector<circle_pair>& out, Find&& find) {
    const std::size_t blocks =
        std::max<std::size_t>(1, (count + searches_per_task - 1) / searches_per_task);
    if (candidates_of_block_.size() < blocks) {
        candidates_of_block_.resize(blocks);
    }
    join_in_blocks(
        task_runner(), count, searches_per_task, found_of_block_, out,
        [&](std::size_t first, std::size_t end, std::vector<circle_pair>& found, std::size_t k) {
            for (std::size_t i = first; i < end; ++i) {
                find(i, found, candidates_of_block_[k]);
            }
        });
}

} // namespace simdcollide::detail
