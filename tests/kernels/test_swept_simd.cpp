// Every swept SIMD kernel against the scalar reference, bit for bit, on every instruction
// set this build carries: random moves mixing every case of the contract (starts inside,
// touching, on faces and corners; moves aimed at the box, past it, away, along an axis,
// zero, huge; radius 0; non-finite values), every length around the lane counts, every
// misalignment. And sweep_all through the grid against the brute force.
#include "test_support.hpp"

#include <simdcollide/static_boxes.hpp>
#include <simdcollide/swept.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

class swept_simd : public ::testing::TestWithParam<isa> {};

std::vector<run_case> cases() {
    return run_cases(7001, {50000, 3, 515151});
}

/// A move for circle (x, y) against box b, from a mix that covers the contract's cases.
void random_move(std::mt19937& rng, float x, float y, const aabb& b, float& dx, float& dy) {
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::uniform_real_distribution<float> coord(-30.0F, 30.0F);
    std::uniform_int_distribution<int> pick(0, 15);
    const float to_x = (b.min_x + b.max_x) * 0.5F - x;
    const float to_y = (b.min_y + b.max_y) * 0.5F - y;
    switch (pick(rng)) {
    case 0: // none
        dx = 0.0F;
        dy = 0.0F;
        break;
    case 1: // along x only
        dx = coord(rng);
        dy = 0.0F;
        break;
    case 2: // along y only
        dx = 0.0F;
        dy = coord(rng);
        break;
    case 3: // at the box's centre, short of it or past it
    case 4:
    case 5: {
        const float s = unit(rng) * 3.0F;
        dx = to_x * s;
        dy = to_y * s;
        break;
    }
    case 6: // at a corner of the box
        dx = (pick(rng) < 8 ? b.min_x : b.max_x) - x;
        dy = (pick(rng) < 8 ? b.min_y : b.max_y) - y;
        break;
    case 7: // away from the box
        dx = -to_x;
        dy = -to_y;
        break;
    case 8: // huge
        dx = 1e30F * coord(rng);
        dy = 1e30F * coord(rng);
        break;
    case 9: { // non-finite
        const float odd[] = {std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(),
                             std::numeric_limits<float>::quiet_NaN(), 1.0F};
        dx = odd[pick(rng) % 4];
        dy = odd[pick(rng) % 4];
        break;
    }
    default:
        dx = coord(rng);
        dy = coord(rng);
        break;
    }
}

struct move_scene {
    move_scene(std::size_t n, std::size_t shift, std::uint32_t seed)
        : pairs(n, shift), dx(n, shift + 7), dy(n, shift + 8), ox(n, shift + 9), oy(n, shift + 10),
          orad(n, shift + 11) {
        fill_random(pairs, seed);
        std::mt19937 rng(seed ^ 0x5eedU);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        for (std::size_t i = 0; i < n; ++i) {
            const aabb b =
                aabb::from_min_max(pairs.min_x[i], pairs.min_y[i], pairs.max_x[i], pairs.max_y[i]);
            random_move(rng, pairs.x[i], pairs.y[i], b, dx[i], dy[i]);
            // A still circle in the box's place: its centre and a radius from its size.
            ox[i] = (b.min_x + b.max_x) * 0.5F;
            oy[i] = (b.min_y + b.max_y) * 0.5F;
            orad[i] = (b.max_x - b.min_x) * 0.5F * (unit(rng) < 0.1F ? 0.0F : 1.0F);
        }
    }
    pair_scene pairs;
    guarded_floats dx, dy, ox, oy, orad;

    displacements_cview moves() const { return {dx.data(), dy.data(), pairs.size()}; }
    circles_cview obstacles() const { return {ox.data(), oy.data(), orad.data(), pairs.size()}; }
};

struct guarded_impacts {
    guarded_impacts(std::size_t n, std::size_t shift)
        : time(n, shift + 12), normal_x(n, shift + 13), normal_y(n, shift + 14) {}
    guarded_floats time, normal_x, normal_y;
    impacts_view view() { return {time.data(), normal_x.data(), normal_y.data(), time.size()}; }
};

void expect_same_impacts(const guarded_impacts& got, const guarded_impacts& want, std::size_t n) {
    expect_same_floats({got.time.data(), n}, {want.time.data(), n}, "time");
    expect_same_floats({got.normal_x.data(), n}, {want.normal_x.data(), n}, "normal_x");
    expect_same_floats({got.normal_y.data(), n}, {want.normal_y.data(), n}, "normal_y");
    EXPECT_TRUE(got.time.guards_intact() && got.normal_x.guards_intact() &&
                got.normal_y.guards_intact())
        << "n=" << n;
}

TEST_P(swept_simd, against_boxes_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::size_t hits = 0;
    for (const run_case& rc : cases()) {
        const move_scene scene(rc.n, rc.shift, rc.seed);
        guarded_impacts want(rc.n, rc.shift), got(rc.n, rc.shift);
        const std::size_t want_hits = detail::reference_table().swept.box(
            scene.pairs.circles(), scene.moves(), scene.pairs.boxes(), want.view());
        EXPECT_EQ(
            table.swept.box(scene.pairs.circles(), scene.moves(), scene.pairs.boxes(), got.view()),
            want_hits)
            << "n=" << rc.n;
        expect_same_impacts(got, want, rc.n);
        hits += want_hits;
    }
    EXPECT_GT(hits, 10000U); // the scenes do hit
}

TEST_P(swept_simd, against_one_box_matches_reference_and_pairwise) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const run_case& rc : cases()) {
        if (rc.n == 0) {
            continue;
        }
        move_scene scene(rc.n, rc.shift, rc.seed);
        const aabb box = aabb::from_min_max(scene.pairs.min_x[0], scene.pairs.min_y[0],
                                            scene.pairs.max_x[0], scene.pairs.max_y[0]);
        for (std::size_t i = 0; i < rc.n; ++i) {
            scene.pairs.set(i, {scene.pairs.x[i], scene.pairs.y[i], scene.pairs.radius[i]}, box);
        }
        guarded_impacts want(rc.n, rc.shift), got(rc.n, rc.shift), pairwise(rc.n, rc.shift);
        const std::size_t want_hits = detail::reference_table().swept.one_box(
            scene.pairs.circles(), scene.moves(), box, want.view());
        EXPECT_EQ(table.swept.one_box(scene.pairs.circles(), scene.moves(), box, got.view()),
                  want_hits);
        EXPECT_EQ(table.swept.box(scene.pairs.circles(), scene.moves(), scene.pairs.boxes(),
                                  pairwise.view()),
                  want_hits);
        expect_same_impacts(got, want, rc.n);
        expect_same_impacts(pairwise, want, rc.n);
    }
}

TEST_P(swept_simd, against_circles_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::size_t hits = 0;
    for (const run_case& rc : cases()) {
        const move_scene scene(rc.n, rc.shift, rc.seed);
        guarded_impacts want(rc.n, rc.shift), got(rc.n, rc.shift);
        const std::size_t want_hits = detail::reference_table().swept.circle(
            scene.pairs.circles(), scene.moves(), scene.obstacles(), want.view());
        EXPECT_EQ(
            table.swept.circle(scene.pairs.circles(), scene.moves(), scene.obstacles(), got.view()),
            want_hits)
            << "n=" << rc.n;
        expect_same_impacts(got, want, rc.n);
        hits += want_hits;
    }
    EXPECT_GT(hits, 10000U);
}

INSTANTIATE_TEST_SUITE_P(every_isa, swept_simd, ::testing::ValuesIn(simd_isas()), isa_test_name);

// sweep_all through the grid, on each instruction set (the dispatched kernels, reference
// included), against the brute force: many boxes (the grid's path) and few (every box).
class sweep_all_on_each_isa : public on_each_isa {};

TEST_P(sweep_all_on_each_isa, the_grid_finds_the_brute_forces_first_impacts) {
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> coord(0.0F, 100.0F);
    std::uniform_real_distribution<float> size(0.0F, 4.0F);
    std::uniform_real_distribution<float> move(-30.0F, 30.0F);
    std::uniform_real_distribution<float> radius(0.0F, 1.5F);
    for (const std::size_t box_count : {0U, 5U, 48U, 49U, 600U}) {
        aabb_set boxes;
        for (std::size_t k = 0; k < box_count; ++k) {
            boxes.push_back(aabb::from_origin_size(coord(rng), coord(rng), size(rng), size(rng)));
        }
        if (box_count > 0) {
            boxes.push_back(aabb::from_min_max(-1e6F, -1e6F, -1e6F + 1.0F, -1e6F + 1.0F)); // far
        }
        const static_box_grid grid(boxes.view());
        const std::size_t n = 3000;
        std::vector<float> x(n), y(n), r(n), dx(n), dy(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = coord(rng);
            y[i] = coord(rng);
            r[i] = i % 50 == 0 ? 0.0F : radius(rng);
            dx[i] = i % 7 == 0 ? 0.0F : move(rng);
            dy[i] = i % 11 == 0 ? 0.0F : move(rng);
        }
        x[1] = std::numeric_limits<float>::quiet_NaN(); // an invalid circle: its own results
        r[2] = -1.0F;
        dx[3] = std::numeric_limits<float>::infinity();
        const circles_cview circles{x.data(), y.data(), r.data(), n};
        const displacements_cview moves{dx.data(), dy.data(), n};
        std::vector<float> wt(n), wx(n), wy(n), gt(n), gx(n), gy(n);
        std::vector<std::uint32_t> want_box(n), got_box(n);
        const std::size_t want = reference::sweep_all(
            circles, moves, boxes.view(), {wt.data(), wx.data(), wy.data(), n}, want_box);
        EXPECT_EQ(sweep_all(circles, moves, grid, {gt.data(), gx.data(), gy.data(), n}, got_box),
                  want)
            << box_count << " boxes";
        EXPECT_EQ(got_box, want_box) << box_count << " boxes";
        expect_same_floats(gt, wt, "time");
        expect_same_floats(gx, wx, "normal_x");
        expect_same_floats(gy, wy, "normal_y");
        if (box_count >= 48) {
            EXPECT_GT(want, n / 10) << box_count << " boxes";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, sweep_all_on_each_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
