// The swept kernels' reference against values worked out by hand (docs/behaviour.md
// "Swept circles"), and the property the kernels exist for: a circle shot at a wall, a
// corner or a circle, at any speed, never passes through it. The second runs on every
// instruction set.
#include "test_support.hpp"

#include <simdcollide/swept.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

struct one_impact {
    std::size_t hits;
    float time;
    float normal_x;
    float normal_y;
};

// One move against one box, through the pairwise and the one-box forms, which must agree.
one_impact sweep_box(circle c, float dx, float dy, aabb b) {
    float t = -1, nx = -1, ny = -1;
    const std::size_t hits = reference::sweep(
        circles_cview{&c.x, &c.y, &c.radius, 1}, displacements_cview{&dx, &dy, 1},
        aabbs_view{&b.min_x, &b.min_y, &b.max_x, &b.max_y, 1}, impacts_view{&t, &nx, &ny, 1});
    float t1 = -1, nx1 = -1, ny1 = -1;
    EXPECT_EQ(reference::sweep(circles_cview{&c.x, &c.y, &c.radius, 1},
                               displacements_cview{&dx, &dy, 1}, b,
                               impacts_view{&t1, &nx1, &ny1, 1}),
              hits);
    EXPECT_EQ(bits(t1), bits(t));
    EXPECT_EQ(bits(nx1), bits(nx));
    EXPECT_EQ(bits(ny1), bits(ny));
    return {hits, t, nx, ny};
}

one_impact sweep_circle(circle a, float dx, float dy, circle b) {
    float t = -1, nx = -1, ny = -1;
    const std::size_t hits =
        reference::sweep(circles_cview{&a.x, &a.y, &a.radius, 1}, displacements_cview{&dx, &dy, 1},
                         circles_cview{&b.x, &b.y, &b.radius, 1}, impacts_view{&t, &nx, &ny, 1});
    return {hits, t, nx, ny};
}

void expect_hit(const one_impact& k, float time, float normal_x, float normal_y) {
    EXPECT_EQ(k.hits, 1U);
    EXPECT_NEAR(k.time, time, 1e-6F);
    EXPECT_NEAR(k.normal_x, normal_x, 1e-6F);
    EXPECT_NEAR(k.normal_y, normal_y, 1e-6F);
}

void expect_miss(const one_impact& k) {
    EXPECT_EQ(k.hits, 0U);
    EXPECT_EQ(bits(k.time), bits(1.0F));
    EXPECT_EQ(bits(k.normal_x), bits(0.0F));
    EXPECT_EQ(bits(k.normal_y), bits(0.0F));
}

const aabb unit_box = aabb::from_min_max(-1, -1, 1, 1);

TEST(swept_reference, a_face_is_hit_where_the_grown_face_is_reached) {
    // Radius 0.5: the face x = -1 grown to -1.5, reached after 1.5 of the 4.
    expect_hit(sweep_box({-3, 0.25F, 0.5F}, 4, 0, unit_box), 0.375F, -1, 0);
    // From above, straight down onto the top face grown to 1.5.
    expect_hit(sweep_box({0.5F, 4, 0.5F}, 0, -5, unit_box), 0.5F, 0, 1);
    // A thin wall 0.001 thick, at 100 times the wall's width a step: hit at its near face.
    expect_hit(sweep_box({-1, 0, 0.05F}, 100, 0, aabb::from_min_max(0, -1, 0.001F, 1)), 0.0095F, -1,
               0);
}

TEST(swept_reference, a_corner_is_hit_on_its_quarter_circle) {
    // Radius 5 passing 3 below the corner (0, 0): touches it with the centre at (-4, -3).
    expect_hit(sweep_box({-20, -3, 5}, 20, 0, aabb::from_min_max(0, 0, 10, 10)), 0.8F, -0.8F,
               -0.6F);
    // Diagonally at the corner (1, 1): touches with the centre r / sqrt(2) out on each axis.
    const float s = 0.5F / std::numbers::sqrt2_v<float>;
    expect_hit(sweep_box({3, 3, 0.5F}, -2, -2, unit_box), 1.0F - s / 2.0F,
               std::numbers::sqrt2_v<float> / 2, std::numbers::sqrt2_v<float> / 2);
    // Passing the corner by more than the radius: a miss.
    expect_miss(sweep_box({-3, 2, 0.5F}, 6, 0, unit_box));
}

TEST(swept_reference, a_start_in_contact_hits_at_zero_only_when_going_further_in) {
    const aabb wall = aabb::from_min_max(0, -5, 10, 5);
    expect_hit(sweep_box({-0.5F, 0, 1}, 1, 0, wall), 0, -1, 0);
    expect_miss(sweep_box({-0.5F, 0, 1}, -1, 0, wall));
    expect_miss(sweep_box({-0.5F, 0, 1}, 0, 1, wall)); // along the face: neither in nor out
    // Centre inside: the contact's face (the nearest, x = 0) is the normal.
    expect_hit(sweep_box({1, 0, 0.25F}, 3, 0, wall), 0, -1, 0);
    expect_miss(sweep_box({1, 0, 0.25F}, -3, 0, wall));
}

TEST(swept_reference, touching_exactly_is_a_hit_at_zero_moving_in_and_at_one_arriving) {
    const aabb wall = aabb::from_min_max(0, -5, 10, 5);
    expect_hit(sweep_box({-1, 0, 1}, 2, 0, wall), 0, -1, 0); // touching, moving in
    expect_miss(sweep_box({-1, 0, 1}, -2, 0, wall));         // touching, moving away
    expect_hit(sweep_box({-3, 0, 1}, 2, 0, wall), 1, -1, 0); // arriving exactly
    expect_miss(sweep_box({-3, 0, 1}, 1.5F, 0, wall));       // short of it
}

TEST(swept_reference, zero_moves_and_zero_radii) {
    expect_miss(sweep_box({-3, 0, 1}, 0, 0, unit_box));
    expect_miss(sweep_box({0, 0, 1}, 0, 0, unit_box)); // inside, not moving: nowhere further in
    // A point: the box itself, face and corner.
    expect_hit(sweep_box({-2, 0.5F, 0}, 4, 0, unit_box), 0.25F, -1, 0);
    // Exactly at a corner: the axis entered last, y on a tie.
    expect_hit(sweep_box({-2, -2, 0}, 2, 2, unit_box), 0.5F, 0, -1);
    // Along a face's line, grazing the corner: touching is an impact.
    expect_hit(sweep_box({-2, 1, 0}, 4, 0, unit_box), 0.25F, -1, 0);
    // A circle resting on the top face, sliding along it: no impact.
    expect_miss(sweep_box({0, 1.5F, 0.5F}, 0.5F, 0, unit_box));
}

TEST(swept_reference, a_still_circle_is_hit_at_the_sum_of_radii) {
    expect_hit(sweep_circle({-10, 0, 1}, 20, 0, {0, 0, 1}), 0.4F, -1, 0);
    expect_hit(sweep_circle({-20, 3, 2}, 20, 0, {0, 0, 3}), 0.8F, -0.8F, 0.6F);
    expect_miss(sweep_circle({-20, 6, 2}, 40, 0, {0, 0, 3}));
    expect_miss(sweep_circle({-10, 0, 1}, 7, 0, {0, 0, 1}));          // short
    expect_hit(sweep_circle({-10, 0, 1}, 8, 0, {0, 0, 1}), 1, -1, 0); // arriving exactly
    // In contact at the start: at zero moving in, none moving out.
    expect_hit(sweep_circle({-1, 0, 1}, 1, 0, {0, 0, 1}), 0, -1, 0);
    expect_miss(sweep_circle({-1, 0, 1}, -1, 0, {0, 0, 1}));
    // Coincident centres: against the move; not moving, none.
    expect_hit(sweep_circle({0, 0, 1}, 0, 2, {0, 0, 1}), 0, 0, -1);
    expect_miss(sweep_circle({0, 0, 1}, 0, 0, {0, 0, 1}));
    // Two points, one straight through the other: against the move.
    expect_hit(sweep_circle({-1, 0, 0}, 2, 0, {0, 0, 0}), 0.5F, -1, 0);
}

// The distance from point (px, py) to box b, in double.
double distance_to_box(double px, double py, const aabb& b) {
    const double dx = std::max({b.min_x - px, 0.0, px - b.max_x});
    const double dy = std::max({b.min_y - py, 0.0, py - b.max_y});
    return std::hypot(dx, dy);
}

// The least distance from the segment p + s d, s in [0, 1], to box b, in double: the
// distance is convex along the segment, so a ternary search finds it; 0 where the segment
// crosses the box (checked first, exactly, by the slabs).
double closest_approach(double px, double py, double dx, double dy, const aabb& b) {
    double lo = 0.0, hi = 1.0;
    const auto axis = [&](double p, double d, double a, double c) {
        if (d == 0.0) {
            if (p < a || p > c) {
                hi = -1.0;
            }
            return;
        }
        const double t0 = (a - p) / d;
        const double t1 = (c - p) / d;
        lo = std::max(lo, std::min(t0, t1));
        hi = std::min(hi, std::max(t0, t1));
    };
    axis(px, dx, b.min_x, b.max_x);
    axis(py, dy, b.min_y, b.max_y);
    if (lo <= hi) {
        return 0.0;
    }
    double a = 0.0, c = 1.0;
    for (int i = 0; i < 200; ++i) {
        const double m1 = a + (c - a) / 3.0;
        const double m2 = c - (c - a) / 3.0;
        if (distance_to_box(px + m1 * dx, py + m1 * dy, b) <
            distance_to_box(px + m2 * dx, py + m2 * dy, b)) {
            c = m2;
        } else {
            a = m1;
        }
    }
    return distance_to_box(px + a * dx, py + a * dy, b);
}

// Circles of radius 0.01 to 1 shot at 10 to 10 000 m/s for a 1/240 s substep (moves of 0.04
// to 42), from many offsets and angles, at walls 0.001 to 1 thick and at their corners, on
// the active instruction set: every move whose path comes within the radius of the wall
// hits it, where the circle touches it and not before; every move that stays clear does not.
class swept_on_each_isa : public on_each_isa {};

TEST_P(swept_on_each_isa, no_shot_passes_through_a_wall) {
    std::mt19937 rng(2024);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const float thickness[] = {0.001F, 0.01F, 0.1F, 1.0F};
    const float speed[] = {10.0F, 100.0F, 240.0F, 1000.0F, 10000.0F};
    const float radius[] = {0.01F, 0.05F, 0.2F, 1.0F};
    std::size_t hits = 0, shots = 0;
    for (const float w : thickness) {
        const aabb wall = aabb::from_min_max(0, -1, w, 1);
        for (const float v : speed) {
            for (const float r : radius) {
                for (int k = 0; k < 200; ++k) {
                    // Aimed at a point on or near the wall (its corners included), from a
                    // start one to three moves away on the wall's left, at any angle.
                    const float length = v / 240.0F;
                    const float angle = (unit(rng) - 0.5F) * 3.0F;
                    const float aim_x = unit(rng) * w;
                    const float aim_y = (unit(rng) * 2.0F - 1.0F) * (1.0F + 2.0F * r);
                    const float back = length * (0.2F + unit(rng) * 0.9F);
                    circle c{aim_x - std::cos(angle) * back, aim_y - std::sin(angle) * back, r};
                    if (distance_to_box(c.x, c.y, wall) < r) {
                        continue; // starts in contact: the world's contacts take those
                    }
                    float dx = std::cos(angle) * length;
                    float dy = std::sin(angle) * length;
                    float t = 0, nx = 0, ny = 0;
                    const std::size_t hit = sweep(circles_cview{&c.x, &c.y, &c.radius, 1},
                                                  displacements_cview{&dx, &dy, 1}, wall,
                                                  impacts_view{&t, &nx, &ny, 1});
                    const double nearest = closest_approach(c.x, c.y, dx, dy, wall);
                    const double slack = 1e-5 * (1.0 + length);
                    ++shots;
                    if (nearest < r - slack) {
                        ASSERT_EQ(hit, 1U)
                            << "passed through: r=" << r << " v=" << v << " w=" << w << " from ("
                            << c.x << ", " << c.y << ") by (" << dx << ", " << dy << ")";
                    } else if (nearest > r + slack) {
                        ASSERT_EQ(hit, 0U) << "hit a wall it passes clear of";
                    }
                    if (hit == 1) {
                        ++hits;
                        // Where it stops it touches the wall, and no earlier point does.
                        const double at = distance_to_box(c.x + t * dx, c.y + t * dy, wall);
                        EXPECT_NEAR(at, r, slack)
                            << "t=" << t << " n=(" << nx << ", " << ny << ") r=" << r << " w=" << w
                            << " from (" << c.x << ", " << c.y << ") by (" << dx << ", " << dy
                            << ")";
                        EXPECT_GE(closest_approach(c.x, c.y, t * dx, t * dy, wall), r - slack);
                        EXPECT_NEAR(std::hypot(nx, ny), 1.0, 1e-5);
                    }
                }
            }
        }
    }
    EXPECT_GT(hits, shots / 3);
}

TEST_P(swept_on_each_isa, no_shot_passes_through_a_still_circle) {
    std::mt19937 rng(4048);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::size_t hits = 0;
    for (const float v : {10.0F, 240.0F, 10000.0F}) {
        for (const float r : {0.01F, 0.2F, 1.0F}) {
            for (int k = 0; k < 300; ++k) {
                const circle still{0, 0, 0.05F + unit(rng)};
                const float length = v / 240.0F;
                const float angle = unit(rng) * 6.2831853F;
                const float offset = (unit(rng) * 2.0F - 1.0F) * (still.radius + r) * 1.2F;
                const float back = length * (0.2F + unit(rng) * 0.9F);
                circle c{-std::cos(angle) * back - std::sin(angle) * offset,
                         -std::sin(angle) * back + std::cos(angle) * offset, r};
                if (std::hypot(c.x, c.y) < r + still.radius) {
                    continue;
                }
                float dx = std::cos(angle) * length;
                float dy = std::sin(angle) * length;
                float t = 0, nx = 0, ny = 0;
                const std::size_t hit =
                    sweep(circles_cview{&c.x, &c.y, &c.radius, 1}, displacements_cview{&dx, &dy, 1},
                          circles_cview{&still.x, &still.y, &still.radius, 1},
                          impacts_view{&t, &nx, &ny, 1});
                // The segment's closest approach to the still centre, in double.
                const double dd = double(dx) * dx + double(dy) * dy;
                const double s = std::clamp(-(double(c.x) * dx + double(c.y) * dy) / dd, 0.0, 1.0);
                const double nearest = std::hypot(c.x + s * dx, c.y + s * dy);
                const double reach = r + still.radius;
                const double slack = 1e-5 * (1.0 + length);
                if (nearest < reach - slack) {
                    ASSERT_EQ(hit, 1U) << "passed through a circle";
                } else if (nearest > reach + slack) {
                    ASSERT_EQ(hit, 0U);
                }
                if (hit == 1) {
                    ++hits;
                    EXPECT_NEAR(std::hypot(c.x + t * dx, c.y + t * dy), reach, slack);
                }
            }
        }
    }
    EXPECT_GT(hits, 500U);
}

INSTANTIATE_TEST_SUITE_P(every_isa, swept_on_each_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
