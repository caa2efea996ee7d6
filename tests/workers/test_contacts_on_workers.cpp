// The soft step's contacts made on workers (kernels/world/solver/): the colouring lays the
// contacts out, the carry takes their impulses back, and renames and sorts their keys, by
// blocks on the workers, to the same contacts and the same carry as on one.
#include "runtime/tasks.hpp"
#include "runtime/worker_pool.hpp"
#include "world/solver/carry.hpp"
#include "world/solver/colours.hpp"

#include <simdcollide/circle_circle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <vector>

namespace simdcollide::testing {
namespace {

// The same impulses under the same keys, in the same order.
void same_impulses(const std::vector<detail::carried_impulse>& l,
                   const std::vector<detail::carried_impulse>& r) {
    ASSERT_EQ(l.size(), r.size());
    for (std::size_t k = 0; k < r.size(); ++k) {
        ASSERT_TRUE(l[k].a == r[k].a && l[k].b == r[k].b && l[k].normal == r[k].normal &&
                    l[k].tangent == r[k].tangent)
            << k;
    }
}

// Lists of several blocks, whose carry holds some of their keys and some that are gone.
TEST(contacts_on_workers, are_coloured_and_carried_as_on_one) {
    const std::uint32_t circles = 20000;
    std::mt19937 rng(21);
    std::uniform_int_distribution<std::uint32_t> near(1, 40);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::vector<float> inverse_mass(circles);
    for (float& w : inverse_mass) {
        w = unit(rng) < 0.05F ? 0.0F : 1.0F;
    }
    std::vector<circle_pair> pairs;
    for (std::uint32_t a = 0; a < circles; ++a) {
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t b = a + near(rng);
            if (b < circles) {
                pairs.push_back({a, b});
            }
        }
    }
    std::sort(pairs.begin(), pairs.end(),
              [](circle_pair l, circle_pair r) { return l.a != r.a ? l.a < r.a : l.b < r.b; });
    pairs.erase(std::unique(pairs.begin(), pairs.end(),
                            [](circle_pair l, circle_pair r) { return l.a == r.a && l.b == r.b; }),
                pairs.end());
    ASSERT_GT(pairs.size(), 3 * detail::pairs_per_block);
    // The carry: every third pair's key, and keys of pairs no longer listed between them.
    std::vector<detail::carried_impulse> carry;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (k % 3 == 0) {
            carry.push_back({pairs[k].a, pairs[k].b, unit(rng), unit(rng) - 0.5F});
        }
        if (k % 5 == 0 && k + 1 < pairs.size() && pairs[k + 1].a == pairs[k].a &&
            pairs[k + 1].b > pairs[k].b + 1) {
            carry.push_back({pairs[k].a, pairs[k].b + 1, 9.0F, 9.0F}); // not listed
        }
    }
    const auto coloured_on = [&](std::size_t workers, detail::pair_contacts& out,
                                 detail::impulse_carry& taken) {
        std::unique_ptr<detail::worker_pool> pool;
        detail::task_runner tasks;
        if (workers > 1) {
            pool = std::make_unique<detail::worker_pool>(workers);
            tasks = {pool->callbacks(), workers};
        }
        std::vector<std::uint32_t> marks;
        const std::vector<float> friction(inverse_mass.size(), 0.2F);
        const std::vector<float> restitution(inverse_mass.size(), 0.0F);
        detail::colour_pairs(pairs, inverse_mass, {friction, restitution}, carry, out, marks,
                             tasks);
        detail::pair_contacts copy = out;
        detail::box_contacts no_boxes;
        taken.take(copy, no_boxes, tasks);
    };
    detail::pair_contacts one;
    detail::impulse_carry one_taken;
    coloured_on(1, one, one_taken);
    // What one worker gives is the lists' colouring: every pair once, its impulses the
    // carry's where listed, and the carry taken back is the listed keys' part of it.
    // Within a colour (not the overflow) no moving circle twice, and list order.
    ASSERT_EQ(one.size(), pairs.size());
    std::size_t listed_in_carry = 0;
    std::size_t in_carry = 0;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const std::uint32_t p = one.position[k];
        ASSERT_EQ(one.a[p], pairs[k].a);
        ASSERT_EQ(one.b[p], pairs[k].b);
        if (k % 3 == 0) {
            while (carry[in_carry].a != pairs[k].a || carry[in_carry].b != pairs[k].b) {
                ++in_carry;
            }
            ASSERT_EQ(one.normal[p], carry[in_carry].normal) << k;
            ASSERT_EQ(one.tangent[p], carry[in_carry].tangent) << k;
            ++listed_in_carry;
        } else {
            ASSERT_EQ(one.normal[p], 0.0F) << k;
        }
    }
    for (std::size_t colour = 0; colour + 1 < one.colours(); ++colour) {
        std::set<std::uint32_t> seen;
        for (std::size_t p = one.colour_start[colour]; p < one.colour_start[colour + 1]; ++p) {
            for (const std::uint32_t slot : {one.a[p], one.b[p]}) {
                if (inverse_mass[slot] > 0.0F) {
                    ASSERT_TRUE(seen.insert(slot).second)
                        << "slot " << slot << ", colour " << colour;
                }
            }
            if (p > one.colour_start[colour]) {
                const bool in_order =
                    one.a[p - 1] != one.a[p] ? one.a[p - 1] < one.a[p] : one.b[p - 1] < one.b[p];
                ASSERT_TRUE(in_order) << "colour " << colour << " at " << p;
            }
        }
    }
    EXPECT_EQ(one_taken.pairs.size(), listed_in_carry);
    for (const std::size_t workers : {2U, 3U, 4U, 7U, 16U}) {
        SCOPED_TRACE(workers);
        detail::pair_contacts many;
        detail::impulse_carry many_taken;
        coloured_on(workers, many, many_taken);
        ASSERT_EQ(many.colour_start, one.colour_start);
        ASSERT_EQ(many.position, one.position);
        ASSERT_EQ(many.a, one.a);
        ASSERT_EQ(many.b, one.b);
        for (std::size_t p = 0; p < one.size(); ++p) {
            ASSERT_TRUE(many.normal[p] == one.normal[p] && many.tangent[p] == one.tangent[p]) << p;
        }
        ASSERT_NO_FATAL_FAILURE(same_impulses(many_taken.pairs, one_taken.pairs));
    }
}

// The carry's keys renamed (slots to circles and back) and sorted on workers: blocks sorted
// apart and merged, to the one sorted carry a single sort gives.
TEST(contacts_on_workers, the_carry_is_renamed_and_sorted_as_on_one) {
    const std::uint32_t circles = 60000;
    std::mt19937 rng(23);
    std::vector<std::uint32_t> circle_of_slot(circles);
    for (std::uint32_t s = 0; s < circles; ++s) {
        circle_of_slot[s] = s;
    }
    std::shuffle(circle_of_slot.begin(), circle_of_slot.end(), rng);
    std::vector<std::uint32_t> slot_of_circle(circles);
    for (std::uint32_t s = 0; s < circles; ++s) {
        slot_of_circle[circle_of_slot[s]] = s;
    }
    std::uniform_int_distribution<std::uint32_t> near(1, 90);
    detail::impulse_carry start;
    for (std::uint32_t a = 0; a < circles; ++a) {
        for (std::uint32_t k = 0; k < 3; ++k) {
            const std::uint32_t b = a + 30 * k + near(rng) % 30 + 1;
            if (b < circles) {
                start.pairs.push_back({a, b, static_cast<float>(a), static_cast<float>(b) * 0.5F});
            }
        }
        if (a % 7 == 0) {
            start.boxes.push_back({a, a % 5, 1.0F, 2.0F});
        }
    }
    ASSERT_GT(start.pairs.size(), 8 * 16384U);
    const auto key_less = [](const detail::carried_impulse& l, const detail::carried_impulse& r) {
        return detail::key_of(l) < detail::key_of(r);
    };
    std::vector<detail::carried_impulse> expected = start.pairs;
    for (detail::carried_impulse& c : expected) {
        const std::uint32_t i = circle_of_slot[c.a];
        const std::uint32_t j = circle_of_slot[c.b];
        c.a = std::min(i, j);
        c.b = std::max(i, j);
    }
    std::sort(expected.begin(), expected.end(), key_less);
    for (const std::size_t workers : {1U, 2U, 3U, 4U, 7U, 16U}) {
        SCOPED_TRACE(workers);
        std::unique_ptr<detail::worker_pool> pool;
        detail::task_runner tasks;
        if (workers > 1) {
            pool = std::make_unique<detail::worker_pool>(workers);
            tasks = {pool->callbacks(), workers};
        }
        detail::impulse_carry carry = start;
        carry.to_circles(circle_of_slot, tasks);
        ASSERT_TRUE(carry.by_circle);
        ASSERT_NO_FATAL_FAILURE(same_impulses(carry.pairs, expected));
        ASSERT_TRUE(std::is_sorted(carry.boxes.begin(), carry.boxes.end(), key_less));
        carry.to_slots(slot_of_circle, tasks);
        ASSERT_FALSE(carry.by_circle);
        ASSERT_NO_FATAL_FAILURE(same_impulses(carry.pairs, start.pairs));
        ASSERT_EQ(carry.boxes.size(), start.boxes.size());
        for (std::size_t k = 0; k < start.boxes.size(); ++k) {
            ASSERT_TRUE(carry.boxes[k].a == start.boxes[k].a &&
                        carry.boxes[k].b == start.boxes[k].b)
                << k;
        }
    }
}

} // namespace
} // namespace simdcollide::testing
