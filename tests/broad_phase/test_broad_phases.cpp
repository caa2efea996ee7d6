// The broad phases against their brute-force definitions, bit for bit, on random and
// adversarial scenes: the static-box grid (docs/behaviour.md's seam and corner cases
// included) and the pair finder; their memory bounds.
#include "test_support.hpp"

#include "broad_phase/circle_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <tuple>

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

// One finder searching scenes one after another, with more pairs and then fewer and then
// none: each answer is that scene's alone (the finder reuses its storage).
TEST(pair_finder, a_finder_used_again_gives_each_scenes_pairs_alone) {
    pair_finder finder;
    for (const auto& [n, seed, extent] : {std::tuple{1500U, 21U, 40.0F},
                                          {1500U, 22U, 20.0F},
                                          {300U, 23U, 40.0F},
                                          {1U, 24U, 10.0F},
                                          {800U, 25U, 30.0F}}) {
        const circle_set c = random_circles(n, seed, extent, 2.0F);
        const std::vector<circle_pair> want = reference::find_pairs(c.view(), 0.0F);
        const std::span<const circle_pair> got = finder.find(c.view(), 0.0F);
        ASSERT_EQ(got.size(), want.size()) << n << " circles, seed " << seed;
        for (std::size_t k = 0; k < want.size(); ++k) {
            ASSERT_EQ(got[k].a, want[k].a) << k;
            ASSERT_EQ(got[k].b, want[k].b) << k;
        }
    }
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
// (kernels/broad_phase/circle_grid.cpp). Radii alternating 0.1 and 1 fool a sample of every other
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

// The world's partial relisting: for_each_near (kernels/broad_phase/circle_grid.hpp) over cells
// sorted from the circles, some of which then change in three rounds (as relisted circles do: some
// in more than one round, some growing larger than the cells, some turning NaN), against every
// circle tested one by one (those with a non-finite centre or a radius that is negative or not
// finite near nothing, as in pair_finder), after each round.
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

} // namespace
} // namespace simdcollide::testing
