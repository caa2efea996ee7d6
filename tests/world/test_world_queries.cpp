// The world's ray casts and region and point queries: what a brute force over each kind of
// shape finds, merged in the documented order; the same bits on every instruction set and
// with any number of workers; bad arguments refused before anything is written.
#include "test_support.hpp"

#include <simdcollide/queries.hpp>
#include <simdcollide/world.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace simdcollide::testing {
namespace {

// A small pile in a box with a kinematic box moving through it and two dynamic boxes,
// stepped a little so that everything has moved.
particle_world make_world(int workers) {
    world_options options;
    options.workers = workers;
    particle_world world(options);
    world.set_boxes(open_container(20.0F, 30.0F).view());
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (int i = 0; i < 600; ++i) {
        world.add_circle(
            {0.5F + 19.0F * unit(rng), 0.5F + 20.0F * unit(rng), 0.15F + 0.2F * unit(rng)},
            i % 50 == 0 ? 0.0F : 1.0F);
    }
    world.add_kinematic_box(aabb::from_min_max(8.0F, 10.0F, 10.0F, 11.0F), 1.0F, 0.0F);
    world.add_dynamic_box(aabb::from_min_max(3.0F, 22.0F, 5.0F, 23.0F), 0.5F);
    world.add_dynamic_box(aabb::from_min_max(14.0F, 24.0F, 15.0F, 26.0F), 0.5F);
    for (int s = 0; s < 20; ++s) {
        world.step(1.0F / 60.0F);
    }
    return world;
}

struct ray_set {
    std::vector<float> x, y, dx, dy;
    rays_cview view() const { return rays_cview(x, y, dx, dy); }
};

ray_set random_rays(std::size_t n) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> coord(-3.0F, 28.0F);
    std::uniform_real_distribution<float> move(-25.0F, 25.0F);
    ray_set r;
    for (std::size_t i = 0; i < n; ++i) {
        r.x.push_back(coord(rng));
        r.y.push_back(coord(rng));
        r.dx.push_back(i % 7 == 0 ? 0.0F : move(rng));
        r.dy.push_back(i % 5 == 0 ? -30.0F : move(rng));
    }
    return r;
}

struct hit_arrays {
    explicit hit_arrays(std::size_t n)
        : fraction(n), point_x(n), point_y(n), normal_x(n), normal_y(n), shape(n),
          kind(n, shape_kind::none) {}
    std::vector<float> fraction, point_x, point_y, normal_x, normal_y;
    std::vector<std::uint32_t> shape;
    std::vector<shape_kind> kind;
    ray_hits_view view() {
        return ray_hits_view({fraction, point_x, point_y, normal_x, normal_y, shape});
    }
};

// Every kind's shapes as the world holds them, for the brute force.
struct world_shapes {
    explicit world_shapes(particle_world& w) {
        const particles_view p = w.particles();
        for (std::size_t i = 0; i < p.count; ++i) {
            circles.push_back({p.x[i], p.y[i], p.radius[i]});
        }
        const aabbs_view s = w.boxes().boxes();
        for (std::size_t i = 0; i < s.count; ++i) {
            boxes[0].push_back(aabb::from_min_max(s.min_x[i], s.min_y[i], s.max_x[i], s.max_y[i]));
        }
        for (std::size_t i = 0; i < w.kinematic_box_count(); ++i) {
            boxes[1].push_back(w.kinematic_box_at(i).box);
        }
        for (std::size_t i = 0; i < w.dynamic_box_count(); ++i) {
            boxes[2].push_back(w.dynamic_box_at(i).box);
        }
    }
    circle_set circles;
    aabb_set boxes[3];
};

class world_queries : public on_each_isa {};

TEST_P(world_queries, rays_hit_what_each_kinds_brute_force_finds_first) {
    particle_world world = make_world(1);
    const world_shapes shapes(world);
    const ray_set rays = random_rays(2000);
    const std::size_t n = rays.x.size();
    hit_arrays got(n);
    const std::size_t hit = world.cast_rays(rays.view(), got.view(), got.kind);

    // Each kind alone, by the reference; the first hit wins, the earlier kind on a tie.
    hit_arrays per_kind[4] = {hit_arrays(n), hit_arrays(n), hit_arrays(n), hit_arrays(n)};
    reference::cast_rays(rays.view(), std::as_const(shapes.circles).view(), per_kind[0].view());
    for (int k = 0; k < 3; ++k) {
        reference::cast_rays(rays.view(), shapes.boxes[k].view(), per_kind[k + 1].view());
    }
    const shape_kind kinds[4] = {shape_kind::circle, shape_kind::static_box,
                                 shape_kind::kinematic_box, shape_kind::dynamic_box};
    std::size_t want_hit = 0;
    std::size_t seen[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        int best = -1;
        for (int k = 0; k < 4; ++k) {
            if (per_kind[k].shape[i] != no_shape &&
                (best < 0 || per_kind[k].fraction[i] < per_kind[best].fraction[i])) {
                best = k;
            }
        }
        if (best < 0) {
            EXPECT_EQ(got.kind[i], shape_kind::none) << i;
            EXPECT_EQ(got.shape[i], no_shape) << i;
            EXPECT_EQ(got.fraction[i], 1.0F) << i;
            continue;
        }
        ++want_hit;
        ++seen[best];
        const hit_arrays& w = per_kind[best];
        ASSERT_EQ(got.kind[i], kinds[best]) << i;
        ASSERT_EQ(got.shape[i], w.shape[i]) << i;
        EXPECT_EQ(bits(got.fraction[i]), bits(w.fraction[i])) << i;
        EXPECT_EQ(bits(got.point_x[i]), bits(w.point_x[i])) << i;
        EXPECT_EQ(bits(got.point_y[i]), bits(w.point_y[i])) << i;
        EXPECT_EQ(bits(got.normal_x[i]), bits(w.normal_x[i])) << i;
        EXPECT_EQ(bits(got.normal_y[i]), bits(w.normal_y[i])) << i;
    }
    EXPECT_EQ(hit, want_hit);
    for (int k = 0; k < 4; ++k) {
        EXPECT_GT(seen[k], 0U) << "no ray hit a shape of kind " << k << " first";
    }
}

TEST_P(world_queries, a_ray_down_onto_the_pile_stops_on_its_top_circle) {
    particle_world world = make_world(1);
    float x = 10.0F, y = 40.0F, dx = 0.0F, dy = -50.0F;
    hit_arrays got(1);
    ASSERT_EQ(world.cast_rays({&x, &y, &dx, &dy, 1}, got.view(), got.kind), 1U);
    ASSERT_EQ(got.kind[0], shape_kind::circle);
    const particles_view p = world.particles();
    const std::uint32_t top = got.shape[0];
    // No circle the ray's line passes through is higher.
    for (std::size_t i = 0; i < p.count; ++i) {
        if (std::abs(p.x[i] - x) < p.radius[i]) {
            EXPECT_LE(p.y[i], p.y[top] + p.radius[top] + 1e-4F) << i;
        }
    }
    EXPECT_NEAR(got.point_y[0], y + got.fraction[0] * dy, 1e-6F);
    EXPECT_GT(got.normal_y[0], 0.0F);
}

TEST_P(world_queries, regions_and_points_list_each_kind_in_order) {
    particle_world world = make_world(1);
    const world_shapes shapes(world);
    const aabb region = aabb::from_min_max(2.0F, -0.5F, 9.0F, 12.0F);
    std::vector<shape_ref> got;
    const std::size_t count = world.query_region(region, got);
    std::vector<shape_ref> want;
    std::vector<std::uint32_t> found;
    reference::circles_in_region(std::as_const(shapes.circles).view(), region, found);
    for (const std::uint32_t i : found) {
        want.push_back({shape_kind::circle, i});
    }
    const shape_kind box_kinds[3] = {shape_kind::static_box, shape_kind::kinematic_box,
                                     shape_kind::dynamic_box};
    for (int k = 0; k < 3; ++k) {
        reference::boxes_in_region(shapes.boxes[k].view(), region, found);
        for (const std::uint32_t i : found) {
            want.push_back({box_kinds[k], i});
        }
    }
    EXPECT_EQ(count, got.size());
    EXPECT_EQ(got, want);
    EXPECT_GT(got.size(), 50U);
    EXPECT_NE(std::find(got.begin(), got.end(), shape_ref{shape_kind::kinematic_box, 0}),
              got.end());

    // A point in the first dynamic box finds it, and a point query's circles hold the point.
    const aabb d = world.dynamic_box_at(0).box;
    world.query_point(0.5F * (d.min_x + d.max_x), 0.5F * (d.min_y + d.max_y), 0.0F, got);
    EXPECT_NE(std::find(got.begin(), got.end(), shape_ref{shape_kind::dynamic_box, 0}), got.end());
    world.query_point(10.0F, 2.0F, 0.3F, got);
    const particles_view p = world.particles();
    for (const shape_ref& s : got) {
        ASSERT_EQ(s.kind, shape_kind::circle);
        EXPECT_LE(std::hypot(p.x[s.index] - 10.0F, p.y[s.index] - 2.0F),
                  p.radius[s.index] + 0.3F + 1e-5F);
    }
    EXPECT_FALSE(got.empty());
}

// A query's filter: circles of category 2 and the first static box unseen by a query whose
// mask leaves out bits 1 and 3, seen by the default one.
TEST_P(world_queries, a_querys_filter_hides_the_shapes_it_does_not_collide_with) {
    particle_world world = make_world(1);
    for (std::size_t i = 0; i < world.size(); i += 2) {
        world.set_filter(shape_kind::circle, i, {2, ~std::uint64_t{0}});
    }
    world.set_filter(shape_kind::static_box, 0, {8, ~std::uint64_t{0}});
    const collision_filter query{1, ~std::uint64_t{2 | 8}};
    const ray_set rays = random_rays(1500);
    const std::size_t n = rays.x.size();
    hit_arrays got(n);
    world.cast_rays(rays.view(), got.view(), got.kind, query);
    // The brute force over the circles it sees, renamed, against the world's circle hits.
    const particles_view p = world.particles();
    circle_set seen;
    std::vector<std::uint32_t> index;
    for (std::uint32_t i = 1; i < p.count; i += 2) {
        seen.push_back({p.x[i], p.y[i], p.radius[i]});
        index.push_back(i);
    }
    hit_arrays want(n);
    reference::cast_rays(rays.view(), std::as_const(seen).view(), want.view());
    std::size_t circle_hits = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (got.kind[i] == shape_kind::circle) {
            ++circle_hits;
            ASSERT_NE(want.shape[i], no_shape) << i;
            EXPECT_EQ(got.shape[i], index[want.shape[i]]) << i;
            EXPECT_EQ(bits(got.fraction[i]), bits(want.fraction[i])) << i;
        }
        EXPECT_FALSE(got.kind[i] == shape_kind::static_box && got.shape[i] == 0) << i;
    }
    EXPECT_GT(circle_hits, n / 4);
    std::vector<shape_ref> found;
    world.query_region(aabb::from_min_max(0.0F, -1.0F, 20.0F, 30.0F), found, query);
    for (const shape_ref& r : found) {
        EXPECT_FALSE(r.kind == shape_kind::circle && r.index % 2 == 0);
        EXPECT_FALSE(r.kind == shape_kind::static_box && r.index == 0);
    }
    std::vector<shape_ref> all;
    world.query_region(aabb::from_min_max(0.0F, -1.0F, 20.0F, 30.0F), all);
    EXPECT_GT(all.size(), found.size() + world.size() / 3);
}

INSTANTIATE_TEST_SUITE_P(every_isa, world_queries, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

// The same bits on every instruction set (each against the reference's) and worker count.
TEST(world_queries_bits, rays_give_the_same_bits_on_every_isa_and_worker_count) {
    const ray_set rays = random_rays(1500);
    const std::size_t n = rays.x.size();
    set_isa(isa::reference);
    particle_world reference_world = make_world(1);
    hit_arrays want(n);
    reference_world.cast_rays(rays.view(), want.view(), want.kind);
    reset_isa();
    for (const isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        set_isa(which);
        for (const int workers : {1, 2, 3, 4, 7, 16}) {
            particle_world world = make_world(workers);
            hit_arrays got(n);
            world.cast_rays(rays.view(), got.view(), got.kind);
            const std::string what = std::string(isa_name(which)) + ", " + std::to_string(workers);
            EXPECT_EQ(got.shape, want.shape) << what;
            EXPECT_EQ(got.kind, want.kind) << what;
            expect_same_floats(got.fraction, want.fraction, "fraction, " + what);
            expect_same_floats(got.point_x, want.point_x, "point_x, " + what);
            expect_same_floats(got.normal_x, want.normal_x, "normal_x, " + what);
            expect_same_floats(got.normal_y, want.normal_y, "normal_y, " + what);
        }
        reset_isa();
    }
}

TEST(world_queries_arguments, bad_rays_and_kinds_are_refused_before_anything_is_written) {
    particle_world world = make_world(1);
    ray_set rays = random_rays(4);
    hit_arrays got(4);
    std::fill(got.fraction.begin(), got.fraction.end(), -7.0F);
    std::vector<shape_kind> short_kinds(3, shape_kind::circle);
    EXPECT_THROW(world.cast_rays(rays.view(), got.view(), short_kinds), std::invalid_argument);
    rays.x[3] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_THROW(world.cast_rays(rays.view(), got.view(), got.kind), std::invalid_argument);
    EXPECT_TRUE(
        std::all_of(got.fraction.begin(), got.fraction.end(), [](float f) { return f == -7.0F; }));
    EXPECT_TRUE(std::all_of(got.kind.begin(), got.kind.end(),
                            [](shape_kind k) { return k == shape_kind::none; }));
    std::vector<shape_ref> out{{shape_kind::circle, 5}};
    EXPECT_THROW(world.query_region(aabb::from_min_max(1, 1, 0, 0), out), std::invalid_argument);
    EXPECT_THROW(world.query_point(0, 0, -1, out), std::invalid_argument);
    EXPECT_EQ(out.size(), 1U);
}

} // namespace
} // namespace simdcollide::testing
