// The particle world's lists (world.hpp, "Lists"): kept lists miss no contact and list no
// pair twice, stay in the order a full listing gives, and a relisting drops a leaver's old
// pairs; a fast circle is listed before it meets another.
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace simdcollide::testing {
namespace {

// Whether `listed` (the world's listed_pairs(), sorted) names each of `contacts` and no
// pair twice: a relisting that kept a leaver's old entry beside its new one would list a
// pair twice.
::testing::AssertionResult each_contact_listed_once(const std::vector<circle_pair>& listed,
                                                    std::span<const circle_pair> contacts) {
    const auto same = [](circle_pair l, circle_pair r) { return l.a == r.a && l.b == r.b; };
    const auto before = [](circle_pair l, circle_pair r) {
        return l.a != r.a ? l.a < r.a : l.b < r.b;
    };
    if (const auto twice = std::adjacent_find(listed.begin(), listed.end(), same);
        twice != listed.end()) {
        return ::testing::AssertionFailure()
               << "(" << twice->a << ", " << twice->b << ") listed twice";
    }
    for (const circle_pair p : contacts) {
        if (!std::binary_search(listed.begin(), listed.end(), p, before)) {
            return ::testing::AssertionFailure()
                   << "(" << p.a << ", " << p.b << ") in contact but not listed";
        }
    }
    return ::testing::AssertionSuccess();
}

// Whether the world keeps its lists as a full listing orders them: the pairs in slots with
// a < b, and both lists strictly ascending by (a, b), no entry twice. The step relies on
// it (a relisting's merge, the grouper's chunks, each band's offset in the box contacts);
// the merge's fast path (world_relist.cpp) could break it without changing
// which pairs are listed, and listed_pairs() sorts its copy, so this looks at the lists
// themselves.
::testing::AssertionResult lists_kept_in_order(const particle_world& world) {
    const auto ascending = [](std::span<const circle_pair> list,
                              const char* name) -> ::testing::AssertionResult {
        for (std::size_t k = 1; k < list.size(); ++k) {
            const circle_pair l = list[k - 1];
            const circle_pair r = list[k];
            if (!(l.a < r.a || (l.a == r.a && l.b < r.b))) {
                return ::testing::AssertionFailure()
                       << name << " entry " << k << ", (" << r.a << ", " << r.b << "), follows ("
                       << l.a << ", " << l.b << ")";
            }
        }
        return ::testing::AssertionSuccess();
    };
    const std::span<const circle_pair> pairs = detail::state_of(world).pairs_in_slots();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (!(pairs[k].a < pairs[k].b)) {
            return ::testing::AssertionFailure()
                   << "pair " << k << " is (" << pairs[k].a << ", " << pairs[k].b << ")";
        }
    }
    if (::testing::AssertionResult r = ascending(pairs, "pairs_in_slots"); !r) {
        return r;
    }
    return ascending(detail::state_of(world).box_contacts_in_slots(), "box_contacts_in_slots");
}

// The kept lists miss no contact and list no pair twice: after every step, each pair of
// circles in contact (by brute force) is one the step listed, with margins from 0.1 to 2
// (lists made often, or almost never; with the narrowest, steps list everything, or only the few
// circles that would leave their margins, or nothing). (A circle pushed within one step further
// than its margin can meet one it was not listed with, until the next listing: the scene starts
// with no overlaps so that corrections stay small.) The lists change which pairs separation goes
// over, and so the bits; not whether the pile holds.
TEST(particle_world, kept_lists_miss_no_contact) {
    for (const float margin : {0.1F, 0.5F, 2.0F}) {
        world_options options;
        options.pair_margin = margin;
        particle_world world(options);
        // No obstacles: a circle born inside a box is pushed far at once.
        world.set_boxes(open_container(20, 40).view());
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t i = 0; i < 200; ++i) {
            world.add_circle({0.7F + static_cast<float>(i % 16) * 1.2F,
                              1.0F + static_cast<float>(i / 16) * 1.2F, 0.2F + 0.3F * unit(rng)},
                             0.5F + unit(rng), unit(rng) - 0.5F, unit(rng) - 0.5F);
        }
        std::size_t contacts = 0;
        for (int s = 0; s < 180; ++s) {
            world.step(1.0F / 60.0F);
            const particles_view q = world.particles();
            const std::vector<circle_pair> contact =
                reference::find_pairs(circles_cview(q.x, q.y, q.radius, q.count));
            contacts += contact.size();
            ASSERT_TRUE(each_contact_listed_once(world.listed_pairs(), contact))
                << "margin " << margin << ", step " << s;
            ASSERT_TRUE(lists_kept_in_order(world)) << "margin " << margin << ", step " << s;
        }
        EXPECT_GT(contacts, 180U * 100U) << "the pile settled into contact"; // about 300 a step
        if (margin == 0.1F) { // the narrow margin takes every kind of listing
            EXPECT_GT(world.listings().full, 1U);
            EXPECT_GT(world.listings().partial, 0U);
            EXPECT_LT(world.listings().full + world.listings().partial, 180U);
        }
    }
}

// A partial relisting copies whole the chunks of the list (pair_groups.hpp) that can hold no
// leaver's pair, and merges the rest; it must still drop every entry of a leaver whose
// first circle is in an earlier chunk. Here three rows of 2 600 circles, so that a top-row
// circle's pairs with the row below lie in the chunks of their first circles, two or three
// chunks before its own; one circle in eight of the top row rises away from the rest, which
// do not move (no gravity), and is relisted on most steps with none of its old partners. After
// every step the list holds each pair in contact once, and no pair further apart than a listing
// allows: a pair is listed within its circles' radii plus margins as listed, each circle within its
// margin of where it was listed, and a margin here is at most a step's move at speed 2 plus
// pair_margin. (Debug builds also check that no chunk copied whole holds a leaver's pair.)
TEST(particle_world, a_relisting_drops_a_leavers_pairs_from_earlier_chunks) {
    constexpr std::size_t per_row = 2600;
    constexpr std::size_t rows = 3;
    static_assert(per_row > 2 * circles_per_chunk);
    constexpr float radius = 0.45F;
    constexpr float dt = 1.0F / 60.0F;
    world_options options;
    options.gravity_y = 0.0F;
    options.pair_margin = 0.01F;
    particle_world world(options);
    world.set_boxes(open_container(static_cast<float>(per_row) + 1.0F, 20.0F).view());
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < per_row * rows; ++i) {
        // Rows 0.91 apart: listed with the row above and below (margins 0.01 or more), not
        // in contact.
        const bool rises = i / per_row == rows - 1 && i % 8 == 0;
        world.add_circle({0.6F + static_cast<float>(i % per_row),
                          1.0F + 0.91F * static_cast<float>(i / per_row), radius},
                         1.0F, 0.0F, rises ? 1.0F + unit(rng) : 0.0F);
    }
    const float farthest = 2.0F * radius + 4.0F * (2.0F * dt + options.pair_margin);
    pair_finder finder; // the pairs in contact (pair_finder's own tests hold it to brute force)
    for (int s = 0; s < 40; ++s) {
        world.step(dt);
        const particles_view q = world.particles();
        const std::vector<circle_pair> listed = world.listed_pairs();
        ASSERT_TRUE(each_contact_listed_once(
            listed, finder.find(circles_cview(q.x, q.y, q.radius, q.count))))
            << "step " << s;
        ASSERT_TRUE(lists_kept_in_order(world)) << "step " << s;
        for (const circle_pair p : listed) {
            ASSERT_LE(std::hypot(q.x[p.a] - q.x[p.b], q.y[p.a] - q.y[p.b]), farthest)
                << "step " << s << ": (" << p.a << ", " << p.b << ") listed from afar";
        }
    }
    EXPECT_GT(world.listings().partial, 20U);
}

// The lists are kept while each circle stays within its margin after the coming step's
// move, not only after the moves so far. A circle moving 0.5 a step with a margin of 0.51
// (0.5 for the step, pair_margin 0.01) toward a static one 3 away (radii 0.6): the world
// must list the pair before the step in which they meet, as one whose lists hold
// everything (pair_margin 10) does; a check that forgot the coming move would keep the
// circle's lists one step too long and let it pass into the other unseen.
// (listing_needed checks four circles at a time where it can and the rest one by one; this
// catches a slip in either.)
TEST(particle_world, a_fast_circle_is_listed_before_it_meets_another) {
    const auto run = [](float margin) {
        world_options options;
        options.gravity_y = 0.0F;
        options.pair_margin = margin;
        particle_world world(options);
        world.add_circle({0.0F, 0.0F, 0.6F}, 0.0F);
        world.add_circle({-3.0F, 0.0F, 0.6F}, 1.0F, 30.0F, 0.0F);
        for (int k = 0; k < 6; ++k) { // far away: eight circles, so the check runs in blocks too
            world.add_circle({static_cast<float>(3 * k), 30.0F, 0.6F}, 0.0F);
        }
        std::vector<float> xs;
        for (int s = 0; s < 6; ++s) {
            world.step(1.0F / 60.0F);
            xs.push_back(world.particles().x[1]);
        }
        return xs;
    };
    const std::vector<float> want = run(10.0F);
    const std::vector<float> got = run(0.01F);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t s = 0; s < want.size(); ++s) {
        EXPECT_SAME_BITS(got[s], want[s], "x after step", s);
    }
    EXPECT_LE(want.back(), -1.2F + 1e-5F); // held outside the static circle
}

// A world of more circles than one block of the look for leavers (which goes block by block
// on the workers, tasks.hpp's items_per_task) (rows_with_movers: 40 000 circles at rest a
// little apart, one in 13 moving
// right fast enough to leave its margin every few steps and to meet its neighbour); the
// steps relist only those. On 1 and 3 workers, after every step
// each pair in contact (by the pair finder) is listed once, the lists keep a full listing's
// order, and the two worlds list the same pairs in the same slots.
TEST(particle_world, kept_lists_miss_no_contact_in_a_large_world) {
    particle_world one = rows_with_movers(1);
    particle_world three = rows_with_movers(3);
    pair_finder finder;
    std::size_t contacts = 0;
    for (int s = 0; s < 30; ++s) {
        one.step(1.0F / 60.0F);
        three.step(1.0F / 60.0F);
        const particles_view q = three.particles();
        const std::span<const circle_pair> contact =
            finder.find(circles_cview(q.x, q.y, q.radius, q.count));
        contacts += contact.size();
        ASSERT_TRUE(each_contact_listed_once(three.listed_pairs(), contact)) << "step " << s;
        ASSERT_TRUE(lists_kept_in_order(three)) << "step " << s;
        const std::span<const circle_pair> want = detail::state_of(one).pairs_in_slots();
        const std::span<const circle_pair> got = detail::state_of(three).pairs_in_slots();
        ASSERT_EQ(got.size(), want.size()) << "step " << s;
        for (std::size_t k = 0; k < got.size(); ++k) {
            ASSERT_TRUE(got[k].a == want[k].a && got[k].b == want[k].b)
                << "step " << s << ", pair " << k;
        }
    }
    EXPECT_GT(contacts, 1000U); // the movers met their neighbours
    EXPECT_GT(detail::state_of(three).pairs_in_slots().size(), 100000U);
    EXPECT_GE(three.listings().partial, 5U);
}

} // namespace
} // namespace simdcollide::testing
