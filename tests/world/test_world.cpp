// The particle world as a user sees it: bad input refused, a ball that falls and rests,
// separation that never carries a circle through a box, the caller's indexing, friction and
// restitution, and piles that settle (the 10 000-circle ones are the "soak" tests).
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace simdcollide::testing {
namespace {

// --- the world ---------------------------------------------------------------------------

TEST(particle_world, refuses_bad_input_and_keeps_its_state) {
    EXPECT_THROW(particle_world({.substeps = 0}), std::invalid_argument);
    EXPECT_THROW(particle_world({.relax_iterations = 0}), std::invalid_argument);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (const float hertz : {0.0F, -30.0F, nan}) {
        EXPECT_THROW(particle_world({.contact_hertz = hertz}), std::invalid_argument) << hertz;
    }
    EXPECT_NO_THROW(particle_world({.contact_hertz = 30.0F}));
    for (const float zeta : {-1.0F, nan, inf}) {
        EXPECT_THROW(particle_world({.contact_damping_ratio = zeta}), std::invalid_argument)
            << zeta;
    }
    for (const float speed : {0.0F, -3.0F, nan}) {
        EXPECT_THROW(particle_world({.max_push_speed = speed}), std::invalid_argument) << speed;
    }
    EXPECT_NO_THROW(particle_world({.max_push_speed = inf}));
    for (const float threshold : {-1.0F, nan, inf}) {
        EXPECT_THROW(particle_world({.restitution_threshold = threshold}), std::invalid_argument)
            << threshold;
    }
    EXPECT_THROW(particle_world({.restitution = 2.0F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.pair_margin = -0.1F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.pair_margin = std::numeric_limits<float>::quiet_NaN()}),
                 std::invalid_argument);
    particle_world world;
    world.add_circle({0, 1, 0.5F}, 1.0F);
    EXPECT_THROW(world.add_circle({0, 1, -0.5F}, 1.0F), std::invalid_argument);
    EXPECT_THROW(world.add_circle({std::numeric_limits<float>::quiet_NaN(), 1, 0.5F}, 1.0F),
                 std::invalid_argument);
    EXPECT_THROW(world.add_circle({0, 1, 0.5F}, -1.0F), std::invalid_argument);
    EXPECT_EQ(world.size(), 1U);
    aabb_set good;
    good.push_back(aabb::from_min_max(-5, -1, 5, 0));
    world.set_boxes(good.view());
    aabb_set bad = good;
    bad.push_back(aabb::from_min_max(0, 0, -1, 1));
    try {
        world.set_boxes(bad.view());
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("box 1"), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.boxes().size(), 1U); // the previous boxes stay
    for (const float dt : {0.0F, -1.0F, std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()}) {
        EXPECT_THROW(world.step(dt), std::invalid_argument);
    }
    EXPECT_EQ(world.particles().y[0], 1.0F); // nothing stepped
}

TEST(particle_world, a_ball_falls_and_rests_on_the_floor) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-5, -1, 5, 0));
    world.set_boxes(floor.view());
    world.add_circle({0, 2, 0.5F}, 1.0F);
    for (int s = 0; s < 240; ++s) {
        world.step(1.0F / 60.0F);
    }
    EXPECT_NEAR(world.particles().y[0], 0.5F, 0.01F);
    EXPECT_NEAR(world.particles().vy[0], 0.0F, 0.2F);
}

// Pushing out an overlap must not carry a circle through a thin floor. Here a static circle
// overlaps a ball resting on a floor 0.2 thick by 0.7: moved down by it the whole way at
// once, the ball would be past the floor's middle and leave through its bottom face. The
// push-out is soft and capped in speed (max_push_speed), and the floor's contact holds: the
// ball stays on the floor, wedged, sunk into it by less than a third of its radius.
TEST(particle_world, a_push_out_never_carries_a_circle_through_a_thin_floor) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-5, -0.2F, 5, 0));
    world.set_boxes(floor.view());
    world.add_circle({0, 0.5F, 0.5F}, 1.0F); // resting on the floor
    world.add_circle({0, 0.8F, 0.5F}, 0.0F); // static, 0.7 into the ball
    for (int s = 0; s < 60; ++s) {
        world.step(1.0F / 60.0F);
        ASSERT_GE(world.particles().y[0], 0.35F) << "after step " << s;
    }
}

// Nor into a box it was not listed with. A static circle overlaps a resting ball by 1.1,
// and a wall 0.15 thick stands 0.6 beyond the ball's surface, further than the ball's
// lists reach (its radius, its predicted move, 0, and pair_margin). Moved out at once, the
// ball's centre would be past the wall's far face. Pushed out at most at max_push_speed, it
// meets the wall once listed with it, and stays on the near side, wedged, less than a third
// of its radius into it.
TEST(particle_world, a_push_out_never_carries_a_circle_through_a_box_beyond_its_lists) {
    world_options options;
    options.gravity_y = 0.0F;
    particle_world world(options);
    aabb_set wall;
    wall.push_back(aabb::from_min_max(0.9F, -5, 1.05F, 5));
    world.set_boxes(wall.view());
    world.add_circle({0, 0, 0.3F}, 1.0F);     // the ball
    world.add_circle({-0.2F, 0, 1.0F}, 0.0F); // static, 1.1 into it
    for (int s = 0; s < 60; ++s) {
        world.step(1.0F / 60.0F);
        ASSERT_LE(world.particles().x[0], 0.9F - 0.3F + 0.1F) << "after step " << s;
    }
}

// The world steps its circles in slots of its own (world.hpp), sorted every sort_every
// steps; the caller's indices must keep naming the same circles, and edits and additions
// between steps must reach the next step.
TEST(particle_world, keeps_the_callers_indexing_and_sees_edits_between_steps) {
    world_options options;
    options.gravity_y = 0.0F;
    particle_world world(options);
    // Added right to left, so that the sort by cell reverses them.
    for (int i = 0; i < 40; ++i) {
        world.add_circle({static_cast<float>(40 - i) * 3.0F, static_cast<float>(i % 3), 0.5F}, 1.0F,
                         0.0F, static_cast<float>(i));
    }
    for (int s = 0; s < 40; ++s) { // across a sort
        world.step(1.0F / 60.0F);
    }
    particles_view p = world.particles();
    for (int i = 0; i < 40; ++i) { // nothing touches: each moved at its own speed
        EXPECT_EQ(p.x[i], static_cast<float>(40 - i) * 3.0F) << i;
        EXPECT_NEAR(p.y[i], static_cast<float>(i % 3) + static_cast<float>(i) * 40.0F / 60.0F,
                    1e-3F)
            << i;
        EXPECT_EQ(p.vy[i], static_cast<float>(i)) << i;
    }
    // Two circles pushed apart along x, each as far as the other: an overlap of 0.5 is
    // pushed out at most at max_push_speed, so after one step they are further apart than
    // the 0.5 they started at, and still overlap.
    const auto expect_pushed_apart = [&](std::size_t left, std::size_t right, float middle) {
        EXPECT_GT(p.x[right] - p.x[left], 0.52F) << left;
        EXPECT_LT(p.x[right] - p.x[left], 1.0F) << left;
        EXPECT_NEAR(0.5F * (p.x[left] + p.x[right]), middle, 1e-4F) << left;
    };
    // An edit between steps (and not at a sort): circle 7 is put on circle 8, overlapping by
    // 0.5, at rest beside it.
    p.x[7] = p.x[8] - 0.5F;
    p.y[7] = p.y[8];
    p.vx[7] = 0.0F;
    p.vy[7] = p.vy[8];
    const float middle_7_8 = p.x[8] - 0.25F;
    world.step(1.0F / 60.0F);
    p = world.particles();
    expect_pushed_apart(7, 8, middle_7_8);
    // An addition between steps (the view is invalid after it): a circle on circle 20, by
    // 0.5 too.
    const float middle_20_added = p.x[20] + 0.25F;
    const std::size_t added =
        world.add_circle({p.x[20] + 0.5F, p.y[20], 0.5F}, 1.0F, 0.0F, p.vy[20]);
    world.step(1.0F / 60.0F);
    p = world.particles();
    expect_pushed_apart(20, added, middle_20_added);
    EXPECT_EQ(p.x[10], 30.0F * 3.0F); // the others untouched
}

// A ball of radius 0.5 resting on a floor at y = 0, sliding at vx.
particle_world sliding_ball(float vx, float friction, float restitution = 0.0F, float y = 0.5F,
                            int relax_iterations = 1) {
    world_options options;
    options.friction = friction;
    options.restitution = restitution;
    options.relax_iterations = relax_iterations;
    particle_world world(options);
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-100, -1, 100, 0));
    world.set_boxes(floor.view());
    world.add_circle({0, y, 0.5F}, 1.0F, vx, 0.0F);
    return world;
}

// Coulomb friction on a resting contact: deceleration mu * g, never reversing; none at
// mu = 0 (a ball sliding on a frictionless floor keeps its speed). With several relax
// passes too: the friction of all passes together stays within the cone (a pass that applied
// its own bound again would stop the ball sooner).
TEST(particle_world, friction_stops_a_sliding_ball_and_mu_zero_does_not) {
    for (const int passes : {1, 4}) {
        SCOPED_TRACE(passes);
        particle_world rough = sliding_ball(2.0F, 0.2F, 0.0F, 0.5F, passes);
        particle_world smooth = sliding_ball(2.0F, 0.0F, 0.0F, 0.5F, passes);
        for (int s = 0; s < 30; ++s) { // half a second: mu g t = 0.98
            rough.step(1.0F / 60.0F);
            smooth.step(1.0F / 60.0F);
        }
        EXPECT_NEAR(rough.particles().vx[0], 2.0F - 0.2F * 9.81F * 0.5F, 0.15F);
        EXPECT_NEAR(smooth.particles().vx[0], 2.0F, 1e-3F);
        for (int s = 0; s < 60; ++s) {
            rough.step(1.0F / 60.0F);
            ASSERT_GE(rough.particles().vx[0], 0.0F) << "friction reversed the motion";
        }
        EXPECT_LT(rough.particles().vx[0], 0.01F);
        EXPECT_NEAR(rough.particles().y[0], 0.5F, 0.01F);
    }
}

// A ball dropped from 2.5 above its resting height hits at about 7 m/s: with e = 0.8 it
// bounces back up by about e^2 * 2.5 = 1.6, with e = 0 it stays down.
TEST(particle_world, restitution_sets_the_bounce) {
    for (const auto& [e, passes] :
         {std::pair{0.0F, 1}, std::pair{0.8F, 1}, std::pair{0.0F, 4}, std::pair{0.8F, 4}}) {
        SCOPED_TRACE(passes);
        particle_world world = sliding_ball(0.0F, 0.2F, e, 3.0F, passes);
        bool landed = false;
        float highest_after = 0.0F;
        for (int s = 0; s < 120; ++s) {
            world.step(1.0F / 60.0F);
            const float y = world.particles().y[0];
            landed = landed || y < 0.53F;
            if (landed) {
                highest_after = std::max(highest_after, y);
            }
        }
        ASSERT_TRUE(landed);
        if (e == 0.0F) {
            EXPECT_LT(highest_after, 0.55F);
        } else {
            EXPECT_GT(highest_after, 0.5F + 1.0F);
            EXPECT_LT(highest_after, 0.5F + 2.5F);
        }
    }
}

// n circles dropped into a closed container; after `steps` steps none has escaped and none
// is NaN. The full-size run (10 000 circles, 2000 steps) is the "soak" test, left out of
// the sanitizer and qemu runs for time; the small one runs everywhere.
void pile_settles(std::size_t n, int steps, world_options options = {}) {
    particle_world world(options);
    const float width = 1.2F * std::sqrt(static_cast<float>(n));
    aabb_set walls;
    walls.push_back(aabb::from_min_max(-1, -1, width + 1, 0));                    // floor
    walls.push_back(aabb::from_min_max(-1, 0, 0, 4 * width));                     // left wall
    walls.push_back(aabb::from_min_max(width, 0, width + 1, 4 * width));          // right wall
    walls.push_back(aabb::from_min_max(-1, 4 * width, width + 1, 4 * width + 1)); // lid
    world.set_boxes(walls.view());
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const auto columns = static_cast<std::size_t>(width);
    for (std::size_t i = 0; i < n; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % columns) + 0.1F * unit(rng),
                          1.0F + static_cast<float>(i / columns) * 1.0F, 0.25F + 0.2F * unit(rng)},
                         1.0F);
    }
    for (int s = 0; s < steps; ++s) {
        world.step(1.0F / 60.0F);
    }
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(std::isfinite(p.x[i]) && std::isfinite(p.y[i])) << i;
        ASSERT_GT(p.x[i], 0.0F) << i;
        ASSERT_LT(p.x[i], width) << i;
        ASSERT_GT(p.y[i], 0.0F) << i;
        ASSERT_LT(p.y[i], 4 * width) << i;
    }
}

TEST(particle_world, a_small_pile_settles) {
    pile_settles(500, 300);
}

TEST(particle_world_soak, a_pile_of_10000_circles_settles_over_2000_steps) {
    pile_settles(10000, 2000);
}

// A deep, narrow drop: 2 000 circles, 10 wide and 200 rows, falling up to 200 onto a floor
// between two walls, with the defaults: it lands and comes to rest, from step 700 to 1 000
// its mean v^2 below 0.5 and its median height within 1.
TEST(particle_world_soak, a_deep_drop_lands_and_comes_to_rest) {
    particle_world world;
    const int width = 10;
    const int rows = 200;
    world.set_boxes(open_container(width, 2 * rows + 10).view());
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (int i = 0; i < width * rows; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % width) + 0.05F * unit(rng),
                          1.0F + static_cast<float>(i / width), 0.25F + 0.2F * unit(rng)},
                         1.0F);
    }
    float lowest = std::numeric_limits<float>::infinity();
    float highest = -lowest;
    for (int s = 1; s <= 1000; ++s) {
        world.step(1.0F / 60.0F);
        if (s < 700 || s % 50 != 0) {
            continue;
        }
        const particles_view p = world.particles();
        double v2 = 0.0;
        std::vector<float> heights(p.y, p.y + p.count);
        for (std::size_t i = 0; i < p.count; ++i) {
            ASSERT_TRUE(p.x[i] > 0.0F && p.x[i] < width && p.y[i] > 0.0F) << "step " << s;
            v2 += double{p.vx[i]} * p.vx[i] + double{p.vy[i]} * p.vy[i];
        }
        EXPECT_LT(v2 / static_cast<double>(p.count), 0.5) << "step " << s;
        std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
        lowest = std::min(lowest, heights[heights.size() / 2]);
        highest = std::max(highest, heights[heights.size() / 2]);
    }
    EXPECT_LT(highest - lowest, 1.0F);
}

} // namespace
} // namespace simdcollide::testing

namespace simdcollide::testing {
namespace {

// A circle in free fall falls as gravity says: no contact slows it, nothing damps it.
TEST(particle_world, a_circle_in_free_fall_falls_as_gravity_says) {
    particle_world world;
    world.add_circle({0.0F, 100.0F, 0.5F}, 1.0F);
    for (int s = 0; s < 60; ++s) {
        world.step(1.0F / 60.0F);
    }
    EXPECT_NEAR(world.particles().vy[0], -9.81F, 1e-3F);
    EXPECT_NEAR(world.particles().y[0], 100.0F - 0.5F * 9.81F, 0.05F);
}

// With restitution 1 and no friction, 200 circles bouncing about a closed box without
// gravity gain no energy: over 5 000 steps their kinetic energy never passes 1.01 times
// what it was.
TEST(particle_world, elastic_circles_in_a_closed_box_gain_no_energy) {
    particle_world world(
        {.gravity_y = 0.0F, .restitution = 1.0F, .friction = 0.0F, .restitution_threshold = 0.0F});
    aabb_set walls = open_container(20, 20);
    walls.push_back(aabb::from_min_max(-1, 20, 21, 21)); // the lid
    world.set_boxes(walls.view());
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
    for (int i = 0; i < 200; ++i) {
        world.add_circle({1.0F + static_cast<float>(i % 14) * 1.3F,
                          1.0F + static_cast<float>(i / 14) * 1.3F, 0.4F},
                         1.0F, 2.0F * unit(rng), 2.0F * unit(rng));
    }
    const auto energy = [&] {
        const particles_view p = world.particles();
        double e = 0.0;
        for (std::size_t i = 0; i < p.count; ++i) {
            e += 0.5 * (double{p.vx[i]} * p.vx[i] + double{p.vy[i]} * p.vy[i]);
        }
        return e;
    };
    const double start = energy();
    double most = start;
    for (int s = 0; s < 5000; ++s) {
        world.step(1.0F / 60.0F);
        most = std::max(most, energy());
    }
    EXPECT_LE(most, 1.01 * start);
}

} // namespace
} // namespace simdcollide::testing
