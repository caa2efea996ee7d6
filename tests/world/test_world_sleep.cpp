// Sleep (docs/behaviour.md, "Sleep"): a settled pile falls asleep and its steps change
// nothing; a circle dropped on it, a host's edit of a body or a kinematic box that moves
// wakes it; a woken pile continues as the same pile never put to sleep would, bit for bit,
// on every instruction set and worker count; bad options refused.
#include "test_support.hpp"

#include <simdcollide/world.hpp>

#include "world/world_state.hpp"

#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace simdcollide::testing {
namespace {

constexpr float dt = 1.0F / 60.0F;

// 300 circles dropped into a box 8 wide.
particle_world small_pile(world_options options) {
    particle_world world(options);
    world.set_boxes(open_container(8.0F, 30.0F).view());
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (int i = 0; i < 300; ++i) {
        world.add_circle(
            {0.3F + 7.4F * unit(rng), 0.3F + 12.0F * unit(rng), 0.15F + 0.1F * unit(rng)}, 1.0F);
    }
    return world;
}

// Steps until the world sleeps, at most `steps`; returns the steps taken.
int step_until_asleep(particle_world& world, int steps) {
    for (int s = 0; s < steps; ++s) {
        world.step(dt);
        if (world.sleeping()) {
            return s + 1;
        }
    }
    return steps;
}

TEST(world_sleep, a_settled_pile_falls_asleep_and_its_steps_change_nothing) {
    particle_world world = small_pile({.sleep = true});
    const int steps = step_until_asleep(world, 1200);
    ASSERT_TRUE(world.sleeping()) << "awake after " << steps << " steps";
    EXPECT_GT(steps, 60); // it falls and settles first
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        ASSERT_EQ(p.vx[i], 0.0F);
        ASSERT_EQ(p.vy[i], 0.0F);
    }
    const std::vector<float> asleep = motion_of(world);
    for (int s = 0; s < 100; ++s) {
        world.step(dt);
        ASSERT_TRUE(world.sleeping());
    }
    EXPECT_EQ(motion_of(world), asleep);
    // Without sleep the same pile never sleeps, and its steps move it, if only a little.
    particle_world awake = small_pile({});
    for (int s = 0; s < steps + 100; ++s) {
        awake.step(dt);
        ASSERT_FALSE(awake.sleeping());
    }
}

TEST(world_sleep, a_circle_dropped_on_a_sleeping_pile_wakes_it_and_lands) {
    particle_world world = small_pile({.sleep = true});
    step_until_asleep(world, 1200);
    ASSERT_TRUE(world.sleeping());
    const std::size_t dropped = world.add_circle({4.0F, 20.0F, 0.2F}, 1.0F);
    world.step(dt);
    EXPECT_FALSE(world.sleeping());
    step_until_asleep(world, 1200);
    EXPECT_TRUE(world.sleeping());
    EXPECT_EQ(detail::state_of(world).sleeps(), 2U);
    // It rests on the pile, below where it fell from and above the floor.
    EXPECT_LT(world.particles().y[dropped], 10.0F);
    EXPECT_GT(world.particles().y[dropped], 0.5F);
}

TEST(world_sleep, a_hosts_edit_or_a_moving_kinematic_box_wakes_the_world) {
    particle_world world = small_pile({.sleep = true});
    step_until_asleep(world, 1200);
    ASSERT_TRUE(world.sleeping());
    particle_world edited = world;
    edited.particles().vx[5] = 1.0F; // set moving through the world's own arrays
    edited.step(dt);
    EXPECT_FALSE(edited.sleeping());
    EXPECT_NE(edited.particles().vx[5], 1.0F);
    particle_world pushed = world;
    pushed.add_kinematic_box(aabb::from_min_max(-0.5F, 20.0F, 0.0F, 21.0F), 0.5F, 0.0F);
    pushed.step(dt);
    EXPECT_FALSE(pushed.sleeping());
    particle_world still = world;
    still.add_kinematic_box(aabb::from_min_max(-0.5F, 20.0F, 0.0F, 21.0F)); // not moving
    still.step(dt);
    EXPECT_FALSE(still.sleeping()); // an edit: a new box could push
    // A box that does not move lets the pile, still at rest, sleep again after sleep_time.
    EXPECT_LE(step_until_asleep(still, 120), 35);
    EXPECT_TRUE(still.sleeping());
    particle_world woken = world;
    woken.wake();
    EXPECT_FALSE(woken.sleeping());
}

TEST(world_sleep, a_woken_pile_continues_as_the_pile_never_put_to_sleep) {
    // `slept` falls asleep, sleeps 50 steps and is woken; `awake`, without sleep, has its
    // velocities set to 0 where `slept` fell asleep and skips the 50 steps: from then on the
    // two step to the same bits.
    const auto woken_and_awake = [](isa which, int workers) {
        set_isa(which);
        particle_world slept = small_pile({.sleep = true, .workers = workers});
        particle_world awake = small_pile({.workers = workers});
        const int steps = step_until_asleep(slept, 1200);
        for (int s = 0; s < steps; ++s) {
            awake.step(dt);
        }
        const particles_view p = awake.particles();
        for (std::size_t i = 0; i < p.count; ++i) {
            p.vx[i] = 0.0F;
            p.vy[i] = 0.0F;
        }
        for (int s = 0; s < 50; ++s) {
            slept.step(dt);
        }
        slept.add_circle({2.0F, 15.0F, 0.2F}, 1.0F);
        awake.add_circle({2.0F, 15.0F, 0.2F}, 1.0F);
        for (int s = 0; s < 60; ++s) {
            slept.step(dt);
            awake.step(dt);
        }
        reset_isa();
        std::vector<float> both = motion_of(slept);
        const std::vector<float> other = motion_of(awake);
        EXPECT_EQ(both, other) << isa_name(which) << ", " << workers << " workers";
        both.insert(both.end(), other.begin(), other.end());
        return both;
    };
    expect_same_bits_everywhere(woken_and_awake);
}

TEST(world_sleep, bad_options_are_refused) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (const float bad : {-1.0F, nan, inf}) {
        EXPECT_THROW(particle_world({.sleep_speed = bad}), std::invalid_argument) << bad;
        EXPECT_THROW(particle_world({.sleep_time = bad}), std::invalid_argument) << bad;
    }
}

} // namespace
} // namespace simdcollide::testing
