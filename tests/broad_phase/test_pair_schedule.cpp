// The schedule (pair_schedule.hpp) that separation in order on workers (pair_blocks) cuts a
// list into: blocks of slots, by the list alone.
#include "broad_phase/pair_schedule.hpp"
#include "test_support.hpp"

#include <cstdint>
#include <vector>

namespace simdcollide::testing {
namespace {

// A pile's list: each slot touches its right-hand neighbour and the slot a row of `width` on.
std::vector<circle_pair> rows_of(std::size_t n, std::uint32_t width) {
    std::vector<circle_pair> pairs;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (i + 1 < n) {
            pairs.push_back({i, i + 1});
        }
        if (i + width < n) {
            pairs.push_back({i, i + width});
        }
    }
    return pairs;
}

// By default the blocks are at least 16 384 slots, and where four or more of those fit, the
// slots are cut into a multiple of four blocks of about equal size (whole chunks), so that
// the waves of even and of odd parts each have an even number of parts of about equal work.
TEST(pair_schedule, cuts_a_large_list_into_four_blocks_or_a_multiple_of_four) {
    const struct {
        std::size_t n;
        std::size_t blocks;
        std::size_t block;
    } cases[] = {{10000, 1, 16384},     // one block: the pile's pairs in list order
                 {50000, 4, 16384},     // too few for four blocks of 16 384: blocks of 16 384
                 {65536, 4, 16384},     //
                 {100000, 4, 25600},    // four blocks of about 25 000
                 {300000, 16, 19456},   // sixteen of about 18 750
                 {1000000, 58, 17408}}; // sixty of about 16 667, whole chunks: 58 blocks
    for (const auto& c : cases) {
        SCOPED_TRACE(c.n);
        detail::pair_schedule schedule;
        const std::vector<circle_pair> pairs = rows_of(c.n, 200);
        schedule.build(pairs, c.n, {}, true, {});
        EXPECT_EQ(schedule.blocks(), c.blocks);
        EXPECT_EQ(schedule.block_circles(), c.block);
        EXPECT_EQ(schedule.block_circles() % circles_per_chunk, 0U);
        EXPECT_TRUE(schedule.far().pairs.empty());
    }
    // Pairs that span more want larger blocks: 99 of 100 within 20 000 slots, blocks of 65 536
    // at least, so 300 000 slots make four blocks of 75 776.
    detail::pair_schedule wide;
    wide.build(rows_of(300000, 20000), 300000, {}, true, {});
    EXPECT_EQ(wide.blocks(), 4U);
    EXPECT_EQ(wide.block_circles(), 75776U);
}

} // namespace
} // namespace simdcollide::testing
