// The box-box kernels against values worked out by hand for every rule of docs/behaviour.md
// "Box against box" (through the public entry points, on the active instruction set and the
// reference), and their argument checks (the workers' forms: tests/workers/).
#include "box_pair_scenes.hpp"
#include "test_support.hpp"

#include <simdcollide/box_box.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace simdcollide::testing {
namespace {

struct expected {
    bool hit;
    float normal_x, normal_y, depth, point_x, point_y;
};

// A's contact with B as both the dispatched and the reference kernels give it, pairwise and
// against B as the one box.
void expect_contact(aabb a, aabb b, float margin, expected want) {
    const aabbs_view first(&a.min_x, &a.min_y, &a.max_x, &a.max_y, 1);
    const aabbs_view second(&b.min_x, &b.min_y, &b.max_x, &b.max_y, 1);
    for (int form = 0; form < 4; ++form) {
        SCOPED_TRACE(form);
        float nx = 9;
        float ny = 9;
        float depth = 9;
        float px = 9;
        float py = 9;
        const contacts_view out(&nx, &ny, &depth, &px, &py, 1);
        std::uint8_t mask = 7;
        std::size_t hits = 0;
        std::size_t overlaps = 0;
        switch (form) {
        case 0:
            hits = contact(first, second, out, margin);
            overlaps = overlap(first, second, {&mask, 1}, margin);
            break;
        case 1:
            hits = reference::contact(first, second, out, margin);
            overlaps = reference::overlap(first, second, {&mask, 1}, margin);
            break;
        case 2:
            hits = contact(first, b, out, margin);
            overlaps = overlap(first, b, {&mask, 1}, margin);
            break;
        default:
            hits = reference::contact(first, b, out, margin);
            overlaps = reference::overlap(first, b, {&mask, 1}, margin);
            break;
        }
        EXPECT_EQ(hits, want.hit ? 1U : 0U);
        EXPECT_EQ(overlaps, hits);
        EXPECT_EQ(mask, want.hit ? 1 : 0);
        EXPECT_EQ(count_overlaps(first, second, margin), hits);
        EXPECT_EQ(bits(nx), bits(want.normal_x)) << nx;
        EXPECT_EQ(bits(ny), bits(want.normal_y)) << ny;
        EXPECT_EQ(bits(depth), bits(want.depth)) << depth;
        EXPECT_EQ(bits(px), bits(want.point_x)) << px;
        EXPECT_EQ(bits(py), bits(want.point_y)) << py;
    }
}

aabb box(float min_x, float min_y, float max_x, float max_y) {
    return aabb::from_min_max(min_x, min_y, max_x, max_y);
}

TEST(box_box, a_crate_resting_into_a_floor_leaves_upwards) {
    // A [1, 3] x [-0.25, 1.75] sunk 0.25 into the floor [0, 10] x [-1, 0]
    expect_contact(box(1, -0.25F, 3, 1.75F), box(0, -1, 10, 0), 0, {true, 0, 1, 0.25F, 2, 0});
}

TEST(box_box, the_normal_runs_from_the_second_box_towards_the_first) {
    // A overlaps B's left side by 0.5 on x, deep on y: leaves towards -x through B's min_x
    expect_contact(box(-1, 1, 0.5F, 3), box(0, 0, 4, 4), 0, {true, -1, 0, 0.5F, 0, 2});
    // the same pair the other way round: B leaves A towards +x through A's max_x
    expect_contact(box(0, 0, 4, 4), box(-1, 1, 0.5F, 3), 0, {true, 1, 0, 0.5F, 0.5F, 2});
    // below B: towards -y, through B's min_y
    expect_contact(box(1, -1, 2, 0.25F), box(0, 0, 4, 4), 0, {true, 0, -1, 0.25F, 1.5F, 0});
}

TEST(box_box, touching_exactly_is_not_a_contact_and_a_margin_reaches_across_a_gap) {
    const expected none{false, 0, 0, 0, 0, 0};
    expect_contact(box(4, 0, 5, 1), box(0, 0, 4, 4), 0, none);       // face to face
    expect_contact(box(4, 4, 5, 5), box(0, 0, 4, 4), 0, none);       // corner to corner
    expect_contact(box(4.5F, 0, 5, 1), box(0, 0, 4, 4), 0, none);    // apart by 0.5
    expect_contact(box(4.5F, 0, 5, 1), box(0, 0, 4, 4), 0.5F, none); // the gap is the margin
    // within the margin: a contact of negative depth, along the axis of the gap
    expect_contact(box(4.5F, 1, 5, 2), box(0, 0, 4, 4), 1, {true, 1, 0, -0.5F, 4, 1.5F});
    // corners apart by 0.5 on each axis: the boxes grown by the margin overlap; x and y
    // tie, so y; the point's x is midway along the (empty) overlap of the x extents
    expect_contact(box(4.5F, 4.5F, 5, 5), box(0, 0, 4, 4), 1, {true, 0, 1, -0.5F, 4.25F, 4});
}

TEST(box_box, ties_leave_towards_plus_and_along_y) {
    // equal depths on both axes (0.5): along y, towards +y
    expect_contact(box(3.5F, 3.5F, 4.5F, 4.5F), box(0, 0, 4, 4), 0, {true, 0, 1, 0.5F, 3.75F, 4});
    // coincident squares: every tie at once
    expect_contact(box(0, 0, 2, 2), box(0, 0, 2, 2), 0, {true, 0, 1, 2, 1, 2});
    // coincident, taller than wide: along x (the shorter move), towards +x
    expect_contact(box(0, 0, 2, 3), box(0, 0, 2, 3), 0, {true, 1, 0, 2, 2, 1.5F});
    // centred on B on x, shallower on y: along y
    expect_contact(box(1, 3, 3, 5), box(0, 0, 4, 4), 0, {true, 0, 1, 1, 2, 4});
}

TEST(box_box, a_box_inside_another_leaves_through_the_nearest_face) {
    // A [1, 2] x [2.5, 3.5] inside B [0, 4]^2: to +y by 1.5, to -x by 2, so +y by 1.5
    expect_contact(box(1, 2.5F, 2, 3.5F), box(0, 0, 4, 4), 0, {true, 0, 1, 1.5F, 1.5F, 4});
    // B inside A: A leaves B by the shortest of its moves, towards +x by 5 (towards -x it
    // would be 5.5, on y 6 either way)
    expect_contact(box(-1, -2, 5.5F, 6), box(0, 0, 4, 4), 0, {true, 1, 0, 5, 4, 2});
}

TEST(box_box, a_box_of_zero_size_leaves_as_a_point) {
    // the point (1, 3) in B [0, 4]^2: 1 from the top and from the left; the tie goes to y
    expect_contact(box(1, 3, 1, 3), box(0, 0, 4, 4), 0, {true, 0, 1, 1, 1, 4});
    // (0.5, 2): 0.5 from the left, towards -x
    expect_contact(box(0.5F, 2, 0.5F, 2), box(0, 0, 4, 4), 0, {true, -1, 0, 0.5F, 0, 2});
    // a point on B's boundary touches: no contact
    expect_contact(box(4, 2, 4, 2), box(0, 0, 4, 4), 0, {false, 0, 0, 0, 0, 0});
    // a box of zero size as the second: A [0, 2]^2 around the point (1.5, 1) leaves it
    // towards -x by 0.5
    expect_contact(box(0, 0, 2, 2), box(1.5F, 1, 1.5F, 1), 0, {true, -1, 0, 0.5F, 1.5F, 1});
}

TEST(box_box, an_invalid_box_changes_only_its_own_pair) {
    box_pair_scene scene(64, 0);
    fill_random(scene, 3);
    guarded_contacts clean(64, 0);
    const std::size_t clean_hits = contact(scene.first(), scene.second(), clean.view());
    scene.a_min_x[10] = std::numeric_limits<float>::quiet_NaN();
    scene.b_max_y[20] = std::numeric_limits<float>::infinity();
    std::swap(scene.a_min_y[30], scene.a_max_y[30]);
    guarded_contacts dirty(64, 0);
    const std::size_t dirty_hits = contact(scene.first(), scene.second(), dirty.view());
    EXPECT_LE(dirty_hits, clean_hits + 3);
    EXPECT_GE(dirty_hits + 3, clean_hits);
    for (std::size_t i = 0; i < 64; ++i) {
        if (i == 10 || i == 20 || i == 30) {
            continue;
        }
        for (int f = 0; f < 5; ++f) {
            EXPECT_EQ(bits(dirty.field[f][i]), bits(clean.field[f][i])) << i;
        }
    }
    // NaN is never a contact
    EXPECT_EQ(dirty.field[2][10], 0.0F);
}

TEST(box_box, arguments_are_checked_before_anything_is_written) {
    std::vector<float> f(4, 0.0F);
    const aabbs_view two(f.data(), f.data(), f.data(), f.data(), 2);
    const aabbs_view three(f.data(), f.data(), f.data(), f.data(), 3);
    std::vector<std::uint8_t> mask(2, 7);
    EXPECT_THROW(overlap(two, three, mask), std::invalid_argument);
    EXPECT_THROW(overlap(two, two, {mask.data(), 1}), std::invalid_argument);
    EXPECT_THROW(overlap(two, two, mask, -1.0F), std::invalid_argument);
    EXPECT_THROW((void)count_overlaps(two, two, std::numeric_limits<float>::infinity()),
                 std::invalid_argument);
    const aabbs_view no_max(f.data(), f.data(), nullptr, f.data(), 2);
    EXPECT_THROW((void)count_overlaps(no_max, two), std::invalid_argument);
    EXPECT_THROW((void)count_overlaps(no_max, aabb{}), std::invalid_argument);
    EXPECT_EQ(mask, (std::vector<std::uint8_t>{7, 7}));
    // an output that overlaps an input without being that very array
    std::vector<float> o(10, 5.0F);
    const contacts_view onto_input(f.data() + 1, o.data(), o.data() + 2, o.data() + 4, o.data() + 6,
                                   2);
    EXPECT_THROW(contact(two, two, onto_input), std::invalid_argument);
    EXPECT_THROW(contact(two, aabb{}, onto_input), std::invalid_argument);
    const contacts_view short_out(o.data(), o.data() + 2, o.data() + 4, o.data() + 6, o.data() + 8,
                                  1);
    EXPECT_THROW(contact(two, two, short_out), std::invalid_argument);
    EXPECT_EQ(o, std::vector<float>(10, 5.0F));
    // no pairs: nothing read, nothing written, null pointers allowed
    EXPECT_EQ(count_overlaps(aabbs_view{}, aabbs_view{}), 0U);
    EXPECT_EQ(contact(aabbs_view{}, aabb{}, contacts_view{}), 0U);
}

} // namespace
} // namespace simdcollide::testing
