// Input a careless or hostile user gives through the public API: weights from 0 to the
// largest float, null arrays, time steps and options a step cannot be computed with, and
// objects far from the rest. Each case gives a clear error or a correct result on every
// instruction set, never a crash, a hang or a NaN in a valid circle.
#include "broad_phase/circle_grid.hpp"
#include "test_support.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>

namespace simdcollide::testing {
namespace {

constexpr float largest = std::numeric_limits<float>::max();
constexpr float smallest_subnormal = std::numeric_limits<float>::denorm_min();

using on_every_isa = on_each_isa;

// Two circles of radius 10 at distance 10 along x (depth 10), with inverse masses wa and wb.
struct overlapping_pair {
    float ax = 0.0F, ay = 0.0F, ar = 10.0F, aw, avx = 0.0F, avy = 0.0F;
    float bx = 10.0F, by = 0.0F, br = 10.0F, bw, bvx = 0.0F, bvy = 0.0F;
    overlapping_pair(float wa, float wb) : aw(wa), bw(wb) {}
    particles_view a() { return {&ax, &ay, &ar, &aw, &avx, &avy, 1}; }
    particles_view b() { return {&bx, &by, &br, &bw, &bvx, &bvy, 1}; }
};

struct weight_case {
    float wa, wb;
    float a_moves, b_moves; // along x, worked out by hand: depth 10 split as wa : wb
};

// Hand-worked: the depth of 10 split in the ratio of the inverse masses (each moves
// depth * w / (wa + wb)), exact in floats for these weights.
const weight_case weight_cases[] = {
    {1e-38F, 1e-38F, -5.0F, 5.0F}, // the sum is tiny: depth / sum overflowed
    {smallest_subnormal, smallest_subnormal, -5.0F, 5.0F},
    {smallest_subnormal, 0.0F, -10.0F, 0.0F}, // against a static circle
    {0.0F, 1e-45F, 0.0F, 10.0F},
    {3e38F, 3e38F, -5.0F, 5.0F}, // the sum overflows
    {largest, largest, -5.0F, 5.0F},
    {largest, 0.0F, -10.0F, 0.0F},
    {3e38F, smallest_subnormal, -10.0F, 0.0F}, // the light one's share rounds to nothing
    {1.0F, 3.0F, -2.5F, 7.5F},                 // ordinary weights, for comparison
    {0x1p-140F, 0x1p-138F, -2.0F, 8.0F},       // subnormal, 1 : 4
    {0x1p127F, 0x1p125F, -8.0F, 2.0F},         // near the top, 4 : 1
};

TEST_P(on_every_isa, separation_splits_the_depth_for_every_valid_weight) {
    for (const weight_case& w : weight_cases) {
        overlapping_pair p(w.wa, w.wb);
        EXPECT_EQ(separate(p.a(), p.b()), 1U) << w.wa << " " << w.wb;
        EXPECT_EQ(p.ax, w.a_moves) << "weights " << w.wa << " and " << w.wb;
        EXPECT_EQ(p.bx, 10.0F + w.b_moves) << "weights " << w.wa << " and " << w.wb;
        EXPECT_EQ(p.ay, 0.0F);
        EXPECT_EQ(p.by, 0.0F);
    }
}

TEST_P(on_every_isa, separation_by_other_weightings_ignores_extreme_inverse_masses) {
    for (const weight_case& w : weight_cases) {
        if (w.wa == 0.0F || w.wb == 0.0F) {
            continue; // a static circle never moves, in every mode
        }
        for (const separation_weighting mode :
             {separation_weighting::equal, separation_weighting::by_radius}) {
            overlapping_pair p(w.wa, w.wb); // equal radii: by_radius splits equally too
            separate(p.a(), p.b(), mode);
            EXPECT_EQ(p.ax, -5.0F);
            EXPECT_EQ(p.bx, 15.0F);
        }
    }
}

TEST_P(on_every_isa, pair_list_and_in_order_separation_split_like_the_pairwise_kernel) {
    for (const weight_case& w : weight_cases) {
        float x[2] = {0.0F, 10.0F}, y[2] = {0.0F, 0.0F}, r[2] = {10.0F, 10.0F};
        float inverse_mass[2] = {w.wa, w.wb};
        const particles_view circles{x, y, r, inverse_mass, nullptr, nullptr, 2};
        const circle_pair pairs[1] = {{0, 1}};
        separate(circles, pairs);
        EXPECT_EQ(x[0], w.a_moves) << w.wa << " " << w.wb;
        EXPECT_EQ(x[1], 10.0F + w.b_moves) << w.wa << " " << w.wb;

        x[0] = 0.0F;
        x[1] = 10.0F;
        pair_grouper grouper;
        separate_in_order(circles, grouper.group(pairs, 2));
        EXPECT_EQ(x[0], w.a_moves) << w.wa << " " << w.wb;
        EXPECT_EQ(x[1], 10.0F + w.b_moves) << w.wa << " " << w.wb;
    }
}

TEST_P(on_every_isa, response_stops_an_approach_for_every_valid_weight) {
    for (const weight_case& w : weight_cases) {
        // Circle against circle: a moves towards b at 1, restitution 0: both end with the
        // same velocity along the normal (momentum split by the weights).
        overlapping_pair p(w.wa, w.wb);
        p.avx = 1.0F;
        float normal_x = 1.0F, normal_y = 0.0F, depth = 10.0F, point_x = 5.0F, point_y = 0.0F;
        const contacts_cview contact{&normal_x, &normal_y, &depth, &point_x, &point_y, 1};
        const std::size_t responded = respond(p.a(), p.b(), contact, {0.0F, 0.0F});
        EXPECT_EQ(responded, w.wa + w.wb > 0.0F ? 1U : 0U);
        ASSERT_TRUE(std::isfinite(p.avx) && std::isfinite(p.bvx)) << w.wa << " " << w.wb;
        EXPECT_NEAR(p.avx, p.bvx, 1e-6F) << w.wa << " " << w.wb;
        const float a_gives = w.a_moves / -10.0F; // a's share of the relative velocity
        EXPECT_NEAR(p.avx, 1.0F - a_gives, 1e-6F) << w.wa << " " << w.wb;

        // Circle against a static box: it stops along the normal.
        float x = 0.0F, y = 0.0F, r = 1.0F, inverse_mass = w.wa == 0.0F ? 1.0F : w.wa;
        float vx = 0.0F, vy = -1.0F;
        float up_x = 0.0F, up_y = 1.0F;
        const contacts_cview floor{&up_x, &up_y, &depth, &point_x, &point_y, 1};
        EXPECT_EQ(
            respond(particles_view{&x, &y, &r, &inverse_mass, &vx, &vy, 1}, floor, {0.0F, 0.0F}),
            1U);
        EXPECT_EQ(vx, 0.0F);
        EXPECT_NEAR(vy, 0.0F, 1e-6F) << inverse_mass;
    }
}

// A world of two overlapping circles with extreme inverse masses: every step leaves them
// finite and apart, on every instruction set.
TEST_P(on_every_isa, world_steps_extreme_inverse_masses_to_finite_positions) {
    for (const weight_case& w : weight_cases) {
        particle_world world;
        world.add_circle({0.0F, 0.0F, 1.0F}, w.wa);
        world.add_circle({1.0F, 0.0F, 1.0F}, w.wb, -1.0F, 0.5F);
        for (int s = 0; s < 60; ++s) {
            world.step(1.0F / 60.0F);
        }
        const particles_view p = world.particles();
        for (std::size_t i = 0; i < 2; ++i) {
            EXPECT_TRUE(std::isfinite(p.x[i]) && std::isfinite(p.y[i]) && std::isfinite(p.vx[i]) &&
                        std::isfinite(p.vy[i]))
                << "weights " << w.wa << " and " << w.wb << ", circle " << i;
        }
        const float dx = p.x[1] - p.x[0];
        const float dy = p.y[1] - p.y[0];
        if (w.wa + w.wb > 0.0F) {
            EXPECT_GT(std::sqrt(dx * dx + dy * dy), 1.9F) << w.wa << " " << w.wb;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, on_every_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

// --- null arrays -------------------------------------------------------------------------

TEST(null_arrays, validation_refuses_them) {
    const float y[8] = {}, r[8] = {};
    EXPECT_THROW((void)validate(circles_cview(nullptr, y, r, 8)), std::invalid_argument);
    EXPECT_THROW((void)validate(circles_cview(y, nullptr, r, 8)), std::invalid_argument);
    EXPECT_TRUE(validate(circles_cview(y, y, nullptr, 8))); // radius optional
    EXPECT_TRUE(validate(circles_cview(nullptr, nullptr, nullptr, 0)));
    EXPECT_THROW((void)validate(aabbs_view(y, y, nullptr, y, 8)), std::invalid_argument);
    EXPECT_THROW((void)validate(particles_view(nullptr, nullptr, r, r, nullptr, nullptr, 8)),
                 std::invalid_argument);
}

TEST(null_arrays, set_boxes_and_the_grid_refuse_them_and_keep_the_boxes) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-1, -1, 1, 0));
    world.set_boxes(floor.view());
    EXPECT_THROW(world.set_boxes(aabbs_view(nullptr, nullptr, nullptr, nullptr, 3)),
                 std::invalid_argument);
    EXPECT_EQ(world.boxes().size(), 1U);
    EXPECT_THROW(static_box_grid(aabbs_view(nullptr, nullptr, nullptr, nullptr, 3)),
                 std::invalid_argument);
    EXPECT_NO_THROW(static_box_grid(aabbs_view(nullptr, nullptr, nullptr, nullptr, 0)));
}

// --- particles ---------------------------------------------------------------------------

TEST(validate_particles, reports_the_first_bad_inverse_mass_or_velocity) {
    float x[4] = {0, 1, 2, 3}, y[4] = {}, r[4] = {1, 1, 1, 1};
    float w[4] = {1, 1, 1, 1}, vx[4] = {}, vy[4] = {};
    const particles_view p{x, y, r, w, vx, vy, 4};
    EXPECT_TRUE(validate(p));
    vy[3] = std::numeric_limits<float>::infinity();
    w[2] = -1.0F;
    validation v = validate(p);
    EXPECT_FALSE(v);
    EXPECT_EQ(v.index, 2U);
    EXPECT_NE(v.reason.find("particle 2: inverse_mass is -1"), std::string::npos) << v.reason;
    w[2] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(validate(p).reason.find("inverse_mass"), std::string::npos);
    w[2] = largest; // the largest float is a valid weight
    v = validate(p);
    EXPECT_EQ(v.index, 3U);
    EXPECT_NE(v.reason.find("particle 3: vy is inf"), std::string::npos) << v.reason;
    r[1] = -2.0F; // a circle's own rule first
    v = validate(p);
    EXPECT_EQ(v.index, 1U);
    EXPECT_NE(v.reason.find("particle 1: radius is -2"), std::string::npos) << v.reason;
    // Fields the caller does not have are not checked.
    EXPECT_TRUE(validate(particles_view{x, y, nullptr, nullptr, nullptr, nullptr, 4}));
}

// --- time steps and options --------------------------------------------------------------

// The bits of every circle's fields.
std::vector<std::uint32_t> state_of(particle_world& world) {
    std::vector<std::uint32_t> out;
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        for (const float v : {p.x[i], p.y[i], p.vx[i], p.vy[i]}) {
            out.push_back(bits(v));
        }
    }
    return out;
}

particle_world small_pile(world_options options = {}) {
    particle_world world(options);
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-10, -1, 10, 0));
    world.set_boxes(floor.view());
    for (int i = 0; i < 20; ++i) {
        world.add_circle(
            {static_cast<float>(i % 5) - 2.0F, 1.0F + static_cast<float>(i / 5), 0.45F}, 1.0F, 0.5F,
            -1.0F);
    }
    world.step(1.0F / 60.0F);
    return world;
}

TEST(time_step, a_step_that_floats_cannot_hold_is_refused_and_changes_nothing) {
    particle_world world = small_pile();
    const std::vector<std::uint32_t> before = state_of(world);
    for (const float dt :
         {1e-38F, 1e-12F, 3.9e-9F, 1e19F, 1e5F, largest, 0.0F, -1.0F,
          std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
        EXPECT_THROW(world.step(dt), std::invalid_argument) << dt;
        EXPECT_EQ(state_of(world), before) << dt;
    }
    // The ends of the range are accepted, and leave every circle finite.
    world.step(4e-9F); // 4 substeps of 1e-9
    world.step(particle_world::max_time_step);
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        EXPECT_TRUE(std::isfinite(p.x[i]) && std::isfinite(p.vy[i])) << i;
    }
}

TEST(time_step, the_message_names_the_step_and_the_range) {
    particle_world world = small_pile();
    try {
        world.step(1e-38F);
        FAIL() << "accepted";
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("time step is 1e-38"), std::string::npos) << message;
        EXPECT_NE(message.find("at least 1e-09 a substep (4 substeps)"), std::string::npos)
            << message;
    }
}

TEST(options, rounds_and_gravity_have_upper_bounds) {
    const auto refused = [](world_options o) {
        try {
            particle_world world(o);
        } catch (const std::invalid_argument&) {
            return true;
        }
        return false;
    };
    EXPECT_TRUE(refused({.substeps = 1000000000}));
    EXPECT_TRUE(refused({.substeps = world_options::max_rounds + 1}));
    EXPECT_FALSE(refused({.substeps = world_options::max_rounds}));
    EXPECT_TRUE(refused({.relax_iterations = world_options::max_rounds + 1}));
    EXPECT_FALSE(refused({.relax_iterations = world_options::max_rounds}));
    EXPECT_TRUE(refused({.gravity_y = -1e30F}));
    EXPECT_TRUE(refused({.gravity_x = 2e6F}));
    EXPECT_TRUE(refused({.gravity_x = std::numeric_limits<float>::quiet_NaN()}));
    EXPECT_FALSE(refused({.gravity_x = -world_options::max_gravity}));
}

// --- objects far from the rest -----------------------------------------------------------

// n circles at random over a square of area n.
circle_set scattered(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const float side = std::sqrt(static_cast<float>(n));
    circle_set c;
    for (std::size_t i = 0; i < n; ++i) {
        c.push_back({unit(rng) * side, unit(rng) * side, 0.25F + 0.2F * unit(rng)});
    }
    return c;
}

void expect_same_pairs(std::span<const circle_pair> got, const std::vector<circle_pair>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        ASSERT_TRUE(got[k].a == want[k].a && got[k].b == want[k].b) << k;
    }
}

TEST(outliers, pair_finder_finds_the_brute_force_pairs_and_keeps_its_cells) {
    const circle_set bulk = scattered(3000, 3);
    const float far[] = {-3e38F, 3e38F, -largest, 1e6F, -1e30F};
    for (const float where : far) {
        for (const bool on_x : {true, false}) {
            circle_set c = scattered(3000, 3);
            // The outlier, and a second one touching it, and one inside the bulk's range on
            // the other axis.
            c.push_back({on_x ? where : 10.0F, on_x ? 10.0F : where, 0.4F});
            c.push_back({on_x ? where : 10.3F, on_x ? 10.3F : where, 0.4F});
            pair_finder finder;
            expect_same_pairs(finder.find(c.view()), reference::find_pairs(c.view()));
            // The grid's cells are the size they have without the outliers: the outliers did
            // not coarsen them (which put every circle into a handful of cells).
            EXPECT_EQ(detail::circle_grid_for(c.view(), 0.0F).shape.size,
                      detail::circle_grid_for(bulk.view(), 0.0F).shape.size)
                << where;
            EXPECT_LE(finder.cell_count(), 2 * c.size() + 64);
        }
    }
}

TEST(outliers, pair_finder_with_a_few_huge_radii_finds_the_brute_force_pairs) {
    circle_set c = scattered(3000, 4);
    c.push_back({20.0F, 20.0F, 1e6F});
    c.push_back({-5e5F, 0.0F, 1e6F});
    c.push_back({3e38F, 0.0F, 1e6F});
    pair_finder finder;
    expect_same_pairs(finder.find(c.view()), reference::find_pairs(c.view()));
    expect_same_pairs(finder.find(c.view(), 0.5F), reference::find_pairs(c.view(), 0.5F));
}

TEST(outliers, static_box_grid_pushes_as_the_brute_force_and_keeps_its_cells) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    aabb_set boxes;
    for (int k = 0; k < 2000; ++k) {
        const float w = 0.2F + unit(rng);
        boxes.push_back(aabb::from_origin_size(unit(rng) * 50.0F, unit(rng) * 50.0F, w, w));
    }
    const static_box_grid without(boxes.view());
    boxes.push_back(aabb::from_min_max(-3e38F, 0.0F, -2.9e38F, 1e37F));
    boxes.push_back(aabb::from_min_max(10.0F, largest / 2, 1e37F, largest));
    const static_box_grid with(boxes.view());
    // Not coarsened by the far boxes: about as many cells as without them.
    EXPECT_GE(with.cell_count() * 2, without.cell_count());

    circle_set c = scattered(2500, 6);
    c.push_back({-2.95e38F, 4e36F, 1.0F}); // in the far boxes
    c.push_back({1e30F, 0.75F * largest, 1.0F});
    circle_set brute = c;
    push_out_all(c.view(), with);
    reference::push_out_all(brute.view(), boxes.view());
    for (std::size_t i = 0; i < c.size(); ++i) {
        ASSERT_EQ(bits(c.x[i]), bits(brute.x[i])) << i;
        ASSERT_EQ(bits(c.y[i]), bits(brute.y[i])) << i;
    }
    EXPECT_EQ(c.y[2500], 0.0F);  // pushed out through the nearest face (4e36 away)
    EXPECT_LT(c.x[2501], 10.0F); // out through the min_x face, 1e30 away
}

TEST_P(on_every_isa, world_with_a_far_static_circle_steps_as_without_it) {
    // The far circle touches nothing, so the others step as they would without it (the
    // slots, and so the order of the pairs, are the same: the bulk's grid is the same).
    const auto run = [](bool far) {
        particle_world world;
        aabb_set container;
        container.push_back(aabb::from_min_max(-1, -1, 31, 0));
        container.push_back(aabb::from_min_max(-1, 0, 0, 60));
        container.push_back(aabb::from_min_max(30, 0, 31, 60));
        world.set_boxes(container.view());
        const circle_set c = scattered(900, 8);
        for (std::size_t i = 0; i < c.size(); ++i) {
            world.add_circle({c.x[i], c.y[i] + 1.0F, c.radius[i]}, 1.0F);
        }
        if (far) {
            world.add_circle({-3e38F, 0.0F, 0.4F}, 0.0F);
        }
        for (int s = 0; s < 40; ++s) {
            world.step(1.0F / 60.0F);
        }
        std::vector<std::uint32_t> state = state_of(world);
        state.resize(4 * c.size());
        return state;
    };
    EXPECT_EQ(run(true), run(false));
}

// Circles inside a static box whose faces lie 1e38 away: each contact's overlap is some
// 1e38, far past what a substep could push out. Each is pushed out at max_push_speed (and
// by its overlapping neighbours at theirs), its velocity finite, with the reference's bits
// on every instruction set.
TEST_P(on_every_isa, an_overlap_too_deep_to_push_out_at_once_is_pushed_at_the_capped_speed) {
    const auto run = [] {
        particle_world world({.gravity_y = 0.0F});
        aabb_set giant;
        giant.push_back(aabb::from_min_max(-1e38F, -1e38F, 1e38F, 1e38F));
        world.set_boxes(giant.view());
        const circle_set c = scattered(200, 3);
        for (std::size_t i = 0; i < c.size(); ++i) {
            world.add_circle({c.x[i] - 7.0F, c.y[i] - 7.0F, c.radius[i]}, 1.0F);
        }
        for (int s = 0; s < 3; ++s) {
            world.step(1.0F / 60.0F);
        }
        const particles_view p = world.particles();
        for (std::size_t i = 0; i < p.count; ++i) {
            const float speed = std::hypot(p.vx[i], p.vy[i]);
            EXPECT_TRUE(std::isfinite(speed))
                << "circle " << i << ": v = (" << p.vx[i] << ", " << p.vy[i] << ")";
            // the box's push and its neighbours' pushes together
            EXPECT_LE(speed, world.options().max_push_speed * 4.0F) << "circle " << i;
        }
        return state_of(world);
    };
    const std::vector<std::uint32_t> got = run();
    set_isa(isa::reference);
    EXPECT_EQ(got, run());
}

} // namespace
} // namespace simdcollide::testing

namespace simdcollide::testing {
namespace {

// --- views that overlap ------------------------------------------------------------------

// One buffer that every view below is cut from, so that they can overlap.
struct shared_buffer {
    std::vector<float> f = std::vector<float>(64, 1.0F);
    float* at(std::size_t k) { return f.data() + k; }
};

bool refused(const std::function<void()>& call) {
    try {
        call();
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()).find("overlap") != std::string::npos ||
               std::string(e.what()).find("same array") != std::string::npos;
    }
    return false;
}

TEST(overlapping_views, a_written_array_that_partly_overlaps_an_input_is_refused) {
    shared_buffer m;
    const std::size_t n = 8;
    // separate(a, b) with b.x one element past a.x: the example that gave results that
    // differed by instruction set.
    const particles_view a{m.at(0), m.at(16), m.at(32), m.at(40), nullptr, nullptr, n};
    const particles_view b{m.at(1), m.at(24), m.at(32), m.at(40), nullptr, nullptr, n};
    EXPECT_TRUE(refused([&] { separate(a, b); }));
    EXPECT_TRUE(refused([&] { reference::separate(a, b); }));
    // closest_point writing into circles.x + 1.
    const circles_cview c{m.at(0), m.at(16), m.at(32), n};
    const aabbs_view boxes{m.at(40), m.at(40), m.at(48), m.at(48), n};
    EXPECT_TRUE(refused([&] { closest_point(c, boxes, points_view{m.at(1), m.at(56), n}); }));
    // Two outputs on one array.
    EXPECT_TRUE(refused([&] { closest_point(c, boxes, points_view{m.at(56), m.at(56), n}); }));
    // A contact output over the boxes.
    EXPECT_TRUE(refused([&] {
        contact(c, boxes, contacts_view{m.at(44), m.at(8), m.at(8), m.at(8), m.at(8), n});
    }));
    // Velocities over inverse masses.
    EXPECT_TRUE(refused([&] {
        respond(particles_view{m.at(0), m.at(16), m.at(32), m.at(40), m.at(41), m.at(56), n},
                contacts_cview{m.at(0), m.at(8), m.at(8), m.at(8), m.at(8), n}, {});
    }));
    // A pair-list separation whose y is its own x, shifted.
    const circle_pair pairs[1] = {{0, 1}};
    EXPECT_TRUE(refused([&] {
        separate(particles_view{m.at(0), m.at(4), m.at(32), m.at(40), nullptr, nullptr, n}, pairs);
    }));
    // Nothing was written by any refused call.
    for (const float v : m.f) {
        EXPECT_EQ(v, 1.0F);
    }
}

TEST(overlapping_views, documented_in_place_use_stays_allowed) {
    shared_buffer m;
    const std::size_t n = 8;
    // push_out writes the centres it reads.
    const circles_view c{m.at(0), m.at(8), m.at(16), n};
    EXPECT_NO_THROW(push_out(c, aabb::from_min_max(5, 5, 6, 6)));
    // Inputs may share memory with each other: one radius array read as both sides'.
    const particles_view a{m.at(24), m.at(32), m.at(16), m.at(16), nullptr, nullptr, n};
    const particles_view b{m.at(40), m.at(48), m.at(16), m.at(16), nullptr, nullptr, n};
    EXPECT_NO_THROW(separate(a, b));
    // An elementwise kernel may write an output over the very input array it reads.
    const aabbs_view boxes{m.at(24), m.at(24), m.at(32), m.at(32), n};
    EXPECT_NO_THROW(distance_squared(circles_cview{m.at(0), m.at(8), m.at(16), n}, boxes,
                                     std::span<float>(m.at(0), n)));
}

} // namespace
} // namespace simdcollide::testing

namespace simdcollide::testing {
namespace {

// --- what an invalid circle in a pair list can change ------------------------------------

// A row of 12 overlapping circles, each paired with its neighbours; circle 5 made invalid.
// The Jacobi pair-list separation (from the positions at the start of the call) lets it
// change its partners, 4 and 6, and no other circle.
TEST_P(on_every_isa, an_invalid_circle_in_a_pair_list_changes_only_its_partners) {
    constexpr std::size_t n = 12;
    std::vector<circle_pair> pairs;
    for (std::uint32_t i = 0; i + 1 < n; ++i) {
        pairs.push_back({i, i + 1});
    }
    const auto run = [&](float bad_radius) {
        std::vector<float> x(n), y(n, 0.0F), r(n, 0.6F), w(n, 1.0F);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = static_cast<float>(i);
        }
        r[5] = bad_radius;
        separate(particles_view{x.data(), y.data(), r.data(), w.data(), nullptr, nullptr, n},
                 pairs);
        return x;
    };
    const std::vector<float> valid = run(0.6F);
    for (const float bad :
         {-1.0F, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
        const std::vector<float> invalid = run(bad);
        for (std::size_t i = 0; i < n; ++i) {
            if (i < 4 || i > 6) {
                EXPECT_EQ(bits(invalid[i]), bits(valid[i])) << "circle " << i << ", radius " << bad;
            }
        }
    }
}

} // namespace
} // namespace simdcollide::testing
