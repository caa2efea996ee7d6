// Cutting a pair list into groups of pairs that share no circle, and separation over it in
// order (pair_groups.hpp).
#include <simdcollide/pair_groups.hpp>

#include "broad_phase/separate_in_order.hpp"
#include "pairwise/kernel_table.hpp"
#include "pairwise/pair_list.hpp"
#include "runtime/arguments.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace simdcollide {

const pair_groups& pair_grouper::group(std::span<const circle_pair> list,
                                       std::size_t circle_count) {
    return group_chunks(list, circle_count, nullptr, 0);
}

const pair_groups& pair_grouper::regroup(std::span<const circle_pair> list,
                                         std::size_t circle_count,
                                         std::span<const std::uint8_t> changed) {
    return group_chunks(list, circle_count, changed.data(), changed.size());
}

// The chunks of `list` in order: each either the same as one of the last call's (told so by
// `changed`, or found so by comparing with last_list_) and copied from its result, or
// coloured (colour_chunk).
const pair_groups& pair_grouper::group_chunks(std::span<const circle_pair> list,
                                              std::size_t circle_count, const std::uint8_t* changed,
                                              std::size_t blocks) {
    if (list.size() > std::numeric_limits<std::uint32_t>::max()) {
        throw std::invalid_argument("simdcollide::pair_grouper::group: " +
                                    std::to_string(list.size()) + " pairs, at most 2^32 - 1");
    }
    if (state_.size() != circle_count || !state_clear_) {
        state_.assign(circle_count, 0);
        state_clear_ = true;
    }
    // The last result's chunks can be copied only if they name the same circles, and, unless
    // the caller says which are the same, only if the last list was kept to compare with.
    const bool told = changed != nullptr;
    const bool reusable = groups_.circle_count_ == circle_count && (told || last_list_kept_);
    next_.pairs_.resize(list.size());
    next_.ends_.clear();
    next_.circle_count_ = circle_count;
    chunks_.clear();
    std::size_t last = 0; // the first of the last call's chunks not yet passed
    for (std::size_t begin = 0; begin < list.size();) {
        const std::size_t block = list[begin].a / circles_per_chunk;
        const std::size_t ends_begin = next_.ends_.size();
        // In a list sorted by first circle, blocks ascend: the last call's chunk for this
        // block is found by walking forward. (Otherwise a chunk may go unmatched and is
        // coloured again: the same result, at more cost.)
        while (last < last_chunks_.size() && last_chunks_[last].block < block) {
            ++last;
        }
        const chunk_record* const was =
            reusable && last < last_chunks_.size() && last_chunks_[last].block == block
                ? &last_chunks_[last]
                : nullptr;
        const chunk_record* same = nullptr;
        std::size_t end = begin + 1;
        std::uint32_t reach = 0;
        if (told && was != nullptr && block < blocks && changed[block] == 0 &&
            was->list_end - was->list_begin <= list.size() - begin) {
            same = was; // the caller says so: its length is the last call's
            end = begin + (was->list_end - was->list_begin);
        } else {
            while (end < list.size() && list[end].a / circles_per_chunk == block) {
                ++end;
            }
            if (!told && was != nullptr && was->list_end - was->list_begin == end - begin &&
                std::memcmp(list.data() + begin, last_list_.data() + was->list_begin,
                            (end - begin) * sizeof(circle_pair)) == 0) {
                same = was;
            }
        }
        if (was != nullptr) {
            ++last;
        }
        if (same != nullptr) { // the same pairs: the same groups, moved to where they now lie
            std::copy(groups_.pairs_.begin() + static_cast<std::ptrdiff_t>(same->list_begin),
                      groups_.pairs_.begin() + static_cast<std::ptrdiff_t>(same->list_end),
                      next_.pairs_.begin() + static_cast<std::ptrdiff_t>(begin));
            for (std::size_t g = same->ends_begin; g < same->ends_end; ++g) {
                next_.ends_.push_back(
                    static_cast<std::uint32_t>(groups_.ends_[g] - same->list_begin + begin));
            }
            reach = same->reach;
        } else {
            // Checked here, not in a pass of its own over the list: a chunk the same as last
            // time was checked then, against the same circle count. A throw leaves groups_,
            // last_list_ and last_chunks_ as they were (state_ is all zeros between chunks,
            // and next_ and chunks_ are made again by the next call).
            detail::require_pair_list("pair_grouper::group", circle_count,
                                      list.subspan(begin, end - begin), begin);
            reach = colour_chunk(list.subspan(begin, end - begin), begin);
        }
        chunks_.push_back({block, begin, end, ends_begin, next_.ends_.size(), reach});
        begin = end;
    }
    if (told) {
        last_list_kept_ = false;
    } else {
        last_list_.assign(list.begin(), list.end());
        last_list_kept_ = true;
    }
    std::swap(groups_, next_);
    std::swap(last_chunks_, chunks_);
    return groups_;
}

// Colours one chunk greedily in list order into next_, from pair `at` of the result on.
// state_ holds each circle's colours in the colouring under way, and is all zeros between
// chunks: a chunk's colouring clears the entries of its circles when it closes (a pass over
// its pairs that costs less than telling old entries from current ones on every pair
// (docs/performance.md, "Measurements behind the code")). The lowest free colour is taken as a bit,
// ~taken & (taken + 1), and its index worked out off that chain. Returns one past the
// highest circle the chunk's pairs name.
std::uint32_t pair_grouper::colour_chunk(std::span<const circle_pair> chunk, std::size_t at) {
    colour_.resize(chunk.size());
    // Raw pointers, held in registers: a store through the uint8_t colours could alias the
    // vectors' own pointers for all the compiler knows, and it would load them again.
    std::uint32_t* const colours = state_.data();
    std::uint8_t* const colour_of = colour_.data();
    const auto forget = [&](std::size_t from, std::size_t to) {
        for (std::size_t k = from; k < to; ++k) {
            colours[chunk[k].a] = 0;
            colours[chunk[k].b] = 0;
        }
    };
    state_clear_ = false;  // until the colouring closes (close_colours allocates, and may throw)
    std::size_t first = 0; // where this colouring began
    // A list sorted by first circle repeats it: its colours stay in a register while it
    // does (written back when it changes), so only the second circle's go through memory.
    std::uint32_t held = chunk[0].a;
    std::uint32_t held_colours = 0;
    std::uint32_t highest = 0;
    for (std::size_t k = 0; k < chunk.size(); ++k) {
        const circle_pair q = chunk[k];
        highest = std::max({highest, q.a, q.b});
        if (q.a != held) {
            colours[held] = held_colours;
            held = q.a;
            held_colours = colours[held];
        }
        std::uint32_t b_colours = colours[q.b];
        if ((held_colours | b_colours) == ~std::uint32_t{0}) [[unlikely]] { // all taken
            close_colours(chunk.subspan(first, k - first), colour_of + first, at + first);
            forget(first, k);
            first = k;
            held_colours = 0;
            b_colours = 0;
        }
        const std::uint32_t taken = held_colours | b_colours;
        const std::uint32_t bit = ~taken & (taken + 1);
        held_colours |= bit;
        colours[q.b] = b_colours | bit;
        colour_of[k] = static_cast<std::uint8_t>(std::countr_zero(bit));
    }
    close_colours(chunk.subspan(first), colour_of + first, at + first);
    forget(first, chunk.size());
    state_clear_ = true;
    return highest + 1;
}

// A colouring's pairs into next_ from pair `at` on, by colour (a counting sort, stable), a
// group per colour used. The counts go into four tables in turn, so that a run of pairs of
// one colour is not one chain of increments through memory.
void pair_grouper::close_colours(std::span<const circle_pair> pairs, const std::uint8_t* colour_of,
                                 std::size_t at) {
    std::uint32_t counts[4][colours_per_chunk] = {};
    std::size_t k = 0;
    for (; k + 4 <= pairs.size(); k += 4) {
        for (std::size_t t = 0; t < 4; ++t) {
            ++counts[t][colour_of[k + t]];
        }
    }
    for (; k < pairs.size(); ++k) {
        ++counts[0][colour_of[k]];
    }
    std::size_t to[colours_per_chunk];
    std::size_t end = at;
    for (std::size_t c = 0; c < colours_per_chunk; ++c) {
        const std::size_t in_colour = counts[0][c] + counts[1][c] + counts[2][c] + counts[3][c];
        to[c] = end;
        end += in_colour;
        if (in_colour != 0) {
            next_.ends_.push_back(static_cast<std::uint32_t>(end));
        }
    }
    circle_pair* const out = next_.pairs_.data();
    for (k = 0; k < pairs.size(); ++k) {
        out[to[colour_of[k]]++] = pairs[k];
    }
}

namespace detail {

void require_in_order_arguments(particles_view c, std::size_t circle_count, int rounds) {
    constexpr const char* kernel = "separate_in_order";
    require_count(kernel, "circles", circle_count, c.count);
    require_fields(kernel, "circles", c.count, {c.x, c.y, c.radius, c.inverse_mass});
    if (rounds < 0) {
        throw std::invalid_argument(std::string("simdcollide::") + kernel + ": rounds is " +
                                    std::to_string(rounds) + ", must be >= 0");
    }
    require_apart(kernel,
                  {writes("circles.x", c.x, c.count), writes("circles.y", c.y, c.count),
                   reads("circles.radius", c.radius, c.count),
                   reads("circles.inverse_mass", c.inverse_mass, c.count)},
                  in_place::refused);
}

void separate_in_order_unchecked(const kernel_table& t, particles_view c, const pair_groups& groups,
                                 separation_weighting mode, int rounds,
                                 separation_workspace& workspace) {
    t.world.separate_in_order(c, groups.pairs().data(), groups.ends().data(), groups.ends().size(),
                              mode, rounds, scratch_of(workspace, 4 * c.count));
}

} // namespace detail

namespace {

void separate_in_order_with(const detail::kernel_table& t, particles_view c,
                            const pair_groups& groups, separation_weighting mode, int rounds,
                            separation_workspace& workspace) {
    detail::require_in_order_arguments(c, groups.circle_count(), rounds);
    detail::separate_in_order_unchecked(t, c, groups, mode, rounds, workspace);
}

} // namespace

void separate_in_order(particles_view circles, const pair_groups& groups, separation_weighting mode,
                       int rounds, separation_workspace& workspace) {
    separate_in_order_with(detail::active_table(), circles, groups, mode, rounds, workspace);
}
void separate_in_order(particles_view circles, const pair_groups& groups, separation_weighting mode,
                       int rounds) {
    separation_workspace workspace;
    separate_in_order(circles, groups, mode, rounds, workspace);
}

namespace reference {
void separate_in_order(particles_view circles, const pair_groups& groups, separation_weighting mode,
                       int rounds, separation_workspace& workspace) {
    separate_in_order_with(detail::reference_table(), circles, groups, mode, rounds, workspace);
}
void separate_in_order(particles_view circles, const pair_groups& groups, separation_weighting mode,
                       int rounds) {
    separation_workspace workspace;
    reference::separate_in_order(circles, groups, mode, rounds, workspace);
}
} // namespace reference

} // namespace simdcollide
