// The scalar reference against values worked out by hand, one test per rule of docs/behaviour.md
// "Circle against AABB". The SIMD paths are held to the reference bit for bit elsewhere;
// these tests hold the reference to the contract.
#include "test_support.hpp"

#include <cmath>

namespace simdcollide::testing {
namespace {

struct one_contact {
    bool hit;
    float normal_x, normal_y, depth, point_x, point_y;
};

one_contact contact_one(circle c, aabb b, float margin = 0.0F) {
    circle_set circles;
    circles.push_back(c);
    aabb_set boxes;
    boxes.push_back(b);
    contact_set out(1);
    const std::size_t hits = reference::contact(circles.view(), boxes.view(), out.view(), margin);
    return {hits == 1,    out.normal_x[0], out.normal_y[0],
            out.depth[0], out.point_x[0],  out.point_y[0]};
}

circle push_out_one(circle c, aabb b, float margin = 0.0F, std::size_t* moved = nullptr) {
    circle_set circles;
    circles.push_back(c);
    aabb_set boxes;
    boxes.push_back(b);
    const std::size_t n = reference::push_out(circles.view(), boxes.view(), margin);
    if (moved != nullptr) {
        *moved = n;
    }
    return circles[0];
}

void expect_contact(const one_contact& k, float nx, float ny, float depth, float px, float py) {
    ASSERT_TRUE(k.hit);
    EXPECT_EQ(k.normal_x, nx);
    EXPECT_EQ(k.normal_y, ny);
    EXPECT_EQ(k.depth, depth);
    EXPECT_EQ(k.point_x, px);
    EXPECT_EQ(k.point_y, py);
}

void expect_no_contact(const one_contact& k) {
    EXPECT_FALSE(k.hit);
    // A pair not in contact reports zeros, +0 exactly.
    EXPECT_EQ(bits(k.normal_x), 0U);
    EXPECT_EQ(bits(k.normal_y), 0U);
    EXPECT_EQ(bits(k.depth), 0U);
    EXPECT_EQ(bits(k.point_x), 0U);
    EXPECT_EQ(bits(k.point_y), 0U);
}

const aabb unit_box = aabb::from_min_max(0, 0, 2, 1);

TEST(circle_aabb_reference, box_from_origin_and_size) {
    const aabb b = aabb::from_origin_size(1, 2, 3, 4);
    EXPECT_EQ(b.min_x, 1);
    EXPECT_EQ(b.min_y, 2);
    EXPECT_EQ(b.max_x, 4);
    EXPECT_EQ(b.max_y, 6);
}

TEST(circle_aabb_reference, closest_point_clamps_each_axis) {
    circle_set c;
    c.push_back({5, -3, 1});    // beyond max_x, below min_y: the corner (2, 0)
    c.push_back({1, 0.5F, 1});  // inside: itself
    c.push_back({-1, 0.5F, 1}); // left of min_x: onto the face
    aabb_set b;
    for (int i = 0; i < 3; ++i) {
        b.push_back(unit_box);
    }
    std::vector<float> x(3), y(3), d2(3);
    reference::closest_point(c.view(), b.view(), points_view(std::span(x), std::span(y)));
    EXPECT_EQ(x, (std::vector<float>{2, 1, 0}));
    EXPECT_EQ(y, (std::vector<float>{0, 0.5F, 0.5F}));
    reference::distance_squared(c.view(), b.view(), d2);
    EXPECT_EQ(d2, (std::vector<float>{9 + 9, 0, 1}));
}

TEST(circle_aabb_reference, outside_face_contact) {
    // Centre (3, 0.5), box [0,2]x[0,1]: s = (2, 0.5), distance 1, radius 1.5.
    expect_contact(contact_one({3, 0.5F, 1.5F}, unit_box), 1, 0, 0.5F, 2, 0.5F);
}

TEST(circle_aabb_reference, outside_corner_contact) {
    // 3-4-5 from the corner (2, 1): normal (0.6, 0.8), depth 6 - 5.
    const one_contact k = contact_one({5, 5, 6}, unit_box);
    expect_contact(k, 0.6F, 0.8F, 1, 2, 1);
}

TEST(circle_aabb_reference, touching_is_not_a_contact) {
    expect_no_contact(contact_one({3, 0.5F, 1}, unit_box)); // face: d2 == r*r
    expect_no_contact(contact_one({5, 5, 5}, unit_box));    // corner: 3-4-5
}

TEST(circle_aabb_reference, inside_leaves_through_nearest_face) {
    const aabb b = aabb::from_min_max(0, 0, 10, 4);
    // dl = 1 beats dhi = dlo = 2: the min_x face, normal (-1, 0), depth 1 + r.
    expect_contact(contact_one({1, 2, 0.5F}, b), -1, 0, 1.5F, 0, 2);
    // dr = 1: the max_x face.
    expect_contact(contact_one({9, 2, 0.5F}, b), 1, 0, 1.5F, 10, 2);
    // dlo = 1: the min_y face, normal (0, -1).
    expect_contact(contact_one({5, 1, 0.5F}, b), 0, -1, 1.5F, 5, 0);
    // dhi = 1: the max_y face.
    expect_contact(contact_one({5, 3, 0.5F}, b), 0, 1, 1.5F, 5, 4);
}

TEST(circle_aabb_reference, tie_between_x_faces_goes_to_max_x) {
    // Box [0,4]x[0,10], centre (2, 5): dl == dr == 2, both y faces 5 away.
    expect_contact(contact_one({2, 5, 1}, aabb::from_min_max(0, 0, 4, 10)), 1, 0, 3, 4, 5);
}

TEST(circle_aabb_reference, tie_between_y_faces_goes_to_max_y) {
    // Box [0,10]x[0,4], centre (5, 2): dlo == dhi == 2, both x faces 5 away.
    expect_contact(contact_one({5, 2, 1}, aabb::from_min_max(0, 0, 10, 4)), 0, 1, 3, 5, 4);
}

TEST(circle_aabb_reference, tie_between_x_and_y_faces_goes_to_y) {
    // Square box, centre at its centre: all four faces 2 away; max_y wins.
    expect_contact(contact_one({2, 2, 1}, aabb::from_min_max(0, 0, 4, 4)), 0, 1, 3, 2, 4);
    // Only the x face min_x and the y face max_y tie.
    expect_contact(contact_one({1, 3, 1}, aabb::from_min_max(0, 0, 4, 4)), 0, 1, 2, 1, 4);
}

TEST(circle_aabb_reference, centre_on_min_x_face_is_pushed_outwards) {
    // The seed's pseudocode takes the sign of the face distance (0 here) and pushes this
    // circle into the box; the contract pushes it out along (-1, 0).
    const aabb b = aabb::from_min_max(0, 0, 4, 10);
    expect_contact(contact_one({0, 5, 1}, b), -1, 0, 1, 0, 5);
    const circle moved = push_out_one({0, 5, 1}, b);
    EXPECT_EQ(moved.x, -1);
    EXPECT_EQ(moved.y, 5);
}

TEST(circle_aabb_reference, centre_on_min_y_face_is_pushed_outwards) {
    const aabb b = aabb::from_min_max(0, 0, 10, 4);
    expect_contact(contact_one({5, 0, 1}, b), 0, -1, 1, 5, 0);
    const circle moved = push_out_one({5, 0, 1}, b);
    EXPECT_EQ(moved.x, 5);
    EXPECT_EQ(moved.y, -1);
}

TEST(circle_aabb_reference, point_particle_inside_is_pushed_to_the_face) {
    const aabb b = aabb::from_min_max(0, 0, 4, 4);
    expect_contact(contact_one({1, 2, 0}, b), -1, 0, 1, 0, 2);
    const circle moved = push_out_one({1, 2, 0}, b);
    EXPECT_EQ(moved.x, 0);
    EXPECT_EQ(moved.y, 2);
}

TEST(circle_aabb_reference, point_particle_on_the_boundary_is_not_a_contact) {
    const aabb b = aabb::from_min_max(0, 0, 4, 4);
    expect_no_contact(contact_one({0, 2, 0}, b));
    expect_no_contact(contact_one({4, 4, 0}, b)); // a corner
    std::size_t moved = 9;
    const circle same = push_out_one({0, 2, 0}, b, 0, &moved);
    EXPECT_EQ(moved, 0U);
    EXPECT_EQ(same.x, 0);
}

TEST(circle_aabb_reference, zero_size_box) {
    // Centre on a zero-size box: every face distance is 0; the max_y face wins.
    const aabb b = aabb::from_origin_size(1, 1, 0, 0);
    expect_contact(contact_one({1, 1, 0.5F}, b), 0, 1, 0.5F, 1, 1);
    // Outside it, the box acts as a point.
    expect_contact(contact_one({1, 1.25F, 0.5F}, b), 0, 1, 0.25F, 1, 1);
}

TEST(circle_aabb_reference, push_out_leaves_the_circle_touching_from_outside) {
    // Outside, at a corner: afterwards the distance to the box is the radius.
    const circle out = push_out_one({2.5F, 1.5F, 1}, unit_box);
    const float dx = out.x - 2;
    const float dy = out.y - 1;
    EXPECT_NEAR(std::sqrt(dx * dx + dy * dy), 1.0F, 1e-6F);
    // Inside: afterwards the centre is r beyond the face it left through.
    const circle in = push_out_one({0.25F, 0.5F, 0.5F}, unit_box);
    EXPECT_EQ(in.x, -0.5F);
    EXPECT_EQ(in.y, 0.5F);
    // And once out, a second push does nothing.
    std::size_t moved = 9;
    push_out_one(in, unit_box, 0, &moved);
    EXPECT_EQ(moved, 0U);
}

TEST(circle_aabb_reference, margin_reports_speculative_contacts_but_never_pulls) {
    // Distance 1 from the face, radius 0.5: a gap of 0.5.
    const circle c{3, 0.5F, 0.5F};
    expect_no_contact(contact_one(c, unit_box, 0.0F));
    expect_no_contact(contact_one(c, unit_box, 0.5F)); // d2 == (r + m)^2: touching the margin
    expect_contact(contact_one(c, unit_box, 0.75F), 1, 0, -0.5F, 2, 0.5F);
    std::size_t moved = 9;
    const circle same = push_out_one(c, unit_box, 0.75F, &moved);
    EXPECT_EQ(moved, 0U);
    EXPECT_EQ(same.x, 3);
    // A point particle on the boundary is a contact of depth 0 once there is a margin.
    expect_contact(contact_one({0, 0.5F, 0}, unit_box, 0.25F), -1, 0, 0, 0, 0.5F);
}

TEST(circle_aabb_reference, overlap_is_contact) {
    circle_set c;
    c.push_back({3, 0.5F, 1.5F}); // outside, hit
    c.push_back({3, 0.5F, 1});    // touching: no
    c.push_back({1, 0.5F, 0});    // point inside: hit
    c.push_back({0, 0.5F, 0});    // point on the boundary: no
    aabb_set b;
    for (int i = 0; i < 4; ++i) {
        b.push_back(unit_box);
    }
    std::vector<std::uint8_t> mask(4);
    EXPECT_EQ(reference::overlap(c.view(), b.view(), mask), 2U);
    EXPECT_EQ(mask, (std::vector<std::uint8_t>{1, 0, 1, 0}));
    EXPECT_EQ(reference::count_overlaps(c.view(), b.view()), 2U);
    // A margin of 0.1 adds the touching circle and the point on the boundary.
    EXPECT_EQ(reference::count_overlaps(c.view(), b.view(), 0.1F), 4U);
}

} // namespace
} // namespace simdcollide::testing
