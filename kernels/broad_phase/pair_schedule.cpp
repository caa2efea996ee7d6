// The parts of separate_in_order on workers (pair_schedule.hpp).
#include "broad_phase/pair_schedule.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <utility>

namespace simdcollide::detail {

namespace {

constexpr std::size_t smallest_block = 16384;
constexpr std::size_t largest_block = 65536;

// The least block size for a list: the smallest power of two at least twice the span
// (b - a) that 99 of 100 pairs stay within, from 16384 to 65536. Slots go row by row of a
// grid's cells, so a pair spans about a row of circles; two rows a block keep most pairs
// within a block or between two neighbours. At least 16384: each seam between blocks is a
// place where a correction is not carried on up a column in the same pass, so that blocks of
// a few thousand circles calm deep piles several times more slowly.
std::size_t least_block_for(std::span<const circle_pair> pairs, const task_runner& tasks) {
    // The pairs counted by width, in runs on the workers: the counts add up to the same
    // however the list is cut.
    using widths = std::array<std::size_t, 33>;
    const widths count_of_width = combine_over_blocks(
        tasks, pairs.size(), items_per_task,
        [&](std::size_t first, std::size_t end) {
            widths count{};
            for (const circle_pair q : pairs.subspan(first, end - first)) {
                ++count[static_cast<std::size_t>(std::bit_width(q.b - q.a))];
            }
            return count;
        },
        [](widths sum, const widths& count) {
            for (std::size_t w = 0; w < sum.size(); ++w) {
                sum[w] += count[w];
            }
            return sum;
        });
    std::size_t beyond = pairs.size();
    std::size_t width = 0;
    while (width < 32 && beyond > pairs.size() / 100) {
        beyond -= count_of_width[width];
        ++width;
    }
    // Now at most one pair in a hundred spans 2^(width - 1) or more: a block of 2^width.
    const std::size_t block = std::size_t{1} << std::min<std::size_t>(width, 16);
    return std::clamp(block, smallest_block, largest_block);
}

// The block size for n slots: where the least block fits four times or more, the slots
// are cut into a multiple of four blocks of about equal size, each at least the least block
// and a whole number of chunks (pair_groups.hpp), so that each wave has an even number of
// parts of about the same work (with blocks of the least size, 100 000 circles make seven
// blocks, and one worker of two took two of the three odd parts alone). Fewer slots are
// cut into blocks of the least size.
std::size_t block_size_for(std::span<const circle_pair> pairs, std::size_t n,
                           const task_runner& tasks) {
    const std::size_t least = least_block_for(pairs, tasks);
    const std::size_t blocks = n / (4 * least) * 4;
    if (blocks == 0) {
        return least;
    }
    const std::size_t even = (n + blocks - 1) / blocks;
    return (even + circles_per_chunk - 1) / circles_per_chunk * circles_per_chunk;
}

// A part's pairs, in slots, moved to offsets from the start of the chunk of their lowest
// slot (so that its grouper cuts them into the chunks a grouper of the whole list would);
// its range.
void rebase(pair_part& part) {
    if (part.pairs.empty()) {
        part.first = 0;
        part.end = 0;
        return;
    }
    // List order: the first pair has the lowest a.
    const auto first =
        static_cast<std::uint32_t>(part.pairs.front().a / circles_per_chunk * circles_per_chunk);
    std::uint32_t last = 0;
    for (const circle_pair q : part.pairs) {
        last = std::max(last, q.b);
    }
    for (circle_pair& q : part.pairs) {
        q = {q.a - first, q.b - first};
    }
    part.first = first;
    part.end = last + 1;
}

} // namespace

// Part k: the seam below block k, then block k's own pairs (list order), from the start of
// the lowest chunk they name (or the block's first slot) to the block's end, grouped.
// Starting on a chunk lets the part's grouper regroup only the chunks that changed:
// `changed` holds the list's flags (none: group afresh). Block k - 1's pairs that reach past
// block k are its far pairs: they are found here too, as each block's far pairs must be
// found again whenever the block changes, and then part k is made again.
void pair_schedule::make_part(std::size_t k, std::span<const circle_pair> pairs,
                              std::span<const std::uint8_t> changed) {
    pair_part& part = parts_[k];
    const auto end = static_cast<std::uint32_t>(std::min(n_, (k + 1) * block_));
    // Block k - 1's pairs that reach into block k (its seam) or further (far): the few
    // that leave it, in list order.
    std::vector<circle_pair>& seam = seam_below_[k];
    seam.clear();
    if (k > 0) {
        const auto below_end = static_cast<std::uint32_t>(k * block_);
        std::vector<circle_pair>& far = far_of_[k - 1];
        far.clear();
        for (std::size_t at = list_from_[k - 1]; at < list_from_[k]; ++at) {
            const circle_pair q = pairs[at];
            if (q.b >= below_end) {
                (q.b < end ? seam : far).push_back(q);
            }
        }
    }
    const auto lowest = !seam.empty() ? seam.front().a : static_cast<std::uint32_t>(k * block_);
    const auto first = static_cast<std::uint32_t>(lowest / circles_per_chunk * circles_per_chunk);
    // The pairs moved to offsets from `first` as they are copied. The list is sized for
    // every pair of block k and cut to those kept: a part keeps its list from step to step,
    // so the resize mostly keeps its size.
    part.pairs.resize(seam.size() + (list_from_[k + 1] - list_from_[k]));
    std::size_t kept = 0;
    for (const circle_pair q : seam) {
        part.pairs[kept++] = {q.a - first, q.b - first};
    }
    for (std::size_t at = list_from_[k]; at < list_from_[k + 1]; ++at) {
        const circle_pair q = pairs[at];
        if (q.b < end) {
            part.pairs[kept++] = {q.a - first, q.b - first};
        }
    }
    part.pairs.resize(kept);
    part.first = first;
    part.end = end;
    const std::size_t count = part.end - part.first;
    if (!changed.empty() && part.grouper.groups().circle_count() == count) {
        const std::size_t from = first / circles_per_chunk;
        std::vector<std::uint8_t> changed_here((count + circles_per_chunk - 1) / circles_per_chunk,
                                               1);
        for (std::size_t c = 0; c < changed_here.size() && from + c < changed.size(); ++c) {
            changed_here[c] = changed[from + c];
        }
        part.grouper.regroup(part.pairs, count, changed_here);
    } else {
        part.grouper.group(part.pairs, count);
    }
}

void pair_schedule::build(std::span<const circle_pair> pairs, std::size_t n,
                          std::span<const std::uint8_t> changed, bool all, const task_runner& tasks,
                          std::size_t block) {
    const bool fresh = all || !built_for(n);
    if (fresh) {
        n_ = n;
        block_ = block != 0 ? block : block_size_for(pairs, n, tasks);
        const std::size_t blocks = (n + block_ - 1) / block_;
        parts_.resize(blocks);
        for (std::vector<std::vector<circle_pair>>* lists : {&seam_below_, &far_of_}) {
            lists->resize(blocks);
            for (std::vector<circle_pair>& list : *lists) {
                list.clear();
            }
        }
    }
    const std::size_t blocks = parts_.size();
    list_from_.resize(blocks + 1);
    for (std::size_t k = 0; k <= blocks; ++k) {
        const auto first = static_cast<std::uint32_t>(std::min(n, k * block_));
        list_from_[k] = static_cast<std::size_t>(
            std::lower_bound(pairs.begin(), pairs.end(), first,
                             [](circle_pair q, std::uint32_t slot) { return q.a < slot; }) -
            pairs.begin());
    }
    list_from_[blocks] = pairs.size();
    // A block is cut again when a chunk of its first circles changed.
    const std::size_t chunks_per_block = block_ / circles_per_chunk;
    const auto block_changed = [&](std::size_t k) {
        for (std::size_t c = k * chunks_per_block; c < (k + 1) * chunks_per_block; ++c) {
            if (c >= changed.size() || changed[c] != 0) {
                return true;
            }
        }
        return false;
    };
    bool any = fresh;
    std::vector<std::uint8_t> redo(blocks);
    for (std::size_t k = 0; k < blocks; ++k) {
        redo[k] = fresh || block_changed(k) ? 1 : 0;
        any = any || redo[k] != 0;
    }
    // The list's chunks, block by block on the workers.
    const std::size_t chunk_count = (n + circles_per_chunk - 1) / circles_per_chunk;
    chunks_.resize(chunk_count);
    for_each_item(tasks, blocks, [&](std::size_t k) {
        // Each chunk's place in the list, and its reach where its pairs changed.
        const std::size_t last_chunk = std::min(chunk_count, (k + 1) * chunks_per_block);
        for (std::size_t c = k * chunks_per_block; c < last_chunk; ++c) {
            const auto first = static_cast<std::uint32_t>(c * circles_per_chunk);
            chunks_[c].block = c;
            chunks_[c].list_begin = static_cast<std::size_t>(
                std::lower_bound(pairs.begin() + static_cast<std::ptrdiff_t>(list_from_[k]),
                                 pairs.begin() + static_cast<std::ptrdiff_t>(list_from_[k + 1]),
                                 first,
                                 [](circle_pair q, std::uint32_t slot) { return q.a < slot; }) -
                pairs.begin());
        }
        for (std::size_t c = k * chunks_per_block; c < last_chunk; ++c) {
            list_chunk& chunk = chunks_[c];
            chunk.list_end = c + 1 < last_chunk ? chunks_[c + 1].list_begin : list_from_[k + 1];
            if (fresh || c >= changed.size() || changed[c] != 0) {
                chunk.reach = 0;
                for (std::size_t at = chunk.list_begin; at < chunk.list_end; ++at) {
                    chunk.reach = std::max(chunk.reach, pairs[at].b + 1);
                }
            }
        }
    });
    // Part k holds the seam of block k - 1 and the own pairs of block k; it is made again
    // where either block changed.
    for_each_item(tasks, blocks, [&](std::size_t k) {
        if (redo[k] != 0 || (k > 0 && redo[k - 1] != 0)) {
            make_part(k, pairs, fresh ? std::span<const std::uint8_t>{} : changed);
        }
    });
    if (any) {
        far_.pairs.clear();
        for (const std::vector<circle_pair>& far : far_of_) {
            far_.pairs.insert(far_.pairs.end(), far.begin(), far.end());
        }
        rebase(far_);
        far_.grouper.group(far_.pairs, far_.end - far_.first);
    }
    pair_count_ = far_.pairs.size();
    for (const pair_part& part : parts_) {
        pair_count_ += part.pairs.size();
    }
    built_ = true;
}

} // namespace simdcollide::detail
