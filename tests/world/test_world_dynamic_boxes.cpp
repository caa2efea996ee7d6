// Dynamic boxes in the world: crates that fall, stack, carry circles and are pushed; the
// same bits on every instruction set and worker count; their impulses carried from step to
// step; bad boxes refused.
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace simdcollide::testing {
namespace {

constexpr float dt = 1.0F / 60.0F;

// The world's dynamic boxes' x, y, vx, vy, one field after the other.
std::vector<float> box_motion_of(particle_world& world) {
    const dynamic_boxes_view b = world.dynamic_boxes();
    std::vector<float> state;
    for (const float* field : {b.x, b.y, b.vx, b.vy}) {
        state.insert(state.end(), field, field + b.count);
    }
    return state;
}

// Everything that moves: the circles' motion, then the boxes'.
std::vector<float> all_motion_of(particle_world& world) {
    std::vector<float> state = motion_of(world);
    const std::vector<float> boxes = box_motion_of(world);
    state.insert(state.end(), boxes.begin(), boxes.end());
    return state;
}

float mean_v2(particle_world& world) {
    const dynamic_boxes_view b = world.dynamic_boxes();
    double sum = 0.0;
    for (std::size_t i = 0; i < b.count; ++i) {
        sum += static_cast<double>(b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i]);
    }
    return static_cast<float>(sum / static_cast<double>(b.count));
}

void run(particle_world& world, float seconds) {
    const int steps = static_cast<int>(std::lround(seconds / dt));
    for (int s = 0; s < steps; ++s) {
        world.step(dt);
    }
}

// A floor 1 thick under [-20, 20] and walls, and `crates` unit crates stacked on it at
// x in [-0.5, 0.5], each a hundredth above the one below.
particle_world crate_stack(std::size_t crates, world_options options = {}) {
    particle_world world(options);
    aabb_set walls;
    walls.push_back(aabb::from_min_max(-20, -1, 20, 0));
    walls.push_back(aabb::from_min_max(-21, -1, -20, 40));
    walls.push_back(aabb::from_min_max(20, -1, 21, 40));
    world.set_boxes(walls.view());
    for (std::size_t i = 0; i < crates; ++i) {
        const float y = static_cast<float>(i) * 1.01F;
        world.add_dynamic_box(aabb::from_min_max(-0.5F, y, 0.5F, y + 1.0F), 1.0F);
    }
    return world;
}

TEST(world_dynamic_boxes, a_stack_of_20_crates_on_a_floor_stands_still) {
    particle_world world = crate_stack(20);
    run(world, 10.0F);
    EXPECT_LE(mean_v2(world), 1e-4F);
    const dynamic_boxes_view b = world.dynamic_boxes();
    float lowest = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < b.count; ++i) {
        EXPECT_LE(std::fabs(b.x[i]), 0.01F) << "crate " << i << " moved sideways"; // 1% of 1
        lowest = std::min(lowest, b.y[i] - b.half_height[i]);
    }
    EXPECT_GE(lowest, -0.005F) << "the bottom crate sank into the floor"; // 1% of 0.5
    for (std::size_t i = 0; i + 1 < b.count; ++i) {
        const float overlap = (b.y[i] + b.half_height[i]) - (b.y[i + 1] - b.half_height[i + 1]);
        EXPECT_LE(overlap, 0.005F) << "crates " << i << " and " << i + 1;
        EXPECT_GE(overlap, -0.001F) << "crates " << i << " and " << i + 1 << " apart";
    }
}

TEST(world_dynamic_boxes, a_crate_in_free_fall_falls_as_gravity_says) {
    particle_world world({.substeps = 4});
    world.add_dynamic_box(aabb::from_min_max(0, 100, 1, 101), 1.0F, 2.0F, 0.0F);
    run(world, 1.0F);
    const particle_world::dynamic_box box = world.dynamic_box_at(0);
    EXPECT_NEAR(box.vy, -9.81F, 1e-3F);
    EXPECT_NEAR(box.vx, 2.0F, 0.0F);
    EXPECT_NEAR(box.box.min_x, 2.0F, 1e-3F);
    // semi-implicit Euler over 240 substeps: the fall is g t^2 / 2 and a little more
    EXPECT_NEAR(box.box.min_y, 100.0F - 0.5F * 9.81F * (1.0F + 1.0F / 240.0F), 2e-3F);
    EXPECT_NEAR(box.box.max_y - box.box.min_y, 1.0F, 1e-4F);
}

TEST(world_dynamic_boxes, circles_poured_onto_a_crate_pile_rest_on_it) {
    particle_world world = crate_stack(0);
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 6; ++col) {
            const float x = -3.0F + static_cast<float>(col) * 1.01F;
            const float y = static_cast<float>(row) * 1.01F;
            world.add_dynamic_box(aabb::from_min_max(x, y, x + 1.0F, y + 1.0F), 1.0F);
        }
    }
    for (std::size_t i = 0; i < 400; ++i) {
        world.add_circle({-2.5F + static_cast<float>(i % 20) * 0.25F,
                          5.0F + static_cast<float>(i / 20) * 0.25F, 0.1F},
                         10.0F);
    }
    run(world, 8.0F);
    EXPECT_LE(mean_v2(world), 1e-4F);
    const dynamic_boxes_view b = world.dynamic_boxes();
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        ASSERT_TRUE(std::isfinite(p.x[i]) && std::isfinite(p.y[i]));
        EXPECT_GE(p.y[i], p.radius[i] * 0.9F) << "circle " << i << " below the floor";
        for (std::size_t j = 0; j < b.count; ++j) {
            const aabb crate = world.dynamic_box_at(j).box;
            EXPECT_GE(distance_to(p.x[i], p.y[i], crate), p.radius[i] * 0.8F)
                << "circle " << i << " inside crate " << j;
        }
    }
    for (std::size_t j = 0; j < b.count; ++j) {
        EXPECT_GE(b.y[j] - b.half_height[j], -0.01F) << "crate " << j << " sank";
    }
}

TEST(world_dynamic_boxes, a_kinematic_box_pushes_a_crate_along_the_floor) {
    particle_world world = crate_stack(0, {.friction = 0.3F});
    world.add_dynamic_box(aabb::from_min_max(0, 0, 1, 1), 1.0F);
    world.add_kinematic_box(aabb::from_min_max(-2.0F, 0.05F, -1.0F, 0.8F), 2.0F, 0.0F);
    for (int s = 0; s < 120; ++s) {
        world.step(dt);
        const aabb crate = world.dynamic_box_at(0).box;
        const aabb pusher = world.kinematic_box_at(0).box;
        ASSERT_GE(crate.min_x, pusher.max_x - 0.02F) << "the crate is inside the pusher at " << s;
        ASSERT_GE(crate.min_y, -0.01F);
    }
    // the pusher went 4 from x = -1: the crate ahead of it
    EXPECT_GT(world.dynamic_box_at(0).box.min_x, 2.9F);
}

TEST(world_dynamic_boxes, a_heavy_crate_rests_on_light_circles_and_a_light_crate_on_a_pile) {
    for (const float crate_inverse_mass : {0.01F, 100.0F}) {
        SCOPED_TRACE(crate_inverse_mass);
        particle_world world = crate_stack(0);
        for (std::size_t i = 0; i < 200; ++i) {
            world.add_circle({-2.4F + static_cast<float>(i % 20) * 0.25F,
                              0.1F + static_cast<float>(i / 20) * 0.25F, 0.12F},
                             1.0F);
        }
        world.add_dynamic_box(aabb::from_min_max(-1.0F, 4.0F, 1.0F, 5.0F), crate_inverse_mass);
        run(world, 6.0F);
        const particles_view p = world.particles();
        float top = 0.0F;
        for (std::size_t i = 0; i < p.count; ++i) {
            if (std::fabs(p.x[i]) < 0.8F) {
                top = std::max(top, p.y[i] + p.radius[i]);
            }
        }
        const aabb crate = world.dynamic_box_at(0).box;
        EXPECT_GE(crate.min_y, top - 0.06F) << "the crate sank into the circles";
        EXPECT_GE(crate.min_y, 1.0F) << "the crate went through the pile";
        EXPECT_LE(mean_v2(world), 1e-3F);
    }
}

TEST(world_dynamic_boxes, restitution_and_friction_act_between_boxes) {
    // A crate dropped on a crate: bounces with restitution, not without.
    for (const float restitution : {0.0F, 0.8F}) {
        particle_world world({.restitution = restitution});
        world.add_dynamic_box(aabb::from_min_max(-1, 0, 1, 1), 0.0F); // never moves
        world.add_dynamic_box(aabb::from_min_max(-0.5F, 3, 0.5F, 4), 1.0F);
        float highest_after_impact = 0.0F;
        bool hit = false;
        for (int s = 0; s < 90; ++s) {
            world.step(dt);
            const particle_world::dynamic_box falling = world.dynamic_box_at(1);
            hit = hit || falling.box.min_y < 1.05F;
            if (hit) {
                highest_after_impact = std::max(highest_after_impact, falling.box.min_y);
            }
            ASSERT_GE(falling.box.min_y, 0.98F) << "through the lower crate at " << s;
        }
        ASSERT_TRUE(hit);
        if (restitution > 0.0F) {
            EXPECT_GT(highest_after_impact, 2.0F) << "did not bounce";
        } else {
            EXPECT_LT(highest_after_impact, 1.05F) << "bounced";
        }
        EXPECT_EQ(world.dynamic_box_at(0).box.min_y, 0.0F);
    }
    // A crate sliding on a crate: friction stops it; without, it keeps its speed.
    for (const float friction : {0.0F, 0.5F}) {
        particle_world world({.friction = friction});
        world.add_dynamic_box(aabb::from_min_max(-50, -1, 50, 0), 0.0F);
        world.add_dynamic_box(aabb::from_min_max(0, 0, 1, 1), 1.0F, 3.0F, 0.0F);
        run(world, 1.0F);
        const particle_world::dynamic_box slid = world.dynamic_box_at(1);
        if (friction > 0.0F) {
            EXPECT_NEAR(slid.vx, 0.0F, 1e-4F);
            // 3^2 / (2 mu g): about 0.92
            EXPECT_NEAR(slid.box.min_x, 9.0F / (2.0F * 0.5F * 9.81F), 0.1F);
        } else {
            EXPECT_NEAR(slid.vx, 3.0F, 1e-4F);
            EXPECT_NEAR(slid.box.min_x, 3.0F, 1e-3F);
        }
        EXPECT_NEAR(slid.box.min_y, 0.0F, 0.005F);
    }
}

// A scene with every contact a dynamic box has: circles, boxes, static and kinematic boxes,
// static circles, a fast crate; a crate and circles removed and added while it runs.
particle_world crate_scene(world_options options) {
    particle_world world = crate_stack(6, options);
    world.add_circle({3.0F, 0.5F, 0.5F}, 0.0F);
    for (std::size_t i = 0; i < 300; ++i) {
        world.add_circle({-4.0F + static_cast<float>(i % 30) * 0.3F,
                          8.0F + static_cast<float>(i / 30) * 0.3F,
                          0.1F + 0.02F * static_cast<float>(i % 3)},
                         1.0F + 0.1F * static_cast<float>(i % 5));
    }
    for (int k = 0; k < 8; ++k) {
        const float x = -6.0F + 1.3F * static_cast<float>(k);
        world.add_dynamic_box(aabb::from_min_max(x, 14.0F, x + 0.9F, 14.6F),
                              0.5F + 0.25F * static_cast<float>(k));
    }
    world.add_dynamic_box(aabb::from_min_max(5, 30, 5.5F, 30.5F), 1.0F, 0.0F, -60.0F); // fast
    world.add_kinematic_box(aabb::from_min_max(-12.0F, 0.1F, -11.0F, 1.0F), 1.5F, 0.0F);
    return world;
}

std::vector<float> crate_scene_after(world_options options, int steps) {
    particle_world world = crate_scene(options);
    for (int s = 0; s < steps; ++s) {
        if (s == 30) {
            world.remove_dynamic_box(2);
            world.remove_circle(17);
        }
        if (s == 50) {
            world.add_dynamic_box(aabb::from_min_max(-1, 12, 0, 13), 1.0F);
            world.add_circle({1.0F, 12.0F, 0.2F}, 1.0F);
        }
        world.step(dt);
    }
    return all_motion_of(world);
}

TEST(world_dynamic_boxes, a_scene_steps_to_the_same_bits_on_every_isa_and_worker_count) {
    set_isa(isa::reference);
    const std::vector<float> want = crate_scene_after({}, 90);
    reset_isa();
    for (const float v : want) {
        ASSERT_TRUE(std::isfinite(v));
    }
    for (const isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        for (const int workers : {1, 2, 3, 4, 7, 16}) {
            if (which != isa::reference && workers != 1 && which != compiled_isas().back()) {
                continue; // every worker count on the widest instruction set
            }
            SCOPED_TRACE(std::string(isa_name(which)) + ", workers " + std::to_string(workers));
            set_isa(which);
            const std::vector<float> got = crate_scene_after({.workers = workers}, 90);
            reset_isa();
            expect_same_floats(got, want, "against the reference on one worker");
        }
    }
}

// A step whose dynamic-box entries are those of the last keeps their contacts, colours and
// impulses as they are: the bits of making them afresh from the kept impulses, through
// every edit that changes those impulses or the bodies (removals, new boxes, set_boxes, a
// kinematic box removed).
TEST(world_dynamic_boxes, contacts_kept_from_the_last_step_give_the_bits_of_new_ones) {
    for (const world_options& options :
         {world_options{}, world_options{.restitution = 0.5F, .friction = 0.3F}}) {
        SCOPED_TRACE("restitution " + std::to_string(options.restitution));
        // A stack of crates with circles on it and beside it, a kinematic box at rest against
        // it: it settles, and then its steps keep their contacts.
        const auto scene = [&] {
            particle_world world = crate_stack(6, options);
            world.add_kinematic_box(aabb::from_min_max(0.5F, 0.0F, 1.5F, 1.0F));
            for (std::size_t i = 0; i < 40; ++i) {
                world.add_circle({-3.0F - 0.45F * static_cast<float>(i % 8),
                                  0.2F + 0.45F * static_cast<float>(i / 8), 0.2F},
                                 1.0F);
            }
            world.add_circle({0.0F, 6.3F, 0.2F}, 1.0F); // on the top crate
            return world;
        };
        particle_world kept = scene();
        particle_world made = scene();
        const auto edit = [](particle_world& world, int s) {
            if (s == 120) {
                world.set_boxes(world.boxes().boxes()); // the same boxes: impulses start again
            }
            if (s == 140) {
                world.remove_circle(3);
            }
            if (s == 160) {
                world.remove_dynamic_box(5);
            }
            if (s == 180) {
                world.remove_kinematic_box(0);
            }
        };
        std::size_t made_at_60 = 0;
        for (int s = 0; s < 200; ++s) {
            if (s == 60) {
                made_at_60 = detail::state_of(kept).dynamic_contacts_made();
            }
            edit(kept, s);
            edit(made, s);
            detail::state_of(made).remake_dynamic_contacts();
            kept.step(dt);
            made.step(dt);
            const std::vector<float> got = all_motion_of(kept);
            const std::vector<float> want = all_motion_of(made);
            ASSERT_EQ(got.size(), want.size()) << "step " << s;
            ASSERT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0)
                << "step " << s;
        }
        EXPECT_EQ(detail::state_of(made).dynamic_contacts_made(), 200U);
        // Settled, most steps keep their contacts.
        EXPECT_LT(detail::state_of(kept).dynamic_contacts_made() - made_at_60, 40U);
    }
}

TEST(world_dynamic_boxes, a_fast_crate_does_not_pass_through_a_thin_floor) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-10, -0.05F, 10, 0));
    world.set_boxes(floor.view());
    world.add_dynamic_box(aabb::from_min_max(0, 5, 0.2F, 5.2F), 1.0F, 0.0F, -300.0F);
    world.add_dynamic_box(aabb::from_min_max(2, 5, 2.2F, 5.2F), 1.0F, 40.0F, -300.0F);
    for (int s = 0; s < 60; ++s) {
        world.step(dt);
        for (std::size_t j = 0; j < 2; ++j) {
            ASSERT_GE(world.dynamic_box_at(j).box.min_y, -0.01F) << "box " << j << " at " << s;
        }
    }
}

// The impulses a step ends with are kept under the caller's indices (which a stack of
// crates needs to rest: a_stack_of_20_crates_on_a_floor_stands_still fails without them), and
// follow a circle or box removed: those of the removed one go, the others' keys move down.
TEST(world_dynamic_boxes, impulses_are_kept_by_index_through_removals) {
    particle_world world = crate_stack(5);
    for (std::size_t i = 0; i < 20; ++i) { // far from the stack
        world.add_circle({10.0F + 0.3F * static_cast<float>(i % 10),
                          0.2F + 0.3F * static_cast<float>(i / 10), 0.1F},
                         1.0F);
    }
    const std::size_t on_top = world.add_circle({0.0F, 5.04F + 0.2F + 0.01F, 0.2F}, 1.0F);
    run(world, 3.0F);
    const detail::world_state& state = detail::state_of(world);
    const std::uint32_t box = detail::dynamic_box_key;
    using carried = std::vector<detail::carried_impulse>;
    const carried before = state.dynamic_carried_pairs();
    // (circle on top, crate 4), then (crate k, crate k + 1)
    ASSERT_EQ(before.size(), 5U);
    EXPECT_EQ(before[0].a, on_top);
    EXPECT_EQ(before[0].b, box | 4U);
    for (std::uint32_t k = 0; k < 4; ++k) {
        EXPECT_EQ(before[1 + k].a, box | k);
        EXPECT_EQ(before[1 + k].b, box | (k + 1));
    }
    for (const detail::carried_impulse& c : before) {
        EXPECT_GT(c.normal, 0.0F);
    }
    ASSERT_EQ(state.dynamic_carried_fixed().size(), 1U) << "the bottom crate on the floor";

    world.remove_circle(0);
    carried after = state.dynamic_carried_pairs();
    ASSERT_EQ(after.size(), before.size());
    EXPECT_EQ(after[0].a, on_top - 1);
    for (std::size_t k = 0; k < after.size(); ++k) {
        EXPECT_EQ(after[k].b, before[k].b);
        EXPECT_EQ(after[k].normal, before[k].normal);
        EXPECT_EQ(after[k].tangent, before[k].tangent);
    }
    world.remove_dynamic_box(2);
    after = state.dynamic_carried_pairs();
    // (circle, crate 3 that was 4), (0, 1), (2 that was 3, 3 that was 4)
    ASSERT_EQ(after.size(), 3U);
    EXPECT_EQ(after[0].b, box | 3U);
    EXPECT_EQ(after[0].normal, before[0].normal);
    EXPECT_EQ(after[1].a, box | 0U);
    EXPECT_EQ(after[1].b, box | 1U);
    EXPECT_EQ(after[1].normal, before[1].normal);
    EXPECT_EQ(after[2].a, box | 2U);
    EXPECT_EQ(after[2].b, box | 3U);
    EXPECT_EQ(after[2].normal, before[4].normal);
    world.remove_circle(on_top - 1);
    EXPECT_EQ(state.dynamic_carried_pairs().size(), 2U);
    EXPECT_EQ(state.dynamic_carried_fixed().size(), 1U);
    world.step(dt); // crates 2 and 3 fall together: no impulse between them
    ASSERT_FALSE(state.dynamic_carried_pairs().empty());
    EXPECT_EQ(state.dynamic_carried_pairs()[0].a, box | 0U);
    EXPECT_EQ(state.dynamic_carried_pairs()[0].b, box | 1U);
}

TEST(world_dynamic_boxes, refuses_bad_boxes_and_keeps_its_state) {
    particle_world world = crate_stack(2);
    run(world, 0.5F);
    const std::vector<float> before = box_motion_of(world);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    struct bad {
        aabb box;
        float inverse_mass, vx, vy;
        const char* says;
    };
    const bad cases[] = {
        {aabb::from_min_max(nan, 0, 1, 1), 1.0F, 0.0F, 0.0F, "dynamic box 2: min_x is nan"},
        {aabb::from_min_max(0, 0, 1, inf), 1.0F, 0.0F, 0.0F, "dynamic box 2: max_y is inf"},
        {aabb::from_min_max(0, 0, 1, 1), -1.0F, 0.0F, 0.0F, "inverse_mass is -1, must be >= 0"},
        {aabb::from_min_max(0, 0, 1, 1), inf, 0.0F, 0.0F, "inverse_mass is inf"},
        {aabb::from_min_max(0, 0, 1, 1), 1.0F, nan, 0.0F, "vx is nan"},
        {aabb::from_min_max(0, 0, 1, 1), 1.0F, 0.0F, -inf, "vy is -inf"},
        {aabb::from_min_max(1, 0, 0, 1), 1.0F, 0.0F, 0.0F, "dynamic box 2 is inverted"},
    };
    for (const bad& c : cases) {
        try {
            world.add_dynamic_box(c.box, c.inverse_mass, c.vx, c.vy);
            ADD_FAILURE() << "accepted: " << c.says;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(world.remove_dynamic_box(2), std::out_of_range);
    EXPECT_THROW((void)world.dynamic_box_at(2), std::out_of_range);
    EXPECT_EQ(world.dynamic_box_count(), 2U);
    expect_same_floats(box_motion_of(world), before, "after the refusals");
}

TEST(world_dynamic_boxes, keep_their_size_and_report_it) {
    particle_world world;
    const std::size_t i = world.add_dynamic_box(aabb::from_min_max(1, 2, 4, 3), 0.5F, 1.0F, 2.0F);
    EXPECT_EQ(i, 0U);
    const particle_world::dynamic_box b = world.dynamic_box_at(0);
    EXPECT_EQ(b.box.min_x, 1.0F);
    EXPECT_EQ(b.box.min_y, 2.0F);
    EXPECT_EQ(b.box.max_x, 4.0F);
    EXPECT_EQ(b.box.max_y, 3.0F);
    EXPECT_EQ(b.inverse_mass, 0.5F);
    EXPECT_EQ(b.vx, 1.0F);
    EXPECT_EQ(b.vy, 2.0F);
    const dynamic_boxes_view v = world.dynamic_boxes();
    ASSERT_EQ(v.count, 1U);
    EXPECT_EQ(v.x[0], 2.5F);
    EXPECT_EQ(v.y[0], 2.5F);
    EXPECT_EQ(v.half_width[0], 1.5F);
    EXPECT_EQ(v.half_height[0], 0.5F);
    // a world with boxes and no circle steps
    world.step(dt);
    EXPECT_LT(world.dynamic_box_at(0).vy, 2.0F);
}

} // namespace
} // namespace simdcollide::testing
