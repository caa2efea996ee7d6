// The order in which separate_in_order on workers takes a pair list, cut so that workers can
// take parts of it side by side with the bits of one thread; public as pair_blocks
// (pair_groups.hpp).
//
// The circles are cut into blocks of block_circles() (asked for, or chosen from the list
// alone: at least twice the distance in slots that 99 of 100 pairs stay
// within, so that nearly every pair lies within a block or between two neighbours, and at
// least 16384; where four such blocks fit, a multiple of four of about equal size). The
// pairs, in list order (by first then second slot), fall into parts:
//   - part(k): the pairs whose second circle lies in block k and whose first lies in block
//     k or k - 1, in list order (so those reaching down into block k - 1 first);
//   - far(): the pairs that reach further.
// Separation takes the parts of even k, then those of odd k, then the far part: the
// parts of each of those three waves name disjoint circles, so the workers take them side
// by side. Slots run row by row of a grid's cells, from the bottom up in a pile, so a part
// goes up through its block from the seam below it, and every other seam is taken after the
// block below it. Within a part, the pairs are grouped as pair_groups.hpp says. A part's
// pairs name slots as offsets from its first slot, so that the kernels take it as a view
// of its circles alone.
#pragma once

#include "runtime/tasks.hpp"

#include <simdcollide/pair_groups.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

/// Whether `block` may be asked for as a block size (pair_blocks::cut): 0 (chosen from the list),
/// or a power of two from 1024 to 2^20.
[[nodiscard]] constexpr bool block_size_allowed(std::size_t block) noexcept {
    return block == 0 ||
           (block >= 1024 && block <= (std::size_t{1} << 20) && (block & (block - 1)) == 0);
}

/// A part of the schedule: its pairs name slots [first, end), as offsets from first.
struct pair_part {
    std::uint32_t first = 0;
    std::uint32_t end = 0;
    std::vector<circle_pair> pairs; // list order, offsets from first
    pair_grouper grouper;           // the pairs in groups (its groups() are what separation runs)
};

/// The pairs of one block of circles_per_chunk first circles in the list (pair_grouper's
/// chunk): [list_begin, list_end), and one past the highest slot they name.
struct list_chunk {
    std::size_t block;
    std::size_t list_begin, list_end;
    std::uint32_t reach;
};

class pair_schedule {
public:
    /// Cuts `pairs` (sorted by a then b, a < b, every slot below n) into parts. With
    /// `changed` (a flag per circles_per_chunk first circles, as pair_grouper::regroup
    /// takes; past its end: changed) for a list of the same n, only blocks with a changed
    /// chunk are cut again, and the block size is kept; with `all`, everything is, in
    /// blocks of `block` (a power of two from 1024; 0: chosen from the list).
    void build(std::span<const circle_pair> pairs, std::size_t n,
               std::span<const std::uint8_t> changed, bool all, const task_runner& tasks,
               std::size_t block = 0);

    [[nodiscard]] std::size_t block_circles() const noexcept { return block_; }
    [[nodiscard]] std::size_t circle_count() const noexcept { return n_; }
    [[nodiscard]] std::size_t blocks() const noexcept { return parts_.size(); }
    [[nodiscard]] pair_part& part(std::size_t k) noexcept { return parts_[k]; }
    [[nodiscard]] const pair_part& part(std::size_t k) const noexcept { return parts_[k]; }
    [[nodiscard]] pair_part& far() noexcept { return far_; }
    [[nodiscard]] const pair_part& far() const noexcept { return far_; }
    /// Every pair's room in the touch list.
    [[nodiscard]] std::size_t pair_count() const noexcept { return pair_count_; }
    /// The list's chunks as of the last build (for the relisting's merge).
    [[nodiscard]] std::span<const list_chunk> chunks() const noexcept { return chunks_; }
    /// Whether the schedule is for a list of n slots.
    [[nodiscard]] bool built_for(std::size_t n) const noexcept { return built_ && n_ == n; }

private:
    void make_part(std::size_t k, std::span<const circle_pair> pairs,
                   std::span<const std::uint8_t> changed);

    std::vector<pair_part> parts_;
    pair_part far_;
    // For each part, the pairs of the block below that reach into its block (scratch for
    // make_part); for each block, its pairs that reach past the next block.
    std::vector<std::vector<circle_pair>> seam_below_, far_of_;
    std::vector<std::size_t> list_from_; // each block's first pair in the list
    std::vector<list_chunk> chunks_;
    std::size_t n_ = 0;
    std::size_t block_ = 0;
    std::size_t pair_count_ = 0;
    bool built_ = false;
};

/// The three waves of a pass over a schedule: the parts of even blocks side by side on the
/// workers, then those of odd blocks, then the far part (if it has pairs). on_part(part, k)
/// with k the part's block, or far_part for the far part. Schedule: pair_schedule, const or
/// not.
inline constexpr std::size_t far_part = ~std::size_t{0};
template <class Schedule, class OnPart>
void in_waves(const task_runner& tasks, Schedule& schedule, OnPart&& on_part) {
    for (const std::size_t parity : {std::size_t{0}, std::size_t{1}}) {
        for_each_item(tasks, (schedule.blocks() + 1 - parity) / 2, [&](std::size_t k) {
            on_part(schedule.part(2 * k + parity), 2 * k + parity);
        });
    }
    if (!schedule.far().pairs.empty()) {
        on_part(schedule.far(), far_part);
    }
}

} // namespace simdcollide::detail
