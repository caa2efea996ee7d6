// The world's schedule and groups (pair_schedule.hpp, pair_groups.hpp): what a world keeps
// from step to step, relisting a few circles or all, is its list grouped and cut afresh.
#include "broad_phase/pair_schedule.hpp"
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

// Circles drifting without gravity and colliding, each within its margin until a
// collision turns it: about 70 of 120 steps list only the circles that leave their margins,
// the others everything.
particle_world drifting_world(const world_options& base, std::size_t n) {
    world_options options = base;
    options.gravity_y = 0.0F;
    options.pair_margin = 0.02F;
    particle_world world(options);
    world.set_boxes(open_container(60, 200).view());
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < n; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % 60), 0.5F + static_cast<float>(i / 60),
                          0.3F + 0.2F * unit(rng)},
                         0.5F + unit(rng), 2.0F * unit(rng) - 1.0F, 2.0F * unit(rng) - 1.0F);
    }
    return world;
}

// In bands, the particle world regroups only the chunks its partial relistings change (it
// tells its grouper which, pair_grouper::regroup): after every step its groups are what a
// fresh grouper makes of its list.
TEST(pair_groups, of_a_world_are_its_list_grouped_afresh) {
    const std::size_t n = 5 * circles_per_chunk;
    particle_world world = drifting_world({.circles_per_band = 1024}, n);
    for (int s = 0; s < 120; ++s) {
        SCOPED_TRACE(s);
        world.step(1.0F / 60.0F);
        pair_grouper fresh;
        const pair_groups& want = fresh.group(detail::state_of(world).pairs_in_slots(), n);
        ASSERT_EQ(detail::state_of(world).groups_in_slots().circle_count(), n);
        expect_same_groups(detail::state_of(world).groups_in_slots(), want);
    }
    EXPECT_GT(world.listings().partial, 40U); // the regrouping was tested, on most steps
    EXPECT_GT(world.listings().full, 1U);
    EXPECT_GT(world.last_pair_count(), n / 2); // listed near one another
}

void expect_same_part(const detail::pair_part& got, const detail::pair_part& want) {
    EXPECT_EQ(got.first, want.first);
    EXPECT_EQ(got.end, want.end);
    EXPECT_EQ(got.touch_at, want.touch_at);
    ASSERT_EQ(got.pairs.size(), want.pairs.size());
    for (std::size_t k = 0; k < got.pairs.size(); ++k) {
        ASSERT_TRUE(got.pairs[k].a == want.pairs[k].a && got.pairs[k].b == want.pairs[k].b) << k;
    }
    expect_same_groups(got.grouper.groups(), want.grouper.groups());
}

// Outside bands, the world cuts again only the blocks its partial relistings change
// (pair_schedule.hpp): after every step each part is what a fresh schedule of its list, with
// the same block size, makes; every pair is in one part, with its second circle in the
// part's block and its first in that block or the one below.
TEST(pair_groups, a_worlds_schedule_is_its_list_cut_afresh) {
    const std::size_t n = 5 * circles_per_chunk;
    particle_world world = drifting_world({.circles_per_block = 1024}, n);
    for (int s = 0; s < 120; ++s) {
        SCOPED_TRACE(s);
        world.step(1.0F / 60.0F);
        const detail::pair_schedule& got = detail::state_of(world).schedule_in_slots();
        detail::pair_schedule want;
        want.build(detail::state_of(world).pairs_in_slots(), n, {}, true, {}, got.block_circles());
        ASSERT_EQ(got.blocks(), want.blocks());
        ASSERT_EQ(got.pair_count(), world.last_pair_count());
        std::size_t pairs = got.far().pairs.size();
        const std::size_t block = got.block_circles();
        for (std::size_t k = 0; k < got.blocks(); ++k) {
            const detail::pair_part& part = got.part(k);
            expect_same_part(part, want.part(k));
            EXPECT_EQ(part.end, std::min(n, (k + 1) * block));
            for (const circle_pair q : part.pairs) {
                ASSERT_EQ((part.first + q.b) / block, k);
                ASSERT_GE((part.first + q.a) / block + 1, k);
            }
            pairs += part.pairs.size();
        }
        for (const circle_pair q : got.far().pairs) {
            ASSERT_GT((got.far().first + q.b) / block, (got.far().first + q.a) / block + 1);
        }
        expect_same_part(got.far(), want.far());
        EXPECT_EQ(pairs, world.last_pair_count());
    }
    EXPECT_GT(world.listings().partial, 40U);
    EXPECT_GT(world.listings().full, 1U);
    EXPECT_GT(detail::state_of(world).schedule_in_slots().blocks(), 2U);
}

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
