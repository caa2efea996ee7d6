// The box-box kernels against values worked out by hand for every rule of docs/behaviour.md
// "Box against box" (through the public entry points, on the active instruction set and the
// reference), and their argument checks (the workers' forms: tests/workers/).
#include "box_pair_scenes.hpp"
#include "test_support.hpp"

#include <simdcollide/box_box.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
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

// A separation of one pair, by the dispatched and the reference kernels alike: A and B after
// it, and the count.
struct separated {
    aabb a, b;
    std::size_t moved;
};
separated separate_pair(aabb a, float aw, aabb b, float bw, separation_weighting mode,
                        bool use_reference) {
    const box_bodies_view first(&a.min_x, &a.min_y, &a.max_x, &a.max_y, &aw, 1);
    const box_bodies_view second(&b.min_x, &b.min_y, &b.max_x, &b.max_y, &bw, 1);
    const std::size_t moved =
        use_reference ? reference::separate(first, second, mode) : separate(first, second, mode);
    return {a, b, moved};
}

void expect_same_box(const aabb& got, const aabb& want) {
    EXPECT_EQ(bits(got.min_x), bits(want.min_x)) << got.min_x;
    EXPECT_EQ(bits(got.min_y), bits(want.min_y)) << got.min_y;
    EXPECT_EQ(bits(got.max_x), bits(want.max_x)) << got.max_x;
    EXPECT_EQ(bits(got.max_y), bits(want.max_y)) << got.max_y;
}

void expect_separation(aabb a, float aw, aabb b, float bw, separation_weighting mode, aabb want_a,
                       aabb want_b) {
    for (const bool use_reference : {false, true}) {
        SCOPED_TRACE(use_reference ? "reference" : "dispatched");
        const separated s = separate_pair(a, aw, b, bw, mode, use_reference);
        const bool moved =
            bits(want_a.min_x) != bits(a.min_x) || bits(want_a.min_y) != bits(a.min_y) ||
            bits(want_b.min_x) != bits(b.min_x) || bits(want_b.min_y) != bits(b.min_y);
        EXPECT_EQ(s.moved, moved ? 1U : 0U);
        expect_same_box(s.a, want_a);
        expect_same_box(s.b, want_b);
    }
}

TEST(box_box_separate, each_weighting_splits_the_depth_along_the_contacts_axis) {
    // A overlaps B's right side by 0.5 on x (y ties at 1.75 and is deeper): A leaves towards +x.
    const aabb b = box(0, 0, 2, 2);
    const aabb a = box(1.5F, 0.25F, 3.5F, 1.75F);
    // inverse masses 1 and 3: A takes a quarter of the depth, B three quarters
    expect_separation(a, 1, b, 3, separation_weighting::inverse_mass,
                      box(1.625F, 0.25F, 3.625F, 1.75F), box(-0.375F, 0, 1.625F, 2));
    // equal: half each, whatever the masses
    expect_separation(a, 1, b, 3, separation_weighting::equal, box(1.75F, 0.25F, 3.75F, 1.75F),
                      box(-0.25F, 0, 1.75F, 2));
    // by size: A's half-extent on x is 1.5, B's 1, so A takes 1 / 2.5 of 0.625 and B 1.5 / 2.5
    expect_separation(box(1.375F, 0.25F, 4.375F, 1.75F), 1, b, 1, separation_weighting::by_radius,
                      box(1.625F, 0.25F, 4.625F, 1.75F), box(-0.375F, 0, 1.625F, 2));
}

TEST(box_box_separate, a_static_box_never_moves_and_two_static_boxes_stay) {
    // a crate sunk 0.25 into a static floor rises by all of it, in every mode
    const aabb crate = box(1, -0.25F, 3, 1.75F);
    const aabb floor = box(0, -1, 10, 0);
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        expect_separation(crate, 2, floor, 0, mode, box(1, 0, 3, 2), floor);
        expect_separation(crate, 0, floor, 0, mode, crate, floor);
    }
    // the floor as the one box: the same, and a static crate stays
    for (const bool use_reference : {false, true}) {
        float min_x[2] = {1, 1};
        float min_y[2] = {-0.25F, -0.25F};
        float max_x[2] = {3, 3};
        float max_y[2] = {1.75F, 1.75F};
        const float w[2] = {5, 0};
        const box_bodies_view crates(min_x, min_y, max_x, max_y, w, 2);
        EXPECT_EQ(use_reference ? reference::separate(crates, floor) : separate(crates, floor), 1U);
        expect_same_box(box(min_x[0], min_y[0], max_x[0], max_y[0]), box(1, 0, 3, 2));
        expect_same_box(box(min_x[1], min_y[1], max_x[1], max_y[1]), crate);
    }
}

TEST(box_box_separate, boxes_not_in_contact_keep_their_bits) {
    // touching a face exactly is not a contact; -0 stays -0
    expect_separation(box(-0.0F, 2, 1, 3), 1, box(-1, 0, 1, 2), 1, separation_weighting::equal,
                      box(-0.0F, 2, 1, 3), box(-1, 0, 1, 2));
    expect_separation(box(5, 5, 6, 6), 1, box(0, 0, 1, 1), 1, separation_weighting::inverse_mass,
                      box(5, 5, 6, 6), box(0, 0, 1, 1));
}

TEST(box_box_separate, afterwards_a_pair_touches_and_weights_of_any_size_split_it) {
    // weights 3e38 and 1e-40 (scaled, then the light side takes nothing), and a random mix
    const separated s = separate_pair(box(0.5F, 0, 2.5F, 1), 3e38F, box(0, 0, 1, 1), 1e-40F,
                                      separation_weighting::inverse_mass, false);
    EXPECT_EQ(s.a.min_x, 1.0F);
    EXPECT_EQ(bits(s.b.max_x), bits(1.0F));
    box_pair_scene scene(5000, 0);
    fill_random(scene, 4242);
    (void)separate(scene.first_bodies(), scene.second_bodies());
    std::size_t touching = 0;
    for (std::size_t i = 0; i < scene.size(); ++i) {
        const aabb a{scene.a_min_x[i], scene.a_min_y[i], scene.a_max_x[i], scene.a_max_y[i]};
        const aabb b{scene.b_min_x[i], scene.b_min_y[i], scene.b_max_x[i], scene.b_max_y[i]};
        const bool valid = a.min_x <= a.max_x && a.min_y <= a.max_y && std::abs(a.min_x) < 1e30F &&
                           std::abs(b.min_x) < 1e30F && std::abs(a.min_y) < 1e30F &&
                           std::abs(b.min_y) < 1e30F;
        if (!valid || scene.a_inverse_mass[i] + scene.b_inverse_mass[i] == 0.0F) {
            continue;
        }
        // no pair left overlapping by more than rounding of its coordinates
        float nx = 0, ny = 0, depth = 0, px = 0, py = 0;
        const aabbs_view first(&a.min_x, &a.min_y, &a.max_x, &a.max_y, 1);
        (void)reference::contact(first, b, contacts_view(&nx, &ny, &depth, &px, &py, 1));
        const float scale = std::max(
            {std::abs(a.max_x), std::abs(a.max_y), std::abs(b.max_x), std::abs(b.max_y), 1.0F});
        EXPECT_LE(depth, 4e-7F * scale) << "pair " << i;
        touching += 1;
    }
    EXPECT_GT(touching, 3000U);
}

TEST(box_box_separate, arguments_are_checked_before_anything_is_written) {
    std::vector<float> f(8, 1.0F);
    const float w[3] = {1, 1, 1};
    const box_bodies_view two(f.data(), f.data() + 2, f.data() + 4, f.data() + 6, w, 2);
    std::vector<float> g(8, 1.0F);
    const box_bodies_view other(g.data(), g.data() + 2, g.data() + 4, g.data() + 6, w, 2);
    const box_bodies_view three(g.data(), g.data() + 2, g.data() + 4, g.data() + 6, w, 3);
    const box_bodies_view no_mass(g.data(), g.data() + 2, g.data() + 4, g.data() + 6, nullptr, 2);
    EXPECT_THROW(separate(two, three), std::invalid_argument);
    EXPECT_THROW(separate(two, no_mass), std::invalid_argument);
    EXPECT_THROW(separate(no_mass, aabb{}), std::invalid_argument);
    // both sides written: the same arrays twice, or overlapping fields, are refused
    EXPECT_THROW(separate(two, two), std::invalid_argument);
    const box_bodies_view shifted(f.data() + 1, g.data() + 2, g.data() + 4, g.data() + 6, w, 2);
    EXPECT_THROW(separate(other, shifted), std::invalid_argument);
    const box_bodies_view self_overlap(f.data(), f.data() + 1, f.data() + 4, f.data() + 6, w, 2);
    EXPECT_THROW(separate(self_overlap, aabb{}), std::invalid_argument);
    EXPECT_EQ(f, std::vector<float>(8, 1.0F));
    EXPECT_EQ(g, std::vector<float>(8, 1.0F));
    EXPECT_EQ(separate(box_bodies_view{}, box_bodies_view{}), 0U);
    EXPECT_EQ(separate(box_bodies_view{}, aabb{}), 0U);
    // the span form counts its fields
    std::vector<float> five(5);
    EXPECT_THROW(box_bodies_view(f, g, f, g, std::span<const float>(five)), std::invalid_argument);
}

} // namespace
} // namespace simdcollide::testing
