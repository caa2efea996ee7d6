// The ray-cast and region-query SIMD kernels against the scalar reference, bit for bit, on
// every instruction set this build carries: rays from inside shapes, along faces, at
// corners, of zero length, huge, and shapes repeated (ties), of radius or size 0, and
// non-finite; every ray count around the lane counts, every misalignment.
#include "test_support.hpp"

#include <simdcollide/queries.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

class queries_simd : public ::testing::TestWithParam<isa> {};

std::vector<run_case> cases() {
    return run_cases(9101, {3000, 5, 777});
}

/// Shapes for the rays to hit: circles and boxes in [0, 20]^2, some repeated (ties), some
/// of size 0, a few with a value that is not finite.
struct shape_scene {
    explicit shape_scene(std::uint32_t seed, std::size_t n = 41) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> coord(0.0F, 20.0F);
        std::uniform_real_distribution<float> size(0.0F, 3.0F);
        std::uniform_int_distribution<int> pick(0, 19);
        for (std::size_t k = 0; k < n; ++k) {
            const int kind = pick(rng);
            if (kind == 0 && k > 0) { // a repeat: the same shape at a higher index
                x.push_back(x[k - 1]);
                y.push_back(y[k - 1]);
                r.push_back(r[k - 1]);
                min_x.push_back(min_x[k - 1]);
                min_y.push_back(min_y[k - 1]);
                max_x.push_back(max_x[k - 1]);
                max_y.push_back(max_y[k - 1]);
                continue;
            }
            x.push_back(coord(rng));
            y.push_back(coord(rng));
            r.push_back(kind == 1 ? 0.0F : size(rng));
            min_x.push_back(coord(rng));
            min_y.push_back(coord(rng));
            max_x.push_back(kind == 2 ? min_x.back() : min_x.back() + size(rng));
            max_y.push_back(kind == 3 ? min_y.back() : min_y.back() + size(rng));
            if (kind == 4) {
                x.back() = std::numeric_limits<float>::quiet_NaN();
                max_y.back() = std::numeric_limits<float>::infinity();
            }
        }
    }
    std::vector<float> x, y, r, min_x, min_y, max_x, max_y;
    circles_cview circles() const { return {x.data(), y.data(), r.data(), x.size()}; }
    aabbs_view boxes() const {
        return {min_x.data(), min_y.data(), max_x.data(), max_y.data(), min_x.size()};
    }
};

/// n rays in guarded arrays: origins inside, on and around the shapes, translations of
/// every kind the contract names.
struct ray_scene {
    ray_scene(const shape_scene& s, std::size_t n, std::size_t shift, std::uint32_t seed)
        : x(n, staggered(shift, 0)), y(n, staggered(shift, 1)), dx(n, staggered(shift, 2)),
          dy(n, staggered(shift, 3)) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> coord(-5.0F, 25.0F);
        std::uniform_real_distribution<float> move(-30.0F, 30.0F);
        std::uniform_int_distribution<int> pick(0, 11);
        std::uniform_int_distribution<std::size_t> shape(0, s.x.size() - 1);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = shape(rng);
            x[i] = coord(rng);
            y[i] = coord(rng);
            dx[i] = move(rng);
            dy[i] = move(rng);
            switch (pick(rng)) {
            case 0: // from a circle's centre
                x[i] = s.x[k] == s.x[k] ? s.x[k] : 1.0F;
                y[i] = s.y[k];
                break;
            case 1: // along a box's face, from on it
                x[i] = s.min_x[k];
                y[i] = s.min_y[k] - 1.0F;
                dx[i] = 0.0F;
                dy[i] = 10.0F;
                break;
            case 2: // zero length
                dx[i] = 0.0F;
                dy[i] = 0.0F;
                break;
            case 3: // at a box's corner
                dx[i] = s.max_x[k] - x[i];
                dy[i] = s.max_y[k] - y[i];
                break;
            case 4: // at a circle's centre, exactly through it
                if (s.x[k] == s.x[k]) {
                    dx[i] = 2.0F * (s.x[k] - x[i]);
                    dy[i] = 2.0F * (s.y[k] - y[i]);
                }
                break;
            case 5: // huge
                dx[i] *= 1e30F;
                dy[i] *= 1e30F;
                break;
            case 6: // along an axis
                dy[i] = 0.0F;
                break;
            default:
                break;
            }
        }
    }
    guarded_floats x, y, dx, dy;
    rays_cview view() const { return {x.data(), y.data(), dx.data(), dy.data(), x.size()}; }
};

struct guarded_hits {
    guarded_hits(std::size_t n, std::size_t shift)
        : field{{n, staggered(shift + 3, 0)}, {n, staggered(shift + 3, 1)},
                {n, staggered(shift + 3, 2)}, {n, staggered(shift + 3, 3)},
                {n, staggered(shift + 3, 4)}, {n, staggered(shift + 3, 5)}} {}
    guarded_floats field[6]; // fraction, point_x, point_y, normal_x, normal_y, shape
    ray_hits_view view() {
        return {field[0].data(), field[1].data(), field[2].data(),
                field[3].data(), field[4].data(), reinterpret_cast<std::uint32_t*>(field[5].data()),
                field[0].size()};
    }
};

void expect_same_hits(const guarded_hits& got, const guarded_hits& want) {
    const char* names[6] = {"fraction", "point_x", "point_y", "normal_x", "normal_y", "shape"};
    for (int f = 0; f < 6; ++f) {
        const std::size_t n = want.field[f].size();
        expect_same_floats({got.field[f].data(), n}, {want.field[f].data(), n}, names[f]);
        EXPECT_TRUE(got.field[f].guards_intact()) << names[f];
    }
}

TEST_P(queries_simd, rays_against_circles_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::size_t hits = 0;
    for (const run_case& rc : cases()) {
        const shape_scene shapes(rc.seed);
        const ray_scene rays(shapes, rc.n, rc.shift, rc.seed + 1);
        guarded_hits want(rc.n, rc.shift), got(rc.n, rc.shift);
        const std::size_t want_hits = detail::reference_table().queries.ray_circles(
            rays.view(), shapes.circles(), want.view());
        EXPECT_EQ(table.queries.ray_circles(rays.view(), shapes.circles(), got.view()), want_hits)
            << "n=" << rc.n;
        expect_same_hits(got, want);
        hits += want_hits;
    }
    EXPECT_GT(hits, 3000U); // the scenes do hit
}

// Several rays against one run of circles whose indices are not in order (the cells of a
// ray grid, one after another), with repeats at a lower index after a higher one: ties in
// time go to the lower index in every lane as in the reference.
TEST_P(queries_simd, rays_against_a_run_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::size_t found = 0;
    std::size_t ties = 0;
    for (const run_case& rc : cases()) {
        const shape_scene shapes(rc.seed);
        const ray_scene rays(shapes, rc.n, rc.shift, rc.seed + 1);
        std::vector<float> x(shapes.x.rbegin(), shapes.x.rend());
        std::vector<float> y(shapes.y.rbegin(), shapes.y.rend());
        std::vector<float> r(shapes.r.rbegin(), shapes.r.rend());
        std::vector<std::uint32_t> index(x.size());
        for (std::size_t k = 0; k < index.size(); ++k) {
            index[k] = static_cast<std::uint32_t>(index.size() - 1 - k) * 2U;
        }
        for (std::size_t k = 0; k + 1 < index.size(); k += 7) { // the same circle, lower after
            x.push_back(x[k]);
            y.push_back(y[k]);
            r.push_back(r[k]);
            index.push_back(index[k] - 1U);
            ++ties;
        }
        std::vector<detail::ray_best> want(rc.n), got(rc.n, {0.5F, 7U, true, 1.0F, 2.0F});
        detail::reference_table().queries.rays_circle_run(rays.view(), x.data(), y.data(), r.data(),
                                                          index.data(), x.size(), want.data());
        table.queries.rays_circle_run(rays.view(), x.data(), y.data(), r.data(), index.data(),
                                      x.size(), got.data());
        for (std::size_t i = 0; i < rc.n; ++i) {
            EXPECT_EQ(got[i].shape, want[i].shape) << "ray " << i << ", n=" << rc.n;
            EXPECT_EQ(got[i].inside, want[i].inside) << "ray " << i;
            EXPECT_EQ(bits(got[i].time), bits(want[i].time)) << "ray " << i;
            EXPECT_EQ(bits(got[i].mx), bits(want[i].mx)) << "ray " << i;
            EXPECT_EQ(bits(got[i].my), bits(want[i].my)) << "ray " << i;
            found += want[i].shape != no_shape ? 1 : 0;
        }
    }
    EXPECT_GT(found, 3000U); // the scenes do hit
    EXPECT_GT(ties, 10U);
}

TEST_P(queries_simd, rays_against_boxes_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::size_t hits = 0;
    for (const run_case& rc : cases()) {
        const shape_scene shapes(rc.seed);
        const ray_scene rays(shapes, rc.n, rc.shift, rc.seed + 1);
        guarded_hits want(rc.n, rc.shift), got(rc.n, rc.shift);
        const std::size_t want_hits =
            detail::reference_table().queries.ray_boxes(rays.view(), shapes.boxes(), want.view());
        EXPECT_EQ(table.queries.ray_boxes(rays.view(), shapes.boxes(), got.view()), want_hits)
            << "n=" << rc.n;
        expect_same_hits(got, want);
        hits += want_hits;
    }
    EXPECT_GT(hits, 3000U);
}

TEST_P(queries_simd, regions_and_points_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::size_t reached = 0;
    for (const run_case& rc : cases()) {
        const shape_scene shapes(rc.seed, rc.n);
        // Views of the shapes from a misaligned start (the shift), the masks after guards.
        std::mt19937 rng(rc.seed);
        std::uniform_real_distribution<float> coord(-2.0F, 22.0F);
        std::uniform_real_distribution<float> size(0.0F, 6.0F);
        const float px = coord(rng);
        const float py = coord(rng);
        const float distance = rc.seed % 4 == 0 ? 0.0F : size(rng);
        const aabb region =
            aabb::from_origin_size(px, py, size(rng), rc.seed % 5 == 0 ? 0.0F : size(rng));
        std::vector<std::uint8_t> want(rc.n + 32, 7), got(rc.n + 32, 7);
        const auto& ref = detail::reference_table().queries;
        const auto& simd = table.queries;
        const auto check = [&](std::size_t want_count, std::size_t got_count, const char* what) {
            EXPECT_EQ(got_count, want_count) << what << " n=" << rc.n;
            EXPECT_EQ(got, want) << what << " n=" << rc.n;
            reached += want_count;
        };
        check(ref.circles_in_region(shapes.circles(), region, want.data() + rc.shift),
              simd.circles_in_region(shapes.circles(), region, got.data() + rc.shift),
              "circles_in_region");
        check(ref.circles_near_point(shapes.circles(), px, py, distance, want.data() + rc.shift),
              simd.circles_near_point(shapes.circles(), px, py, distance, got.data() + rc.shift),
              "circles_near_point");
        check(ref.boxes_in_region(shapes.boxes(), region, want.data() + rc.shift),
              simd.boxes_in_region(shapes.boxes(), region, got.data() + rc.shift),
              "boxes_in_region");
        check(ref.boxes_near_point(shapes.boxes(), px, py, distance, want.data() + rc.shift),
              simd.boxes_near_point(shapes.boxes(), px, py, distance, got.data() + rc.shift),
              "boxes_near_point");
    }
    EXPECT_GT(reached, 1000U);
}

INSTANTIATE_TEST_SUITE_P(every_isa, queries_simd, ::testing::ValuesIn(simd_isas()), isa_test_name);

} // namespace
} // namespace simdcollide::testing
