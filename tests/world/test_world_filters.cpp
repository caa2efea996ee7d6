// Collision filters (docs/behaviour.md, "Collision filters"): two groups that keep apart
// pass through each other and both land on the floor; pairs kept apart are never listed;
// boxes of every kind and the sweeps keep apart what the filters say; an edit acts on the
// next step; the same bits on every instruction set and worker count; bad calls refused.
#include "test_support.hpp"

#include <simdcollide/world.hpp>

#include <random>
#include <stdexcept>
#include <vector>

namespace simdcollide::testing {
namespace {

constexpr collision_filter group_a{2, 1 | 2}; // the floor and its own group
constexpr collision_filter group_b{4, 1 | 4};

particle_world floor_world(world_options options = {}) {
    particle_world world(options);
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-50.0F, -1.0F, 50.0F, 0.0F));
    world.set_boxes(floor.view());
    return world;
}

void run(particle_world& world, int steps) {
    for (int s = 0; s < steps; ++s) {
        world.step(1.0F / 60.0F);
    }
}

// Ten circles in a row at height 1 (group a) and the same ten at height 3 (group b).
particle_world two_rows(bool filtered) {
    particle_world world = floor_world();
    for (int i = 0; i < 20; ++i) {
        world.add_circle({static_cast<float>(i % 10), i < 10 ? 1.0F : 3.0F, 0.3F}, 1.0F);
        if (filtered) {
            world.set_filter(shape_kind::circle, static_cast<std::size_t>(i),
                             i < 10 ? group_a : group_b);
        }
    }
    return world;
}

TEST(world_filters, two_groups_pass_through_each_other_and_both_land_on_the_floor) {
    particle_world world = two_rows(true);
    bool listed_across = false;
    for (int s = 0; s < 180; ++s) {
        world.step(1.0F / 60.0F);
        for (const circle_pair p : world.listed_pairs()) {
            listed_across = listed_across || ((p.a < 10) != (p.b < 10));
        }
    }
    EXPECT_FALSE(listed_across);
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < 20; ++i) {
        EXPECT_NEAR(p.y[i], 0.3F, 0.02F) << i;
    }
    // Without the filters the second row lands on the first.
    particle_world plain = two_rows(false);
    run(plain, 180);
    EXPECT_GT(plain.particles().y[15], 0.7F);
}

TEST(world_filters, boxes_of_every_kind_keep_apart_what_the_filters_say) {
    particle_world world = floor_world({.gravity_y = -9.81F});
    world.add_circle({0.0F, 1.0F, 0.3F}, 1.0F); // falls through the floor
    world.add_circle({5.0F, 1.0F, 0.3F}, 1.0F); // rests on it
    world.set_filter(shape_kind::static_box, 0, {8, ~std::uint64_t{0}});
    world.set_filter(shape_kind::circle, 0, {1, ~std::uint64_t{8}});
    // A dynamic box that falls through circle 1 (their filters keep apart) onto the floor.
    world.add_dynamic_box(aabb::from_min_max(4.5F, 3.0F, 5.5F, 3.5F), 1.0F);
    world.set_filter(shape_kind::dynamic_box, 0, {16, ~std::uint64_t{2}});
    world.set_filter(shape_kind::circle, 1, {2, ~std::uint64_t{0}});
    run(world, 120);
    EXPECT_LT(world.particles().y[0], -1.0F);
    EXPECT_NEAR(world.particles().y[1], 0.3F, 0.02F);
    EXPECT_NEAR(world.dynamic_box_at(0).box.min_y, 0.0F, 0.02F);

    // A kinematic paddle that passes through the circle it is kept apart from.
    particle_world paddle = floor_world({.gravity_y = 0.0F});
    paddle.add_circle({1.0F, 2.0F, 0.2F}, 1.0F);
    paddle.add_kinematic_box(aabb::from_min_max(-0.5F, 1.0F, 0.0F, 3.0F), 20.0F, 0.0F);
    paddle.set_filter(shape_kind::kinematic_box, 0, {32, ~std::uint64_t{1}});
    run(paddle, 30);
    EXPECT_EQ(paddle.particles().x[0], 1.0F);
}

TEST(world_filters, a_fast_circle_passes_through_a_wall_it_is_kept_apart_from) {
    for (const bool apart : {false, true}) {
        particle_world world({.gravity_y = 0.0F});
        aabb_set wall;
        wall.push_back(aabb::from_min_max(10.0F, -5.0F, 10.2F, 5.0F));
        world.set_boxes(wall.view());
        world.add_circle({0.0F, 0.0F, 0.1F}, 1.0F, 600.0F, 0.0F);
        if (apart) {
            world.set_filter(shape_kind::static_box, 0, {1, 0});
        }
        run(world, 2);
        if (apart) {
            EXPECT_NEAR(world.particles().x[0], 20.0F, 1e-3F);
        } else {
            EXPECT_LT(world.particles().x[0], 10.0F);
        }
    }
}

TEST(world_filters, an_edit_between_steps_acts_on_the_next) {
    particle_world world = floor_world();
    world.add_circle({0.0F, 0.3F, 0.3F}, 1.0F);
    run(world, 60);
    EXPECT_NEAR(world.particles().y[0], 0.3F, 0.02F);
    world.set_filter(shape_kind::circle, 0, {1, 0}); // collides with nothing now
    run(world, 60);
    EXPECT_LT(world.particles().y[0], -1.0F);
    EXPECT_EQ(world.filter_of(shape_kind::circle, 0).mask, 0U);
}

TEST(world_filters, a_filtered_pile_steps_to_the_same_bits_everywhere) {
    const auto make = [](int workers) {
        particle_world world({.workers = workers});
        world.set_boxes(open_container(20.0F, 30.0F).view());
        std::mt19937 rng(22);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        std::vector<std::uint64_t> category, mask;
        for (int i = 0; i < 1200; ++i) {
            world.add_circle(
                {0.5F + 19.0F * unit(rng), 0.5F + 25.0F * unit(rng), 0.12F + 0.1F * unit(rng)},
                i % 97 == 0 ? 0.0F : 1.0F, 2.0F * unit(rng) - 1.0F, 0.0F);
            const std::uint64_t group = std::uint64_t{2} << (i % 3);
            category.push_back(group);
            mask.push_back(i % 5 == 0 ? 1 | group : ~std::uint64_t{0});
        }
        world.set_circle_filters(category, mask);
        world.add_dynamic_box(aabb::from_min_max(5.0F, 27.0F, 7.0F, 28.0F), 0.5F);
        world.set_filter(shape_kind::dynamic_box, 0, {64, ~std::uint64_t{4}});
        world.add_kinematic_box(aabb::from_min_max(2.0F, 8.0F, 4.0F, 9.0F), 2.0F, 0.0F);
        world.set_filter(shape_kind::kinematic_box, 0, {128, ~std::uint64_t{8}});
        return world;
    };
    const auto stepped = [&](isa which, int workers) {
        set_isa(which);
        particle_world world = make(workers);
        run(world, 60);
        reset_isa();
        return motion_of(world);
    };
    {
        // Pairs are listed (some are kept apart, many are not), and none kept apart.
        particle_world world = make(1);
        run(world, 60);
        std::size_t apart = 0;
        const std::vector<circle_pair> pairs = world.listed_pairs();
        for (const circle_pair p : pairs) {
            const collision_filter a = world.filter_of(shape_kind::circle, p.a);
            const collision_filter b = world.filter_of(shape_kind::circle, p.b);
            apart += (a.category & b.mask) == 0 || (b.category & a.mask) == 0 ? 1 : 0;
        }
        EXPECT_EQ(apart, 0U);
        EXPECT_GT(pairs.size(), 500U);
    }
    expect_same_bits_everywhere(stepped);
}

TEST(world_filters, bad_calls_are_refused_with_nothing_changed) {
    particle_world world = floor_world();
    world.add_circle({0.0F, 1.0F, 0.2F}, 1.0F);
    EXPECT_THROW(world.set_filter(shape_kind::circle, 1, {}), std::out_of_range);
    EXPECT_THROW(world.set_filter(shape_kind::none, 0, {}), std::invalid_argument);
    EXPECT_THROW((void)world.filter_of(shape_kind::kinematic_box, 0), std::out_of_range);
    EXPECT_THROW(world.set_circle_filters(std::vector<std::uint64_t>{1, 2},
                                          std::vector<std::uint64_t>{1, 2}),
                 std::invalid_argument);
    EXPECT_EQ(world.filter_of(shape_kind::circle, 0).category, 1U);
    EXPECT_EQ(world.filter_of(shape_kind::static_box, 0).mask, ~std::uint64_t{0});
}

} // namespace
} // namespace simdcollide::testing
