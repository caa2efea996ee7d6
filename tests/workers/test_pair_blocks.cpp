// separate_in_order over a pair list cut into blocks (pair_groups.hpp, pair_blocks): on every
// instruction set the reference's bits, on pools of 1 to 16 workers and on host callbacks
// the bits without workers; a list in one block gives the grouped list's bits; a bad list
// or block size is refused, keeping the last cut, and a bad call writes nothing.
#include "host_tasks.hpp"
#include "test_support.hpp"

#include <simdcollide/simdcollide.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace simdcollide::testing {
namespace {

// Circles in rows of 150, overlapping their neighbours a little, with weights from static (0)
// to light, listed by the pair finder: indices run row by row, so pairs join circles about a
// row apart. `far` more pairs join circles far apart in index (as circles that meet across a
// pile would), so that the far part has pairs.
struct packed_rows {
    std::vector<float> x, y, radius, inverse_mass, vx, vy;
    std::vector<circle_pair> pairs;

    packed_rows(std::size_t n, std::size_t far) {
        std::mt19937 rng(21);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t i = 0; i < n; ++i) {
            x.push_back(0.9F * static_cast<float>(i % 150) + 0.1F * unit(rng));
            y.push_back(0.9F * static_cast<float>(i / 150) + 0.1F * unit(rng));
            radius.push_back(0.45F + 0.1F * unit(rng));
            inverse_mass.push_back(i % 37 == 0 ? 0.0F : 0.5F + unit(rng));
        }
        // Circle b of each far pair moved onto circle a, a quarter of the circles away or
        // more; the circles a around a chunk's end (pair_groups.hpp), so that the far part
        // starts inside a chunk.
        for (std::size_t k = 0; k < far; ++k) {
            const std::size_t a = 950 + 2 * k;
            const std::size_t b = n - 1 - (k * 104729) % (n / 4);
            x[b] = x[a] + 0.4F;
            y[b] = y[a] + 0.3F;
        }
        vx.assign(n, 0.0F);
        vy.assign(n, 0.0F);
        pair_finder finder;
        const std::span<const circle_pair> found =
            finder.find(circles_cview(x.data(), y.data(), radius.data(), n));
        pairs.assign(found.begin(), found.end());
    }

    particles_view view() {
        return {x.data(),  y.data(),  radius.data(), inverse_mass.data(),
                vx.data(), vy.data(), x.size()};
    }
};

// Each circle's x and y as bits.
std::vector<std::uint32_t> positions(const packed_rows& s) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
        out.push_back(bits(s.x[i]));
        out.push_back(bits(s.y[i]));
    }
    return out;
}

constexpr std::size_t circles = 45000;

// The order pair_blocks documents, worked out here from the list alone: the pairs whose
// second circle lies in block k and whose first in block k or k - 1 are part k, the others
// the far part; the parts of even blocks, then of odd blocks, then the far part, each
// grouped by pair_grouper and separated by the reference over every circle.
void separate_as_documented(packed_rows& s, std::size_t block, separation_weighting mode,
                            int rounds) {
    const std::size_t n = s.x.size();
    const std::size_t blocks = (n + block - 1) / block;
    std::vector<std::vector<circle_pair>> parts(blocks + 1); // the far part last
    for (const circle_pair q : s.pairs) {
        const std::size_t k = q.b / block;
        parts[q.a / block + 1 >= k ? k : blocks].push_back(q);
    }
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < blocks; k += 2) {
        order.push_back(k);
    }
    for (std::size_t k = 1; k < blocks; k += 2) {
        order.push_back(k);
    }
    order.push_back(blocks);
    for (const std::size_t k : order) {
        pair_grouper grouper;
        reference::separate_in_order(s.view(), grouper.group(parts[k], n), mode, rounds);
    }
}

class pair_blocks_on_each_isa : public on_each_isa {};

TEST_P(pair_blocks_on_each_isa, give_the_reference_bits_and_one_workers_bits) {
    const packed_rows start(circles, 150);
    for (const std::size_t block : {std::size_t{0}, std::size_t{4096}}) {
        pair_blocks blocks;
        blocks.cut(start.pairs, circles, block);
        EXPECT_GT(blocks.blocks(), 1U);
        EXPECT_GT(blocks.far_pairs(), 0U);
        for (const separation_weighting mode :
             {separation_weighting::inverse_mass, separation_weighting::equal}) {
            SCOPED_TRACE(::testing::Message()
                         << "block " << block << ", mode " << static_cast<int>(mode));
            packed_rows reference_run = start;
            reference::separate_in_order(reference_run.view(), blocks, mode, 2);
            packed_rows documented = start;
            separate_as_documented(documented, blocks.block_circles(), mode, 2);
            ASSERT_EQ(positions(reference_run), positions(documented));
            packed_rows alone = start;
            separate_in_order(alone.view(), blocks, mode, 2);
            const std::vector<std::uint32_t> want = positions(reference_run);
            ASSERT_EQ(positions(alone), want);
            ASSERT_NE(positions(start), want); // it did separate
            for (const worker_setup& setup : worker_setups()) {
                const workers w = setup.make();
                packed_rows on_workers = start;
                separate_in_order(on_workers.view(), blocks, mode, 2, w);
                ASSERT_EQ(positions(on_workers), want) << setup.name;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, pair_blocks_on_each_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

// A list cut in one block (fewer circles than a block) is one part, its pairs grouped as
// pair_grouper groups the list: the bits of separate_in_order over those groups. A cut made on
// workers is the cut made without them.
TEST(pair_blocks, in_one_block_are_the_grouped_list_and_a_cut_on_workers_is_the_same) {
    const packed_rows start(6000, 0);
    pair_blocks blocks;
    blocks.cut(start.pairs, 6000);
    EXPECT_EQ(blocks.blocks(), 1U);
    EXPECT_EQ(blocks.block_circles(), 16384U);
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(start.pairs, 6000);
    packed_rows grouped = start;
    separate_in_order(grouped.view(), groups, separation_weighting::inverse_mass, 3);
    packed_rows cut = start;
    separate_in_order(cut.view(), blocks, separation_weighting::inverse_mass, 3);
    EXPECT_EQ(positions(cut), positions(grouped));

    const packed_rows large(circles, 40);
    pair_blocks alone;
    alone.cut(large.pairs, circles, 4096);
    const workers w(3);
    pair_blocks on_workers;
    on_workers.cut(large.pairs, circles, 4096, w);
    EXPECT_EQ(on_workers.blocks(), alone.blocks());
    EXPECT_EQ(on_workers.far_pairs(), alone.far_pairs());
    packed_rows a = large;
    packed_rows b = large;
    separate_in_order(a.view(), alone);
    separate_in_order(b.view(), on_workers);
    EXPECT_EQ(positions(a), positions(b));
    // A copy cuts the same; a moved-from one is empty.
    const pair_blocks copy = alone;
    packed_rows c = large;
    separate_in_order(c.view(), copy);
    EXPECT_EQ(positions(c), positions(a));
    pair_blocks moved = std::move(on_workers);
    EXPECT_EQ(moved.blocks(), alone.blocks());
}

TEST(pair_blocks, refuse_a_bad_list_or_block_size_and_keep_the_last_cut) {
    const packed_rows start(3000, 0);
    pair_blocks blocks;
    blocks.cut(start.pairs, 3000);
    const std::size_t kept = blocks.blocks();
    const std::vector<std::vector<circle_pair>> bad = {
        {{3, 2}},         // a > b
        {{4, 4}},         // a circle with itself
        {{1, 3000}},      // past the circles
        {{1, 5}, {0, 9}}, // out of order
        {{1, 5}, {1, 5}}, // twice
    };
    for (const std::vector<circle_pair>& list : bad) {
        EXPECT_THROW(blocks.cut(list, 3000), std::invalid_argument);
        EXPECT_EQ(blocks.blocks(), kept);
        EXPECT_EQ(blocks.circle_count(), 3000U);
    }
    for (const std::size_t size : {std::size_t{512}, std::size_t{3000}, std::size_t{1} << 21}) {
        EXPECT_THROW(blocks.cut(start.pairs, 3000, size), std::invalid_argument) << size;
    }
    EXPECT_THROW(blocks.cut({}, std::size_t{1} << 32), std::invalid_argument);
    EXPECT_EQ(blocks.blocks(), kept);
    EXPECT_NO_THROW(blocks.cut({}, 0));
    EXPECT_EQ(blocks.blocks(), 0U);
}

TEST(pair_blocks, a_bad_call_writes_nothing) {
    packed_rows scene(3000, 0);
    pair_blocks blocks;
    blocks.cut(scene.pairs, 3000);
    const std::vector<std::uint32_t> before = positions(scene);
    particles_view fewer = scene.view();
    fewer.count = 2999;
    EXPECT_THROW(separate_in_order(fewer, blocks), std::invalid_argument);
    EXPECT_THROW(separate_in_order(scene.view(), blocks, separation_weighting::equal, -1),
                 std::invalid_argument);
    particles_view no_radius = scene.view();
    no_radius.radius = nullptr;
    EXPECT_THROW(separate_in_order(no_radius, blocks), std::invalid_argument);
    particles_view shared = scene.view();
    shared.y = shared.x;
    EXPECT_THROW(separate_in_order(shared, blocks), std::invalid_argument);
    EXPECT_EQ(positions(scene), before);
    pair_blocks never_cut;
    EXPECT_THROW(separate_in_order(scene.view(), never_cut), std::invalid_argument);
    EXPECT_EQ(positions(scene), before);
}

} // namespace
} // namespace simdcollide::testing
