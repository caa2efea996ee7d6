// Many against many: the broad phases against their brute-force definitions, bit for bit,
// on random and adversarial scenes; docs/behaviour.md's seam and corner cases; memory bounds; and
// the particle world (bad input, and a pile that settles).
#include "test_support.hpp"
#include "world_state.hpp"

#include "circle_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace simdcollide::testing {
namespace {

// --- circles against static boxes --------------------------------------------------------

struct box_scene {
    circle_set circles;
    aabb_set boxes;
};

// n circles among m boxes, radii from 0 to `radius_spread` times the median.
box_scene random_box_scene(std::size_t n, std::size_t m, std::uint32_t seed,
                           float radius_spread = 3.0F, float extent = 30.0F) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    box_scene s;
    for (std::size_t k = 0; k < m; ++k) {
        s.boxes.push_back(aabb::from_origin_size(unit(rng) * extent, unit(rng) * extent,
                                                 0.5F + unit(rng) * 4.0F, 0.5F + unit(rng) * 4.0F));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const float r = unit(rng) < 0.1F ? 0.0F : 0.5F * std::pow(radius_spread, unit(rng));
        s.circles.push_back({unit(rng) * extent, unit(rng) * extent, r});
    }
    return s;
}

void expect_grid_matches_brute_force(box_scene s, float margin = 0.0F) {
    circle_set brute = s.circles;
    const std::size_t want = reference::push_out_all(brute.view(), s.boxes.view(), margin);
    const static_box_grid grid(s.boxes.view());
    const std::size_t got = push_out_all(s.circles.view(), grid, margin);
    EXPECT_EQ(got, want);
    for (std::size_t i = 0; i < brute.size(); ++i) {
        ASSERT_EQ(bits(s.circles.x[i]), bits(brute.x[i])) << "circle " << i;
        ASSERT_EQ(bits(s.circles.y[i]), bits(brute.y[i])) << "circle " << i;
    }
}

TEST(static_boxes, grid_matches_brute_force_on_random_scenes) {
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
        expect_grid_matches_brute_force(random_box_scene(500, 5 + seed * 20, seed));
    }
    expect_grid_matches_brute_force(random_box_scene(2000, 300, 99), 0.25F);
}

TEST(static_boxes, grid_matches_brute_force_on_adversarial_scenes) {
    // Radii from 0 to 100x the median.
    expect_grid_matches_brute_force(random_box_scene(800, 150, 5, 100.0F));
    // One huge box over everything, among small ones.
    box_scene huge = random_box_scene(600, 100, 6);
    huge.boxes.push_back(aabb::from_min_max(-1000, -1000, 1000, 1000));
    expect_grid_matches_brute_force(huge);
    // All circles and boxes in one small region.
    expect_grid_matches_brute_force(random_box_scene(400, 60, 7, 3.0F, 0.5F));
    // Empty sets and a single circle.
    expect_grid_matches_brute_force(random_box_scene(0, 10, 8));
    expect_grid_matches_brute_force(random_box_scene(100, 0, 9));
    expect_grid_matches_brute_force(random_box_scene(1, 1, 10));
    // Boxes in a tight, overlapping heap, so pushes move circles from box to box.
    expect_grid_matches_brute_force(random_box_scene(500, 200, 11, 2.0F, 6.0F));
}

// Invalid circles among valid ones: the grid still gives the brute force's result. A NaN x
// clamps to a box's edge and the brute force pushes the circle along y, and a negative
// radius still pushes a centre deep inside a box; the grid once searched no cells for
// either (found by fuzz_many).
TEST(static_boxes, grid_matches_brute_force_for_invalid_circles) {
    box_scene s = random_box_scene(300, 100, 12);
    const aabbs_view b = s.boxes.view();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    s.circles.x[0] = nan;
    s.circles.y[0] = (b.min_y[3] + b.max_y[3]) / 2.0F;
    s.circles.y[1] = nan;
    s.circles.x[1] = (b.min_x[4] + b.max_x[4]) / 2.0F;
    s.circles.x[2] = inf;
    s.circles.x[3] = -inf;
    s.circles.radius[4] = inf;
    s.circles.radius[5] = nan;
    s.circles.x[6] = (b.min_x[7] + b.max_x[7]) / 2.0F; // deep inside box 7, radius < 0
    s.circles.y[6] = (b.min_y[7] + b.max_y[7]) / 2.0F;
    s.circles.radius[6] = -0.05F;
    s.circles.radius[7] = -3.0F;
    circle_set brute = s.circles;
    const std::size_t want = reference::push_out_all(brute.view(), b, 0.1F);
    ASSERT_GT(want, 0U);
    // The cases above that the brute force pushes, so that the test can tell.
    EXPECT_NE(bits(brute.y[0]), bits(s.circles.y[0]));
    EXPECT_NE(bits(brute.x[6]) ^ bits(brute.y[6]), bits(s.circles.x[6]) ^ bits(s.circles.y[6]));
    expect_grid_matches_brute_force(s, 0.1F);
}

TEST(static_boxes, a_circle_on_the_seam_of_a_flat_floor_is_pushed_out_once) {
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-2, -1, 0, 0)); // two boxes meeting at x = 0
    floor.push_back(aabb::from_min_max(0, -1, 2, 0));
    for (const bool grid : {false, true}) {
        circle_set c;
        c.push_back({0.0F, 0.25F, 0.5F}); // centre right above the seam, 0.25 deep
        const std::size_t pushes = grid ? push_out_all(c.view(), static_box_grid(floor.view()))
                                        : reference::push_out_all(c.view(), floor.view());
        EXPECT_EQ(pushes, 1U);
        EXPECT_EQ(c.x[0], 0.0F);
        EXPECT_EQ(c.y[0], 0.5F); // resting on the floor, not 0.75
    }
}

TEST(static_boxes, a_circle_wedged_in_an_inside_corner_ends_outside_both) {
    aabb_set corner;
    corner.push_back(aabb::from_min_max(-4, -1, 4, 0)); // floor
    corner.push_back(aabb::from_min_max(0, 0, 1, 4));   // wall standing on it
    for (const bool grid : {false, true}) {
        circle_set c;
        c.push_back({-0.25F, 0.25F, 0.5F}); // in both
        if (grid) {
            push_out_all(c.view(), static_box_grid(corner.view()));
        } else {
            reference::push_out_all(c.view(), corner.view());
        }
        EXPECT_EQ(reference::count_overlaps(
                      c.view(), aabbs_view(corner.min_x.data(), corner.min_y.data(),
                                           corner.max_x.data(), corner.max_y.data(), 1)),
                  0U);
        EXPECT_EQ(reference::count_overlaps(
                      c.view(), aabbs_view(corner.min_x.data() + 1, corner.min_y.data() + 1,
                                           corner.max_x.data() + 1, corner.max_y.data() + 1, 1)),
                  0U);
    }
}

TEST(static_boxes, memory_stays_bounded_for_skewed_boxes) {
    aabb_set boxes;
    for (int k = 0; k < 200; ++k) {
        boxes.push_back(aabb::from_min_max(-1e6F, -1e6F, 1e6F, 1e6F)); // all huge
    }
    boxes.push_back(aabb::from_min_max(0, 0, 0.001F, 0.001F)); // and one tiny
    const static_box_grid grid(boxes.view());
    EXPECT_LE(grid.cell_count(), static_box_grid::cell_bound(boxes.size()));
    EXPECT_LE(grid.listing_count(), static_box_grid::listing_bound(boxes.size()));
}

TEST(static_boxes, an_invalid_box_is_refused_by_index) {
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(0, 0, 1, 1));
    boxes.push_back(aabb::from_min_max(0, 0, -1, 1));
    try {
        static_box_grid grid(boxes.view());
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("box 1"), std::string::npos) << e.what();
    }
}

// --- circle pairs ------------------------------------------------------------------------

circle_set random_circles(std::size_t n, std::uint32_t seed, float extent, float radius_spread) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    circle_set c;
    for (std::size_t i = 0; i < n; ++i) {
        const float r =
            unit(rng) < 0.05F ? 0.0F : 0.3F * std::pow(radius_spread, unit(rng) * unit(rng));
        c.push_back({unit(rng) * extent, unit(rng) * extent, r});
    }
    return c;
}

void expect_pairs_match_brute_force(const circle_set& c, float margin = 0.0F) {
    const std::vector<circle_pair> want = reference::find_pairs(c.view(), margin);
    pair_finder finder;
    const std::span<const circle_pair> got = finder.find(c.view(), margin);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        ASSERT_EQ(got[k].a, want[k].a) << k;
        ASSERT_EQ(got[k].b, want[k].b) << k;
    }
    EXPECT_LE(finder.cell_count(), 2 * c.size() + 64);
}

TEST(pair_finder, matches_brute_force_on_random_scenes) {
    for (std::uint32_t seed = 1; seed <= 10; ++seed) {
        expect_pairs_match_brute_force(random_circles(1500, seed, 40.0F, 2.0F));
    }
    expect_pairs_match_brute_force(random_circles(1500, 77, 40.0F, 2.0F), 0.3F);
}

TEST(pair_finder, matches_brute_force_on_adversarial_scenes) {
    expect_pairs_match_brute_force(random_circles(1200, 3, 40.0F, 100.0F)); // radii 0..100x
    expect_pairs_match_brute_force(random_circles(800, 4, 0.5F, 2.0F));     // all in one cell
    expect_pairs_match_brute_force(random_circles(0, 5, 10.0F, 2.0F));
    expect_pairs_match_brute_force(random_circles(1, 6, 10.0F, 2.0F));
    circle_set points; // all radii 0, some coincident
    for (int i = 0; i < 50; ++i) {
        points.push_back({static_cast<float>(i % 5), 0.0F, 0.0F});
    }
    expect_pairs_match_brute_force(points);
    expect_pairs_match_brute_force(points, 0.5F);
    circle_set spread = random_circles(500, 8, 10.0F, 2.0F); // a few centres very far away
    spread.x[3] = 1e30F;
    spread.y[7] = -1e30F;
    expect_pairs_match_brute_force(spread);
    circle_set huge = random_circles(500, 9, 10.0F, 2.0F); // one circle over everything
    huge.radius[10] = 1000.0F;
    expect_pairs_match_brute_force(huge);
    // Radii in tiers (as search radii grow with speed in a falling pile): nearly half the
    // circles larger than twice the median, and among those again, and again, so that the
    // search of the large circles among themselves recurses several levels.
    circle_set tiers = random_circles(1500, 10, 60.0F, 1.0F);
    for (std::size_t i = 0; i < tiers.size(); ++i) {
        tiers.radius[i] *= static_cast<float>(1U << (2 * (i % 4))) * 0.2F; // 0.2x .. 12.8x
    }
    expect_pairs_match_brute_force(tiers);
    expect_pairs_match_brute_force(tiers, 0.5F);
}

// Invalid circles, in pair_finder and in the brute force alike. A negative radius once made
// the brute force pair circles far apart (d^2 < (r_i + r_j)^2 with r_i + r_j < 0; found by
// fuzz_many), and an infinite one pair a circle with everything, while pair_finder left
// both out.
TEST(pair_finder, invalid_circles_are_in_no_pair_and_do_not_crash) {
    circle_set c = random_circles(300, 11, 10.0F, 2.0F);
    const std::uint32_t nan_x = 5, infinite_r = 9, negative_r = 17, negative_zero_r = 23;
    c.x[nan_x] = std::numeric_limits<float>::quiet_NaN();
    c.radius[infinite_r] = std::numeric_limits<float>::infinity();
    c.radius[negative_r] = -40.0F;
    c.radius[negative_zero_r] = -0.0F; // valid: -0 >= 0
    c.x[negative_zero_r] = c.x[0];
    c.y[negative_zero_r] = c.y[0];
    pair_finder finder;
    const std::span<const circle_pair> found = finder.find(c.view());
    const std::vector<circle_pair> brute = reference::find_pairs(c.view());
    ASSERT_EQ(found.size(), brute.size());
    bool zero_radius_paired = false;
    for (std::size_t k = 0; k < brute.size(); ++k) {
        const circle_pair p = brute[k];
        EXPECT_EQ(found[k].a, p.a);
        EXPECT_EQ(found[k].b, p.b);
        for (const std::uint32_t invalid : {nan_x, infinite_r, negative_r}) {
            EXPECT_TRUE(p.a != invalid && p.b != invalid) << "pair " << p.a << ", " << p.b;
        }
        zero_radius_paired = zero_radius_paired || (p.a == 0 && p.b == negative_zero_r);
    }
    EXPECT_TRUE(zero_radius_paired); // a point at circle 0's centre is in contact with it
}

// Above 4 096 circles the grid's median radius comes from an evenly spaced sample
// (kernels/circle_grid.cpp). Radii alternating 0.1 and 1 fool a sample of every other
// circle (its median is 0.1, so half the circles would be large, which pair_finder's search
// of the large ones must never see): the exact median is taken instead. Radii with no such
// pattern keep the sample's median, close to the exact one. Either way fewer than half the
// circles are large.
TEST(pair_finder, a_sampled_median_never_leaves_half_the_circles_large) {
    const std::size_t n = std::size_t{1} << 13; // the sample: every other circle
    const std::size_t side = 91;                // on a 91-wide grid
    for (const bool alternating : {true, false}) {
        circle_set c(n);
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t i = 0; i < n; ++i) {
            c.x[i] = static_cast<float>(i % side) * 1.5F;
            c.y[i] = static_cast<float>(i / side) * 1.5F;
            const float u = unit(rng);
            c.radius[i] = alternating ? (i % 2 == 0 ? 0.1F : 1.0F) : 0.1F + 0.9F * u * u * u;
        }
        std::vector<float> radii(c.radius.data(), c.radius.data() + n);
        std::nth_element(radii.begin(), radii.begin() + n / 2, radii.end());
        const float median = radii[n / 2];
        detail::circle_cells cells;
        cells.grid = detail::circle_grid_for(c.view(), 0.0F);
        detail::sort_into_cells(c.view(), cells);
        EXPECT_LT(2 * cells.large.size(), n) << "alternating=" << alternating;
        if (alternating) {
            EXPECT_EQ(cells.grid.r_small, 1.0F); // twice the exact median (1), capped at 1
        } else {
            EXPECT_NEAR(cells.grid.r_small, 2.0F * median, 0.01F); // about 0.42, below 1
            EXPECT_LT(cells.grid.r_small, 0.9F);
        }
    }
}

// The world's partial relisting: for_each_near (kernels/circle_grid.hpp) over cells sorted
// from the circles, some of which then change in three rounds (as relisted circles do:
// some in more than one round, some growing larger than the cells, some turning NaN),
// against every circle tested one by one (those with a non-finite centre or a radius that is
// negative or not finite near nothing, as in pair_finder), after each round.
void expect_near_matches_brute_force(circle_set c, std::uint32_t seed) {
    const std::size_t n = c.size();
    detail::circle_cells cells;
    cells.grid = detail::circle_grid_for(c.view(), 0.0F);
    detail::sort_into_cells(c.view(), cells);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    detail::moved_circles moved;
    moved.clear(n);
    std::vector<std::uint8_t> changed_ever(n, 0);
    for (std::size_t round = 0; round < 3; ++round) {
        std::vector<std::uint32_t> changed;
        const std::size_t every = round == 0 ? 7 : 5; // rounds 1 and 2 change some again
        for (std::size_t i = round; i < n; i += every) {
            c.x[i] += 3.0F * (unit(rng) - 0.5F);
            c.y[i] += 3.0F * (unit(rng) - 0.5F);
            c.radius[i] *= i % 21 == 0 ? 4.0F : 1.0F; // some grow larger than the cells
            if (round == 2 && i % 101 == 2) {
                c.x[i] = std::numeric_limits<float>::quiet_NaN(); // now near nothing
            }
            changed.push_back(static_cast<std::uint32_t>(i));
            changed_ever[i] = 1;
        }
        moved.add(cells, c.view(), changed);
        ASSERT_EQ(moved.size(), static_cast<std::size_t>(
                                    std::count(changed_ever.begin(), changed_ever.end(), 1)));
        for (std::uint32_t v = 0; v < n; ++v) {
            ASSERT_EQ(moved.contains(v), changed_ever[v] != 0) << "circle " << v;
            std::vector<std::uint32_t> want;
            for (std::uint32_t j = 0; j < n; ++j) {
                const float dx = c.x[j] - c.x[v];
                const float dy = c.y[j] - c.y[v];
                const float reach = c.radius[j] + c.radius[v];
                if (j != v && std::isfinite(dx) && std::isfinite(dy) && std::isfinite(reach) &&
                    c.radius[j] >= 0.0F && c.radius[v] >= 0.0F &&
                    dx * dx + dy * dy < reach * reach) {
                    want.push_back(j);
                }
            }
            std::vector<std::uint32_t> got;
            detail::for_each_near(cells, c.view(), v, moved,
                                  [&](std::uint32_t j) { got.push_back(j); });
            std::sort(got.begin(), got.end());
            ASSERT_EQ(got, want) << "circle " << v << ", round " << round;
        }
    }
}

TEST(pair_finder, cells_find_the_circles_near_one_as_brute_force_does) {
    expect_near_matches_brute_force(random_circles(1500, 21, 40.0F, 2.0F), 1);
    expect_near_matches_brute_force(random_circles(1200, 22, 40.0F, 100.0F), 2); // radii 0..100x
    expect_near_matches_brute_force(random_circles(800, 23, 0.5F, 2.0F), 3);     // one cell
    expect_near_matches_brute_force(random_circles(1, 24, 10.0F, 2.0F), 4);
    circle_set odd = random_circles(500, 25, 10.0F, 2.0F);
    odd.x[3] = 1e30F;                                    // far away
    odd.radius[10] = 1000.0F;                            // over everything
    odd.x[12] = std::numeric_limits<float>::quiet_NaN(); // in no cell, near nothing
    odd.radius[13] = std::numeric_limits<float>::infinity();
    odd.radius[14] = -30.0F; // negative: near nothing
    expect_near_matches_brute_force(odd, 5);
}

// --- the world ---------------------------------------------------------------------------

TEST(particle_world, refuses_bad_input_and_keeps_its_state) {
    EXPECT_THROW(particle_world({.substeps = 0}), std::invalid_argument);
    EXPECT_THROW(particle_world({.velocity_iterations = 0}), std::invalid_argument);
    EXPECT_THROW(particle_world({.restitution = 2.0F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.max_correction_speed = 0.0F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.pair_margin = -0.1F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.circles_per_band = 100}), std::invalid_argument);
    EXPECT_THROW(particle_world({.circles_per_band = std::size_t{1} << 31}), std::invalid_argument);
    EXPECT_THROW(particle_world({.shock_propagation = -0.1F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.shock_propagation = 1.5F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.shock_propagation = std::numeric_limits<float>::quiet_NaN()}),
                 std::invalid_argument);
    EXPECT_THROW(particle_world({.pair_margin = std::numeric_limits<float>::quiet_NaN()}),
                 std::invalid_argument);
    particle_world world;
    world.add_circle({0, 1, 0.5F}, 1.0F);
    EXPECT_THROW(world.add_circle({0, 1, -0.5F}, 1.0F), std::invalid_argument);
    EXPECT_THROW(world.add_circle({std::numeric_limits<float>::quiet_NaN(), 1, 0.5F}, 1.0F),
                 std::invalid_argument);
    EXPECT_THROW(world.add_circle({0, 1, 0.5F}, -1.0F), std::invalid_argument);
    EXPECT_EQ(world.size(), 1U);
    aabb_set good;
    good.push_back(aabb::from_min_max(-5, -1, 5, 0));
    world.set_boxes(good.view());
    aabb_set bad = good;
    bad.push_back(aabb::from_min_max(0, 0, -1, 1));
    try {
        world.set_boxes(bad.view());
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("box 1"), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.boxes().size(), 1U); // the previous boxes stay
    for (const float dt : {0.0F, -1.0F, std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()}) {
        EXPECT_THROW(world.step(dt), std::invalid_argument);
    }
    EXPECT_EQ(world.particles().y[0], 1.0F); // nothing stepped
}

TEST(particle_world, a_ball_falls_and_rests_on_the_floor) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-5, -1, 5, 0));
    world.set_boxes(floor.view());
    world.add_circle({0, 2, 0.5F}, 1.0F);
    for (int s = 0; s < 240; ++s) {
        world.step(1.0F / 60.0F);
    }
    EXPECT_NEAR(world.particles().y[0], 0.5F, 0.01F);
    EXPECT_NEAR(world.particles().vy[0], 0.0F, 0.2F);
}

// Separation (phase 3) must not carry a circle through a thin floor (world.hpp,
// separation_reach). Here a static circle overlaps a ball resting on a floor 0.2 thick by
// 0.7, so separation alone moves the ball 0.7 down, past the floor's middle: without the
// hold, phase 4 pushed it out of the bottom face and it fell (as a bottom circle of a
// 633-row tower did). Held to a quarter of its radius a substep, it is pushed back up.
TEST(particle_world, separation_never_carries_a_circle_through_a_thin_floor) {
    particle_world world;
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-5, -0.2F, 5, 0));
    world.set_boxes(floor.view());
    world.add_circle({0, 0.5F, 0.5F}, 1.0F); // resting on the floor
    world.add_circle({0, 0.8F, 0.5F}, 0.0F); // static, 0.7 into the ball
    for (int s = 0; s < 60; ++s) {
        world.step(1.0F / 60.0F);
        ASSERT_GE(world.particles().y[0], 0.5F) << "after step " << s;
    }
}

// Nor into a box it was not listed with. A static circle overlaps a resting ball by 1.1,
// and a wall 0.15 thick stands 0.6 beyond the ball's surface, further than the ball's
// lists reach (its radius, its predicted move, 0, and pair_margin). Unheld, separation
// moved the ball 1.1 in the first substep, its centre past the wall's far face. Held to
// its radius a step, it meets the wall once listed with it, and stays on the near side,
// wedged.
TEST(particle_world, separation_never_carries_a_circle_through_a_box_beyond_its_lists) {
    world_options options;
    options.gravity_y = 0.0F;
    particle_world world(options);
    aabb_set wall;
    wall.push_back(aabb::from_min_max(0.9F, -5, 1.05F, 5));
    world.set_boxes(wall.view());
    world.add_circle({0, 0, 0.3F}, 1.0F);     // the ball
    world.add_circle({-0.2F, 0, 1.0F}, 0.0F); // static, 1.1 into it
    for (int s = 0; s < 60; ++s) {
        world.step(1.0F / 60.0F);
        ASSERT_LE(world.particles().x[0], 0.9F - 0.3F + 1e-4F) << "after step " << s;
    }
}

// The world steps its circles in slots of its own (world.hpp), sorted every sort_every
// steps; the caller's indices must keep naming the same circles, and edits and additions
// between steps must reach the next step.
TEST(particle_world, keeps_the_callers_indexing_and_sees_edits_between_steps) {
    world_options options;
    options.gravity_y = 0.0F;
    particle_world world(options);
    // Added right to left, so that the sort by cell reverses them.
    for (int i = 0; i < 40; ++i) {
        world.add_circle({static_cast<float>(40 - i) * 3.0F, static_cast<float>(i % 3), 0.5F}, 1.0F,
                         0.0F, static_cast<float>(i));
    }
    for (int s = 0; s < 40; ++s) { // across a sort
        world.step(1.0F / 60.0F);
    }
    particles_view p = world.particles();
    for (int i = 0; i < 40; ++i) { // nothing touches: each moved at its own speed
        EXPECT_EQ(p.x[i], static_cast<float>(40 - i) * 3.0F) << i;
        EXPECT_NEAR(p.y[i], static_cast<float>(i % 3) + static_cast<float>(i) * 40.0F / 60.0F,
                    1e-3F)
            << i;
        EXPECT_EQ(p.vy[i], static_cast<float>(i)) << i;
    }
    // Two circles pushed apart along x (further than touching: the correction became
    // velocity), each as far as the other.
    const auto expect_pushed_apart = [&](std::size_t left, std::size_t right, float middle) {
        EXPECT_GT(p.x[right] - p.x[left], 1.0F) << left;
        EXPECT_LT(p.x[right] - p.x[left], 1.5F) << left;
        EXPECT_NEAR(0.5F * (p.x[left] + p.x[right]), middle, 1e-4F) << left;
    };
    // An edit between steps (and not at a sort): circle 7 is put on circle 8, overlapping by
    // 0.5, at rest beside it.
    p.x[7] = p.x[8] - 0.5F;
    p.y[7] = p.y[8];
    p.vx[7] = 0.0F;
    p.vy[7] = p.vy[8];
    const float middle_7_8 = p.x[8] - 0.25F;
    world.step(1.0F / 60.0F);
    p = world.particles();
    expect_pushed_apart(7, 8, middle_7_8);
    // An addition between steps (the view is invalid after it): a circle on circle 20, by
    // 0.5 too.
    const float middle_20_added = p.x[20] + 0.25F;
    const std::size_t added =
        world.add_circle({p.x[20] + 0.5F, p.y[20], 0.5F}, 1.0F, 0.0F, p.vy[20]);
    world.step(1.0F / 60.0F);
    p = world.particles();
    expect_pushed_apart(20, added, middle_20_added);
    EXPECT_EQ(p.x[10], 30.0F * 3.0F); // the others untouched
}

// A ball of radius 0.5 resting on a floor at y = 0, sliding at vx.
particle_world sliding_ball(float vx, float friction, float restitution = 0.0F, float y = 0.5F,
                            int velocity_iterations = 1) {
    world_options options;
    options.friction = friction;
    options.restitution = restitution;
    options.velocity_iterations = velocity_iterations;
    particle_world world(options);
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-100, -1, 100, 0));
    world.set_boxes(floor.view());
    world.add_circle({0, y, 0.5F}, 1.0F, vx, 0.0F);
    return world;
}

// Coulomb friction on a resting contact: deceleration mu * g, never reversing; none at
// mu = 0. With several passes of phase 6 too: the friction of all passes together stays
// within the cone (a pass that applied its own bound again would stop the ball about
// velocity_iterations times sooner).
TEST(particle_world, friction_stops_a_sliding_ball_and_mu_zero_does_not) {
    for (const int passes : {1, 4}) {
        SCOPED_TRACE(passes);
        particle_world rough = sliding_ball(2.0F, 0.2F, 0.0F, 0.5F, passes);
        particle_world smooth = sliding_ball(2.0F, 0.0F, 0.0F, 0.5F, passes);
        for (int s = 0; s < 30; ++s) { // half a second: mu g t = 0.98
            rough.step(1.0F / 60.0F);
            smooth.step(1.0F / 60.0F);
        }
        EXPECT_NEAR(rough.particles().vx[0], 2.0F - 0.2F * 9.81F * 0.5F, 0.15F);
        EXPECT_NEAR(smooth.particles().vx[0], 2.0F, 1e-3F);
        for (int s = 0; s < 60; ++s) {
            rough.step(1.0F / 60.0F);
            ASSERT_GE(rough.particles().vx[0], 0.0F) << "friction reversed the motion";
        }
        EXPECT_LT(rough.particles().vx[0], 0.01F);
        EXPECT_NEAR(rough.particles().y[0], 0.5F, 0.01F);
    }
}

// A ball dropped from 2.5 above its resting height hits at about 7 m/s: with e = 0.8 it
// bounces back up by about e^2 * 2.5 = 1.6, with e = 0 it stays down.
TEST(particle_world, restitution_sets_the_bounce) {
    for (const auto& [e, passes] :
         {std::pair{0.0F, 1}, std::pair{0.8F, 1}, std::pair{0.0F, 4}, std::pair{0.8F, 4}}) {
        SCOPED_TRACE(passes);
        particle_world world = sliding_ball(0.0F, 0.2F, e, 3.0F, passes);
        bool landed = false;
        float highest_after = 0.0F;
        for (int s = 0; s < 120; ++s) {
            world.step(1.0F / 60.0F);
            const float y = world.particles().y[0];
            landed = landed || y < 0.53F;
            if (landed) {
                highest_after = std::max(highest_after, y);
            }
        }
        ASSERT_TRUE(landed);
        if (e == 0.0F) {
            EXPECT_LT(highest_after, 0.55F);
        } else {
            EXPECT_GT(highest_after, 0.5F + 1.0F);
            EXPECT_LT(highest_after, 0.5F + 2.5F);
        }
    }
}

// n circles dropped into a closed container; after `steps` steps none has escaped and none
// is NaN. The full-size run (10 000 circles, 2000 steps) is the "soak" test, left out of
// the sanitizer and qemu runs for time; the small one runs everywhere.
void pile_settles(std::size_t n, int steps, world_options options = {}) {
    particle_world world(options);
    const float width = 1.2F * std::sqrt(static_cast<float>(n));
    aabb_set walls;
    walls.push_back(aabb::from_min_max(-1, -1, width + 1, 0));                    // floor
    walls.push_back(aabb::from_min_max(-1, 0, 0, 4 * width));                     // left wall
    walls.push_back(aabb::from_min_max(width, 0, width + 1, 4 * width));          // right wall
    walls.push_back(aabb::from_min_max(-1, 4 * width, width + 1, 4 * width + 1)); // lid
    world.set_boxes(walls.view());
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const auto columns = static_cast<std::size_t>(width);
    for (std::size_t i = 0; i < n; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % columns) + 0.1F * unit(rng),
                          1.0F + static_cast<float>(i / columns) * 1.0F, 0.25F + 0.2F * unit(rng)},
                         1.0F);
    }
    for (int s = 0; s < steps; ++s) {
        world.step(1.0F / 60.0F);
    }
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(std::isfinite(p.x[i]) && std::isfinite(p.y[i])) << i;
        ASSERT_GT(p.x[i], 0.0F) << i;
        ASSERT_LT(p.x[i], width) << i;
        ASSERT_GT(p.y[i], 0.0F) << i;
        ASSERT_LT(p.y[i], 4 * width) << i;
    }
}

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
    const particles_view p = world.particles();
    std::vector<float> state;
    for (const float* field : {p.x, p.y, p.vx, p.vy}) {
        state.insert(state.end(), field, field + p.count);
    }
    return state;
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

// The world's whole step, every phase included, gives the same bits on every instruction
// set as on the reference, with shock propagation off (the default) and on; static circles
// never move.
TEST(particle_world, every_instruction_set_steps_to_the_same_bits) {
    for (const float shock : {0.0F, 0.5F}) {
        SCOPED_TRACE(shock);
        const particle_world world = mixed_scene({.shock_propagation = shock});
        const std::vector<float> want = stepped_state(isa::reference, world, 120);
        EXPECT_EQ(want[0], 4.5F); // x of the static circle inside a box
        EXPECT_EQ(want[1], 10.0F);
        EXPECT_EQ(want[want.size() / 4], 3.5F); // its y
        expect_every_isa_steps_alike(world, 120);
    }
}

// The same in bands of 16 to 256 circles (bands.hpp: the mixed scene's 302 circles in 2 to
// 19 bands, each band's pairs reaching one to several bands on), with restitution (the
// recording round with the velocities), with velocities past its bound (the same, without
// restitution), with several separation rounds or velocity passes (no bands), and with a
// large static circle among the others, whose pairs reach across every band (then each band's
// touches have room of their own rather than a ring's).
TEST(particle_world, every_instruction_set_steps_bands_to_the_same_bits) {
    for (const std::size_t band : {16, 64, 256}) {
        for (int variant = 0; variant < 5; ++variant) {
            SCOPED_TRACE(::testing::Message() << "band " << band << ", variant " << variant);
            world_options options{.shock_propagation = 0.5F, .circles_per_band = band};
            if (variant == 1) {
                options.restitution = 0.6F;
            } else if (variant == 3) {
                options.separation_iterations = 2;
                options.velocity_iterations = 2;
            }
            particle_world world = mixed_scene(options);
            if (variant == 2) {
                const particles_view p = world.particles();
                p.vx[7] = 0x1p121F; // approach speeds past 2^120: the velocities are read
            }
            if (variant == 4) {
                world.add_circle({10.0F, 9.0F, 4.0F}, 0.0F);
            }
            expect_every_isa_steps_alike(world, 40);
        }
    }
}

// `count` circles without boxes, `columns` a row 0.7 apart, moving every way (every 37th
// static), stepped in bands of `band` circles.
particle_world free_scene(std::size_t count, std::size_t columns, std::uint32_t seed,
                          std::size_t band) {
    particle_world world({.circles_per_band = band});
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < count; ++i) {
        world.add_circle({static_cast<float>(i % columns) * 0.7F + 0.1F * unit(rng),
                          static_cast<float>(i / columns) * 0.7F, 0.3F + 0.2F * unit(rng)},
                         i % 37 == 0 ? 0.0F : 0.5F + unit(rng), 2.0F * unit(rng) - 1.0F,
                         2.0F * unit(rng) - 1.0F);
    }
    return world;
}

// Without boxes, phase 6 takes the pair touches group by group in the grouper's order
// whatever the bands, and every other phase acts circle by circle: so every band size
// gives the same bits as one band. Catches a schedule that runs a phase before what it
// reads is ready, or a ring of touches that a later band overwrites before they are used
// (bands of 16 circles go round a ring; one band does not).
TEST(particle_world, without_boxes_every_band_size_steps_to_the_same_bits) {
    const auto free_circles = [](std::size_t band) { return free_scene(400, 20, 5, band); };
    const std::vector<float> want = stepped_state(isa::reference, free_circles(4096), 30);
    for (const std::size_t band : {16, 48, 128}) {
        SCOPED_TRACE(::testing::Message() << "band " << band);
        expect_every_isa_steps_to(want, free_circles(band), 30, true);
    }
}

// What a substep in bands keeps per circle while its band is in flight goes round a ring of
// a few bands (band_plan::ring_slot) when it is smaller than the circles: 8 000 circles
// without boxes in bands of 1 024 go round it several times a substep, and must step to the
// bits of one band of 8 192, where each circle has an entry of its own. Catches a ring too
// small for the bands in flight (an entry written over before it is read), on the reference
// and on every instruction set.
TEST(particle_world, the_bands_ring_steps_to_the_bits_of_one_band) {
    const auto free_circles = [](std::size_t band) { return free_scene(8000, 80, 8, band); };
    particle_world ringed = free_circles(1024);
    ringed.step(1.0F / 60.0F);
    ASSERT_GT(detail::state_of(ringed).band_ring_entries(), 0U);
    ASSERT_LE(detail::state_of(ringed).band_ring_entries() * 2, ringed.size())
        << "the ring is not gone round";
    particle_world whole = free_circles(8192);
    whole.step(1.0F / 60.0F);
    ASSERT_EQ(detail::state_of(whole).band_ring_entries(), whole.size());
    expect_every_isa_steps_to(stepped_state(isa::reference, whole, 20), ringed, 20, true);
}

// 6 000 circles in a 60-wide container with two obstacles, in bands of 1 024 (6 bands, whose
// per-circle entries and pair touches go round rings), stepped with `options` otherwise.
particle_world ringed_scene(world_options options) {
    options.shock_propagation = 0.5F;
    options.circles_per_band = 1024;
    particle_world world(options);
    aabb_set boxes = open_container(60, 80);
    boxes.push_back(aabb::from_origin_size(10, 20, 3, 1));
    boxes.push_back(aabb::from_origin_size(35, 40, 1.5F, 2.5F));
    world.set_boxes(boxes.view());
    std::mt19937 rng(12);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < 6000; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % 59) + 0.2F * unit(rng),
                          0.5F + static_cast<float>(i / 59) * 0.75F, 0.25F + 0.2F * unit(rng)},
                         0.5F + unit(rng), unit(rng) - 0.5F, 0.0F);
    }
    return world;
}

// With boxes, the bits depend on the bands; in a ring they are still the reference's on
// every instruction set, with restitution 0 (the recording round without the velocities)
// and 0.6 (the velocities packed into the ring too).
TEST(particle_world, every_instruction_set_steps_bands_in_a_ring_to_the_same_bits) {
    for (const float restitution : {0.0F, 0.6F}) {
        SCOPED_TRACE(restitution);
        const particle_world world = ringed_scene({.restitution = restitution});
        particle_world probe = world;
        probe.step(1.0F / 60.0F);
        ASSERT_LE(detail::state_of(probe).band_ring_entries() * 2, probe.size())
            << "the ring is not gone round";
        ASSERT_EQ(detail::state_of(probe).band_substeps_in_flight(), 1U);
        expect_every_isa_steps_alike(world, 20);
    }
}

// Substeps in bands that overlap (world_options::overlap_substeps_from, here from 0
// circles) give the bits of one after another, which is how the reference runs them: on
// every instruction set, with restitution 0 and 0.6, and with 4 substeps (one wave) and 6
// (a wave of 4, then one of 2). Catches a substep that fronts a band before the one before
// it has responded that band, substeps in flight that share a ring or their touches, and
// a wave that starts from the last one's state.
TEST(particle_world, overlapping_substeps_step_to_the_bits_of_one_after_another) {
    for (const float restitution : {0.0F, 0.6F}) {
        for (const int substeps : {4, 6}) {
            SCOPED_TRACE(::testing::Message()
                         << "restitution " << restitution << ", substeps " << substeps);
            world_options options;
            options.substeps = substeps;
            options.restitution = restitution;
            const std::vector<float> want =
                stepped_state(isa::reference, ringed_scene(options), 20);
            options.overlap_substeps_from = 0;
            const particle_world overlapping = ringed_scene(options);
            particle_world probe = overlapping;
            probe.step(1.0F / 60.0F);
            ASSERT_EQ(detail::state_of(probe).band_substeps_in_flight(), 4U);
            expect_every_isa_steps_to(want, overlapping, 20, true);
        }
    }
}

// Bands only change the order of phase 6, never what the step does: a pile settles with
// any band size, and a static circle stays where it is.
TEST(particle_world, bands_of_any_size_step_a_pile_alike_in_physics) {
    for (const std::size_t band : {16, 1024}) {
        SCOPED_TRACE(band);
        particle_world world = mixed_scene({.circles_per_band = band});
        for (int s = 0; s < 300; ++s) {
            world.step(1.0F / 60.0F);
        }
        const particles_view p = world.particles();
        EXPECT_EQ(p.x[0], 4.5F);
        EXPECT_EQ(p.y[0], 3.5F);
        double v2 = 0.0;
        for (std::size_t i = 0; i < p.count; ++i) {
            ASSERT_TRUE(p.x[i] > -0.5F && p.x[i] < 20.5F && p.y[i] > -0.5F) << i;
            v2 += double{p.vx[i]} * p.vx[i] + double{p.vy[i]} * p.vy[i];
        }
        EXPECT_LT(v2 / static_cast<double>(p.count), 0.05);
    }
}

// Whether `listed` (the world's listed_pairs(), sorted) names each of `contacts` and no
// pair twice: a relisting that kept a leaver's old entry beside its new one would list a
// pair twice.
::testing::AssertionResult each_contact_listed_once(const std::vector<circle_pair>& listed,
                                                    std::span<const circle_pair> contacts) {
    const auto same = [](circle_pair l, circle_pair r) { return l.a == r.a && l.b == r.b; };
    const auto before = [](circle_pair l, circle_pair r) {
        return l.a != r.a ? l.a < r.a : l.b < r.b;
    };
    if (const auto twice = std::adjacent_find(listed.begin(), listed.end(), same);
        twice != listed.end()) {
        return ::testing::AssertionFailure()
               << "(" << twice->a << ", " << twice->b << ") listed twice";
    }
    for (const circle_pair p : contacts) {
        if (!std::binary_search(listed.begin(), listed.end(), p, before)) {
            return ::testing::AssertionFailure()
                   << "(" << p.a << ", " << p.b << ") in contact but not listed";
        }
    }
    return ::testing::AssertionSuccess();
}

// Whether the world keeps its lists as a full listing orders them: the pairs in slots with
// a < b, and both lists strictly ascending by (a, b), no entry twice. The step relies on
// it (a relisting's merge, the grouper's chunks, each band's offset in the box contacts);
// the merge's fast path (world_lists.cpp, relist_leavers) could break it without changing
// which pairs are listed, and listed_pairs() sorts its copy, so this looks at the lists
// themselves.
::testing::AssertionResult lists_kept_in_order(const particle_world& world) {
    const auto ascending = [](std::span<const circle_pair> list,
                              const char* name) -> ::testing::AssertionResult {
        for (std::size_t k = 1; k < list.size(); ++k) {
            const circle_pair l = list[k - 1];
            const circle_pair r = list[k];
            if (!(l.a < r.a || (l.a == r.a && l.b < r.b))) {
                return ::testing::AssertionFailure()
                       << name << " entry " << k << ", (" << r.a << ", " << r.b << "), follows ("
                       << l.a << ", " << l.b << ")";
            }
        }
        return ::testing::AssertionSuccess();
    };
    const std::span<const circle_pair> pairs = detail::state_of(world).pairs_in_slots();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (!(pairs[k].a < pairs[k].b)) {
            return ::testing::AssertionFailure()
                   << "pair " << k << " is (" << pairs[k].a << ", " << pairs[k].b << ")";
        }
    }
    if (::testing::AssertionResult r = ascending(pairs, "pairs_in_slots"); !r) {
        return r;
    }
    return ascending(detail::state_of(world).box_contacts_in_slots(), "box_contacts_in_slots");
}

// The kept lists miss no contact and list no pair twice: after every step, each pair of
// circles in contact (by brute force) is one the step listed, with margins from 0.1 to 2
// (lists made often, or almost never; with the narrowest, steps list everything, or only the few
// circles that would leave their margins, or nothing). (A circle pushed within one step further
// than its margin can meet one it was not listed with, until the next listing: the scene starts
// with no overlaps so that corrections stay small.) The lists change which pairs separation goes
// over, and so the bits (world.hpp, phase 3); not whether the pile holds.
TEST(particle_world, kept_lists_miss_no_contact) {
    for (const float margin : {0.1F, 0.5F, 2.0F}) {
        world_options options;
        options.pair_margin = margin;
        particle_world world(options);
        // No obstacles: a circle born inside a box is pushed far at once.
        world.set_boxes(open_container(20, 40).view());
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t i = 0; i < 200; ++i) {
            world.add_circle({0.7F + static_cast<float>(i % 16) * 1.2F,
                              1.0F + static_cast<float>(i / 16) * 1.2F, 0.2F + 0.3F * unit(rng)},
                             0.5F + unit(rng), unit(rng) - 0.5F, unit(rng) - 0.5F);
        }
        std::size_t contacts = 0;
        for (int s = 0; s < 180; ++s) {
            world.step(1.0F / 60.0F);
            const particles_view q = world.particles();
            const std::vector<circle_pair> contact =
                reference::find_pairs(circles_cview(q.x, q.y, q.radius, q.count));
            contacts += contact.size();
            ASSERT_TRUE(each_contact_listed_once(world.listed_pairs(), contact))
                << "margin " << margin << ", step " << s;
            ASSERT_TRUE(lists_kept_in_order(world)) << "margin " << margin << ", step " << s;
        }
        EXPECT_GT(contacts, 180U * 100U) << "the pile settled into contact"; // about 300 a step
        if (margin == 0.1F) { // the narrow margin takes every kind of listing
            EXPECT_GT(world.listings().full, 1U);
            EXPECT_GT(world.listings().partial, 0U);
            EXPECT_LT(world.listings().full + world.listings().partial, 180U);
        }
    }
}

// A partial relisting copies whole the chunks of the list (pair_groups.hpp) that can hold no
// leaver's pair, and merges the rest; it must still drop every entry of a leaver whose
// first circle is in an earlier chunk. Here three rows of 2 600 circles, so that a top-row
// circle's pairs with the row below lie in the chunks of their first circles, two or three
// chunks before its own; one circle in eight of the top row rises away from the rest, which
// do not move (no gravity), and is relisted on most steps with none of its old partners. After
// every step the list holds each pair in contact once, and no pair further apart than a listing
// allows: a pair is listed within its circles' radii plus margins as listed, each circle within its
// margin of where it was listed, and a margin here is at most a step's move at speed 2 plus
// pair_margin. (Debug builds also check that no chunk copied whole holds a leaver's pair.)
TEST(particle_world, a_relisting_drops_a_leavers_pairs_from_earlier_chunks) {
    constexpr std::size_t per_row = 2600;
    constexpr std::size_t rows = 3;
    static_assert(per_row > 2 * circles_per_chunk);
    constexpr float radius = 0.45F;
    constexpr float dt = 1.0F / 60.0F;
    world_options options;
    options.gravity_y = 0.0F;
    options.pair_margin = 0.01F;
    particle_world world(options);
    world.set_boxes(open_container(static_cast<float>(per_row) + 1.0F, 20.0F).view());
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < per_row * rows; ++i) {
        // Rows 0.91 apart: listed with the row above and below (margins 0.01 or more), not
        // in contact.
        const bool rises = i / per_row == rows - 1 && i % 8 == 0;
        world.add_circle({0.6F + static_cast<float>(i % per_row),
                          1.0F + 0.91F * static_cast<float>(i / per_row), radius},
                         1.0F, 0.0F, rises ? 1.0F + unit(rng) : 0.0F);
    }
    const float farthest = 2.0F * radius + 4.0F * (2.0F * dt + options.pair_margin);
    pair_finder finder; // the pairs in contact (pair_finder's own tests hold it to brute force)
    for (int s = 0; s < 40; ++s) {
        world.step(dt);
        const particles_view q = world.particles();
        const std::vector<circle_pair> listed = world.listed_pairs();
        ASSERT_TRUE(each_contact_listed_once(
            listed, finder.find(circles_cview(q.x, q.y, q.radius, q.count))))
            << "step " << s;
        ASSERT_TRUE(lists_kept_in_order(world)) << "step " << s;
        for (const circle_pair p : listed) {
            ASSERT_LE(std::hypot(q.x[p.a] - q.x[p.b], q.y[p.a] - q.y[p.b]), farthest)
                << "step " << s << ": (" << p.a << ", " << p.b << ") listed from afar";
        }
    }
    EXPECT_GT(world.listings().partial, 20U);
}

// The lists are kept while each circle stays within its margin after the coming step's
// move, not only after the moves so far. A circle moving 0.5 a step with a margin of 0.51
// (0.5 for the step, pair_margin 0.01) toward a static one 3 away (radii 0.6): the world
// must list the pair before the step in which they meet, as one whose lists hold
// everything (pair_margin 10) does; a check that forgot the coming move would keep the
// circle's lists one step too long and let it pass into the other unseen.
// (listing_needed checks four circles at a time where it can and the rest one by one; this
// catches a slip in either.)
TEST(particle_world, a_fast_circle_is_listed_before_it_meets_another) {
    const auto run = [](float margin) {
        world_options options;
        options.gravity_y = 0.0F;
        options.pair_margin = margin;
        particle_world world(options);
        world.add_circle({0.0F, 0.0F, 0.6F}, 0.0F);
        world.add_circle({-3.0F, 0.0F, 0.6F}, 1.0F, 30.0F, 0.0F);
        for (int k = 0; k < 6; ++k) { // far away: eight circles, so the check runs in blocks too
            world.add_circle({static_cast<float>(3 * k), 30.0F, 0.6F}, 0.0F);
        }
        std::vector<float> xs;
        for (int s = 0; s < 6; ++s) {
            world.step(1.0F / 60.0F);
            xs.push_back(world.particles().x[1]);
        }
        return xs;
    };
    const std::vector<float> want = run(10.0F);
    const std::vector<float> got = run(0.01F);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t s = 0; s < want.size(); ++s) {
        EXPECT_SAME_BITS(got[s], want[s], "x after step", s);
    }
    EXPECT_LE(want.back(), -1.2F + 1e-5F); // held outside the static circle
}

TEST(particle_world, a_small_pile_settles) {
    pile_settles(500, 300);
}

TEST(particle_world_soak, a_pile_of_10000_circles_settles_over_2000_steps) {
    pile_settles(10000, 2000);
}

// The same in bands of 1024 circles (ten of them), as the benchmark steps its piles.
TEST(particle_world_soak, a_pile_of_10000_circles_settles_over_2000_steps_in_bands) {
    pile_settles(10000, 2000, {.circles_per_band = 1024});
}

// A deep, narrow drop: 2 000 circles, 10 wide and 200 rows, falling up to 200 onto a floor
// between two walls. With shock propagation 0.5 it lands and comes to rest: from
// step 700 to 1 000 its mean v^2 stays below 0.5 (measured: 0.03 to 0.23) and its median
// height within 1 (44.3 to 44.7). Without (shock_propagation = 0) the landing compresses the
// pile and it springs back: over the same steps mean v^2 up to 8.6 (step 750) and heights
// 42.8 to 45.1, and up to 116 and 39 to 52 before (docs/world-design.md, "Deep piles").
TEST(particle_world_soak, a_deep_drop_lands_and_comes_to_rest) {
    particle_world world({.shock_propagation = 0.5F});
    const int width = 10;
    const int rows = 200;
    world.set_boxes(open_container(width, 2 * rows + 10).view());
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (int i = 0; i < width * rows; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % width) + 0.05F * unit(rng),
                          1.0F + static_cast<float>(i / width), 0.25F + 0.2F * unit(rng)},
                         1.0F);
    }
    float lowest = std::numeric_limits<float>::infinity();
    float highest = -lowest;
    for (int s = 1; s <= 1000; ++s) {
        world.step(1.0F / 60.0F);
        if (s < 700 || s % 50 != 0) {
            continue;
        }
        const particles_view p = world.particles();
        double v2 = 0.0;
        std::vector<float> heights(p.y, p.y + p.count);
        for (std::size_t i = 0; i < p.count; ++i) {
            ASSERT_TRUE(p.x[i] > 0.0F && p.x[i] < width && p.y[i] > 0.0F) << "step " << s;
            v2 += double{p.vx[i]} * p.vx[i] + double{p.vy[i]} * p.vy[i];
        }
        EXPECT_LT(v2 / static_cast<double>(p.count), 0.5) << "step " << s;
        std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
        lowest = std::min(lowest, heights[heights.size() / 2]);
        highest = std::max(highest, heights[heights.size() / 2]);
    }
    EXPECT_LT(highest - lowest, 1.0F);
}

} // namespace
} // namespace simdcollide::testing
