// The world's circles in bulk: added from arrays, removed by index or by a predicate. The
// caller's indices after a removal are the kept circles in their old order, and the world
// steps them as a world made of them alone would, but for the impulses it keeps.
#include "test_support.hpp"

#include <simdcollide/world.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace simdcollide::testing {
namespace {

// A small pile's circles as arrays: rows above a floor, every third one heavier.
struct pile_arrays {
    std::vector<float> x, y, radius, inverse_mass, vx, vy;
    explicit pile_arrays(std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
            x.push_back(0.6F + static_cast<float>(i % 12) + 0.01F * static_cast<float>(i % 5));
            y.push_back(1.0F + static_cast<float>(i / 12));
            radius.push_back(0.3F + 0.02F * static_cast<float>(i % 7));
            inverse_mass.push_back(i % 3 == 0 ? 0.5F : 1.0F);
            vx.push_back(0.1F * static_cast<float>(i % 4));
            vy.push_back(-0.2F * static_cast<float>(i % 3));
        }
    }
    [[nodiscard]] circles_cview circles() const { return {x, y, radius}; }
};

particle_world container_world() {
    particle_world world;
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(-1, -1, 14, 0));
    boxes.push_back(aabb::from_min_max(-1, 0, 0, 40));
    boxes.push_back(aabb::from_min_max(13, 0, 14, 40));
    world.set_boxes(boxes.view());
    return world;
}

void expect_same_state(particle_world& got, particle_world& want) {
    ASSERT_EQ(got.size(), want.size());
    const particles_view g = got.particles();
    const particles_view w = want.particles();
    for (std::size_t i = 0; i < g.count; ++i) {
        EXPECT_SAME_BITS(g.x[i], w.x[i], "x", i);
        EXPECT_SAME_BITS(g.y[i], w.y[i], "y", i);
        EXPECT_SAME_BITS(g.vx[i], w.vx[i], "vx", i);
        EXPECT_SAME_BITS(g.vy[i], w.vy[i], "vy", i);
        EXPECT_SAME_BITS(g.radius[i], w.radius[i], "radius", i);
        EXPECT_SAME_BITS(g.inverse_mass[i], w.inverse_mass[i], "inverse_mass", i);
    }
}

class world_circles : public on_each_isa {};

TEST_P(world_circles, added_in_bulk_step_as_added_one_by_one) {
    const pile_arrays a(150);
    particle_world bulk = container_world();
    particle_world one_by_one = container_world();
    EXPECT_EQ(bulk.add_circles(a.circles(), a.inverse_mass, a.vx, a.vy), 0U);
    for (std::size_t i = 0; i < 150; ++i) {
        one_by_one.add_circle({a.x[i], a.y[i], a.radius[i]}, a.inverse_mass[i], a.vx[i], a.vy[i]);
    }
    // A second batch, without velocities: they start at rest, numbered after the first.
    const pile_arrays b(30);
    std::vector<float> raised(b.y);
    for (float& y : raised) {
        y += 20.0F;
    }
    const circles_cview second(b.x, raised, b.radius);
    EXPECT_EQ(bulk.add_circles(second, b.inverse_mass), 150U);
    for (std::size_t i = 0; i < 30; ++i) {
        one_by_one.add_circle({b.x[i], raised[i], b.radius[i]}, b.inverse_mass[i]);
    }
    EXPECT_EQ(bulk.particles().vx[170], 0.0F);
    // The world's own arrays as the source: its circles doubled, copied before it grows.
    particle_world doubled = container_world();
    doubled.add_circles(a.circles(), a.inverse_mass, a.vx, a.vy);
    const particles_view own = doubled.particles();
    EXPECT_EQ(doubled.add_circles(own, {own.inverse_mass, own.count}, {own.vx, own.count},
                                  {own.vy, own.count}),
              150U);
    const particles_view both = doubled.particles();
    for (std::size_t i = 0; i < 150; ++i) {
        EXPECT_EQ(both.x[150 + i], a.x[i]);
        EXPECT_EQ(both.vy[150 + i], a.vy[i]);
    }
    for (int s = 0; s < 100; ++s) {
        bulk.step(1.0F / 60.0F);
        one_by_one.step(1.0F / 60.0F);
    }
    expect_same_state(bulk, one_by_one);
}

TEST_P(world_circles, removal_keeps_order_and_steps_like_a_world_of_the_kept) {
    const pile_arrays a(200);
    particle_world world = container_world();
    world.add_circles(a.circles(), a.inverse_mass, a.vx, a.vy);
    for (int s = 0; s < 40; ++s) {
        world.step(1.0F / 60.0F);
    }
    // Remember the state, then remove circle 7 and every circle above y = 6.
    const particles_view before = world.particles();
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < world.size(); ++i) {
        if (i != 7 && !(before.y[i] > 6.0F)) {
            kept.push_back(i);
        }
    }
    const pile_arrays old_state = [&] {
        pile_arrays p(0);
        for (std::size_t i = 0; i < world.size(); ++i) {
            p.x.push_back(before.x[i]);
            p.y.push_back(before.y[i]);
            p.radius.push_back(before.radius[i]);
            p.inverse_mass.push_back(before.inverse_mass[i]);
            p.vx.push_back(before.vx[i]);
            p.vy.push_back(before.vy[i]);
        }
        return p;
    }();
    world.remove_circle(7);
    std::size_t asked = 0;
    const std::size_t removed = world.remove_circles_if([&](std::size_t i) {
        EXPECT_EQ(i, asked++); // each index once, ascending
        return world.particles().y[i] > 6.0F;
    });
    EXPECT_EQ(asked, 199U);
    EXPECT_GT(removed, 10U);
    ASSERT_EQ(world.size(), kept.size());
    ASSERT_EQ(199U - removed, kept.size());

    // The kept circles, in their old order, are what a fresh world of them holds. The next
    // step moves them alike; not to the same bits, since the world keeps its contacts'
    // impulses (warm starting) where a fresh world starts them from 0.
    particle_world fresh = container_world();
    for (const std::size_t i : kept) {
        fresh.add_circle({old_state.x[i], old_state.y[i], old_state.radius[i]},
                         old_state.inverse_mass[i], old_state.vx[i], old_state.vy[i]);
    }
    expect_same_state(world, fresh);
    world.step(1.0F / 60.0F);
    fresh.step(1.0F / 60.0F);
    {
        const particles_view g = world.particles();
        const particles_view w = fresh.particles();
        for (std::size_t i = 0; i < g.count; ++i) {
            EXPECT_NEAR(g.x[i], w.x[i], 0.03F) << i;
            EXPECT_NEAR(g.y[i], w.y[i], 0.03F) << i;
        }
    }
    // And it goes on stepping, with no circle lost from the container.
    for (int s = 0; s < 60; ++s) {
        world.step(1.0F / 60.0F);
    }
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        EXPECT_TRUE(p.x[i] > 0.0F && p.x[i] < 13.0F && p.y[i] > 0.0F) << i;
    }
    // Removing everything leaves an empty world that still steps.
    EXPECT_EQ(world.remove_circles_if([](std::size_t) { return true; }), kept.size());
    EXPECT_EQ(world.size(), 0U);
    world.step(1.0F / 60.0F);
}

// Removing one circle and adding another keeps the count: the world still sorts and lists
// again, so the new circle is found by its neighbours.
TEST_P(world_circles, remove_then_add_between_steps_lists_the_new_circle) {
    particle_world world = container_world();
    world.add_circle({3.0F, 0.5F, 0.5F}, 1.0F);
    world.add_circle({9.0F, 0.5F, 0.5F}, 1.0F);
    world.step(1.0F / 60.0F);
    world.remove_circle(1);
    world.add_circle({3.6F, 0.5F, 0.5F}, 1.0F); // overlaps circle 0
    world.step(1.0F / 60.0F);
    const particles_view p = world.particles();
    EXPECT_GT(std::fabs(p.x[1] - p.x[0]), 0.6F); // pushed apart
    EXPECT_EQ(world.listed_pairs().size(), 1U);
}

TEST(world_circles_arguments, bad_batches_are_refused_whole) {
    particle_world world = container_world();
    pile_arrays a(10);
    std::vector<float> short_masses(9, 1.0F);
    EXPECT_THROW(world.add_circles(a.circles(), short_masses), std::invalid_argument);
    EXPECT_THROW(world.add_circles(a.circles(), a.inverse_mass, a.vx, {}), std::invalid_argument);
    a.radius[6] = -1.0F;
    try {
        world.add_circles(a.circles(), a.inverse_mass);
        ADD_FAILURE() << "a negative radius was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("circle 6"), std::string::npos) << e.what();
    }
    a.radius[6] = 0.3F;
    a.vy[3] = std::nanf("");
    EXPECT_THROW(world.add_circles(a.circles(), a.inverse_mass, a.vx, a.vy), std::invalid_argument);
    EXPECT_EQ(world.size(), 0U); // nothing of a refused batch
    EXPECT_THROW(world.add_circles({nullptr, a.y.data(), a.radius.data(), 10}, a.inverse_mass),
                 std::invalid_argument);
    EXPECT_THROW(world.remove_circle(0), std::out_of_range);
    world.add_circles(a.circles(), a.inverse_mass);
    EXPECT_THROW(world.remove_circle(10), std::out_of_range);
    EXPECT_EQ(world.size(), 10U);
}

INSTANTIATE_TEST_SUITE_P(every_isa, world_circles, ::testing::ValuesIn(compiled_isas()),
                         [](const auto& info) { return std::string(isa_name(info.param)); });

} // namespace
} // namespace simdcollide::testing
