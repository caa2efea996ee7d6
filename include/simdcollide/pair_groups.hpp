// Separation over a pair list in order (Gauss-Seidel): each pair's correction applied at
// once, so that the pairs after it see where it left its circles, for simulations with an
// integrator of their own; circle_circle.hpp's pair-list separate is the other way to
// combine pairs that share a circle (Jacobi: every correction from the start positions,
// averaged).
//
// Why groups: pairs that share no circle give the same bits one after another or side by
// side, so SIMD paths may take W pairs at once only where W consecutive pairs share none.
// pair_groups reorders a list so that it falls into such groups, and the order is then the
// definition: separate_in_order goes through the reordered list one pair at a time in the
// reference, and a group's pairs W at a time in SIMD, with bit-identical results.
//
// How a list is reordered (depends on the list alone, so on no instruction set): it is cut
// into chunks, each a run of consecutive pairs whose first circles lie in the same block of
// circles_per_chunk indices (a list sorted by first circle, as pair_finder makes it, has one
// chunk per block). Each chunk is coloured greedily in list order, a pair taking the lowest
// colour that neither of its circles has yet in the chunk; the chunk's colours in ascending
// order are its groups, pairs in list order within each. (A pair that finds all
// colours_per_chunk taken ends the colouring there: its groups are made, and the pairs
// from that one on are coloured afresh.) Chunks keep the circles a group touches few
// and near, and let a list that changed in a few places be grouped again in those places
// only: a chunk whose pairs are the same as in the last call is copied from its result.
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/pair_finder.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace simdcollide {

class pair_blocks;

namespace detail {
class pair_schedule;
const pair_schedule& schedule_of(const pair_blocks& blocks) noexcept;
} // namespace detail

/// Circles whose pairs are grouped together (see the top of this file). In a packed pile
/// sorted by first circle, a chunk of 1024 circles holds about 2 500 pairs.
inline constexpr std::size_t circles_per_chunk = 1024;

/// Colours at most in one colouring: a pair that finds none free for its two circles starts
/// a new colouring (a circle in more than 32 pairs of one chunk, as in a cell that holds
/// everything).
inline constexpr std::size_t colours_per_chunk = 32;

/// A pair list reordered into groups of pairs that share no circle. Made only by
/// pair_grouper, so that this always holds; read-only to everyone else.
class pair_groups {
public:
    /// The reordered list: the same pairs, each once.
    [[nodiscard]] std::span<const circle_pair> pairs() const noexcept { return pairs_; }
    /// Group g is pairs()[ends()[g - 1], ends()[g]) (from 0 for g = 0); the last end is
    /// pairs().size().
    [[nodiscard]] std::span<const std::uint32_t> ends() const noexcept { return ends_; }
    /// The circle count the list was grouped for (indices are below it).
    [[nodiscard]] std::size_t circle_count() const noexcept { return circle_count_; }

private:
    friend class pair_grouper;
    std::vector<circle_pair> pairs_;
    std::vector<std::uint32_t> ends_;
    std::size_t circle_count_ = 0;
};

/// Makes pair_groups (see the top of this file) and keeps the last ones, to copy from them
/// the chunks that did not change. Scratch: 4 bytes a circle, and three arrays as long as
/// the list.
class pair_grouper {
public:
    /// Groups `list`; the result lives until the next call or the grouper's end. Throws
    /// std::invalid_argument, leaving the last result as it was, if an index is not below
    /// circle_count or a pair's two indices are equal, or if the list has 2^32 or more pairs.
    const pair_groups& group(std::span<const circle_pair> list, std::size_t circle_count);

    /// The last result (empty before the first call).
    [[nodiscard]] const pair_groups& groups() const noexcept { return groups_; }

private:
    friend class detail::pair_schedule;
    // group() for a list that differs from the last call's only in the chunks of the blocks
    // flagged in `changed` (flag k for first circles [k, k + 1) * circles_per_chunk; blocks
    // past its end count as changed), for the same circle count: the other chunks are taken
    // to be the last call's without comparing them, and the list is not kept (the next
    // group() colours every chunk). For pair_blocks' parts, whose lists change in a few
    // places known to the cut. Precondition, not checked: a chunk not flagged is the same as
    // in the last call's list (otherwise the result is not this list's; only a chunk whose
    // last length would run past the list's end is coloured instead).
    const pair_groups& regroup(std::span<const circle_pair> list, std::size_t circle_count,
                               std::span<const std::uint8_t> changed);
    const pair_groups& group_chunks(std::span<const circle_pair> list, std::size_t circle_count,
                                    const std::uint8_t* changed, std::size_t blocks);

    // A chunk of a call: its pairs at [list_begin, list_end) of the list (the last call's
    // list is copied in last_list_, when it is kept) and of the result, its groups' ends at
    // [ends_begin, ends_end) of the result's ends, and one past the highest circle its pairs
    // name (for the world's bands, which would otherwise look at every pair again).
    struct chunk_record {
        std::size_t block; // first circle / circles_per_chunk
        std::size_t list_begin, list_end;
        std::size_t ends_begin, ends_end;
        std::uint32_t reach;
    };
    [[nodiscard]] std::span<const chunk_record> chunks() const noexcept { return last_chunks_; }
    std::uint32_t colour_chunk(std::span<const circle_pair> chunk, std::size_t at);
    void close_colours(std::span<const circle_pair> pairs, const std::uint8_t* colour_of,
                       std::size_t at);

    pair_groups groups_, next_;          // the last result; the one being made
    std::vector<circle_pair> last_list_; // the last call's list
    bool last_list_kept_ = false;        // last_list_ is the last call's (regroup keeps none)
    std::vector<chunk_record> last_chunks_, chunks_;
    std::vector<std::uint32_t> state_; // per circle: its colours in the colouring under way
    bool state_clear_ = true;          // state_ all zeros (false while a chunk is coloured)
    std::vector<std::uint8_t> colour_; // per pair of the chunk being coloured
};

/// A pair list cut so that workers can separate it in order, side by side, with the bits of
/// one thread. The circles are cut
/// into blocks of block_circles() consecutive indices. Part k holds, in list order, the pairs
/// whose second circle lies in block k and whose first lies in block k or k - 1, grouped as
/// pair_grouper groups them; the far part holds the pairs that reach further. The order of
/// separate_in_order below: the parts of even blocks, then those of odd blocks, then the far
/// part. The parts of each of those waves name disjoint circles, so workers take them side
/// by side, and the order does not depend on how many there are. Circles ordered so that
/// pairs join near indices (sorted by cell, row by row, as the world's slots are) have few
/// pairs across blocks, and fewer still in the far part, which runs on one worker.
class pair_blocks {
public:
    pair_blocks();
    ~pair_blocks();
    pair_blocks(const pair_blocks& other);
    pair_blocks& operator=(const pair_blocks& other);
    pair_blocks(pair_blocks&& other) noexcept;
    pair_blocks& operator=(pair_blocks&& other) noexcept;

    /// Cuts `pairs` of `circle_count` circles (below 2^32): every pair (a, b) with
    /// a < b < circle_count, the list ascending by a then b with no pair twice (as
    /// pair_finder::find gives it).
    /// `block_circles`: a power of two from 1 024 to 2^20, or 0 (the default) to choose: at least
    /// 16 384 and twice the index distance that 99 of 100 pairs stay within, and where four such
    /// blocks fit, four or a multiple of four of about equal size. The cut depends on these
    /// arguments alone. Throws std::invalid_argument, keeping the last cut, for a list or a block
    /// size that is not so.
    void cut(std::span<const circle_pair> pairs, std::size_t circle_count,
             std::size_t block_circles = 0);
    /// The same cut, made on `w`'s workers.
    void cut(std::span<const circle_pair> pairs, std::size_t circle_count,
             std::size_t block_circles, const workers& w);

    [[nodiscard]] std::size_t circle_count() const noexcept;
    /// Circles in a block (the last may have fewer); 0 before the first cut.
    [[nodiscard]] std::size_t block_circles() const noexcept;
    /// Blocks, and so parts besides the far part.
    [[nodiscard]] std::size_t blocks() const noexcept;
    /// Pairs in the far part: those that reach past the block above their first circle's.
    [[nodiscard]] std::size_t far_pairs() const noexcept;

private:
    friend const detail::pair_schedule& detail::schedule_of(const pair_blocks& blocks) noexcept;
    std::unique_ptr<detail::pair_schedule> schedule_;
};

/// Separates the grouped pairs in order, `rounds` times over the list: each pair in contact
/// moves its circles as circle_circle.hpp's pairwise separate does (docs/behaviour.md's rule, in
/// the weighting `mode`), from the positions the pairs before it left. A circle that no pair moves
/// keeps its bits. Reads x, y, radius, inverse_mass; writes x and y. An invalid circle changes the
/// pairs it is in, and a circle it moves carries that to the pairs after (circle_circle.hpp).
/// Throws std::invalid_argument, writing nothing, unless circles.count equals
/// groups.circle_count(), rounds >= 0, no array is null, and x and y share memory with no
/// other array. `workspace` is scratch (four floats a circle); the overload without one
/// allocates it.
void separate_in_order(particles_view circles, const pair_groups& groups, separation_weighting mode,
                       int rounds, separation_workspace& workspace);
void separate_in_order(particles_view circles, const pair_groups& groups,
                       separation_weighting mode = separation_weighting::inverse_mass,
                       int rounds = 1);

/// separate_in_order over a cut list, in its order (pair_blocks): each part's pairs as the
/// call above takes a grouped list, all `rounds` rounds of a part before the next part. The
/// parts of a wave run side by side on `w`'s workers (none: the calling thread); the bits are
/// those of one worker. Throws std::invalid_argument, writing nothing, unless circles.count
/// equals blocks.circle_count(), rounds >= 0, no array is null, and x and y share memory with
/// no other array. `workspace` is scratch (four floats a circle).
void separate_in_order(particles_view circles, const pair_blocks& blocks, separation_weighting mode,
                       int rounds, separation_workspace& workspace, const workers& w);
void separate_in_order(particles_view circles, const pair_blocks& blocks, separation_weighting mode,
                       int rounds, const workers& w);
void separate_in_order(particles_view circles, const pair_blocks& blocks,
                       separation_weighting mode = separation_weighting::inverse_mass,
                       int rounds = 1);

namespace reference {
void separate_in_order(particles_view circles, const pair_groups& groups, separation_weighting mode,
                       int rounds, separation_workspace& workspace);
void separate_in_order(particles_view circles, const pair_groups& groups,
                       separation_weighting mode = separation_weighting::inverse_mass,
                       int rounds = 1);
/// The reference of separate_in_order over a cut list: the same order, one pair at a time.
void separate_in_order(particles_view circles, const pair_blocks& blocks,
                       separation_weighting mode = separation_weighting::inverse_mass,
                       int rounds = 1);
} // namespace reference

} // namespace simdcollide
