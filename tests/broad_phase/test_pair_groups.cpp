// Separation in order over grouped pairs (pair_groups.hpp):
// the grouping's promises (a permutation of the list; no group with a shared circle; chunk
// and colour limits; the same groups from the same list), SIMD against the reference bit
// for bit on every instruction set, the reference's physics, and bad input.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace simdcollide::testing {
namespace {

/// Circles on a jittered grid, close enough that neighbours overlap, with every pair of
/// neighbours (about six a circle, as in a packed pile) listed by first circle; some static
/// circles, a pair with coincident centres, a zero radius, and a view offset by `shift`.
struct packed_pile {
    packed_pile(std::size_t n, std::uint32_t seed, std::size_t shift)
        : x(n + shift), y(n + shift), r(n + shift), w(n + shift), vx(n + shift), vy(n + shift),
          shift_(shift), n_(n) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        const auto side = static_cast<std::size_t>(std::sqrt(static_cast<double>(n))) + 1;
        for (std::size_t i = 0; i < n; ++i) {
            x[shift + i] = static_cast<float>(i % side) * 0.85F + unit(rng) * 0.2F;
            y[shift + i] = static_cast<float>(i / side) * 0.85F + unit(rng) * 0.2F;
            r[shift + i] = i % 23 == 5 ? 0.0F : 0.4F + unit(rng) * 0.2F;
            w[shift + i] = i % 7 == 0 ? 0.0F : 0.5F + unit(rng);
        }
        if (n > 3) { // coincident centres
            x[shift + 3] = x[shift + 2];
            y[shift + 3] = y[shift + 2];
        }
        for (std::size_t i = 0; i < n; ++i) {
            for (const std::size_t j : {i + 1, i + side - 1, i + side, i + side + 1}) {
                if (j < n && j != i) {
                    pairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
                }
            }
        }
    }
    particles_view view() {
        return {x.data() + shift_,
                y.data() + shift_,
                r.data() + shift_,
                w.data() + shift_,
                vx.data() + shift_,
                vy.data() + shift_,
                n_};
    }
    std::vector<float> x, y, r, w, vx, vy;
    std::vector<circle_pair> pairs;

private:
    std::size_t shift_;
    std::size_t n_;
};

// The grouping's promises, for any list.
void expect_sound_groups(std::span<const circle_pair> list, const pair_groups& groups) {
    ASSERT_EQ(groups.pairs().size(), list.size());
    std::vector<circle_pair> sorted_in(list.begin(), list.end());
    std::vector<circle_pair> sorted_out(groups.pairs().begin(), groups.pairs().end());
    const auto before = [](circle_pair l, circle_pair r) {
        return l.a != r.a ? l.a < r.a : l.b < r.b;
    };
    std::sort(sorted_in.begin(), sorted_in.end(), before);
    std::sort(sorted_out.begin(), sorted_out.end(), before);
    EXPECT_TRUE(std::equal(sorted_in.begin(), sorted_in.end(), sorted_out.begin(),
                           [](circle_pair l, circle_pair r) { return l.a == r.a && l.b == r.b; }))
        << "not a permutation of the list";
    std::uint32_t begin = 0;
    for (const std::uint32_t end : groups.ends()) {
        ASSERT_LT(begin, end) << "an empty group";
        std::set<std::uint32_t> circles;
        for (std::uint32_t k = begin; k < end; ++k) {
            EXPECT_TRUE(circles.insert(groups.pairs()[k].a).second) << "pair " << k;
            EXPECT_TRUE(circles.insert(groups.pairs()[k].b).second) << "pair " << k;
        }
        begin = end;
    }
    EXPECT_EQ(begin, list.size());
}

TEST(pair_groups, are_a_permutation_of_the_list_in_groups_that_share_no_circle) {
    pair_grouper grouper;
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{2}, std::size_t{9}, std::size_t{4000}}) {
        const packed_pile p(n, 1, 0);
        const pair_groups& groups = grouper.group(p.pairs, n);
        expect_sound_groups(p.pairs, groups);
        EXPECT_EQ(groups.circle_count(), n);
        if (n == 4000) { // four chunks of about 6 colours each
            EXPECT_GT(groups.ends().size(), 12U);
            EXPECT_LT(groups.ends().size(), 50U);
        }
    }
}

// Random pairs in random order and orientation, few circles: most pairs share circles with
// many others, and each chunk runs out of colours.
TEST(pair_groups, hold_for_random_lists_and_a_circle_in_every_pair) {
    std::mt19937 rng(7);
    pair_grouper grouper; // reused: its scratch from a larger list must not leak into a smaller
    for (const std::size_t n : {std::size_t{40}, std::size_t{5}, std::size_t{300}}) {
        std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(n) - 1);
        std::vector<circle_pair> list;
        for (int k = 0; k < 5000; ++k) {
            const std::uint32_t a = pick(rng);
            const std::uint32_t b = pick(rng);
            if (a != b) {
                list.push_back({a, b});
            }
        }
        expect_sound_groups(list, grouper.group(list, n));
    }
    // A star: circle 0 in every pair. Each pair needs a colour of its own, so a chunk ends
    // after 32 of them, and every group holds one pair.
    std::vector<circle_pair> star;
    for (std::uint32_t j = 1; j <= 100; ++j) {
        star.push_back({0, j});
    }
    const pair_groups& groups = grouper.group(star, 101);
    expect_sound_groups(star, groups);
    EXPECT_EQ(groups.ends().size(), 100U);
    for (std::uint32_t k = 0; k < 100; ++k) {
        EXPECT_EQ(groups.pairs()[k].b, k + 1); // each chunk in list order, one colour a pair
    }
}

/// A grouping as plain vectors, for the definition's own result below.
struct pair_groups_model {
    std::vector<circle_pair> pairs;
    std::vector<std::uint32_t> ends;
};

// A grouper copies the chunks that did not change since its last call: its result is the
// one a fresh grouper gives, after lists that differ from the last in a few pairs, in whole
// chunks gone or added, in length, and in circle count.
TEST(pair_groups, depend_on_the_list_alone) {
    const packed_pile p(6000, 2, 0); // six chunks
    std::vector<std::vector<circle_pair>> lists;
    lists.push_back(p.pairs);
    // The first pair of circle i's: in the chunk of block i / circles_per_chunk.
    const auto at = [](std::vector<circle_pair>& list, std::uint32_t i) {
        return std::find_if(list.begin(), list.end(), [i](circle_pair q) { return q.a >= i; });
    };
    std::vector<circle_pair> changed = p.pairs;
    changed.erase(at(changed, 500));                 // a pair gone in block 0
    changed.insert(at(changed, 2500), {2500, 2510}); // one added in block 2
    at(changed, 3500)->b = 3502;                     // one pair another in block 3: the same length
    lists.push_back(changed);
    std::vector<circle_pair> fewer; // the second chunk gone, the list shorter
    for (const circle_pair q : changed) {
        if (q.a / circles_per_chunk != 1) {
            fewer.push_back(q);
        }
    }
    lists.push_back(fewer);
    lists.push_back(changed); // the chunk back
    lists.push_back(p.pairs);
    pair_grouper used;
    for (std::size_t l = 0; l < lists.size(); ++l) {
        SCOPED_TRACE(l);
        pair_grouper fresh;
        const pair_groups& want = fresh.group(lists[l], 6000);
        const pair_groups& got = used.group(lists[l], 6000);
        expect_sound_groups(lists[l], got);
        expect_same_groups(got, want);
    }
    // The same list for fewer circles (its indices still in range): the same groups, for
    // that count.
    pair_grouper fresh;
    const std::vector<circle_pair> head(p.pairs.begin(), p.pairs.begin() + 100);
    const pair_groups& got = used.group(head, 200);
    EXPECT_EQ(got.circle_count(), 200U);
    expect_same_groups(got, fresh.group(head, 200));
}

// pair_groups.hpp's definition, written out as plainly as it reads: chunks are runs of
// pairs whose first circles share a block; each chunk coloured greedily in list order, a
// pair taking the lowest colour neither circle has yet in the colouring (a fresh colouring
// once all colours_per_chunk are taken); each colouring's groups by ascending colour, pairs
// in list order. The grouping defines the order of separation, so the bits of every world
// step: this pins it.
pair_groups_model groups_by_definition(std::span<const circle_pair> list) {
    pair_groups_model out;
    std::size_t begin = 0;
    while (begin < list.size()) {
        const std::size_t block = list[begin].a / circles_per_chunk;
        std::size_t end = begin;
        while (end < list.size() && list[end].a / circles_per_chunk == block) {
            ++end;
        }
        std::size_t first = begin;
        while (first < end) { // one colouring
            std::map<std::uint32_t, std::set<std::size_t>> colours_of;
            std::vector<std::vector<circle_pair>> by_colour(colours_per_chunk);
            std::size_t k = first;
            for (; k < end; ++k) {
                const circle_pair q = list[k];
                std::size_t colour = 0;
                while (colour < colours_per_chunk &&
                       (colours_of[q.a].count(colour) != 0 || colours_of[q.b].count(colour) != 0)) {
                    ++colour;
                }
                if (colour == colours_per_chunk) {
                    break;
                }
                colours_of[q.a].insert(colour);
                colours_of[q.b].insert(colour);
                by_colour[colour].push_back(q);
            }
            for (const std::vector<circle_pair>& group : by_colour) {
                if (!group.empty()) {
                    out.pairs.insert(out.pairs.end(), group.begin(), group.end());
                    out.ends.push_back(static_cast<std::uint32_t>(out.pairs.size()));
                }
            }
            first = k;
        }
        begin = end;
    }
    return out;
}

void expect_groups_by_definition(std::span<const circle_pair> list, const pair_groups& got) {
    const pair_groups_model want = groups_by_definition(list);
    expect_same_grouping(got, want.pairs, want.ends);
}

// The grouper's result is the definition's, on a packed pile's list (several chunks), on
// random lists in random order where chunks run out of colours (some circles in more than
// colours_per_chunk pairs, some pairs repeated, first circles above second ones), and one
// grouper called on each in turn, so that what a call leaves behind is tested too.
TEST(pair_groups, are_the_greedy_colouring_the_header_defines) {
    pair_grouper used;
    const packed_pile p(5000, 4, 0);
    expect_groups_by_definition(p.pairs, used.group(p.pairs, 5000));
    std::mt19937 rng(11);
    for (const std::size_t n : {std::size_t{3000}, std::size_t{6}, std::size_t{60}}) {
        SCOPED_TRACE(n);
        std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(n) - 1);
        std::vector<circle_pair> list;
        for (int k = 0; k < 4000; ++k) {
            const std::uint32_t a = pick(rng);
            const std::uint32_t b = k % 5 == 0 ? a / 2 : pick(rng); // a's half: a hub
            if (a != b) {
                list.push_back({a, b});
            }
        }
        // Runs of one first circle, as a sorted list has, in a list that is not sorted.
        std::sort(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(list.size() / 2),
                  [](circle_pair l, circle_pair r) { return l.a < r.a; });
        expect_groups_by_definition(list, used.group(list, n));
        pair_grouper fresh;
        expect_groups_by_definition(list, fresh.group(list, n));
    }
    expect_groups_by_definition(p.pairs, used.group(p.pairs, 5000));
}

TEST(pair_groups, refuse_bad_lists_and_keep_the_last_groups) {
    pair_grouper grouper;
    const std::vector<circle_pair> good = {{0, 1}, {1, 2}};
    const pair_groups& groups = grouper.group(good, 3);
    for (const std::vector<circle_pair>& bad :
         {std::vector<circle_pair>{{0, 1}, {1, 3}}, std::vector<circle_pair>{{2, 2}}}) {
        EXPECT_THROW(grouper.group(bad, 3), std::invalid_argument);
        expect_sound_groups(good, groups);
    }
}

// A grouper checks a list chunk by chunk, only the chunks it colours (one the same as last
// time was checked then): a bad pair in a later chunk, after earlier chunks were copied
// or coloured, is still refused, named by its place in the whole list, and the grouper's
// next results are a fresh grouper's.
TEST(pair_groups, refuse_a_bad_pair_in_a_later_chunk) {
    const packed_pile p(6000, 5, 0); // six chunks
    pair_grouper used;
    used.group(p.pairs, 6000);
    std::vector<circle_pair> bad = p.pairs;
    const auto in_block = [&](std::size_t block) {
        return static_cast<std::size_t>(
            std::find_if(bad.begin(), bad.end(),
                         [&](circle_pair q) { return q.a / circles_per_chunk >= block; }) -
            bad.begin());
    };
    bad[in_block(1)].b = 2; // block 1 changed, and coloured again
    const std::size_t k = in_block(4);
    bad[k].b = 6000; // out of range, in block 4
    try {
        used.group(bad, 6000);
        ADD_FAILURE() << "a pair out of range was not refused";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("pair " + std::to_string(k) + " is"),
                  std::string::npos)
            << e.what();
    }
    expect_sound_groups(p.pairs, used.groups());
    bad[k].b = bad[k].a + 1; // now good: blocks 1 and 4 changed since the last good list
    for (const std::vector<circle_pair>& list : {bad, p.pairs}) {
        pair_grouper fresh;
        const pair_groups& want = fresh.group(list, 6000);
        const pair_groups& got = used.group(list, 6000);
        expect_sound_groups(list, got);
        expect_same_groups(got, want);
    }
}

TEST(separate_in_order, refuses_bad_arguments_and_writes_nothing) {
    packed_pile p(10, 3, 0);
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(p.pairs, 10);
    const std::vector<float> x = p.x;
    particles_view fewer = p.view();
    fewer.count = 9;
    EXPECT_THROW(separate_in_order(fewer, groups), std::invalid_argument);
    EXPECT_THROW(separate_in_order(p.view(), groups, separation_weighting::inverse_mass, -1),
                 std::invalid_argument);
    particles_view no_radius = p.view();
    no_radius.radius = nullptr;
    EXPECT_THROW(reference::separate_in_order(no_radius, groups), std::invalid_argument);
    EXPECT_EQ(p.x, x);
    separate_in_order(p.view(), groups, separation_weighting::inverse_mass, 0); // no rounds
    EXPECT_EQ(p.x, x);
}

// The reference's physics: one pair in contact ends exactly touching (to rounding), with
// its centre of inverse mass where it was; a static circle does not move.
TEST(separate_in_order, a_pair_ends_touching_and_keeps_its_centre_of_inverse_mass) {
    std::vector<float> x = {0.0F, 1.2F, 5.0F, 5.5F}, y = {0.0F, 0.5F, 0.0F, 0.0F};
    std::vector<float> r = {1.0F, 0.5F, 0.5F, 0.5F}, w = {1.0F, 3.0F, 0.0F, 2.0F};
    std::vector<float> v(4, 0.0F);
    const std::vector<circle_pair> list = {{0, 1}, {2, 3}};
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(list, 4);
    // The centre of inverse mass weighs each circle by its mass, 1 / w.
    const float cx = (x[0] / w[0] + x[1] / w[1]) / (1.0F / w[0] + 1.0F / w[1]);
    reference::separate_in_order({x.data(), y.data(), r.data(), w.data(), v.data(), v.data(), 4},
                                 groups);
    EXPECT_NEAR(std::hypot(x[1] - x[0], y[1] - y[0]), 1.5F, 1e-6F);
    EXPECT_NEAR((x[0] / w[0] + x[1] / w[1]) / (1.0F / w[0] + 1.0F / w[1]), cx, 1e-6F);
    EXPECT_EQ(x[2], 5.0F); // static
    EXPECT_FLOAT_EQ(x[3], 6.0F);
}

// The stability scene for this design: a column of ten circles resting on a static
// one, 1000 passes; nothing explodes or drifts sideways, and the column ends resolved.
TEST(separate_in_order, a_resting_column_stays_put_over_1000_passes) {
    const std::size_t n = 11;
    std::vector<float> x(n, 2.0F), y(n), r(n, 0.5F), w(n, 1.0F), v(n, 0.0F);
    w[0] = 0.0F;
    std::vector<circle_pair> list;
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = static_cast<float>(i) * 0.98F; // each overlapping the one below by 0.02
        if (i > 0) {
            list.push_back({static_cast<std::uint32_t>(i - 1), static_cast<std::uint32_t>(i)});
        }
    }
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(list, n);
    const particles_view c{x.data(), y.data(), r.data(), w.data(), v.data(), v.data(), n};
    for (int pass = 0; pass < 1000; ++pass) {
        reference::separate_in_order(c, groups);
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(x[i], 2.0F) << "circle " << i << " drifted sideways, pass " << pass;
            ASSERT_TRUE(std::isfinite(y[i]));
        }
    }
    EXPECT_EQ(y[0], 0.0F);
    for (std::size_t i = 1; i < n; ++i) {
        EXPECT_NEAR(y[i] - y[i - 1], 1.0F, 1e-4F) << i;
    }
}

class separate_in_order_simd : public ::testing::TestWithParam<isa> {};

// Bit for bit against the reference in every weighting, over several rounds: piles of
// lengths around the lane counts (groups of 1 to W + 1 pairs and longer), offset views,
// static circles, coincident centres, a zero radius; random lists where most groups hold
// one or two pairs; through the table and the public call.
TEST_P(separate_in_order_simd, matches_reference_bit_for_bit) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table();
    std::size_t moved = 0;
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        for (const std::size_t n : edge_lengths()) {
            for (const std::size_t shift : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
                packed_pile want(n, static_cast<std::uint32_t>(n + shift), shift);
                if (n > 4 && shift == 1) { // random pairs instead: tiny groups
                    std::mt19937 rng(static_cast<std::uint32_t>(n));
                    std::uniform_int_distribution<std::uint32_t> pick(
                        0, static_cast<std::uint32_t>(n) - 1);
                    want.pairs.clear();
                    for (std::size_t k = 0; k < 3 * n; ++k) {
                        const std::uint32_t a = pick(rng);
                        const std::uint32_t b = pick(rng);
                        if (a != b) {
                            want.pairs.push_back({a, b});
                        }
                    }
                }
                const std::vector<float> start_x = want.x;
                packed_pile got = want;
                pair_grouper grouper;
                const pair_groups& groups = grouper.group(want.pairs, n);
                const auto run = [&](const detail::kernel_table& t, packed_pile& p) {
                    std::vector<float> scratch(4 * n + 4);
                    t.world.separate_in_order(p.view(), groups.pairs().data(), groups.ends().data(),
                                              groups.ends().size(), mode, 3, scratch.data());
                };
                run(ref, want);
                run(table, got);
                for (std::size_t i = 0; i < want.x.size(); ++i) {
                    moved += bits(want.x[i]) != bits(start_x[i]) ? 1 : 0;
                    EXPECT_SAME_BITS(got.x[i], want.x[i], "x", i);
                    EXPECT_SAME_BITS(got.y[i], want.y[i], "y", i);
                    EXPECT_SAME_BITS(got.r[i], want.r[i], "radius", i);
                }
            }
        }
    }
    EXPECT_GT(moved, 1000U); // the piles were separated
}

// Past 2^18 pairs the SIMD loop fetches the second circles of the pairs ahead
// (kernels/pairwise/simd/separate_in_order.hpp, prefetch_pairs_from): the same bits, up to
// the list's last pair.
TEST_P(separate_in_order_simd, matches_reference_on_a_list_long_enough_to_fetch_ahead) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const std::size_t n = 70000; // four pairs a circle
    packed_pile want(n, 5, 0);
    ASSERT_GT(want.pairs.size(), std::size_t{1} << 18);
    packed_pile got = want;
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(want.pairs, n);
    const auto run = [&](const detail::kernel_table& t, packed_pile& p) {
        std::vector<float> scratch(4 * n + 4);
        t.world.separate_in_order(p.view(), groups.pairs().data(), groups.ends().data(),
                                  groups.ends().size(), separation_weighting::inverse_mass, 2,
                                  scratch.data());
    };
    const std::vector<float> start_x = want.x;
    run(detail::reference_table(), want);
    run(table, got);
    std::size_t moved = 0;
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_SAME_BITS(got.x[i], want.x[i], "x", i);
        EXPECT_SAME_BITS(got.y[i], want.y[i], "y", i);
        moved += want.x[i] != start_x[i] ? 1 : 0;
    }
    EXPECT_GT(moved, n / 2); // the pile is packed: most circles are pushed
}

TEST_P(separate_in_order_simd, public_call_matches_reference_call) {
    if (!isa_supported(GetParam())) {
        GTEST_SKIP() << "this CPU cannot run " << isa_name(GetParam());
    }
    set_isa(GetParam());
    packed_pile want(5000, 11, 1);
    packed_pile got = want;
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(want.pairs, 5000);
    reference::separate_in_order(want.view(), groups, separation_weighting::by_radius, 2);
    separate_in_order(got.view(), groups, separation_weighting::by_radius, 2);
    reset_isa();
    for (std::size_t i = 0; i < want.x.size(); ++i) {
        EXPECT_SAME_BITS(got.x[i], want.x[i], "x", i);
        EXPECT_SAME_BITS(got.y[i], want.y[i], "y", i);
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, separate_in_order_simd, ::testing::ValuesIn(simd_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
