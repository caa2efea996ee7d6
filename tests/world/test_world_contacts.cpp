// The soft step's contacts (kernels/world/solver/): each step's contacts are its lists,
// coloured so that no moving circle appears twice in a colour; their impulses carry across
// steps through sorts into slots, partial relistings and removals (a resting pile that lost
// them would sag and move again); and the carry itself on hand-made keys.
#include "test_support.hpp"
#include "world/solver/carry.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace simdcollide::testing {
namespace {

// Circles drifting without gravity and colliding: the lists change often, partly and fully.
particle_world drifting_world(std::size_t n) {
    world_options options;
    options.gravity_y = 0.0F;
    options.pair_margin = 0.02F;
    particle_world world(options);
    world.set_boxes(open_container(60, 200).view());
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < n; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % 60), 0.5F + static_cast<float>(i / 60),
                          0.3F + 0.2F * unit(rng)},
                         i % 17 == 0 ? 0.0F : 0.5F + unit(rng), 2.0F * unit(rng) - 1.0F,
                         2.0F * unit(rng) - 1.0F);
    }
    return world;
}

// After every step, the contacts are the listed pairs, each once, and within each colour but
// the overflow no moving circle appears twice; the box contacts are the listed entries, a
// circle's r-th box in colour r.
TEST(soft_step_contacts, are_the_lists_coloured) {
    particle_world world = drifting_world(3000);
    const detail::world_state& state = detail::state_of(world);
    for (int s = 0; s < 40; ++s) {
        world.step(1.0F / 60.0F);
        const detail::pair_contacts& c = state.pair_contacts_in_slots();
        const std::span<const circle_pair> listed = state.pairs_in_slots();
        ASSERT_EQ(c.size(), listed.size());
        std::vector<circle_pair> held;
        for (std::size_t k = 0; k < c.size(); ++k) {
            held.push_back({c.a[k], c.b[k]});
        }
        std::sort(held.begin(), held.end(),
                  [](circle_pair l, circle_pair r) { return l.a != r.a ? l.a < r.a : l.b < r.b; });
        for (std::size_t k = 0; k < listed.size(); ++k) {
            ASSERT_EQ(held[k].a, listed[k].a) << k;
            ASSERT_EQ(held[k].b, listed[k].b) << k;
        }
        const particles_view p = world.particles();
        for (std::size_t colour = 0; colour + 1 < c.colours(); ++colour) {
            std::set<std::uint32_t> seen;
            for (std::size_t k = c.colour_start[colour]; k < c.colour_start[colour + 1]; ++k) {
                for (const std::uint32_t slot : {c.a[k], c.b[k]}) {
                    if (p.inverse_mass[state.circle_of_slot(slot)] > 0.0F) {
                        ASSERT_TRUE(seen.insert(slot).second)
                            << "step " << s << ": slot " << slot << " twice in colour " << colour;
                    }
                }
            }
        }
        const detail::box_contacts& b = state.box_contacts_of_step();
        for (std::size_t colour = 0; colour + 1 < b.colours(); ++colour) {
            std::set<std::uint32_t> seen;
            for (std::size_t k = b.colour_start[colour]; k < b.colour_start[colour + 1]; ++k) {
                ASSERT_TRUE(seen.insert(b.circle[k]).second) << "step " << s;
            }
        }
    }
    EXPECT_GT(world.listings().partial, 5U);
    EXPECT_GT(world.listings().full, 1U);
}

// The largest v^2 of the circles.
double fastest2(particle_world& world) {
    const particles_view p = world.particles();
    double most = 0.0;
    for (std::size_t i = 0; i < p.count; ++i) {
        most = std::max(most, double{p.vx[i]} * p.vx[i] + double{p.vy[i]} * p.vy[i]);
    }
    return most;
}

// A settled pile that is sorted into slots (every sort_every steps), partly relisted (a
// lone circle far off teleported further) and has a circle removed before it (every
// circle's index moves down one) stays at rest: each contact keeps its impulses. Dropped
// at any of these (each contact starting from 0), the whole pile falls for a substep and
// moves at about g h (0.04) again.
TEST(soft_step_contacts, keep_their_impulses_through_sorts_relistings_and_removals) {
    particle_world world;
    world.set_boxes(open_container(20, 60).view());
    world.add_circle({-35.0F, 0.5F, 0.5F}, 1.0F); // removed at the end
    for (int i = 0; i < 400; ++i) {
        world.add_circle(
            {0.5F + static_cast<float>(i % 20), 0.5F + static_cast<float>(i / 20), 0.5F}, 1.0F);
    }
    const std::size_t lone = world.add_circle({-30.0F, 0.5F, 0.5F}, 1.0F);
    aabb_set boxes = open_container(20, 60);
    boxes.push_back(aabb::from_min_max(-40, -1, -20, 0)); // the lone circle's floor
    world.set_boxes(boxes.view());
    for (int s = 0; s < 600; ++s) {
        world.step(1.0F / 60.0F);
    }
    ASSERT_LT(fastest2(world), 1e-6);
    // Sorts: 64 steps cross two of them.
    for (int s = 0; s < 64; ++s) {
        world.step(1.0F / 60.0F);
        ASSERT_LT(fastest2(world), 1e-6) << "step " << s;
    }
    // A partial relisting.
    const std::size_t partial = world.listings().partial;
    world.particles().x[lone] = -25.0F;
    world.step(1.0F / 60.0F);
    EXPECT_EQ(world.listings().partial, partial + 1);
    EXPECT_LT(fastest2(world), 1e-6);
    // A removal before the pile: its circles' indices move down one.
    world.remove_circle(0);
    world.step(1.0F / 60.0F);
    EXPECT_LT(fastest2(world), 1e-6);
}

// The carry on hand-made keys: slots to circles and back, removals, a box gone.
TEST(soft_step_contacts, the_carry_moves_keys_and_drops_what_was_removed) {
    detail::impulse_carry carry;
    carry.pairs = {{0, 2, 1.0F, 0.1F}, {1, 2, 2.0F, 0.2F}, {2, 3, 3.0F, 0.3F}};
    carry.boxes = {{1, 0, 4.0F, 0.4F}, {3, 2, 5.0F, 0.5F}};
    const std::vector<std::uint32_t> circle_of_slot = {3, 0, 2, 1}; // slot -> circle
    carry.to_circles(circle_of_slot, detail::task_runner{});
    ASSERT_TRUE(carry.by_circle);
    // slots (0, 2) -> circles (3, 2) -> (2, 3); (1, 2) -> (0, 2); (2, 3) -> (2, 1) -> (1, 2)
    ASSERT_EQ(carry.pairs.size(), 3U);
    EXPECT_EQ(carry.pairs[0].a, 0U);
    EXPECT_EQ(carry.pairs[0].b, 2U);
    EXPECT_EQ(carry.pairs[0].normal, 2.0F);
    EXPECT_EQ(carry.pairs[1].a, 1U);
    EXPECT_EQ(carry.pairs[1].b, 2U);
    EXPECT_EQ(carry.pairs[1].normal, 3.0F);
    EXPECT_EQ(carry.pairs[2].a, 2U);
    EXPECT_EQ(carry.pairs[2].b, 3U);
    EXPECT_EQ(carry.boxes[0].a, 0U); // slot 1 is circle 0
    EXPECT_EQ(carry.boxes[1].a, 1U); // slot 3 is circle 1
    // Circle 1 removed: its pair and box go, circles 2 and 3 become 1 and 2.
    carry.remove_circles(std::vector<std::uint8_t>{0, 1, 0, 0});
    ASSERT_EQ(carry.pairs.size(), 2U);
    EXPECT_EQ(carry.pairs[0].a, 0U);
    EXPECT_EQ(carry.pairs[0].b, 1U);
    EXPECT_EQ(carry.pairs[0].normal, 2.0F);
    EXPECT_EQ(carry.pairs[1].a, 1U);
    EXPECT_EQ(carry.pairs[1].b, 2U);
    EXPECT_EQ(carry.pairs[1].tangent, 0.1F);
    ASSERT_EQ(carry.boxes.size(), 1U);
    // Box 0 removed: circle 0's contact with it goes.
    carry.remove_box(0);
    ASSERT_TRUE(carry.boxes.empty());
    // Back to slots: circle c in slot 2 - c.
    carry.to_slots(std::vector<std::uint32_t>{2, 1, 0}, detail::task_runner{});
    EXPECT_FALSE(carry.by_circle);
    EXPECT_EQ(carry.pairs[0].a, 0U); // circles (1, 2) -> slots (1, 0) -> (0, 1)
    EXPECT_EQ(carry.pairs[0].b, 1U);
    EXPECT_EQ(carry.pairs[0].tangent, 0.1F);
    EXPECT_EQ(carry.pairs[1].a, 1U); // circles (0, 1) -> slots (2, 1) -> (1, 2)
    EXPECT_EQ(carry.pairs[1].b, 2U);
    EXPECT_EQ(carry.pairs[1].normal, 2.0F);
}

} // namespace
} // namespace simdcollide::testing

namespace simdcollide::testing {
namespace {

// The mean v^2 of the circles.
double mean_v2(particle_world& world) {
    const particles_view p = world.particles();
    double sum = 0.0;
    for (std::size_t i = 0; i < p.count; ++i) {
        sum += double{p.vx[i]} * p.vx[i] + double{p.vy[i]} * p.vy[i];
    }
    return sum / static_cast<double>(p.count);
}

// Coarse settings: one substep at dt = 1/30, 2 000 circles thrown at up to 5 in a closed
// container of boxes 1 thick, restitution 0 and 1. None leaves it, none becomes NaN, and
// the elastic pile's energy does not grow without bound (with every overlapping contact
// bouncing, its mean v^2 went from 16 to 3e9 in 110 steps).
TEST(soft_step_contacts, coarse_steps_keep_a_closed_container_whole) {
    for (const float restitution : {0.0F, 1.0F}) {
        SCOPED_TRACE(restitution);
        particle_world world({.substeps = 1, .restitution = restitution});
        const float width = 54.0F;
        const float height = 80.0F;
        aabb_set walls = open_container(width, height);
        walls.push_back(aabb::from_min_max(-1.0F, height, width + 1.0F, height + 1.0F));
        world.set_boxes(walls.view());
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (int i = 0; i < 2000; ++i) {
            world.add_circle({0.5F + static_cast<float>(i % 53) + 0.05F * unit(rng),
                              0.5F + 1.05F * static_cast<float>(i / 53), 0.25F + 0.2F * unit(rng)},
                             1.0F, 10.0F * unit(rng) - 5.0F, 10.0F * unit(rng) - 5.0F);
        }
        const double start = mean_v2(world);
        double most = 0.0;
        for (int s = 0; s < 1000; ++s) {
            world.step(1.0F / 30.0F);
            most = std::max(most, mean_v2(world));
            const particles_view p = world.particles();
            for (std::size_t i = 0; i < p.count; ++i) {
                ASSERT_TRUE(p.x[i] > 0.0F && p.x[i] < width && p.y[i] > 0.0F && p.y[i] < height)
                    << "circle " << i << " at step " << s << ": (" << p.x[i] << ", " << p.y[i]
                    << ")";
            }
        }
        // Falling 80 at most adds about 2 g 80 to v^2 (about 1 600): a pump passes that.
        EXPECT_LT(most, start + 2.0 * 9.81 * height);
    }
}

// A pile settled at 1/60 and then stepped at 1/240, at 1/600, or with dt jittering between
// 1/75 and 1/45 stays at rest (mean v^2 at most 1e-4): its impulses are scaled to each
// step's substep, and its contacts keep their stiffness (the bound on it, 0.45 of the
// substep rate, stays above 80 Hz up to dt = 1/45). With the bound at a third, as for one
// relax pass, the jittering pile moved at a mean v^2 of up to 6.4e-3.
TEST(soft_step_contacts, a_resting_pile_stays_at_rest_when_dt_changes) {
    particle_world settled;
    settled.set_boxes(open_container(30, 60).view());
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (int i = 0; i < 1500; ++i) {
        settled.add_circle({0.5F + static_cast<float>(i % 29) + 0.05F * unit(rng),
                            0.5F + static_cast<float>(i / 29), 0.25F + 0.2F * unit(rng)},
                           1.0F);
    }
    for (int s = 0; s < 900; ++s) {
        settled.step(1.0F / 60.0F);
    }
    ASSERT_LT(mean_v2(settled), 1e-4);
    for (const int way : {0, 1, 2}) {
        SCOPED_TRACE(way);
        particle_world world = settled;
        double most = 0.0;
        for (int s = 0; s < 600; ++s) {
            const float dt = way == 0   ? 1.0F / 240.0F
                             : way == 1 ? 1.0F / 600.0F
                                        : 1.0F / (45.0F + 30.0F * unit(rng));
            world.step(dt);
            most = std::max(most, mean_v2(world));
        }
        EXPECT_LE(most, 1e-4);
    }
}

} // namespace
} // namespace simdcollide::testing
