// The circle-circle and velocity-response reference against hand-worked values and physics:
// separation leaves pairs touching and keeps the centre of mass, static circles never move,
// pair-list separation keeps a resting column stable, impulses conserve momentum and obey
// restitution and Coulomb friction. Bad arguments fail before anything is written.
#include "test_support.hpp"

#include <cmath>
#include <limits>

namespace simdcollide::testing {
namespace {

/// A handful of particles in plain vectors.
struct bodies {
    std::vector<float> x, y, r, w, vx, vy;
    std::size_t add(float px, float py, float radius, float inverse_mass, float pvx = 0,
                    float pvy = 0) {
        x.push_back(px);
        y.push_back(py);
        r.push_back(radius);
        w.push_back(inverse_mass);
        vx.push_back(pvx);
        vy.push_back(pvy);
        return x.size() - 1;
    }
    particles_view view() { return {x, y, r, w, vx, vy}; }
    /// The single-element view of particle i (for aligned pairwise calls).
    particles_view one(std::size_t i) { return {&x[i], &y[i], &r[i], &w[i], &vx[i], &vy[i], 1}; }
};

struct one_contact {
    std::size_t hits;
    float nx, ny, depth, px, py;
};

one_contact contact_of(bodies& s, std::size_t a, std::size_t b) {
    contact_set out(1);
    const std::size_t hits = reference::contact(s.one(a), s.one(b), out.view());
    return {hits, out.normal_x[0], out.normal_y[0], out.depth[0], out.point_x[0], out.point_y[0]};
}

TEST(circle_circle_reference, contact_by_hand) {
    bodies s;
    s.add(0, 0, 2, 1);
    s.add(3, 4, 3.5F, 1); // 5 apart, radii 5.5: depth 0.5 along (0.6, 0.8)
    const one_contact k = contact_of(s, 0, 1);
    EXPECT_EQ(k.hits, 1U);
    EXPECT_EQ(k.nx, 0.6F);
    EXPECT_EQ(k.ny, 0.8F);
    EXPECT_EQ(k.depth, 0.5F);
    // The midpoint of the surface points: a + n * (2 - 0.25).
    EXPECT_FLOAT_EQ(k.px, 0.6F * 1.75F);
    EXPECT_FLOAT_EQ(k.py, 0.8F * 1.75F);
    std::vector<float> d2(1);
    reference::distance_squared(s.one(0), s.one(1), d2);
    EXPECT_EQ(d2[0], 25.0F);
}

TEST(circle_circle_reference, touching_is_not_a_contact_and_coincident_centres_use_x) {
    bodies s;
    s.add(0, 0, 1, 1);
    s.add(3, 0, 2, 1);    // exactly touching
    s.add(0, 0, 0.5F, 1); // coincident with the first
    EXPECT_EQ(contact_of(s, 0, 1).hits, 0U);
    EXPECT_EQ(contact_of(s, 0, 1).depth, 0.0F);
    const one_contact k = contact_of(s, 0, 2);
    EXPECT_EQ(k.hits, 1U);
    EXPECT_EQ(k.nx, 1.0F);
    EXPECT_EQ(k.ny, 0.0F);
    EXPECT_EQ(k.depth, 1.5F);
    EXPECT_EQ(reference::count_overlaps(s.one(0), s.one(2)), 1U);
    // Two coincident point particles: R = 0, so no contact.
    bodies points;
    points.add(1, 1, 0, 1);
    points.add(1, 1, 0, 1);
    EXPECT_EQ(contact_of(points, 0, 1).hits, 0U);
}

float distance(const bodies& s, std::size_t a, std::size_t b) {
    return std::hypot(s.x[b] - s.x[a], s.y[b] - s.y[a]);
}

TEST(circle_circle_reference, separation_leaves_the_pair_touching_and_keeps_the_centre_of_mass) {
    bodies s;
    s.add(0.3F, -0.2F, 1.0F, 0.5F); // mass 2
    s.add(1.1F, 0.9F, 0.75F, 2.0F); // mass 0.5
    const float cx = (2.0F * s.x[0] + 0.5F * s.x[1]) / 2.5F;
    const float cy = (2.0F * s.y[0] + 0.5F * s.y[1]) / 2.5F;
    EXPECT_EQ(reference::separate(s.one(0), s.one(1)), 1U);
    EXPECT_NEAR(distance(s, 0, 1), 1.75F, 1e-6F);
    EXPECT_NEAR((2.0F * s.x[0] + 0.5F * s.x[1]) / 2.5F, cx, 1e-6F);
    EXPECT_NEAR((2.0F * s.y[0] + 0.5F * s.y[1]) / 2.5F, cy, 1e-6F);
    // Now touching: a second call moves them by a rounding error at most.
    const float x0 = s.x[0];
    reference::separate(s.one(0), s.one(1));
    EXPECT_NEAR(s.x[0], x0, 1e-6F);
}

TEST(circle_circle_reference, separation_modes_split_the_depth) {
    // Along x: a at 0 (r 2), b at 2 (r 1): depth 1.
    for (const auto& [mode, a_moves] :
         {std::pair{separation_weighting::equal, 0.5F},
          std::pair{separation_weighting::by_radius, 1.0F / 3.0F}, // the larger moves less
          std::pair{separation_weighting::inverse_mass, 0.25F}}) {
        bodies s;
        s.add(0, 0, 2, 1);
        s.add(2, 0, 1, 3); // inverse masses 1 and 3: a takes 1/4
        reference::separate(s.one(0), s.one(1), mode);
        EXPECT_NEAR(s.x[0], -a_moves, 1e-6F) << static_cast<int>(mode);
        EXPECT_NEAR(s.x[1], 2 + (1 - a_moves), 1e-6F) << static_cast<int>(mode);
        EXPECT_EQ(s.y[0], 0);
        EXPECT_EQ(s.y[1], 0);
    }
}

TEST(circle_circle_reference, static_circles_never_move_in_any_mode) {
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        bodies s;
        s.add(-0.0F, 0, 1, 0); // static, and -0 whose sign must survive
        s.add(1, 0.5F, 1, 1);
        reference::separate(s.one(0), s.one(1), mode);
        EXPECT_EQ(bits(s.x[0]), bits(-0.0F));
        EXPECT_EQ(s.y[0], 0);
        EXPECT_NEAR(distance(s, 0, 1), 2.0F, 1e-6F); // the other moved the whole depth
        bodies both;
        both.add(0, 0, 1, 0);
        both.add(1, 0, 1, 0);
        EXPECT_EQ(reference::separate(both.one(0), both.one(1), mode), 0U);
        EXPECT_EQ(both.x[1], 1);
    }
}

TEST(circle_circle_reference, pair_list_averages_the_corrections_of_a_shared_circle) {
    bodies s;
    const std::size_t middle = s.add(0, 0, 1, 1);
    s.add(-1.5F, 0, 1, 0); // static neighbours on both sides push equally
    s.add(1.5F, 0, 1, 0);
    const std::vector<circle_pair> pairs = {{0, 1}, {0, 2}};
    EXPECT_EQ(reference::separate(s.view(), pairs), 1U);
    EXPECT_EQ(s.x[middle], 0.0F); // the mean of +0.5 and -0.5
    // With one neighbour only, the full correction.
    const std::vector<circle_pair> one = {{0, 2}};
    reference::separate(s.view(), one);
    EXPECT_EQ(s.x[middle], -0.5F);
}

// A column of ten circles resting on a static one, under gravity: one iteration moves every
// circle down a little, then separates the column once. Over 1000 iterations it must neither
// explode nor drift sideways: it settles into a steady, ordered, somewhat compressed column
// (one separation per gravity step does not remove all overlap; more iterations would).
TEST(circle_circle_reference, resting_column_is_stable_for_1000_iterations) {
    for (const bool simd : {false, true}) {
        bodies s;
        s.add(0, 0, 0.5F, 0); // static base
        for (int i = 1; i <= 10; ++i) {
            s.add(0, static_cast<float>(i), 0.5F, 1);
        }
        std::vector<circle_pair> pairs;
        for (std::uint32_t i = 0; i < 10; ++i) {
            pairs.push_back({i, i + 1});
        }
        separation_workspace workspace;
        std::vector<float> previous;
        for (int iteration = 0; iteration < 1000; ++iteration) {
            previous = s.y;
            for (std::size_t i = 1; i < s.x.size(); ++i) {
                s.y[i] -= 0.01F; // gravity's share of this iteration
            }
            if (simd) {
                separate(s.view(), pairs, separation_weighting::inverse_mass, workspace);
            } else {
                reference::separate(s.view(), pairs, separation_weighting::inverse_mass, workspace);
            }
        }
        EXPECT_EQ(s.y[0], 0.0F);
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            EXPECT_EQ(s.x[i], 0.0F) << "drifted sideways: " << i;
            EXPECT_TRUE(std::isfinite(s.y[i]));
            EXPECT_NEAR(s.y[i], previous[i], 1e-4F) << "still moving: " << i;
        }
        for (std::size_t i = 1; i < s.x.size(); ++i) {
            const float gap = s.y[i] - s.y[i - 1];
            EXPECT_GT(gap, 0.5F) << "sank through the one below: " << i;
            EXPECT_LT(gap, 1.0F + 1e-5F) << "flew apart: " << i;
        }
    }
}

TEST(circle_circle_reference, bad_pair_lists_throw_before_writing) {
    bodies s;
    s.add(0, 0, 1, 1);
    s.add(0.5F, 0, 1, 1);
    for (const std::vector<circle_pair>& bad :
         {std::vector<circle_pair>{{0, 1}, {0, 2}}, std::vector<circle_pair>{{1, 1}}}) {
        EXPECT_THROW(reference::separate(s.view(), bad), std::invalid_argument);
        EXPECT_THROW(separate(s.view(), bad), std::invalid_argument);
        EXPECT_EQ(s.x[0], 0.0F);
        EXPECT_EQ(s.x[1], 0.5F);
        contact_set out(bad.size());
        out.depth[0] = 7.0F;
        const circles_cview c(s.x.data(), s.y.data(), s.r.data(), s.x.size());
        EXPECT_THROW(reference::contact(c, bad, out.view()), std::invalid_argument);
        EXPECT_THROW(contact(c, bad, out.view()), std::invalid_argument);
        EXPECT_EQ(out.depth[0], 7.0F);
    }
    // An output of another length than the list.
    contact_set short_out(1);
    const std::vector<circle_pair> two{{0, 1}, {1, 0}};
    EXPECT_THROW(
        contact(circles_cview(s.x.data(), s.y.data(), s.r.data(), 2), two, short_out.view()),
        std::invalid_argument);
}

// Over a pair list, a pair's contact is the pairwise kernel's for the same two circles.
TEST(circle_circle_reference, pair_list_contact_is_the_pairwise_contact) {
    bodies s;
    s.add(0, 0, 1, 1);
    s.add(1.5F, 0, 1, 1);
    s.add(0, 0, 0.5F, 1); // coincident with circle 0
    s.add(5, 5, 1, 1);
    const std::vector<circle_pair> pairs{{0, 1}, {1, 0}, {0, 2}, {0, 3}};
    contact_set out(pairs.size());
    const circles_cview c(s.x.data(), s.y.data(), s.r.data(), s.x.size());
    EXPECT_EQ(reference::contact(c, pairs, out.view()), 3U);
    EXPECT_EQ(out.normal_x[0], 1.0F);
    EXPECT_EQ(out.normal_x[1], -1.0F);
    EXPECT_EQ(out.depth[1], 0.5F);
    EXPECT_EQ(out.normal_x[2], 1.0F); // coincident centres: (1, 0)
    EXPECT_EQ(out.normal_y[2], 0.0F);
    EXPECT_EQ(out.depth[3], 0.0F); // not in contact: zeros
    EXPECT_EQ(out.normal_x[3], 0.0F);
}

TEST(circle_circle_reference, nan_circle_changes_no_pair_it_is_not_part_of) {
    bodies clean;
    for (int i = 0; i < 12; ++i) {
        clean.add(static_cast<float>(i) * 0.8F, 0, 0.5F, 1);
    }
    bodies dirty = clean;
    dirty.x[5] = std::numeric_limits<float>::quiet_NaN();
    std::vector<circle_pair> pairs;
    for (std::uint32_t i = 0; i + 1 < 12; ++i) {
        pairs.push_back({i, i + 1});
    }
    std::vector<circle_pair> without_5;
    for (const circle_pair p : pairs) {
        if (p.a != 5 && p.b != 5) {
            without_5.push_back(p);
        }
    }
    separate(dirty.view(), pairs);
    reference::separate(clean.view(), without_5);
    for (std::size_t i = 0; i < 12; ++i) {
        if (i < 4 || i > 6) { // not paired with circle 5
            EXPECT_EQ(bits(dirty.x[i]), bits(clean.x[i])) << i;
        }
    }
}

// --- Velocity response ------------------------------------------------------------------

struct response_case {
    bodies s;
    contact_set k{1};
};

// Circles a (index 0) and b (index 1) with normal n from a to b.
response_case head_on(float avx, float avy, float bvx, float bvy, float wa, float wb) {
    response_case c;
    c.s.add(0, 0, 1, wa, avx, avy);
    c.s.add(1.5F, 0, 1, wb, bvx, bvy);
    reference::contact(c.s.one(0), c.s.one(1), c.k.view());
    return c;
}

TEST(response_reference, momentum_is_conserved) {
    response_case c = head_on(2, 0.5F, -1, 0.25F, 0.5F, 0.25F); // masses 2 and 4
    const float px = 2 * c.s.vx[0] + 4 * c.s.vx[1];
    const float py = 2 * c.s.vy[0] + 4 * c.s.vy[1];
    EXPECT_EQ(reference::respond(c.s.one(0), c.s.one(1), c.k.view(), {0.5F, 0.3F}), 1U);
    EXPECT_NEAR(2 * c.s.vx[0] + 4 * c.s.vx[1], px, 1e-5F);
    EXPECT_NEAR(2 * c.s.vy[0] + 4 * c.s.vy[1], py, 1e-5F);
}

TEST(response_reference, restitution_one_keeps_the_normal_speed_zero_removes_it) {
    response_case elastic = head_on(1, 0, -1, 0, 1, 1);
    reference::respond(elastic.s.one(0), elastic.s.one(1), elastic.k.view(), {1.0F, 0.0F});
    EXPECT_FLOAT_EQ(elastic.s.vx[1] - elastic.s.vx[0], 2.0F); // was -2: reflected
    response_case plastic = head_on(1, 0, -1, 0, 1, 1);
    reference::respond(plastic.s.one(0), plastic.s.one(1), plastic.k.view(), {0.0F, 0.0F});
    EXPECT_FLOAT_EQ(plastic.s.vx[1] - plastic.s.vx[0], 0.0F);
}

TEST(response_reference, no_friction_keeps_tangential_velocity) {
    response_case c = head_on(1, 3, -1, -2, 1, 1);
    reference::respond(c.s.one(0), c.s.one(1), c.k.view(), {0.5F, 0.0F});
    EXPECT_EQ(c.s.vy[0], 3.0F);
    EXPECT_EQ(c.s.vy[1], -2.0F);
}

TEST(response_reference, friction_never_reverses_tangential_velocity) {
    for (const float mu : {0.1F, 0.5F, 1.0F, 10.0F, 1000.0F}) {
        response_case c = head_on(1, 3, -1, -2, 1, 1);
        const float vt_before = c.s.vy[1] - c.s.vy[0]; // t = (0, 1) for n = (1, 0)
        reference::respond(c.s.one(0), c.s.one(1), c.k.view(), {0.0F, mu});
        const float vt_after = c.s.vy[1] - c.s.vy[0];
        EXPECT_LE(std::fabs(vt_after), std::fabs(vt_before)) << mu;
        EXPECT_GE(vt_after * vt_before, 0.0F) << "reversed at mu " << mu;
    }
    // Enough friction stops the sliding entirely: |jt| = |vt| / 2 <= mu * j.
    response_case c = head_on(1, 3, -1, -2, 1, 1);
    reference::respond(c.s.one(0), c.s.one(1), c.k.view(), {0.0F, 10.0F});
    EXPECT_FLOAT_EQ(c.s.vy[1] - c.s.vy[0], 0.0F);
}

TEST(response_reference, separating_contacts_and_static_bodies_do_not_respond) {
    response_case apart = head_on(-1, 0, 1, 0, 1, 1); // moving apart
    EXPECT_EQ(reference::respond(apart.s.one(0), apart.s.one(1), apart.k.view(), {1, 1}), 0U);
    EXPECT_EQ(apart.s.vx[0], -1.0F);
    response_case wall = head_on(-0.0F, 0, -1, 0, 0, 1); // a is static
    reference::respond(wall.s.one(0), wall.s.one(1), wall.k.view(), {1, 0});
    EXPECT_EQ(bits(wall.s.vx[0]), bits(-0.0F));
    EXPECT_FLOAT_EQ(wall.s.vx[1], 1.0F); // bounced off the static one
}

TEST(response_reference, circle_on_a_static_box_bounces_or_stops) {
    circle_set c;
    c.push_back({0.5F, 0.9F, 0.5F});
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-5, -1, 5, 0.5F));
    contact_set k(1);
    ASSERT_EQ(reference::contact(c.view(), floor.view(), k.view()), 1U);
    for (const float e : {0.0F, 0.5F, 1.0F}) {
        std::vector<float> x{0.5F}, y{0.9F}, r{0.5F}, w{1}, vx{2}, vy{-3};
        const particles_view p(x, y, r, w, vx, vy);
        EXPECT_EQ(reference::respond(p, k.view(), {e, 0.0F}), 1U);
        EXPECT_FLOAT_EQ(vy[0], 3.0F * e);
        EXPECT_EQ(vx[0], 2.0F); // no friction: the slide goes on
    }
}

TEST(response_reference, bad_parameters_throw_before_writing) {
    response_case c = head_on(1, 0, -1, 0, 1, 1);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const response_parameters bad :
         {response_parameters{-0.1F, 0}, response_parameters{1.5F, 0}, response_parameters{nan, 0},
          response_parameters{0.5F, -1},
          response_parameters{0.5F, std::numeric_limits<float>::infinity()},
          response_parameters{0.5F, nan}}) {
        EXPECT_THROW(reference::respond(c.s.one(0), c.s.one(1), c.k.view(), bad),
                     std::invalid_argument);
        EXPECT_THROW(respond(c.s.one(0), c.k.view(), bad), std::invalid_argument);
        EXPECT_EQ(c.s.vx[0], 1.0F);
    }
}

} // namespace
} // namespace simdcollide::testing
