// The ray grid gives every ray the hit that testing every circle gives (cast_rays's brute
// force), bit for bit, on every instruction set: piles of one size and of many, circles wider
// than a cell, circles that are not finite, an outlier far away; rays short and long, along
// the cells' boundaries, through corners, from inside circles, of zero length, from far off;
// one by one and all at once.
#include "broad_phase/ray_grid.hpp"
#include "test_support.hpp"

#include <simdcollide/queries.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace simdcollide::testing {
namespace {

struct scene {
    circle_set circles;
    std::vector<float> x, y, dx, dy;
};

scene make_scene(std::uint32_t seed, std::size_t n, float spread, float r_min, float r_max) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> coord(0.0F, spread);
    std::uniform_real_distribution<float> radius(r_min, r_max);
    std::uniform_int_distribution<int> pick(0, 99);
    scene s;
    for (std::size_t i = 0; i < n; ++i) {
        circle c{coord(rng), coord(rng), radius(rng)};
        const int kind = pick(rng);
        if (kind == 0) {
            c.radius = spread * 0.1F; // wider than a cell
        } else if (kind == 1) {
            c.x = std::numeric_limits<float>::quiet_NaN();
        } else if (kind == 2 && i > 0) {
            c = {s.circles.x[i - 1], s.circles.y[i - 1], s.circles.radius[i - 1]}; // a tie
        }
        s.circles.push_back(c);
    }
    std::uniform_real_distribution<float> start(-0.2F * spread, 1.2F * spread);
    std::uniform_real_distribution<float> move(-0.5F * spread, 0.5F * spread);
    std::uniform_int_distribution<std::size_t> which(0, n - 1);
    for (std::size_t i = 0; i < 3000; ++i) {
        float x = start(rng);
        float y = start(rng);
        float dx = move(rng);
        float dy = move(rng);
        const std::size_t k = which(rng);
        switch (pick(rng) % 10) {
        case 0: // along an axis, from a circle's centre height (cells' lines are anywhere)
            dy = 0.0F;
            y = s.circles.y[k];
            break;
        case 1: // zero length, often inside a circle
            dx = 0.0F;
            dy = 0.0F;
            x = s.circles.x[k] == s.circles.x[k] ? s.circles.x[k] : x;
            y = s.circles.y[k];
            break;
        case 2: // short
            dx *= 0.01F;
            dy *= 0.01F;
            break;
        case 3: // very long, from far away
            x = -1e5F;
            dx = 3e5F;
            break;
        case 4: // at a circle's edge, tangent
            if (s.circles.x[k] == s.circles.x[k]) {
                x = s.circles.x[k] - 3.0F * s.circles.radius[k];
                y = s.circles.y[k] + s.circles.radius[k];
                dx = 6.0F * s.circles.radius[k];
                dy = 0.0F;
            }
            break;
        case 5: // diagonal, through many cells
            dy = dx;
            break;
        default:
            break;
        }
        s.x.push_back(x);
        s.y.push_back(y);
        s.dx.push_back(dx);
        s.dy.push_back(dy);
    }
    return s;
}

struct hit_arrays {
    explicit hit_arrays(std::size_t n) : f(n), px(n), py(n), nx(n), ny(n), shape(n) {}
    std::vector<float> f, px, py, nx, ny;
    std::vector<std::uint32_t> shape;
    ray_hits_view view() { return ray_hits_view({f, px, py, nx, ny, shape}); }
};

class ray_grid_on_each_isa : public ::testing::TestWithParam<isa> {};

TEST_P(ray_grid_on_each_isa, every_ray_gets_the_brute_forces_hit) {
    if (!isa_supported(GetParam())) {
        GTEST_SKIP() << "this CPU cannot run " << isa_name(GetParam());
    }
    const detail::kernel_table& table = GetParam() == isa::reference
                                            ? detail::reference_table()
                                            : *detail::compiled_table(GetParam());
    struct setup {
        std::size_t n;
        float spread, r_min, r_max;
    };
    const setup setups[] = {{4000, 100.0F, 0.3F, 0.3F},  // a pile of one size
                            {3000, 60.0F, 0.01F, 1.5F},  // sizes spread 150x
                            {500, 1000.0F, 0.0F, 20.0F}, // sparse, some points
                            {50, 10.0F, 0.5F, 1.0F}};    // few
    std::uint32_t seed = 1;
    for (const setup& u : setups) {
        scene s = make_scene(seed++, u.n, u.spread, u.r_min, u.r_max);
        if (u.n == 3000) {
            s.circles.push_back({1e6F, -1e6F, 1.0F}); // an outlier
        }
        if (u.n == 500) { // a far cluster, outside the bulk, that some rays reach
            for (int k = 0; k < 40; ++k) {
                s.circles.push_back({5000.0F + static_cast<float>(k), 500.0F, 0.4F});
            }
            for (std::size_t i = 0; i < 200; ++i) {
                s.x[i] = 4990.0F;
                s.y[i] = 500.0F + 0.01F * static_cast<float>(i);
                s.dx[i] = 100.0F;
                s.dy[i] = 0.0F;
            }
        }
        const circles_cview circles = std::as_const(s.circles).view();
        const rays_cview rays(s.x, s.y, s.dx, s.dy);
        hit_arrays want(rays.count);
        const std::size_t want_hits = reference::cast_rays(rays, circles, want.view());
        EXPECT_GT(want_hits, rays.count / 10);
        const detail::circle_ray_grid grid(circles);
        hit_arrays got(rays.count);
        const ray_hits_view view = got.view();
        for (std::size_t i = 0; i < rays.count; ++i) {
            detail::ray_best best;
            grid.cast(table, rays.x[i], rays.y[i], rays.dx[i], rays.dy[i], best);
            detail::write_ray_hit(rays, i, best, view);
        }
        // All at once: in cell order, in packets that test their cells' circles together.
        hit_arrays all(rays.count);
        grid.cast_all(table, rays, all.view(), detail::task_runner{});
        for (const hit_arrays* h : {&got, &all}) {
            const std::string what = std::string(h == &got ? "one by one" : "all at once") +
                                     ", n=" + std::to_string(u.n);
            EXPECT_EQ(h->shape, want.shape) << what;
            expect_same_floats(h->f, want.f, "fraction, " + what);
            expect_same_floats(h->px, want.px, "point_x, " + what);
            expect_same_floats(h->py, want.py, "point_y, " + what);
            expect_same_floats(h->nx, want.nx, "normal_x, " + what);
            expect_same_floats(h->ny, want.ny, "normal_y, " + what);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, ray_grid_on_each_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
