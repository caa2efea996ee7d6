// The world's continuous collision (the sweep stage): circles shot at walls, corners and
// static circles at up to 10 000 m/s never pass through them, on every instruction set; a
// fast circle slides along a floor; a scene with fast circles steps to the same bits on
// every instruction set and worker count; a world with no fast circle keeps its bits.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace simdcollide::testing {
namespace {

constexpr float dt = 1.0F / 60.0F;

class world_sweep_on_each_isa : public on_each_isa {};

// A wall at x in [0, w], far taller than a circle slides along it in the test; a circle shot at it
// from 1 to 3 steps' moves away, at angles up to 60 degrees: after each of 90 steps (4 substeps, no
// gravity), its centre is still on the near side and it overlaps the wall by at most a tenth of its
// radius.
TEST_P(world_sweep_on_each_isa, circles_shot_at_walls_never_pass_through) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::size_t stopped = 0;
    for (const float w : {0.001F, 0.01F, 0.1F, 1.0F}) {
        const aabb wall = aabb::from_min_max(0, -1e5F, w, 1e5F);
        for (const float speed : {10.0F, 240.0F, 1000.0F, 10000.0F}) {
            for (const float r : {0.01F, 0.05F, 0.2F, 1.0F}) {
                for (int k = 0; k < 3; ++k) {
                    particle_world world({.gravity_y = 0.0F});
                    aabb_set boxes;
                    boxes.push_back(wall);
                    world.set_boxes(boxes.view());
                    const float angle = (unit(rng) - 0.5F) * 2.0F;
                    const float back = std::max(speed * dt * (0.5F + 2.0F * unit(rng)), 2.0F * r);
                    world.add_circle({-back, (unit(rng) - 0.5F) * 50.0F, r}, 1.0F,
                                     speed * std::cos(angle), speed * std::sin(angle));
                    for (int s = 0; s < 90; ++s) {
                        world.step(dt);
                        const particles_view p = world.particles();
                        ASSERT_LT(p.x[0], 0.0F) << "through a wall " << w << " thick: r=" << r
                                                << " v=" << speed << " step " << s;
                        ASSERT_GE(distance_to(p.x[0], p.y[0], wall), 0.9F * r)
                            << "into the wall: r=" << r << " v=" << speed << " step " << s;
                    }
                    stopped += world.particles().vx[0] <= 0.0F ? 1 : 0;
                }
            }
        }
    }
    EXPECT_GT(stopped, 150U); // they did reach the wall
}

// In a world of more circles than one block of the look for the fastest (which goes block by
// block on the workers), a fast circle above 40 000 still ones, so in the last slots, is shot
// at a thin wall: on 1 and 3 workers it never passes through.
TEST(world_sweep, a_fast_circle_among_many_still_ones_never_passes_through) {
    for (const int workers : {1, 3}) {
        particle_world world({.gravity_y = 0.0F, .workers = workers});
        aabb_set boxes;
        const aabb wall = aabb::from_min_max(230, -1e5F, 230.01F, 1e5F);
        boxes.push_back(wall);
        world.set_boxes(boxes.view());
        for (std::size_t i = 0; i < 40000; ++i) {
            world.add_circle(
                {0.5F + static_cast<float>(i % 200), 0.5F + static_cast<float>(i / 200), 0.3F},
                1.0F, 0.0F, 0.0F);
        }
        const std::size_t fast = world.add_circle({215, 210, 0.2F}, 1.0F, 1000.0F, 0.0F);
        for (int s = 0; s < 10; ++s) {
            world.step(dt);
            const particles_view p = world.particles();
            ASSERT_LT(p.x[fast], 230.0F) << workers << " workers, step " << s;
        }
        EXPECT_LE(world.particles().vx[fast], 0.0F); // it reached the wall
    }
}

// Circles shot at a box's corner, and at a static circle, from every side: never inside.
TEST_P(world_sweep_on_each_isa, circles_shot_at_corners_and_static_circles_never_pass_through) {
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const aabb box = aabb::from_min_max(-0.5F, -0.5F, 0.5F, 0.5F);
    for (const float speed : {50.0F, 1000.0F, 10000.0F}) {
        for (const float r : {0.01F, 0.2F}) {
            for (int k = 0; k < 8; ++k) {
                for (const bool static_circle : {false, true}) {
                    particle_world world({.gravity_y = 0.0F, .restitution = 0.5F});
                    if (static_circle) {
                        world.add_circle({0, 0, 0.5F}, 0.0F);
                    } else {
                        aabb_set boxes;
                        boxes.push_back(box);
                        world.set_boxes(boxes.view());
                    }
                    // Aimed within a radius of the corner (0.5, 0.5) (or the circle's edge
                    // there), from any direction outside.
                    const float angle = unit(rng) * 6.2831853F;
                    const float aim = 0.5F + (unit(rng) - 0.5F) * 2.0F * r;
                    const float back = speed * dt * (0.5F + 2.0F * unit(rng)) + 2.0F;
                    const float sx = aim + std::cos(angle) * back;
                    const float sy = aim + std::sin(angle) * back;
                    if (distance_to(sx, sy, box) < 2.0F * r || std::hypot(sx, sy) < 0.5F + 2 * r) {
                        continue;
                    }
                    const std::size_t c = world.add_circle(
                        {sx, sy, r}, 1.0F, -speed * std::cos(angle), -speed * std::sin(angle));
                    for (int s = 0; s < 60; ++s) {
                        world.step(dt);
                        const particles_view p = world.particles();
                        const float gap = static_circle ? std::hypot(p.x[c], p.y[c]) - 0.5F
                                                        : distance_to(p.x[c], p.y[c], box);
                        ASSERT_GE(gap, 0.9F * r) << (static_circle ? "circle" : "box")
                                                 << ": r=" << r << " v=" << speed << " step " << s;
                    }
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, world_sweep_on_each_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

// A circle shot down at a floor 0.001 thick under gravity stops on it; one sliding fast along
// a floor keeps sliding (its sweep takes the rest of each move along the surface).
TEST(world_sweep, a_fast_circle_lands_on_a_thin_floor_and_slides_along_it) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-1000, -0.001F, 1000, 0));
    world.set_boxes(floor.view());
    world.add_circle({0, 5, 0.05F}, 1.0F, 0.0F, -10000.0F);
    world.add_circle({10, 0.05F, 0.05F}, 1.0F, 100.0F, 0.0F); // away from the other's path
    for (int s = 0; s < 60; ++s) {
        world.step(dt);
        const particles_view p = world.particles();
        ASSERT_GT(p.y[0], 0.0F) << "step " << s;
        ASSERT_GT(p.y[1], 0.0F) << "step " << s;
    }
    const particles_view p = world.particles();
    EXPECT_NEAR(p.y[0], 0.05F, 0.01F);
    // A second at 100 m/s, less what friction (mu 0.2 of g) takes: about 99 m.
    EXPECT_GT(p.x[1], 10.0F + 90.0F);
    EXPECT_NEAR(p.y[1], 0.05F, 0.01F);
}

// A pile in a container with a tenth of its circles shot fast at the walls and at static
// circles (a burst).
particle_world burst_scene(world_options options) {
    particle_world world(options);
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(-1, -0.01F, 11, 0)); // a thin floor
    boxes.push_back(aabb::from_min_max(-0.01F, 0, 0, 20));  // thin walls
    boxes.push_back(aabb::from_min_max(10, 0, 10.01F, 20));
    boxes.push_back(aabb::from_min_max(-1, 20, 11, 20.01F)); // and a lid
    world.set_boxes(boxes.view());
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    world.add_circle({5, 10, 0.3F}, 0.0F);
    world.add_circle({2, 15, 0.2F}, 0.0F);
    for (std::size_t i = 0; i < 400; ++i) {
        const bool fast = i % 10 == 0;
        const float angle = unit(rng) * 6.2831853F;
        const float speed = fast ? 200.0F + 2000.0F * unit(rng) : unit(rng);
        world.add_circle({0.5F + static_cast<float>(i % 20) * 0.45F,
                          0.5F + static_cast<float>(i / 20) * 0.45F, 0.1F + 0.1F * unit(rng)},
                         0.5F + unit(rng), speed * std::cos(angle), speed * std::sin(angle));
    }
    return world;
}

std::vector<float> state_after(particle_world world, int steps) {
    for (int s = 0; s < steps; ++s) {
        world.step(dt);
        const particles_view p = world.particles();
        for (std::size_t i = 0; i < p.count; ++i) {
            EXPECT_TRUE(p.x[i] > -0.01F && p.x[i] < 10.01F && p.y[i] > -0.01F && p.y[i] < 20.01F)
                << "circle " << i << " left the container at step " << s;
        }
    }
    return motion_of(world);
}

TEST(world_sweep, a_burst_steps_to_the_same_bits_on_every_isa_and_worker_count) {
    set_isa(isa::reference);
    const std::vector<float> want = state_after(burst_scene({}), 40);
    reset_isa();
    for (const isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        for (const int workers : {1, 3, 7}) {
            SCOPED_TRACE(std::string(isa_name(which)) + ", workers " + std::to_string(workers));
            set_isa(which);
            const std::vector<float> got = state_after(burst_scene({.workers = workers}), 40);
            reset_isa();
            expect_same_floats(got, want, "against the reference on one worker");
        }
    }
}

// 200 circles in rows in a container, falling and settling (never fast), and perhaps one
// fast circle high above them, in flight: `steps` steps with sweep_from.
std::vector<float> rows_after(float sweep_from, bool with_fast_circle, int steps) {
    particle_world world({.sweep_from = sweep_from});
    aabb_set boxes = open_container(10, 20);
    world.set_boxes(boxes.view());
    for (std::size_t i = 0; i < 200; ++i) {
        world.add_circle({0.3F + static_cast<float>(i % 20) * 0.48F,
                          0.3F + static_cast<float>(i / 20) * 0.5F, 0.2F},
                         1.0F);
    }
    if (with_fast_circle) {
        world.add_circle({5, 18, 0.1F}, 1.0F, 200.0F, 0.0F);
    }
    return state_after(world, steps);
}

// Sweeping changes nothing where no circle is fast, or where fast circles hit nothing.
TEST(world_sweep, worlds_without_fast_impacts_keep_their_bits) {
    constexpr float off = std::numeric_limits<float>::infinity();
    expect_same_floats(rows_after(0.5F, true, 1), rows_after(off, true, 1),
                       "a fast circle that hits nothing");
    expect_same_floats(rows_after(0.5F, false, 60), rows_after(off, false, 60), "no fast circle");
}

// A static circle that a caller made invalid through particles() (a NaN centre, a huge
// one) stops nothing and breaks nothing: the fast circle still stops at the wall.
TEST(world_sweep, an_invalid_static_circle_leaves_the_sweeps_working) {
    particle_world world({.gravity_y = 0.0F});
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(0, -100, 0.001F, 100));
    world.set_boxes(boxes.view());
    world.add_circle({-5, 50, 0.5F}, 0.0F);
    world.add_circle({-5, -50, 0.5F}, 0.0F);
    world.add_circle({-1, 0, 0.05F}, 1.0F, 5000.0F, 0.0F);
    world.particles().x[0] = std::numeric_limits<float>::quiet_NaN();
    world.particles().x[1] = 3e38F;
    for (int s = 0; s < 10; ++s) {
        world.step(dt);
        ASSERT_LT(world.particles().x[2], 0.0F) << "step " << s;
    }
}

TEST(world_sweep, refuses_a_bad_sweep_from) {
    EXPECT_THROW(particle_world({.sweep_from = -1.0F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.sweep_from = std::numeric_limits<float>::quiet_NaN()}),
                 std::invalid_argument);
    EXPECT_NO_THROW(particle_world({.sweep_from = 0.0F}));
    EXPECT_NO_THROW(particle_world({.sweep_from = std::numeric_limits<float>::infinity()}));
}

} // namespace
} // namespace simdcollide::testing
