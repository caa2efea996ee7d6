// The particle world steps to the same bits on every instruction set.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace simdcollide::testing {
namespace {

// A scene with every kind of contact: a container, obstacles, mixed radii, static circles
// (one inside a box), circles dropped onto each other.
particle_world mixed_scene(world_options options = {}) {
    particle_world world(options);
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(-1, -1, 21, 0));
    boxes.push_back(aabb::from_min_max(-1, 0, 0, 40));
    boxes.push_back(aabb::from_min_max(20, 0, 21, 40));
    boxes.push_back(aabb::from_origin_size(4, 3, 2, 1));
    boxes.push_back(aabb::from_origin_size(12, 5, 1.5F, 2.5F));
    world.set_boxes(boxes.view());
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    world.add_circle({4.5F, 3.5F, 0.4F}, 0.0F); // static, inside a box
    world.add_circle({10.0F, 2.0F, 0.5F}, 0.0F);
    for (std::size_t i = 0; i < 300; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % 19) + 0.2F * unit(rng),
                          1.0F + static_cast<float>(i / 19) * 0.8F, 0.2F + 0.3F * unit(rng)},
                         0.5F + unit(rng), unit(rng) - 0.5F, 0.0F);
    }
    return world;
}

// The world's state after `steps` steps of dt on the instruction set `which`: x, y, vx, vy
// in the caller's indexing.
std::vector<float> stepped_state(isa which, particle_world world, int steps) {
    set_isa(which);
    for (int s = 0; s < steps; ++s) {
        world.step(1.0F / 60.0F);
    }
    reset_isa();
    return motion_of(world);
}

// Every instruction set this CPU runs (the reference too where asked) steps `world` to the
// bits of `want`.
void expect_every_isa_steps_to(const std::vector<float>& want, const particle_world& world,
                               int steps, bool reference_too) {
    for (const isa which : compiled_isas()) {
        if ((which == isa::reference && !reference_too) || !isa_supported(which)) {
            continue;
        }
        SCOPED_TRACE(isa_name(which));
        const std::vector<float> got = stepped_state(which, world, steps);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t k = 0; k < want.size(); ++k) {
            EXPECT_SAME_BITS(got[k], want[k], isa_name(which), k);
        }
    }
}

// Every instruction set this CPU runs steps `world` to the reference's bits.
void expect_every_isa_steps_alike(const particle_world& world, int steps) {
    expect_every_isa_steps_to(stepped_state(isa::reference, world, steps), world, steps, false);
}

// The world's whole step, every stage included, gives the same bits on every instruction
// set as on the reference: with the defaults, with restitution (the restitution stage) and
// with more relax passes; static circles never move.
TEST(particle_world, every_instruction_set_steps_to_the_same_bits) {
    const world_options variants[] = {
        {}, {.restitution = 0.6F, .restitution_threshold = 0.2F}, {.relax_iterations = 3}};
    for (const world_options& options : variants) {
        SCOPED_TRACE(options.restitution);
        const particle_world world = mixed_scene(options);
        const std::vector<float> want = stepped_state(isa::reference, world, 120);
        EXPECT_EQ(want[0], 4.5F); // x of the static circle inside a box
        EXPECT_EQ(want[1], 10.0F);
        EXPECT_EQ(want[want.size() / 4], 3.5F); // its y
        expect_every_isa_steps_alike(world, 120);
    }
}

} // namespace
} // namespace simdcollide::testing
