// What pair_finder (pair_finder.hpp) keeps between calls, and its search: the grid of the
// last call and the lists it fills again. The particle world searches with one of its own,
// on its task runner.
#pragma once

#include <simdcollide/soa.hpp>

#include "broad_phase/circle_grid.hpp"
#include "runtime/tasks.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

class pair_search {
public:
    /// pair_finder::find on the tasks' workers (none: the calling thread).
    std::span<const circle_pair> find_on(circles_cview circles, float margin,
                                         const task_runner& tasks);
    [[nodiscard]] std::size_t cell_count() const noexcept { return cells_.cell_start.size() - 1; }

private:
    std::span<const circle_pair> find_on_workers(circles_cview circles, float margin,
                                                 const task_runner& tasks);
    std::span<const circle_pair> pairs_among_large(circles_cview circles, float margin,
                                                   const task_runner& tasks);
    void sort_groups(std::size_t first_circle, std::size_t last_circle);

    std::vector<circle_pair> pairs_;
    circle_cells cells_;
    std::vector<circle_pair> found_;                    // pairs in the order found
    std::vector<std::uint32_t> group_start_, fill_;     // counting sort by first index
    std::vector<circle_pair> among_large_pairs_;        // the pairs among the large circles
    std::vector<std::vector<circle_pair>> found_parts_; // on workers: each task's pairs,
    std::vector<std::size_t> part_sizes_;               // how many of them it found,
    std::vector<std::size_t> bucket_at_;                // where they go by bucket,
    std::vector<circle_pair> sorting_;                  // and all of them by bucket
};

} // namespace simdcollide::detail
