// Kinematic boxes (docs/world-design.md, "Kinematic boxes"): boxes the host moves push circles
// without passing through them at any speed, carry a pile by friction, compress a column in a tube
// without losing a circle; the same bits on every instruction set and worker count; a world
// whose kinematic boxes meet no circle keeps its bits; bad input refused, the world unchanged.
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace simdcollide::testing {
namespace {

constexpr float dt = 1.0F / 60.0F;

class world_kinematic_on_each_isa : public on_each_isa {};

// A box 0.001 to 1 thick, moving at 10 to 10 000 m/s, at a circle at rest (radius 0.01 to 1,
// no gravity) from 1 to 3 steps' moves away, at angles up to 60 degrees: after each of 30 steps
// the circle is still ahead of the box's front face, and overlaps it by at most a tenth of its
// radius. And a circle shot at a box moving towards it, likewise.
TEST_P(world_kinematic_on_each_isa, a_moving_box_never_passes_a_circle) {
    std::mt19937 rng(41);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::size_t pushed = 0;
    for (const float w : {0.001F, 0.01F, 1.0F}) {
        for (const float speed : {10.0F, 240.0F, 10000.0F}) {
            for (const float r : {0.01F, 0.2F, 1.0F}) {
                for (const bool circle_moves : {false, true}) {
                    particle_world world({.gravity_y = 0.0F});
                    const float gap = std::max(speed * dt * (0.5F + 2.0F * unit(rng)), 2.0F * r);
                    const float angle = (unit(rng) - 0.5F) * 2.0F;
                    const float v = circle_moves ? 0.5F * speed : 0.0F;
                    world.add_circle({gap + r, (unit(rng) - 0.5F) * 50.0F, r}, 1.0F,
                                     -v * std::cos(angle), -v * std::sin(angle));
                    world.add_kinematic_box(aabb::from_min_max(-w, -1e4F, 0, 1e4F), speed, 0.0F);
                    for (int s = 0; s < 30; ++s) {
                        world.step(dt);
                        const aabb box = world.kinematic_box_at(0).box;
                        const particles_view p = world.particles();
                        ASSERT_GT(p.x[0], box.max_x) << "passed by a box " << w << " thick: r=" << r
                                                     << " v=" << speed << " step " << s;
                        ASSERT_GE(distance_to(p.x[0], p.y[0], box), 0.9F * r)
                            << "inside the box: r=" << r << " v=" << speed << " step " << s;
                    }
                    pushed += world.particles().vx[0] >= 0.99F * speed ? 1 : 0;
                }
            }
        }
    }
    EXPECT_EQ(pushed, 54U); // every circle was reached and goes with the box
}

INSTANTIATE_TEST_SUITE_P(every_isa, world_kinematic_on_each_isa,
                         ::testing::ValuesIn(compiled_isas()), isa_test_name);

// A floor from x = -2 to 60, and a pile of 200 circles on it from x = 0 to 6, settled for a
// second.
particle_world pile_on_a_floor(world_options options) {
    particle_world world(options);
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-2, -1, 60, 0));
    world.set_boxes(floor.view());
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < 200; ++i) {
        world.add_circle({0.15F + static_cast<float>(i % 20) * 0.3F,
                          0.15F + static_cast<float>(i / 20) * 0.3F, 0.1F + 0.04F * unit(rng)},
                         1.0F);
    }
    for (int s = 0; s < 60; ++s) {
        world.step(dt);
    }
    return world;
}

// A paddle as tall as the scene sweeps through the pile at 50 m/s: at every step each circle
// is ahead of it (or was pushed off the floor's end), none inside it.
TEST(world_kinematic, a_paddle_at_50_m_per_s_sweeps_a_pile_without_a_circle_inside_or_behind) {
    const particle_world settled = pile_on_a_floor({});
    for (const float friction : {0.0F, 0.2F}) {
        particle_world world({.friction = friction});
        world.set_boxes(settled.boxes().boxes());
        particle_world source = settled;
        const particles_view q = source.particles();
        world.add_circles({q.x, q.y, q.radius, q.count}, {q.inverse_mass, q.count}, {q.vx, q.count},
                          {q.vy, q.count});
        world.add_kinematic_box(aabb::from_min_max(-1.1F, 0.0F, -1.0F, 100.0F), 50.0F, 0.0F);
        for (int s = 0; s < 30; ++s) {
            world.step(dt);
            const aabb paddle = world.kinematic_box_at(0).box;
            const particles_view p = world.particles();
            for (std::size_t i = 0; i < p.count; ++i) {
                ASSERT_GT(p.x[i], paddle.max_x) << "circle " << i << " behind the paddle at step "
                                                << s << ", friction " << friction;
                ASSERT_GE(distance_to(p.x[i], p.y[i], paddle), 0.8F * p.radius[i])
                    << "circle " << i << " inside the paddle at step " << s;
            }
        }
        // It did push them: the pile is ahead of where it was, carried at the paddle's speed.
        const particles_view p = world.particles();
        const float least_x = *std::min_element(p.x, p.x + p.count);
        EXPECT_GT(least_x, 20.0F);
    }
}

// A pile on a platform 40 wide that starts moving sideways at 2 m/s: with friction the pile
// goes with it; without, the platform slides away under it.
TEST(world_kinematic, a_pile_rides_a_platform_with_friction_and_slides_without) {
    for (const float friction : {0.0F, 0.5F}) {
        particle_world world({.friction = friction});
        world.add_kinematic_box(aabb::from_min_max(-20, -1, 20, 0));
        for (std::size_t i = 0; i < 60; ++i) {
            world.add_circle({-1.0F + static_cast<float>(i % 10) * 0.21F,
                              0.1F + static_cast<float>(i / 10) * 0.21F, 0.1F},
                             1.0F);
        }
        for (int s = 0; s < 60; ++s) {
            world.step(dt);
        }
        const auto mean_x = [&] {
            const particles_view p = world.particles();
            double sum = 0;
            for (std::size_t i = 0; i < p.count; ++i) {
                sum += p.x[i];
            }
            return sum / static_cast<double>(p.count);
        };
        const double x0 = mean_x();
        world.set_kinematic_velocity(0, 2.0F, 0.0F);
        for (int s = 0; s < 120; ++s) {
            world.step(dt);
            const particles_view p = world.particles();
            for (std::size_t i = 0; i < p.count; ++i) {
                ASSERT_GT(p.y[i], 0.09F) << "circle " << i << " into the platform at step " << s;
            }
        }
        const double moved = mean_x() - x0; // the platform moved 4
        const particles_view p = world.particles();
        double vx = 0;
        for (std::size_t i = 0; i < p.count; ++i) {
            vx += p.vx[i];
        }
        vx /= static_cast<double>(p.count);
        if (friction > 0.0F) {
            EXPECT_GT(moved, 3.0) << "the pile stayed behind";
            EXPECT_NEAR(vx, 2.0, 0.2) << "the pile does not ride along";
        } else {
            EXPECT_LT(std::fabs(moved), 0.1) << "the platform dragged the pile";
            EXPECT_LT(std::fabs(vx), 0.05);
        }
        EXPECT_NEAR(world.kinematic_box_at(0).box.min_x, -16.0F, 1e-3F);
    }
}

// A column of 12 circles in a tube, a piston sent down by move_kinematic_box until the column
// is packed: no circle leaves the tube or gets above the piston, at any piston speed.
TEST(world_kinematic, a_piston_compresses_a_column_and_none_escapes) {
    for (const float speed : {1.0F, 20.0F, 500.0F}) {
        particle_world world;
        aabb_set tube;
        tube.push_back(aabb::from_min_max(-1, -1, 1.25F, 0)); // floor
        tube.push_back(aabb::from_min_max(-1, 0, 0, 10));     // walls
        tube.push_back(aabb::from_min_max(0.25F, 0, 1.25F, 10));
        world.set_boxes(tube.view());
        for (std::size_t i = 0; i < 12; ++i) {
            world.add_circle({0.125F, 0.2F + 0.5F * static_cast<float>(i), 0.1F}, 1.0F);
        }
        world.add_kinematic_box(aabb::from_min_max(-1, 7, 1.25F, 8));
        const float lowest = 12 * 0.2F * 1.03F; // where the piston stops
        for (int s = 0; s < 300; ++s) {
            const aabb now = world.kinematic_box_at(0).box;
            const float bottom = std::max(now.min_y - speed * dt, lowest);
            world.move_kinematic_box(0, aabb::from_min_max(now.min_x, bottom, now.max_x,
                                                           bottom + (now.max_y - now.min_y)));
            world.step(dt);
            const aabb piston = world.kinematic_box_at(0).box;
            EXPECT_EQ(piston.min_y, bottom);
            const particles_view p = world.particles();
            for (std::size_t i = 0; i < p.count; ++i) {
                ASSERT_TRUE(p.x[i] > 0.0F && p.x[i] < 0.25F && p.y[i] > 0.0F &&
                            p.y[i] < piston.min_y)
                    << "circle " << i << " escaped at step " << s << ": (" << p.x[i] << ", "
                    << p.y[i] << "), piston at " << piston.min_y << ", speed " << speed;
            }
        }
    }
}

// A scene with every kind of kinematic contact: a pile on a moving platform, a paddle, an
// elevator carrying circles up, a box sent by move_kinematic_box.
particle_world kinematic_scene(world_options options) {
    particle_world world(options);
    aabb_set walls;
    walls.push_back(aabb::from_min_max(-10, -1, 30, 0));
    walls.push_back(aabb::from_min_max(-11, 0, -10, 20));
    walls.push_back(aabb::from_min_max(30, 0, 31, 20));
    world.set_boxes(walls.view());
    world.add_kinematic_box(aabb::from_min_max(-9, 0, 0, 0.5F), 1.5F, 0.0F);      // platform
    world.add_kinematic_box(aabb::from_min_max(-9.9F, 0, -9.8F, 3), 30.0F, 0.0F); // paddle
    world.add_kinematic_box(aabb::from_min_max(20, 0, 25, 0.2F), 0.0F, 2.0F);     // elevator
    world.add_kinematic_box(aabb::from_min_max(10, 5, 11, 5.5F));
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < 400; ++i) {
        const float x = -9.0F + static_cast<float>(i % 60) * 0.5F;
        world.add_circle({x, 0.8F + static_cast<float>(i / 60) * 0.45F, 0.1F + 0.1F * unit(rng)},
                         0.5F + unit(rng), unit(rng) - 0.5F, 0.0F);
    }
    return world;
}

std::vector<float> kinematic_state_after(particle_world world, int steps) {
    for (int s = 0; s < steps; ++s) {
        const aabb b = world.kinematic_box_at(3).box;
        world.move_kinematic_box(3, aabb::from_min_max(b.min_x + 0.1F, b.min_y - 0.05F,
                                                       b.max_x + 0.1F, b.max_y - 0.05F));
        world.step(dt);
    }
    return motion_of(world);
}

TEST(world_kinematic, a_scene_steps_to_the_same_bits_on_every_isa_and_worker_count) {
    set_isa(isa::reference);
    const std::vector<float> want = kinematic_state_after(kinematic_scene({}), 40);
    reset_isa();
    for (const isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        for (const int workers : {1, 3, 7}) {
            SCOPED_TRACE(std::string(isa_name(which)) + ", workers " + std::to_string(workers));
            set_isa(which);
            const std::vector<float> got =
                kinematic_state_after(kinematic_scene({.workers = workers}), 40);
            reset_isa();
            expect_same_floats(got, want, "against the reference on one worker");
        }
    }
}

// A pile in a container with kinematic boxes among its circles: ten that go back and forth,
// one that goes on through the pile (for the entries a step keeps from the last).
particle_world pile_with_boxes() {
    particle_world world;
    aabb_set boxes = open_container(10, 20);
    world.set_boxes(boxes.view());
    for (std::size_t i = 0; i < 300; ++i) {
        world.add_circle({0.3F + static_cast<float>(i % 20) * 0.48F,
                          0.3F + static_cast<float>(i / 20) * 0.5F, 0.2F},
                         1.0F);
    }
    for (std::size_t k = 0; k < 10; ++k) {
        const float x = 0.5F + static_cast<float>(k) * 0.9F;
        world.add_kinematic_box(aabb::from_min_max(x, 2.0F, x + 0.3F, 2.3F));
    }
    world.add_kinematic_box(aabb::from_min_max(0.2F, 4.0F, 0.5F, 4.3F), 0.5F, 0.0F);
    return world;
}

// The entries a step keeps from the last (a box still within the region it was listed for, a
// circle not listed again) give the bits of entries listed afresh each step. A world whose
// last box is removed and added again, the same, before each step (its entries go, and it is
// listed again alone) moves alike, but not to the same bits: the box's contacts are new each
// step and start from no impulse, where the kept ones carry theirs.
TEST(world_kinematic, kept_entries_step_to_the_bits_of_entries_listed_afresh) {
    particle_world kept = pile_with_boxes();
    particle_world afresh = pile_with_boxes();
    particle_world readded = pile_with_boxes();
    const std::size_t last = kept.kinematic_box_count() - 1;
    for (int s = 0; s < 150; ++s) {
        const float v = s % 2 == 0 ? 0.05F : -0.05F;
        for (particle_world* world : {&kept, &afresh, &readded}) {
            for (std::size_t k = 0; k < last; ++k) {
                world->set_kinematic_velocity(k, v, 0.0F);
            }
            if (world == &afresh) {
                detail::state_of(*world).relist_kinematic_boxes();
            }
            if (world == &readded) {
                const particle_world::kinematic_box box = world->kinematic_box_at(last);
                world->remove_kinematic_box(last);
                world->add_kinematic_box(box.box, box.vx, box.vy);
            }
            world->step(dt);
        }
        ASSERT_NO_FATAL_FAILURE(expect_same_floats(motion_of(kept), motion_of(afresh),
                                                   "afresh, step " + std::to_string(s)));
        const std::vector<float> got = motion_of(readded);
        const std::vector<float> want = motion_of(kept);
        for (std::size_t k = 0; s < 30 && k < want.size() / 2; ++k) { // positions, a while
            ASSERT_NEAR(got[k], want[k], 0.2F) << "readded, step " << s << ", " << k;
        }
    }
    const auto listed_kept = detail::state_of(kept).kinematic_listings();
    EXPECT_EQ(detail::state_of(afresh).kinematic_listings().full, 150U);
    EXPECT_LT(listed_kept.full, 75U) << "the entries were not kept";
    EXPECT_GT(listed_kept.partial, 30U) << "no box or circle was listed again alone";
    EXPECT_EQ(detail::state_of(readded).kinematic_listings().full, listed_kept.full)
        << "adding or removing a box listed every box again";
}

std::vector<float> rows_after(bool far_box, int steps) {
    particle_world world;
    aabb_set boxes = open_container(10, 20);
    world.set_boxes(boxes.view());
    for (std::size_t i = 0; i < 200; ++i) {
        world.add_circle({0.3F + static_cast<float>(i % 20) * 0.48F,
                          0.3F + static_cast<float>(i / 20) * 0.5F, 0.2F},
                         1.0F);
    }
    if (far_box) {
        world.add_kinematic_box(aabb::from_min_max(100, 0, 101, 1), 0.0F, 1.0F);
    }
    for (int s = 0; s < steps; ++s) {
        world.step(dt);
    }
    return motion_of(world);
}

// A kinematic box that meets no circle changes no bit of the others' step.
TEST(world_kinematic, a_box_far_from_every_circle_changes_no_bit) {
    expect_same_floats(rows_after(true, 60), rows_after(false, 60), "a far kinematic box");
}

TEST(world_kinematic, boxes_go_by_velocity_or_to_where_they_are_sent) {
    particle_world world({.substeps = 3});
    EXPECT_EQ(world.add_kinematic_box(aabb::from_min_max(0, 0, 1, 1), 3.0F, -6.0F), 0U);
    EXPECT_EQ(world.add_kinematic_box(aabb::from_min_max(5, 5, 6, 6)), 1U);
    world.step(0.5F);
    EXPECT_NEAR(world.kinematic_box_at(0).box.min_x, 1.5F, 1e-6F);
    EXPECT_NEAR(world.kinematic_box_at(0).box.max_y, -2.0F, 1e-6F);
    const aabb there = aabb::from_min_max(7.25F, 4, 8.5F, 4.75F); // moved, and resized
    world.move_kinematic_box(1, there);
    EXPECT_TRUE(world.kinematic_box_at(1).moving);
    world.step(0.5F);
    const particle_world::kinematic_box b = world.kinematic_box_at(1);
    EXPECT_EQ(b.box.min_x, there.min_x);
    EXPECT_EQ(b.box.min_y, there.min_y);
    EXPECT_EQ(b.box.max_x, there.max_x);
    EXPECT_EQ(b.box.max_y, there.max_y);
    EXPECT_FALSE(b.moving);
    world.step(0.5F); // its velocity, 0, again
    EXPECT_EQ(world.kinematic_box_at(1).box.min_x, there.min_x);
    world.remove_kinematic_box(0);
    EXPECT_EQ(world.kinematic_box_count(), 1U);
    EXPECT_EQ(world.kinematic_box_at(0).box.min_x, there.min_x);
}

// A circle resting on a kinematic box falls once the box is removed, and one added under a
// falling circle stops it; the static boxes' grid is the same object throughout.
TEST(world_kinematic, boxes_added_and_removed_between_steps_act_at_once) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-10, -11, 10, -10));
    world.set_boxes(floor.view());
    world.add_circle({0, 0.1F, 0.1F}, 1.0F);
    world.add_kinematic_box(aabb::from_min_max(-1, -1, 1, 0));
    for (int s = 0; s < 30; ++s) {
        world.step(dt);
    }
    EXPECT_NEAR(world.particles().y[0], 0.1F, 0.01F);
    const static_box_grid* grid = &world.boxes();
    world.remove_kinematic_box(0);
    for (int s = 0; s < 30; ++s) {
        world.step(dt);
    }
    EXPECT_LT(world.particles().y[0], -1.0F);
    world.add_kinematic_box(aabb::from_min_max(-1, -5, 1, -4.99F));
    for (int s = 0; s < 60; ++s) {
        world.step(dt);
        ASSERT_GT(world.particles().y[0], -4.99F) << "step " << s;
    }
    EXPECT_NEAR(world.particles().y[0], -4.89F, 0.01F);
    EXPECT_EQ(&world.boxes(), grid);
    EXPECT_EQ(world.boxes().size(), 1U);
}

// Bad input names the box, and the world keeps its state.
// Boxes near the end of the float range: a floor as wide as floats go holds a pile, and so
// does one sent in a step from 2 wide to 2e38 wide (its corners go 1e38 in the step, its
// centre nowhere), while a circle kicked sideways is listed again.
TEST(world_kinematic, boxes_as_wide_as_floats_go_hold_a_pile) {
    for (const bool grows : {false, true}) {
        particle_world world;
        if (grows) {
            world.add_kinematic_box(aabb::from_min_max(-1, -1, 1, 0));
        } else {
            world.add_kinematic_box(aabb::from_min_max(-3e38F, -1, 3e38F, 0));
        }
        for (std::size_t i = 0; i < 40; ++i) {
            world.add_circle({-0.9F + static_cast<float>(i % 10) * 0.2F,
                              0.2F + static_cast<float>(i / 10) * 0.25F, 0.1F},
                             1.0F);
        }
        for (int s = 0; s < 120; ++s) {
            if (grows && s == 60) {
                world.move_kinematic_box(0, aabb::from_min_max(-1e38F, -1, 1e38F, 0));
            }
            if (s == 60) { // a circle that leaves its margin is looked for among the regions
                world.particles().vx[3] = 20.0F;
            }
            world.step(dt);
        }
        const particles_view p = world.particles();
        for (std::size_t i = 0; i < p.count; ++i) {
            EXPECT_GT(p.y[i], 0.05F) << "circle " << i << " fell into the floor, grows " << grows;
            EXPECT_LT(p.y[i], 2.0F) << "circle " << i << " thrown off, grows " << grows;
        }
    }
}

TEST(world_kinematic, refuses_bad_boxes_and_keeps_its_state) {
    constexpr float nan = std::numeric_limits<float>::quiet_NaN();
    constexpr float inf = std::numeric_limits<float>::infinity();
    particle_world world({.substeps = 1});
    world.add_circle({0, 2, 0.1F}, 1.0F);
    world.add_kinematic_box(aabb::from_min_max(-1, -1, 1, 0), 1.0F, 0.0F);
    const auto refused = [](auto call, const char* says) {
        try {
            call();
            ADD_FAILURE() << "not refused: " << says;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    refused([&] { world.add_kinematic_box(aabb::from_min_max(0, 0, nan, 1)); },
            "kinematic box 1: max_x is nan");
    refused([&] { world.add_kinematic_box(aabb::from_min_max(2, 0, 1, 1)); },
            "kinematic box 1: (2, 0) to (1, 1) is inverted");
    refused([&] { world.add_kinematic_box(aabb::from_min_max(0, 0, 1, 1), inf, 0.0F); },
            "kinematic box 1: velocity (inf, 0)");
    refused([&] { world.set_kinematic_velocity(0, 0.0F, nan); }, "kinematic box 0: velocity");
    refused([&] { world.move_kinematic_box(0, aabb::from_min_max(0, 1, 1, 0)); },
            "kinematic box 0: (0, 1) to (1, 0) is inverted");
    refused([&] { world.move_kinematic_box(0, aabb::from_min_max(-inf, 0, 1, 1)); },
            "kinematic box 0: min_x is -inf");
    EXPECT_THROW(world.set_kinematic_velocity(1, 0, 0), std::out_of_range);
    EXPECT_THROW(world.move_kinematic_box(1, aabb{}), std::out_of_range);
    EXPECT_THROW(world.remove_kinematic_box(1), std::out_of_range);
    EXPECT_THROW((void)world.kinematic_box_at(1), std::out_of_range);
    EXPECT_EQ(world.kinematic_box_count(), 1U);
    const particle_world::kinematic_box kept = world.kinematic_box_at(0);
    EXPECT_EQ(kept.vx, 1.0F);
    EXPECT_FALSE(kept.moving);

    // A move that overflows in the step: refused by step, which changes nothing.
    world.add_kinematic_box(aabb::from_min_max(-3e38F, 10, -2e38F, 11));
    world.move_kinematic_box(1, aabb::from_min_max(2e38F, 10, 3e38F, 11));
    const float y = world.particles().y[0];
    refused([&] { world.step(dt); }, "kinematic box 1: its move in a step");
    try {
        world.step(dt);
        ADD_FAILURE() << "the move was not refused again";
    } catch (const std::invalid_argument& e) { // both boxes, whole
        EXPECT_NE(std::string(e.what()).find("sent from min (-3e+38, 10), max (-2e+38, 11) to "
                                             "min (2e+38, 10), max (3e+38, 11)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(world.particles().y[0], y);
    EXPECT_EQ(world.kinematic_box_at(0).box.min_x, -1.0F);
    world.set_kinematic_velocity(1, 3e38F, 0.0F);
    world.move_kinematic_box(1, aabb::from_min_max(-3e38F, 10, -2e38F, 11)); // stays
    EXPECT_NO_THROW(world.step(dt));
    world.set_kinematic_velocity(1, -3e38F, 0.0F);
    refused([&] { world.step(1.0F); }, "kinematic box 1: its move in a step of 1 is not finite");
    EXPECT_EQ(world.kinematic_box_at(1).box.min_x, -3e38F);
}

} // namespace
} // namespace simdcollide::testing
