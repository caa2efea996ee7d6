// The clock a world keeps of its steps when asked, stage by stage
// (kernels/world/world_profile.hpp), which the benchmarks read (SIMDCOLLIDE_BENCH_STAGES):
// none unless asked; each step counts once, a refused step not at all; the stages a step
// runs take time, and a stage it skips takes none. Nothing here says how long anything
// takes.
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <simdcollide/simdcollide.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>

namespace simdcollide::testing {
namespace {

double seconds_in(const particle_world& world, detail::step_stage stage) {
    return detail::state_of(world).profile().seconds[static_cast<std::size_t>(stage)];
}

// 2 000 circles falling onto the floor of a container, in blocks or in bands of 1 024.
particle_world falling_pile(world_options options) {
    particle_world world(options);
    world.set_boxes(open_container(40.0F, 100.0F).view());
    for (std::size_t i = 0; i < 2000; ++i) {
        world.add_circle({0.5F + 0.8F * static_cast<float>(i % 48),
                          0.5F + 0.8F * static_cast<float>(i / 48), 0.35F},
                         1.0F);
    }
    return world;
}

TEST(world_profile, a_world_keeps_none_unless_asked) {
    particle_world world = falling_pile({});
    for (int s = 0; s < 3; ++s) {
        world.step(1.0F / 60.0F);
    }
    EXPECT_EQ(detail::state_of(world).profile().steps, 0U);
    EXPECT_EQ(seconds_in(world, detail::step_stage::solve), 0.0);
}

TEST(world_profile, each_step_counts_once_and_a_refused_one_not_at_all) {
    particle_world world = falling_pile({});
    detail::state_of(world).keep_profile(true);
    EXPECT_EQ(detail::state_of(world).profile().steps, 0U);
    for (int s = 0; s < 5; ++s) {
        world.step(1.0F / 60.0F);
    }
    EXPECT_EQ(detail::state_of(world).profile().steps, 5U);
    EXPECT_THROW(world.step(-1.0F), std::invalid_argument);
    EXPECT_EQ(detail::state_of(world).profile().steps, 5U);
}

TEST(world_profile, the_stages_a_step_runs_take_time_and_the_others_none) {
    particle_world world = falling_pile({});
    detail::state_of(world).keep_profile(true);
    for (int s = 0; s < 5; ++s) {
        world.step(1.0F / 60.0F);
    }
    for (const detail::step_stage stage :
         {detail::step_stage::gather, detail::step_stage::lists, detail::step_stage::prepare,
          detail::step_stage::warm_start, detail::step_stage::solve, detail::step_stage::relax,
          detail::step_stage::integrate_positions, detail::step_stage::scatter}) {
        EXPECT_GT(seconds_in(world, stage), 0.0)
            << detail::step_stage_names[static_cast<std::size_t>(stage)];
    }
    // Restitution runs only with restitution > 0 (the default is 0).
    EXPECT_EQ(seconds_in(world, detail::step_stage::restitution), 0.0);
    particle_world bouncy = falling_pile({.restitution = 0.5F});
    detail::state_of(bouncy).keep_profile(true);
    for (int s = 0; s < 5; ++s) {
        bouncy.step(1.0F / 60.0F);
    }
    EXPECT_GT(seconds_in(bouncy, detail::step_stage::restitution), 0.0);
}

} // namespace
} // namespace simdcollide::testing
