// Materials per circle and per box (docs/behaviour.md, "Materials"): friction holds a circle
// on a slope or lets it slide, restitution bounces it, pairs combine by Box2D's rule, the
// sweeps take the pair's, edits act on the next step, the bits are the same on every
// instruction set and worker count, and bad materials are refused with nothing changed.
#include "test_support.hpp"

#include <simdcollide/world.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace simdcollide::testing {
namespace {

// A floor under gravity tilted 20 degrees along x (a slope that needs friction >= 0.364).
particle_world slope() {
    constexpr float angle = 20.0F * 3.14159265F / 180.0F;
    particle_world world(
        {.gravity_x = 9.81F * std::sin(angle), .gravity_y = -9.81F * std::cos(angle)});
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-100.0F, -1.0F, 100.0F, 0.0F));
    world.set_boxes(floor.view());
    return world;
}

void run(particle_world& world, int steps) {
    for (int s = 0; s < steps; ++s) {
        world.step(1.0F / 60.0F);
    }
}

TEST(world_materials, a_grippy_circle_stays_on_a_slope_where_a_slippery_one_slides) {
    particle_world world = slope();
    world.add_circle({0.0F, 0.25F, 0.25F}, 1.0F);
    world.add_circle({10.0F, 0.25F, 0.25F}, 1.0F);
    world.set_material(shape_kind::static_box, 0, {0.8F, 0.0F});
    world.set_material(shape_kind::circle, 0, {0.8F, 0.0F});  // with the floor: 0.8
    world.set_material(shape_kind::circle, 1, {0.05F, 0.0F}); // sqrt(0.05 * 0.8) = 0.2
    run(world, 120);
    const particles_view p = world.particles();
    EXPECT_NEAR(p.x[0], 0.0F, 0.01F);
    EXPECT_GT(p.x[1] - 10.0F, 1.0F);
    // A friction of 0 on either side: none.
    EXPECT_EQ(world.material_of(shape_kind::circle, 1).friction, 0.05F);
    world.set_material(shape_kind::circle, 0, {0.0F, 0.0F});
    const float before = p.x[0];
    run(world, 60);
    EXPECT_GT(world.particles().x[0] - before, 1.0F);
}

TEST(world_materials, a_bouncy_circle_bounces_higher_and_the_larger_restitution_wins) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-100.0F, -1.0F, 8.0F, 0.0F));
    floor.push_back(aabb::from_min_max(8.0F, -1.0F, 100.0F, 0.0F));
    world.set_boxes(floor.view());
    for (int i = 0; i < 4; ++i) {
        world.add_circle({3.0F * static_cast<float>(i), 2.0F, 0.2F}, 1.0F);
    }
    world.set_material(shape_kind::circle, 0, {0.2F, 0.9F});
    world.set_material(shape_kind::circle, 1, {0.2F, 0.4F});
    // Circle 2 keeps the defaults (restitution 0) and does not bounce; circle 3 does too,
    // but lands on the second floor, whose 0.9 is the larger.
    world.set_material(shape_kind::static_box, 1, {0.2F, 0.9F});
    float highest[4] = {0.0F, 0.0F, 0.0F, 0.0F};
    for (int s = 0; s < 150; ++s) {
        world.step(1.0F / 60.0F);
        if (s > 45) { // after the first impact, about 0.6 s in
            for (int i = 0; i < 4; ++i) {
                highest[i] = std::max(highest[i], world.particles().y[i]);
            }
        }
    }
    EXPECT_GT(highest[0], 1.2F);
    EXPECT_GT(highest[1], 0.3F);
    EXPECT_LT(highest[1], 0.8F);
    EXPECT_LT(highest[2], 0.25F);
    EXPECT_NEAR(highest[3], highest[0], 0.05F);
}

TEST(world_materials, a_fast_circle_swept_into_a_wall_leaves_at_the_pairs_restitution) {
    for (const float e : {0.0F, 0.5F}) {
        particle_world world({.gravity_y = 0.0F});
        aabb_set wall;
        wall.push_back(aabb::from_min_max(10.0F, -5.0F, 10.2F, 5.0F));
        world.set_boxes(wall.view());
        world.add_circle({0.0F, 0.0F, 0.1F}, 1.0F, 600.0F, 0.0F); // 10 per step: swept
        world.set_material(shape_kind::circle, 0, {0.2F, e});
        run(world, 2);
        const float vx = world.particles().vx[0];
        EXPECT_LE(world.particles().x[0], 9.9F + 1e-3F);
        if (e == 0.0F) {
            EXPECT_NEAR(vx, 0.0F, 1.0F);
        } else {
            EXPECT_NEAR(vx, -300.0F, 30.0F);
        }
    }
}

TEST(world_materials, dynamic_and_kinematic_boxes_take_their_own) {
    particle_world world = slope();
    world.add_dynamic_box(aabb::from_min_max(0.0F, 0.0F, 1.0F, 0.5F), 1.0F);
    world.add_dynamic_box(aabb::from_min_max(10.0F, 0.0F, 11.0F, 0.5F), 1.0F);
    world.set_material(shape_kind::static_box, 0, {1.0F, 0.0F});
    world.set_material(shape_kind::dynamic_box, 0, {1.0F, 0.0F});
    world.set_material(shape_kind::dynamic_box, 1, {0.01F, 0.0F});
    world.add_kinematic_box(aabb::from_min_max(-50.0F, 5.0F, -49.0F, 6.0F));
    world.set_material(shape_kind::kinematic_box, 0, {0.7F, 0.5F});
    EXPECT_EQ(world.material_of(shape_kind::kinematic_box, 0).restitution, 0.5F);
    run(world, 120);
    EXPECT_NEAR(world.dynamic_box_at(0).box.min_x, 0.0F, 0.01F);
    EXPECT_GT(world.dynamic_box_at(1).box.min_x - 10.0F, 1.0F);
}

TEST(world_materials, materials_follow_circles_through_removal_and_new_ones_take_the_options) {
    particle_world world({.restitution = 0.25F, .friction = 0.6F});
    for (int i = 0; i < 3; ++i) {
        world.add_circle({static_cast<float>(i), 1.0F, 0.2F}, 1.0F);
    }
    world.set_material(shape_kind::circle, 2, {0.1F, 0.9F});
    world.remove_circle(0);
    EXPECT_EQ(world.material_of(shape_kind::circle, 1).friction, 0.1F);
    EXPECT_EQ(world.material_of(shape_kind::circle, 0).friction, 0.6F);
    EXPECT_EQ(world.material_of(shape_kind::circle, 0).restitution, 0.25F);
    const std::vector<float> friction{0.3F, 0.4F};
    const std::vector<float> restitution{0.0F, 1.0F};
    world.set_circle_materials(friction, restitution);
    EXPECT_EQ(world.material_of(shape_kind::circle, 1).restitution, 1.0F);
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(-5.0F, -1.0F, 5.0F, 0.0F));
    world.set_boxes(boxes.view());
    EXPECT_EQ(world.material_of(shape_kind::static_box, 0).friction, 0.6F);
}

TEST(world_materials, bad_materials_and_indices_are_refused_with_nothing_changed) {
    particle_world world;
    world.add_circle({0.0F, 1.0F, 0.2F}, 1.0F);
    world.add_circle({1.0F, 1.0F, 0.2F}, 1.0F);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const material bad : {material{-0.1F, 0.0F}, material{nan, 0.0F},
                               material{std::numeric_limits<float>::infinity(), 0.0F},
                               material{0.2F, 1.5F}, material{0.2F, -0.5F}, material{0.2F, nan}}) {
        EXPECT_THROW(world.set_material(shape_kind::circle, 1, bad), std::invalid_argument);
    }
    EXPECT_THROW(world.set_material(shape_kind::circle, 2, {}), std::out_of_range);
    EXPECT_THROW(world.set_material(shape_kind::static_box, 0, {}), std::out_of_range);
    EXPECT_THROW(world.set_material(shape_kind::none, 0, {}), std::invalid_argument);
    EXPECT_THROW((void)world.material_of(shape_kind::dynamic_box, 0), std::out_of_range);
    try {
        world.set_circle_materials(std::vector<float>{0.5F, -1.0F}, std::vector<float>{0.0F, 0.0F});
        ADD_FAILURE() << "a negative friction was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("circle 1"), std::string::npos) << e.what();
    }
    EXPECT_THROW(world.set_circle_materials(std::vector<float>{0.5F}, std::vector<float>{0.0F}),
                 std::invalid_argument);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(world.material_of(shape_kind::circle, i).friction, 0.2F);
        EXPECT_EQ(world.material_of(shape_kind::circle, i).restitution, 0.0F);
    }
}

// A pile with materials of every kind, mixed: the same bits on every instruction set and with
// any number of workers, and an edit made between steps acts on the next.
TEST(world_materials, a_pile_of_mixed_materials_steps_to_the_same_bits_everywhere) {
    const auto make = [](int workers) {
        particle_world world({.workers = workers});
        world.set_boxes(open_container(20.0F, 30.0F).view());
        std::mt19937 rng(21);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        std::vector<float> friction, restitution;
        for (int i = 0; i < 1200; ++i) {
            world.add_circle(
                {0.5F + 19.0F * unit(rng), 0.5F + 25.0F * unit(rng), 0.12F + 0.1F * unit(rng)},
                i % 97 == 0 ? 0.0F : 1.0F, 2.0F * unit(rng) - 1.0F, 0.0F);
            friction.push_back(unit(rng));
            restitution.push_back(unit(rng) < 0.3F ? unit(rng) : 0.0F);
        }
        world.set_circle_materials(friction, restitution);
        world.set_material(shape_kind::static_box, 0, {0.5F, 0.3F});
        world.add_dynamic_box(aabb::from_min_max(5.0F, 27.0F, 7.0F, 28.0F), 0.5F);
        world.set_material(shape_kind::dynamic_box, 0, {0.9F, 0.6F});
        world.add_kinematic_box(aabb::from_min_max(2.0F, 8.0F, 4.0F, 9.0F), 2.0F, 0.0F);
        world.set_material(shape_kind::kinematic_box, 0, {0.1F, 0.8F});
        return world;
    };
    const auto stepped = [&](isa which, int workers) {
        set_isa(which);
        particle_world world = make(workers);
        run(world, 40);
        world.set_material(shape_kind::circle, 7, {0.0F, 1.0F}); // an edit between steps
        run(world, 40);
        reset_isa();
        return motion_of(world);
    };
    expect_same_bits_everywhere(stepped);
    // The materials act: the same pile with the defaults ends elsewhere.
    set_isa(isa::reference);
    particle_world plain = make(1);
    plain.set_circle_materials(std::vector<float>(1200, 0.2F), std::vector<float>(1200, 0.0F));
    run(plain, 80);
    reset_isa();
    EXPECT_NE(motion_of(plain), stepped(isa::reference, 1));
}

} // namespace
} // namespace simdcollide::testing
