// The ray casts' and region queries' reference against values worked out by hand
// (docs/behaviour.md "Ray casts" and "Region and point queries") and against a brute force in
// double precision on random scenes; the dispatched entry points on every instruction set
// give the reference's bits; bad arguments are refused before anything is written.
#include "test_support.hpp"

#include <simdcollide/queries.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace simdcollide::testing {
namespace {

struct one_hit {
    std::size_t hits;
    float fraction, point_x, point_y, normal_x, normal_y;
    std::uint32_t shape;
};

one_hit cast(float x, float y, float dx, float dy, const std::vector<circle>& shapes) {
    circle_set set;
    for (const circle& c : shapes) {
        set.push_back(c);
    }
    one_hit h{};
    const rays_cview ray{&x, &y, &dx, &dy, 1};
    h.hits = reference::cast_rays(
        ray, std::as_const(set).view(),
        {&h.fraction, &h.point_x, &h.point_y, &h.normal_x, &h.normal_y, &h.shape, 1});
    return h;
}

one_hit cast(float x, float y, float dx, float dy, const std::vector<aabb>& shapes) {
    aabb_set set;
    for (const aabb& b : shapes) {
        set.push_back(b);
    }
    one_hit h{};
    const rays_cview ray{&x, &y, &dx, &dy, 1};
    h.hits = reference::cast_rays(
        ray, set.view(),
        {&h.fraction, &h.point_x, &h.point_y, &h.normal_x, &h.normal_y, &h.shape, 1});
    return h;
}

TEST(ray_reference, a_ray_hits_a_circle_where_it_enters_with_the_outward_normal) {
    const one_hit h = cast(-5.0F, 0.0F, 10.0F, 0.0F, std::vector<circle>{{0.0F, 0.0F, 1.0F}});
    EXPECT_EQ(h.hits, 1U);
    EXPECT_FLOAT_EQ(h.fraction, 0.4F);
    EXPECT_FLOAT_EQ(h.point_x, -1.0F);
    EXPECT_EQ(h.point_y, 0.0F);
    EXPECT_FLOAT_EQ(h.normal_x, -1.0F);
    EXPECT_EQ(h.normal_y, 0.0F);
    EXPECT_EQ(h.shape, 0U);
    // At an angle: the normal is the circle's at the point.
    const one_hit a = cast(-3.0F, 0.6F, 6.0F, 0.0F, std::vector<circle>{{0.0F, 0.0F, 1.0F}});
    EXPECT_NEAR(a.point_x, -0.8F, 1e-6F);
    EXPECT_NEAR(a.normal_x, -0.8F, 1e-6F);
    EXPECT_NEAR(a.normal_y, 0.6F, 1e-6F);
}

TEST(ray_reference, a_ray_that_starts_in_a_shape_hits_it_at_0_with_no_normal) {
    for (const float dx : {1.0F, -1.0F, 0.0F}) {
        const one_hit c = cast(0.5F, 0.0F, dx, 0.0F, std::vector<circle>{{0.0F, 0.0F, 1.0F}});
        EXPECT_EQ(c.hits, 1U);
        EXPECT_EQ(bits(c.fraction), bits(0.0F));
        EXPECT_EQ(c.point_x, 0.5F);
        EXPECT_EQ(bits(c.normal_x), bits(0.0F));
        EXPECT_EQ(bits(c.normal_y), bits(0.0F));
        const one_hit b =
            cast(0.5F, 0.5F, dx, 0.0F, std::vector<aabb>{aabb::from_min_max(0, 0, 1, 1)});
        EXPECT_EQ(b.hits, 1U);
        EXPECT_EQ(bits(b.fraction), bits(0.0F));
        EXPECT_EQ(bits(b.normal_x), bits(0.0F));
    }
    // On the boundary counts as in: a circle's, and a box's face.
    EXPECT_EQ(cast(1.0F, 0.0F, 1.0F, 0.0F, std::vector<circle>{{0.0F, 0.0F, 1.0F}}).hits, 1U);
    EXPECT_EQ(cast(0.0F, 0.5F, -1.0F, 0.0F, std::vector<aabb>{aabb::from_min_max(0, 0, 1, 1)}).hits,
              1U);
}

TEST(ray_reference, a_zero_length_ray_hits_only_what_it_starts_in) {
    const one_hit miss = cast(3.0F, 0.0F, 0.0F, 0.0F, std::vector<circle>{{0.0F, 0.0F, 1.0F}});
    EXPECT_EQ(miss.hits, 0U);
    EXPECT_EQ(miss.shape, no_shape);
    EXPECT_EQ(miss.fraction, 1.0F);
    EXPECT_EQ(miss.point_x, 3.0F);
    EXPECT_EQ(cast(3.0F, 0.0F, 0.0F, 0.0F, std::vector<aabb>{aabb::from_min_max(0, 0, 1, 1)}).hits,
              0U);
    EXPECT_EQ(cast(0.2F, 0.0F, 0.0F, 0.0F, std::vector<circle>{{0.0F, 0.0F, 1.0F}}).hits, 1U);
}

TEST(ray_reference, a_ray_along_a_face_enters_through_the_end_and_a_corner_counts_as_y) {
    const std::vector<aabb> box{aabb::from_min_max(0, 0, 1, 1)};
    // Along the x = 0 face from below: in the x slab all along, entering through y = 0.
    const one_hit along = cast(0.0F, -1.0F, 0.0F, 3.0F, box);
    EXPECT_EQ(along.hits, 1U);
    EXPECT_FLOAT_EQ(along.fraction, 1.0F / 3.0F);
    EXPECT_EQ(along.normal_x, 0.0F);
    EXPECT_EQ(along.normal_y, -1.0F);
    // Through a corner, entering both slabs at once: the y face.
    const one_hit corner = cast(-1.0F, -1.0F, 2.0F, 2.0F, box);
    EXPECT_EQ(corner.hits, 1U);
    EXPECT_EQ(corner.fraction, 0.5F);
    EXPECT_EQ(corner.normal_x, 0.0F);
    EXPECT_EQ(corner.normal_y, -1.0F);
    // From the right, moving left: the max_x face, normal +x.
    const one_hit right = cast(3.0F, 0.5F, -4.0F, 0.0F, box);
    EXPECT_EQ(right.fraction, 0.5F);
    EXPECT_EQ(right.normal_x, 1.0F);
    EXPECT_EQ(right.normal_y, 0.0F);
    // Grazing the top face counts, short of the box does not.
    EXPECT_EQ(cast(-1.0F, 1.0F, 3.0F, 0.0F, box).hits, 1U);
    EXPECT_EQ(cast(-3.0F, 0.5F, 2.0F, 0.0F, box).hits, 0U);
    // A ray that ends exactly on the face hits it at 1.
    const one_hit ends = cast(-1.0F, 0.5F, 1.0F, 0.0F, box);
    EXPECT_EQ(ends.hits, 1U);
    EXPECT_EQ(ends.fraction, 1.0F);
}

TEST(ray_reference, the_first_hit_wins_and_a_tie_goes_to_the_lower_index) {
    const std::vector<circle> circles{{10.0F, 0.0F, 1.0F}, {4.0F, 0.0F, 1.0F}, {4.0F, 0.0F, 1.0F}};
    const one_hit h = cast(0.0F, 0.0F, 20.0F, 0.0F, circles);
    EXPECT_EQ(h.shape, 1U);
    EXPECT_FLOAT_EQ(h.fraction, 3.0F / 20.0F);
    const std::vector<aabb> boxes{aabb::from_min_max(8, -1, 9, 1), aabb::from_min_max(5, -1, 6, 1),
                                  aabb::from_min_max(5, -2, 7, 2)};
    EXPECT_EQ(cast(0.0F, 0.0F, 20.0F, 0.0F, boxes).shape, 1U);
}

// The entry time of segment o + t d, t in [0, 1], into a circle or a box, in double: -1 for none.
double entry_circle(double ox, double oy, double dx, double dy, const circle& c) {
    const double mx = ox - c.x;
    const double my = oy - c.y;
    const double cc = mx * mx + my * my - double(c.radius) * c.radius;
    if (cc <= 0) {
        return 0;
    }
    const double a = dx * dx + dy * dy;
    const double b = mx * dx + my * dy;
    const double disc = b * b - a * cc;
    if (a == 0 || b >= 0 || disc < 0) {
        return -1;
    }
    const double t = (-b - std::sqrt(disc)) / a;
    return t <= 1 ? t : -1;
}

double entry_box(double ox, double oy, double dx, double dy, const aabb& b) {
    double enter = 0;
    double leave = 1;
    const double o[2] = {ox, oy};
    const double d[2] = {dx, dy};
    const double lo[2] = {b.min_x, b.min_y};
    const double hi[2] = {b.max_x, b.max_y};
    for (int k = 0; k < 2; ++k) {
        if (d[k] == 0) {
            if (o[k] < lo[k] || o[k] > hi[k]) {
                return -1;
            }
            continue;
        }
        const double t0 = (lo[k] - o[k]) / d[k];
        const double t1 = (hi[k] - o[k]) / d[k];
        enter = std::max(enter, std::min(t0, t1));
        leave = std::min(leave, std::max(t0, t1));
    }
    return enter <= leave ? enter : -1;
}

class queries_on_each_isa : public on_each_isa {};

// Random rays over random shapes: the fraction is the double brute force's earliest entry to
// 1e-4 of the ray, and the shape hit enters within that of it (near ties may go either way).
TEST_P(queries_on_each_isa, rays_find_the_brute_forces_first_hit) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> coord(0.0F, 40.0F);
    std::uniform_real_distribution<float> move(-30.0F, 30.0F);
    std::uniform_real_distribution<float> size(0.0F, 2.0F);
    std::vector<circle> circles;
    std::vector<aabb> boxes;
    circle_set cs;
    aabb_set bs;
    for (int k = 0; k < 200; ++k) {
        circles.push_back({coord(rng), coord(rng), size(rng)});
        boxes.push_back(aabb::from_origin_size(coord(rng), coord(rng), size(rng), size(rng)));
        cs.push_back(circles.back());
        bs.push_back(boxes.back());
    }
    const std::size_t n = 2000;
    std::vector<float> x(n), y(n), dx(n), dy(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = coord(rng);
        y[i] = coord(rng);
        dx[i] = move(rng);
        dy[i] = move(rng);
    }
    const rays_cview rays(x, y, dx, dy);
    for (const bool against_boxes : {false, true}) {
        std::vector<float> f(n), px(n), py(n), nx(n), ny(n);
        std::vector<std::uint32_t> shape(n);
        const ray_hits_view hits({f, px, py, nx, ny, shape});
        const std::size_t count = against_boxes ? cast_rays(rays, bs.view(), hits)
                                                : cast_rays(rays, std::as_const(cs).view(), hits);
        std::vector<float> rf(n), rpx(n), rpy(n), rnx(n), rny(n);
        std::vector<std::uint32_t> rshape(n);
        const ray_hits_view want({rf, rpx, rpy, rnx, rny, rshape});
        EXPECT_EQ(against_boxes ? reference::cast_rays(rays, bs.view(), want)
                                : reference::cast_rays(rays, std::as_const(cs).view(), want),
                  count);
        std::size_t hit_count = 0;
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(shape[i], rshape[i]) << i;
            ASSERT_EQ(bits(f[i]), bits(rf[i])) << i;
            ASSERT_EQ(bits(nx[i]), bits(rnx[i])) << i;
            ASSERT_EQ(bits(ny[i]), bits(rny[i])) << i;
            ASSERT_EQ(bits(px[i]), bits(rpx[i])) << i;
            double best = 2;
            for (std::size_t k = 0; k < circles.size(); ++k) {
                const double t = against_boxes ? entry_box(x[i], y[i], dx[i], dy[i], boxes[k])
                                               : entry_circle(x[i], y[i], dx[i], dy[i], circles[k]);
                if (t >= 0 && t < best) {
                    best = t;
                }
            }
            if (best > 1) {
                EXPECT_EQ(shape[i], no_shape) << i;
                continue;
            }
            ++hit_count;
            ASSERT_NE(shape[i], no_shape) << i;
            EXPECT_NEAR(f[i], best, 1e-4) << i;
            const double mine = against_boxes
                                    ? entry_box(x[i], y[i], dx[i], dy[i], boxes[shape[i]])
                                    : entry_circle(x[i], y[i], dx[i], dy[i], circles[shape[i]]);
            EXPECT_NEAR(mine, best, 1e-4) << i;
            // The point is on the ray at the fraction, the normal a unit vector or none.
            EXPECT_EQ(px[i], x[i] + f[i] * dx[i]);
            const float length = std::hypot(nx[i], ny[i]);
            EXPECT_TRUE(f[i] == 0.0F ? length == 0.0F : std::abs(length - 1.0F) < 1e-6F) << i;
        }
        EXPECT_EQ(hit_count, count);
        EXPECT_GT(count, n / 4);
    }
}

// Regions and points against a brute force in double, on random scenes with shapes placed
// exactly touching the region and the point.
TEST_P(queries_on_each_isa, regions_and_points_find_what_the_brute_force_finds) {
    std::mt19937 rng(32);
    std::uniform_real_distribution<float> coord(0.0F, 20.0F);
    std::uniform_real_distribution<float> size(0.0F, 2.0F);
    const aabb region = aabb::from_min_max(5.0F, 6.0F, 11.0F, 9.0F);
    const float px = 10.0F;
    const float py = 4.0F;
    const float distance = 1.5F;
    circle_set cs;
    aabb_set bs;
    for (int k = 0; k < 3000; ++k) {
        cs.push_back({coord(rng), coord(rng), size(rng)});
        bs.push_back(aabb::from_origin_size(coord(rng), coord(rng), size(rng), size(rng)));
    }
    // Exactly touching: a circle on the region's right face, one touching the point's reach;
    // a box sharing the region's top edge, one at exactly `distance` from the point.
    cs.push_back({12.0F, 7.0F, 1.0F});
    cs.push_back({10.0F, 6.5F, 1.0F});
    bs.push_back(aabb::from_min_max(6.0F, 9.0F, 7.0F, 10.0F));
    bs.push_back(aabb::from_min_max(11.5F, 3.0F, 12.0F, 5.0F));
    std::vector<std::uint32_t> got, want;
    const circles_cview c = std::as_const(cs).view();
    circles_in_region(c, region, got);
    reference::circles_in_region(c, region, want);
    EXPECT_EQ(got, want);
    EXPECT_NE(std::find(got.begin(), got.end(), 3000U), got.end());
    std::vector<std::uint32_t> brute;
    for (std::uint32_t i = 0; i < c.count; ++i) {
        const double sx = std::clamp<double>(c.x[i], region.min_x, region.max_x);
        const double sy = std::clamp<double>(c.y[i], region.min_y, region.max_y);
        const double d2 = (c.x[i] - sx) * (c.x[i] - sx) + (c.y[i] - sy) * (c.y[i] - sy);
        if (d2 <= double(c.radius[i]) * c.radius[i]) {
            brute.push_back(i);
        }
    }
    EXPECT_EQ(got, brute);

    circles_near_point(c, px, py, distance, got);
    reference::circles_near_point(c, px, py, distance, want);
    EXPECT_EQ(got, want);
    EXPECT_NE(std::find(got.begin(), got.end(), 3001U), got.end());
    EXPECT_GT(got.size(), 10U);

    boxes_in_region(bs.view(), region, got);
    reference::boxes_in_region(bs.view(), region, want);
    EXPECT_EQ(got, want);
    EXPECT_NE(std::find(got.begin(), got.end(), 3000U), got.end());
    brute.clear();
    const aabbs_view b = bs.view();
    for (std::uint32_t i = 0; i < b.count; ++i) {
        if (region.min_x <= b.max_x[i] && b.min_x[i] <= region.max_x &&
            region.min_y <= b.max_y[i] && b.min_y[i] <= region.max_y) {
            brute.push_back(i);
        }
    }
    EXPECT_EQ(got, brute);

    boxes_near_point(bs.view(), px, py, distance, got);
    reference::boxes_near_point(bs.view(), px, py, distance, want);
    EXPECT_EQ(got, want);
    EXPECT_NE(std::find(got.begin(), got.end(), 3001U), got.end());
    // A point query (distance 0) finds the boxes the point is in, their boundary included.
    boxes_near_point(bs.view(), 12.0F, 4.0F, 0.0F, got);
    EXPECT_NE(std::find(got.begin(), got.end(), 3001U), got.end());
    for (const std::uint32_t i : got) {
        EXPECT_TRUE(b.min_x[i] <= 12.0F && 12.0F <= b.max_x[i] && b.min_y[i] <= 4.0F &&
                    4.0F <= b.max_y[i]);
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, queries_on_each_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

TEST(query_arguments, bad_rays_regions_and_distances_are_refused_before_anything_is_written) {
    std::vector<float> x{0, 1, 2}, y{0, 0, 0}, dx{4, 4, 4}, dy{0, 0, 0};
    const circle_set circles = [] {
        circle_set c;
        c.push_back({5.0F, 0.0F, 1.0F});
        return c;
    }();
    std::vector<float> f(3, -7), px(3, -7), py(3, -7), nx(3, -7), ny(3, -7);
    std::vector<std::uint32_t> shape(3, 42);
    const ray_hits_view hits({f, px, py, nx, ny, shape});
    const auto untouched = [&] {
        return std::all_of(f.begin(), f.end(), [](float v) { return v == -7; }) &&
               std::all_of(shape.begin(), shape.end(), [](std::uint32_t v) { return v == 42; });
    };
    for (const float bad :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        dy[2] = bad;
        try {
            cast_rays(rays_cview(x, y, dx, dy), circles.view(), hits);
            ADD_FAILURE() << "a ray that is not finite was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("ray 2 has dy"), std::string::npos) << e.what();
        }
        EXPECT_TRUE(untouched());
        EXPECT_THROW(reference::cast_rays(rays_cview(x, y, dx, dy), circles.view(), hits),
                     std::invalid_argument);
        EXPECT_TRUE(untouched());
    }
    dy[2] = 0;
    // The hits' count, and hits that overlap the rays.
    std::vector<float> f2(2);
    EXPECT_THROW(
        cast_rays(rays_cview(x, y, dx, dy), circles.view(),
                  {f2.data(), px.data(), py.data(), nx.data(), ny.data(), shape.data(), 2}),
        std::invalid_argument);
    EXPECT_THROW(cast_rays(rays_cview(x, y, dx, dy), circles.view(),
                           {x.data(), px.data(), py.data(), nx.data(), ny.data(), shape.data(), 3}),
                 std::invalid_argument);
    EXPECT_TRUE(untouched());
    EXPECT_EQ(cast_rays(rays_cview(x, y, dx, dy), circles.view(), hits), 3U);

    std::vector<std::uint32_t> out{99};
    EXPECT_THROW(circles_in_region(circles.view(), aabb::from_min_max(1, 0, 0, 1), out),
                 std::invalid_argument);
    EXPECT_THROW(boxes_in_region(aabbs_view{}, aabb::from_min_max(0, 0, INFINITY, 1), out),
                 std::invalid_argument);
    EXPECT_THROW(circles_near_point(circles.view(), 0, 0, -1.0F, out), std::invalid_argument);
    EXPECT_THROW(boxes_near_point(aabbs_view{}, NAN, 0, 1.0F, out), std::invalid_argument);
    EXPECT_THROW(circles_near_point(circles.view(), 0, 0, INFINITY, out), std::invalid_argument);
    EXPECT_EQ(out, std::vector<std::uint32_t>{99});
}

} // namespace
} // namespace simdcollide::testing
