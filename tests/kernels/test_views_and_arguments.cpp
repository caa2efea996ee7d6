// Views, containers, argument checks and validation: bad calls fail loudly, before any
// write.
#include "test_support.hpp"

#include <limits>

namespace simdcollide::testing {
namespace {

TEST(views, span_constructors_reject_different_lengths) {
    std::vector<float> three(3), two(2);
    EXPECT_THROW(circles_view(std::span(three), std::span(three), std::span<const float>(two)),
                 std::invalid_argument);
    EXPECT_THROW(aabbs_view(three, three, two, three), std::invalid_argument);
    EXPECT_THROW(points_view(std::span(three), std::span(two)), std::invalid_argument);
    try {
        (void)circles_cview(three, two, three);
        FAIL();
    } catch (const std::invalid_argument& e) {
        // The message names the field that disagrees.
        EXPECT_NE(std::string(e.what()).find("y has 2"), std::string::npos) << e.what();
    }
    const circles_cview ok(three, three, three);
    EXPECT_EQ(ok.count, 3U);
}

// The views made with each field named: the same pointers and count as positionally, and
// the same length check.
TEST(views, named_fields_give_the_positional_view_and_check_lengths) {
    std::vector<float> x(3, 1), y(3, 2), radius(3, 3), inverse_mass(3, 4), vx(3, 5), vy(3, 6);
    std::vector<float> two(2);
    const particles_view p(
        {.x = x, .y = y, .radius = radius, .inverse_mass = inverse_mass, .vx = vx, .vy = vy});
    EXPECT_EQ(p.x, x.data());
    EXPECT_EQ(p.vx, vx.data());
    EXPECT_EQ(p.vy, vy.data());
    EXPECT_EQ(p.inverse_mass, inverse_mass.data());
    EXPECT_EQ(p.count, 3U);
    EXPECT_THROW(
        particles_view(
            {.x = x, .y = y, .radius = radius, .inverse_mass = inverse_mass, .vx = two, .vy = vy}),
        std::invalid_argument);
    const circles_view c({.x = x, .y = y, .radius = radius});
    EXPECT_EQ(c.y, y.data());
    EXPECT_EQ(c.count, 3U);
    EXPECT_THROW(circles_view({.x = x, .y = two, .radius = radius}), std::invalid_argument);
    const circles_cview cc({.x = x, .y = y, .radius = radius});
    EXPECT_EQ(cc.radius, radius.data());
    EXPECT_THROW(circles_cview({.x = x, .y = y, .radius = two}), std::invalid_argument);
    const aabbs_view b({.min_x = x, .min_y = y, .max_x = vx, .max_y = vy});
    EXPECT_EQ(b.max_x, vx.data());
    EXPECT_EQ(b.count, 3U);
    EXPECT_THROW(aabbs_view({.min_x = x, .min_y = y, .max_x = two, .max_y = vy}),
                 std::invalid_argument);
    const points_view points({.x = x, .y = y});
    EXPECT_EQ(points.y, y.data());
    EXPECT_EQ(points.count, 3U);
    EXPECT_THROW(points_view({.x = x, .y = two}), std::invalid_argument);
    const contacts_view contacts(
        {.normal_x = x, .normal_y = y, .depth = radius, .point_x = vx, .point_y = vy});
    EXPECT_EQ(contacts.depth, radius.data());
    EXPECT_EQ(contacts.point_x, vx.data());
    EXPECT_EQ(contacts.count, 3U);
    EXPECT_THROW(
        contacts_view({.normal_x = x, .normal_y = y, .depth = two, .point_x = vx, .point_y = vy}),
        std::invalid_argument);
}

TEST(containers, aligned_and_padded_with_zeros) {
    circle_set c;
    for (int i = 0; i < 5; ++i) {
        c.push_back({float(i), float(-i), 1});
    }
    EXPECT_EQ(c.size(), 5U);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c.x.data()) % 64, 0U);
    EXPECT_EQ(c.x.capacity() % 16, 0U);
    for (std::size_t i = c.size(); i < c.x.capacity(); ++i) {
        EXPECT_EQ(c.x[i], 0.0F);
    }
    c.resize(2);
    EXPECT_EQ(c.x[3], 0.0F); // shrinking re-zeroes the padding
    const circle second = c[1];
    EXPECT_EQ(second.x, 1);
    EXPECT_EQ(second.y, -1);
    circle_set copy = c;
    EXPECT_EQ(copy.size(), 2U);
    EXPECT_EQ(copy.x[1], 1);
}

// containers.hpp: arrays of a page or more start on different lines of a 4 KiB page, at
// least 5 lines apart for any 8 made in a row (the allocator alone put every array of
// 128 KiB or more at the same offset), and keep their values through growth and copies.
TEST(containers, large_arrays_start_on_lines_apart_in_a_page) {
    constexpr std::size_t page = 4096;
    constexpr std::size_t lines = page / 64;
    for (const std::size_t count : {std::size_t{1024}, std::size_t{4096}, std::size_t{65536}}) {
        std::vector<aligned_floats> fields;
        for (int k = 0; k < 8; ++k) {
            fields.emplace_back(count);
        }
        for (std::size_t a = 0; a < fields.size(); ++a) {
            const auto at = reinterpret_cast<std::uintptr_t>(fields[a].data());
            ASSERT_EQ(at % 64, 0U);
            for (std::size_t b = a + 1; b < fields.size(); ++b) {
                const std::size_t line_a = at % page / 64;
                const std::size_t line_b =
                    reinterpret_cast<std::uintptr_t>(fields[b].data()) % page / 64;
                const std::size_t apart = (line_a + lines - line_b) % lines;
                EXPECT_GE(std::min(apart, lines - apart), 5U)
                    << count << " floats, arrays " << a << " and " << b;
            }
        }
    }
    aligned_floats grown;
    for (int i = 0; i < 5000; ++i) { // small, then past a page, then reallocated twice more
        grown.push_back(static_cast<float>(i));
    }
    const aligned_floats copy = grown;
    for (int i = 0; i < 5000; ++i) {
        ASSERT_EQ(grown[static_cast<std::size_t>(i)], static_cast<float>(i));
        ASSERT_EQ(copy[static_cast<std::size_t>(i)], static_cast<float>(i));
    }
    for (std::size_t i = grown.size(); i < grown.capacity(); ++i) {
        EXPECT_EQ(grown[i], 0.0F);
    }
    const aligned_floats small(100); // under a page: 64-byte aligned as before
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % 64, 0U);
}

class kernel_arguments : public ::testing::TestWithParam<bool> {}; // reference or dispatched

// Calls a kernel through the public API, reference or dispatched.
template <class Ref, class Disp>
decltype(auto) call(bool use_reference, Ref&& ref, Disp&& disp) {
    return use_reference ? ref() : disp();
}

TEST_P(kernel_arguments, mismatched_counts_throw_before_writing) {
    const bool ref = GetParam();
    circle_set c(5);
    aabb_set b(4);
    contact_set out(5);
    out.depth[0] = 42;
    EXPECT_THROW(call(
                     ref, [&] { return reference::contact(c.view(), b.view(), out.view()); },
                     [&] { return contact(c.view(), b.view(), out.view()); }),
                 std::invalid_argument);
    EXPECT_EQ(out.depth[0], 42);
    c.x[0] = 7;
    EXPECT_THROW(call(
                     ref, [&] { return reference::push_out(c.view(), b.view()); },
                     [&] { return push_out(c.view(), b.view()); }),
                 std::invalid_argument);
    EXPECT_EQ(c.x[0], 7);
    aabb_set b5(5);
    contact_set out4(4);
    out4.depth[0] = 42;
    EXPECT_THROW(call(
                     ref, [&] { return reference::contact(c.view(), b5.view(), out4.view()); },
                     [&] { return contact(c.view(), b5.view(), out4.view()); }),
                 std::invalid_argument);
    EXPECT_EQ(out4.depth[0], 42);
    std::vector<std::uint8_t> mask(4, 9);
    EXPECT_THROW(call(
                     ref, [&] { return reference::overlap(c.view(), b5.view(), mask); },
                     [&] { return overlap(c.view(), b5.view(), mask); }),
                 std::invalid_argument);
    EXPECT_EQ(mask[0], 9);
    std::vector<float> d2(6, 3);
    EXPECT_THROW(call(
                     ref,
                     [&] {
                         reference::distance_squared(c.view(), b5.view(), d2);
                         return 0;
                     },
                     [&] {
                         distance_squared(c.view(), b5.view(), d2);
                         return 0;
                     }),
                 std::invalid_argument);
    EXPECT_EQ(d2[0], 3);
}

TEST_P(kernel_arguments, bad_margin_throws) {
    const bool ref = GetParam();
    circle_set c(3);
    aabb_set b(3);
    for (float margin :
         {-1.0F, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        EXPECT_THROW(call(
                         ref, [&] { return reference::push_out(c.view(), b.view(), margin); },
                         [&] { return push_out(c.view(), b.view(), margin); }),
                     std::invalid_argument);
        EXPECT_THROW(call(
                         ref, [&] { return reference::count_overlaps(c.view(), b.view(), margin); },
                         [&] { return count_overlaps(c.view(), b.view(), margin); }),
                     std::invalid_argument);
    }
    EXPECT_FALSE(validate_margin(-1.0F));
    EXPECT_TRUE(validate_margin(0.0F));
}

TEST_P(kernel_arguments, null_arrays_throw) {
    const bool ref = GetParam();
    circle_set c(3);
    aabb_set b(3);
    circles_view no_radius = c.view();
    no_radius.radius = nullptr;
    EXPECT_THROW(call(
                     ref, [&] { return reference::push_out(no_radius, b.view()); },
                     [&] { return push_out(no_radius, b.view()); }),
                 std::invalid_argument);
    // closest_point does not read radii, so a null radius is fine there.
    std::vector<float> x(3), y(3);
    EXPECT_NO_THROW(call(
        ref,
        [&] {
            reference::closest_point(no_radius, b.view(), {x.data(), y.data(), 3});
            return 0;
        },
        [&] {
            closest_point(no_radius, b.view(), {x.data(), y.data(), 3});
            return 0;
        }));
    // Empty views may be all null.
    EXPECT_EQ(call(
                  ref, [&] { return reference::push_out(circles_view{}, aabbs_view{}); },
                  [&] { return push_out(circles_view{}, aabbs_view{}); }),
              0U);
}

// The one-box forms check what the pairwise forms check, less the boxes, and give the
// pairwise results through the public API too.
TEST_P(kernel_arguments, one_box_forms_check_their_arguments) {
    const bool ref = GetParam();
    const aabb floor = aabb::from_min_max(-10, -1, 10, 0);
    circle_set c(5);
    for (std::size_t i = 0; i < 5; ++i) {
        c.x[i] = static_cast<float>(i) - 2.0F;
        c.y[i] = 0.25F * static_cast<float>(i) - 0.5F;
        c.radius[i] = 0.5F;
    }
    contact_set out4(4);
    out4.depth[0] = 42;
    EXPECT_THROW(call(
                     ref, [&] { return reference::contact(c.view(), floor, out4.view()); },
                     [&] { return contact(c.view(), floor, out4.view()); }),
                 std::invalid_argument);
    EXPECT_EQ(out4.depth[0], 42);
    std::vector<std::uint8_t> mask(4, 9);
    EXPECT_THROW(call(
                     ref, [&] { return reference::overlap(c.view(), floor, mask); },
                     [&] { return overlap(c.view(), floor, mask); }),
                 std::invalid_argument);
    EXPECT_EQ(mask[0], 9);
    std::vector<float> d2(6, 3);
    EXPECT_THROW(call(
                     ref,
                     [&] {
                         reference::distance_squared(c.view(), floor, d2);
                         return 0;
                     },
                     [&] {
                         distance_squared(c.view(), floor, d2);
                         return 0;
                     }),
                 std::invalid_argument);
    EXPECT_EQ(d2[0], 3);
    EXPECT_THROW(call(
                     ref, [&] { return reference::count_overlaps(c.view(), floor, -1.0F); },
                     [&] { return count_overlaps(c.view(), floor, -1.0F); }),
                 std::invalid_argument);
    circles_view no_radius = c.view();
    no_radius.radius = nullptr;
    EXPECT_THROW(call(
                     ref, [&] { return reference::count_overlaps(no_radius, floor); },
                     [&] { return count_overlaps(no_radius, floor); }),
                 std::invalid_argument);
    // An output that overlaps an input it is not: refused.
    std::vector<float> xy(10);
    EXPECT_THROW(call(
                     ref,
                     [&] {
                         reference::closest_point(c.view(), floor, {c.x.data() + 1, xy.data(), 5});
                         return 0;
                     },
                     [&] {
                         closest_point(c.view(), floor, {c.x.data() + 1, xy.data(), 5});
                         return 0;
                     }),
                 std::invalid_argument);

    // The results: the pairwise form's, with the floor repeated.
    aabb_set floors;
    for (std::size_t i = 0; i < 5; ++i) {
        floors.push_back(floor);
    }
    contact_set want(5), got(5);
    const std::size_t want_count = reference::contact(c.view(), floors.view(), want.view());
    const std::size_t got_count = call(
        ref, [&] { return reference::contact(c.view(), floor, got.view()); },
        [&] { return contact(c.view(), floor, got.view()); });
    EXPECT_EQ(got_count, want_count);
    EXPECT_GT(want_count, 0U);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(got.depth[i], want.depth[i]) << i;
        EXPECT_EQ(got.normal_y[i], want.normal_y[i]) << i;
    }
    EXPECT_EQ(call(
                  ref, [&] { return reference::count_overlaps(c.view(), floor); },
                  [&] { return count_overlaps(c.view(), floor); }),
              want_count);
}

INSTANTIATE_TEST_SUITE_P(both, kernel_arguments, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "reference" : "dispatched"; });

TEST(validate, names_the_first_invalid_circle_and_why) {
    circle_set c;
    c.push_back({0, 0, 1});
    c.push_back({1, 1, -2});
    c.push_back({std::numeric_limits<float>::quiet_NaN(), 0, 1});
    validation v = validate(c.view());
    EXPECT_FALSE(v);
    EXPECT_EQ(v.index, 1U);
    EXPECT_NE(v.reason.find("radius"), std::string::npos) << v.reason;
    EXPECT_NE(v.reason.find("circle 1"), std::string::npos) << v.reason;
    c.radius[1] = 2;
    v = validate(c.view());
    EXPECT_EQ(v.index, 2U);
    EXPECT_NE(v.reason.find("x is nan"), std::string::npos) << v.reason;
    c.x[2] = 0;
    c.y[0] = std::numeric_limits<float>::infinity();
    v = validate(c.view());
    EXPECT_EQ(v.index, 0U);
    EXPECT_NE(v.reason.find("y is inf"), std::string::npos) << v.reason;
    c.y[0] = 0;
    EXPECT_TRUE(validate(c.view()));
}

TEST(validate, names_the_first_invalid_box_and_why) {
    aabb_set b;
    b.push_back(aabb::from_min_max(0, 0, 1, 1));
    b.push_back(aabb::from_min_max(0, 2, 1, 1)); // inverted in y
    validation v = validate(b.view());
    EXPECT_FALSE(v);
    EXPECT_EQ(v.index, 1U);
    EXPECT_NE(v.reason.find("min_y"), std::string::npos) << v.reason;
    EXPECT_NE(v.reason.find("inverted"), std::string::npos) << v.reason;
    b.min_y[1] = 0;
    b.max_x[0] = -std::numeric_limits<float>::infinity();
    v = validate(b.view());
    EXPECT_EQ(v.index, 0U);
    EXPECT_NE(v.reason.find("max_x"), std::string::npos) << v.reason;
    b.max_x[0] = 1;
    EXPECT_TRUE(validate(b.view()));
    // A box made from a negative width is inverted.
    aabb_set neg;
    neg.push_back(aabb::from_origin_size(0, 0, -1, 1));
    EXPECT_FALSE(validate(neg.view()));
}

} // namespace
} // namespace simdcollide::testing
