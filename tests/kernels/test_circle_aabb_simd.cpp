// Every circle-AABB SIMD kernel against the scalar reference, bit for bit, on every
// instruction set this build carries: random scenes mixing every case of the contract, every
// length around the lane counts, every misalignment, with and without a margin.
#include "test_support.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

class circle_aabb_simd : public ::testing::TestWithParam<isa> {};

std::vector<run_case> cases() {
    return run_cases(1, {100000, 1, 424242});
}

constexpr float margins[] = {0.0F, 0.5F, 3.0F};

TEST_P(circle_aabb_simd, closest_point_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const run_case& rc : cases()) {
        pair_scene scene(rc.n, rc.shift);
        fill_random(scene, rc.seed);
        guarded_floats rx(rc.n, rc.shift), ry(rc.n, rc.shift);
        guarded_floats sx(rc.n, rc.shift), sy(rc.n, rc.shift);
        detail::reference_table().circle_aabb.closest_point(scene.circles(), scene.boxes(),
                                                            {rx.data(), ry.data(), rc.n});
        table.circle_aabb.closest_point(scene.circles(), scene.boxes(),
                                        {sx.data(), sy.data(), rc.n});
        for (std::size_t i = 0; i < rc.n; ++i) {
            EXPECT_SAME_BITS(sx[i], rx[i], "x", i);
            EXPECT_SAME_BITS(sy[i], ry[i], "y", i);
        }
        EXPECT_TRUE(sx.guards_intact() && sy.guards_intact()) << "n=" << rc.n;
    }
}

TEST_P(circle_aabb_simd, distance_squared_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const run_case& rc : cases()) {
        pair_scene scene(rc.n, rc.shift);
        fill_random(scene, rc.seed);
        guarded_floats want(rc.n, rc.shift), got(rc.n, rc.shift);
        detail::reference_table().circle_aabb.distance_squared(scene.circles(), scene.boxes(),
                                                               want.data());
        table.circle_aabb.distance_squared(scene.circles(), scene.boxes(), got.data());
        for (std::size_t i = 0; i < rc.n; ++i) {
            EXPECT_SAME_BITS(got[i], want[i], "d2", i);
        }
        EXPECT_TRUE(got.guards_intact()) << "n=" << rc.n;
    }
}

TEST_P(circle_aabb_simd, overlap_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const run_case& rc : cases()) {
        pair_scene scene(rc.n, rc.shift);
        fill_random(scene, rc.seed);
        for (float margin : margins) {
            std::vector<std::uint8_t> want(rc.n + 8, 7), got(rc.n + 8, 7);
            const std::size_t want_count = detail::reference_table().circle_aabb.overlap(
                scene.circles(), scene.boxes(), want.data(), margin);
            const std::size_t got_count =
                table.circle_aabb.overlap(scene.circles(), scene.boxes(), got.data(), margin);
            const std::size_t count_only =
                table.circle_aabb.overlap(scene.circles(), scene.boxes(), nullptr, margin);
            EXPECT_EQ(got_count, want_count) << "n=" << rc.n << " margin=" << margin;
            EXPECT_EQ(count_only, want_count) << "n=" << rc.n << " margin=" << margin;
            EXPECT_EQ(got, want) << "n=" << rc.n << " margin=" << margin;
        }
    }
}

TEST_P(circle_aabb_simd, contact_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const run_case& rc : cases()) {
        pair_scene scene(rc.n, rc.shift);
        fill_random(scene, rc.seed);
        for (float margin : margins) {
            guarded_contacts want(rc.n, rc.shift), got(rc.n, rc.shift);
            const std::size_t want_count = detail::reference_table().circle_aabb.contact(
                scene.circles(), scene.boxes(), want.view(), margin);
            const std::size_t got_count =
                table.circle_aabb.contact(scene.circles(), scene.boxes(), got.view(), margin);
            EXPECT_EQ(got_count, want_count) << "n=" << rc.n << " margin=" << margin;
            expect_same_contacts(got, want);
        }
    }
}

TEST_P(circle_aabb_simd, push_out_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const run_case& rc : cases()) {
        for (float margin : margins) {
            pair_scene want(rc.n, rc.shift);
            pair_scene got(rc.n, rc.shift);
            fill_random(want, rc.seed);
            fill_random(got, rc.seed);
            const std::size_t want_moved = detail::reference_table().circle_aabb.push_out(
                want.circles(), want.boxes(), margin);
            const std::size_t got_moved =
                table.circle_aabb.push_out(got.circles(), got.boxes(), margin);
            EXPECT_EQ(got_moved, want_moved) << "n=" << rc.n << " margin=" << margin;
            for (std::size_t i = 0; i < rc.n; ++i) {
                EXPECT_SAME_BITS(got.x[i], want.x[i], "x", i);
                EXPECT_SAME_BITS(got.y[i], want.y[i], "y", i);
            }
            EXPECT_TRUE(got.x.guards_intact() && got.y.guards_intact()) << "n=" << rc.n;
        }
    }
}

// From 2^20 pairs push_out takes its prefetching loop: the same bits, to the last element,
// from an unaligned start and with a tail.
TEST_P(circle_aabb_simd, push_out_over_a_million_pairs_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const std::size_t n = (std::size_t{1} << 20) + 13;
    pair_scene want(n, 1);
    pair_scene got(n, 1);
    fill_random(want, 77);
    fill_random(got, 77);
    const std::size_t want_moved =
        detail::reference_table().circle_aabb.push_out(want.circles(), want.boxes(), 0.0F);
    const std::size_t got_moved = table.circle_aabb.push_out(got.circles(), got.boxes(), 0.0F);
    EXPECT_EQ(got_moved, want_moved);
    EXPECT_GT(want_moved, n / 10); // the scene does penetrate
    expect_same_floats({got.x.data(), n}, {want.x.data(), n}, "x");
    expect_same_floats({got.y.data(), n}, {want.y.data(), n}, "y");
    EXPECT_TRUE(got.x.guards_intact() && got.y.guards_intact());
}

// From 2^20 pairs contact prefetches its inputs and its five outputs (streams_from): the
// same bits, to the last element, from an unaligned start and with a tail.
TEST_P(circle_aabb_simd, contact_over_a_million_pairs_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const std::size_t n = (std::size_t{1} << 20) + 13;
    pair_scene scene(n, 1);
    fill_random(scene, 78);
    expect_long_contacts_match(
        n,
        [&](contacts_view out) {
            return detail::reference_table().circle_aabb.contact(scene.circles(), scene.boxes(),
                                                                 out, 0.0F);
        },
        [&](contacts_view out) {
            return table.circle_aabb.contact(scene.circles(), scene.boxes(), out, 0.0F);
        });
}

TEST_P(circle_aabb_simd, push_out_against_one_box_matches_reference_and_pairwise) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const run_case& rc : cases()) {
        for (float margin : margins) {
            pair_scene scene(rc.n, rc.shift);
            fill_random(scene, rc.seed);
            // Every circle against box 0 of the scene (or a fixed box when empty).
            const aabb box = rc.n > 0 ? aabb::from_min_max(scene.min_x[0], scene.min_y[0],
                                                           scene.max_x[0], scene.max_y[0])
                                      : aabb::from_min_max(0, 0, 1, 1);
            pair_scene repeated(rc.n, rc.shift);
            fill_random(repeated, rc.seed);
            for (std::size_t i = 0; i < rc.n; ++i) {
                repeated.set(i, {repeated.x[i], repeated.y[i], repeated.radius[i]}, box);
            }
            pair_scene want(rc.n, rc.shift);
            fill_random(want, rc.seed);
            const std::size_t moved_pairwise = detail::reference_table().circle_aabb.push_out(
                repeated.circles(), repeated.boxes(), margin);
            const std::size_t moved_want =
                detail::reference_table().circle_aabb.push_out_box(want.circles(), box, margin);
            const std::size_t moved_got =
                table.circle_aabb.push_out_box(scene.circles(), box, margin);
            EXPECT_EQ(moved_want, moved_pairwise);
            EXPECT_EQ(moved_got, moved_want);
            for (std::size_t i = 0; i < rc.n; ++i) {
                EXPECT_SAME_BITS(want.x[i], repeated.x[i], "reference x", i);
                EXPECT_SAME_BITS(scene.x[i], want.x[i], "x", i);
                EXPECT_SAME_BITS(scene.y[i], want.y[i], "y", i);
            }
            EXPECT_TRUE(scene.x.guards_intact() && scene.y.guards_intact());
        }
    }
}

// The boxes the one-box forms are tried against: box 0 of the scene, a unit box, a point, an
// inverted box and one with a NaN corner (for these two the forms owe only what the
// pairwise form gives with the box repeated).
std::vector<aabb> one_boxes(const pair_scene& scene) {
    std::vector<aabb> boxes{aabb::from_min_max(0, 0, 1, 1), aabb::from_min_max(2, -1, 2, -1),
                            aabb::from_min_max(3, 3, -3, -3),
                            aabb::from_min_max(std::numeric_limits<float>::quiet_NaN(), 0, 1, 1)};
    if (scene.size() > 0) {
        boxes.push_back(
            aabb::from_min_max(scene.min_x[0], scene.min_y[0], scene.max_x[0], scene.max_y[0]));
    }
    return boxes;
}

// The scene's circles, each paired with `box`.
pair_scene with_box_repeated(const run_case& rc, const aabb& box) {
    pair_scene repeated(rc.n, rc.shift);
    fill_random(repeated, rc.seed);
    for (std::size_t i = 0; i < rc.n; ++i) {
        repeated.set(i, {repeated.x[i], repeated.y[i], repeated.radius[i]}, box);
    }
    return repeated;
}

TEST_P(circle_aabb_simd, queries_against_one_box_match_reference_and_pairwise) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().circle_aabb;
    for (const run_case& rc : cases()) {
        pair_scene scene(rc.n, rc.shift);
        fill_random(scene, rc.seed);
        for (const aabb& box : one_boxes(scene)) {
            const pair_scene repeated = with_box_repeated(rc, box);
            guarded_floats px(rc.n, rc.shift), py(rc.n, rc.shift), wx(rc.n, rc.shift),
                wy(rc.n, rc.shift), gx(rc.n, rc.shift), gy(rc.n, rc.shift);
            ref.closest_point(repeated.circles(), repeated.boxes(), {px.data(), py.data(), rc.n});
            ref.closest_point_box(scene.circles(), box, {wx.data(), wy.data(), rc.n});
            table.circle_aabb.closest_point_box(scene.circles(), box, {gx.data(), gy.data(), rc.n});
            for (std::size_t i = 0; i < rc.n; ++i) {
                EXPECT_SAME_BITS(wx[i], px[i], "reference closest x", i);
                EXPECT_SAME_BITS(wy[i], py[i], "reference closest y", i);
                EXPECT_SAME_BITS(gx[i], wx[i], "closest x", i);
                EXPECT_SAME_BITS(gy[i], wy[i], "closest y", i);
            }
            ref.distance_squared(repeated.circles(), repeated.boxes(), px.data());
            ref.distance_squared_box(scene.circles(), box, wx.data());
            table.circle_aabb.distance_squared_box(scene.circles(), box, gx.data());
            for (std::size_t i = 0; i < rc.n; ++i) {
                EXPECT_SAME_BITS(wx[i], px[i], "reference d2", i);
                EXPECT_SAME_BITS(gx[i], wx[i], "d2", i);
            }
            EXPECT_TRUE(gx.guards_intact() && gy.guards_intact()) << "n=" << rc.n;
            for (float margin : margins) {
                std::vector<std::uint8_t> pairwise(rc.n + 8, 7), want(rc.n + 8, 7),
                    got(rc.n + 8, 7);
                const std::size_t pairwise_count =
                    ref.overlap(repeated.circles(), repeated.boxes(), pairwise.data(), margin);
                const std::size_t want_count =
                    ref.overlap_box(scene.circles(), box, want.data(), margin);
                EXPECT_EQ(want_count, pairwise_count);
                EXPECT_EQ(want, pairwise);
                EXPECT_EQ(table.circle_aabb.overlap_box(scene.circles(), box, got.data(), margin),
                          want_count);
                EXPECT_EQ(table.circle_aabb.overlap_box(scene.circles(), box, nullptr, margin),
                          want_count);
                EXPECT_EQ(got, want) << "n=" << rc.n << " margin=" << margin;

                guarded_contacts by_pair(rc.n, rc.shift), want_contacts(rc.n, rc.shift),
                    got_contacts(rc.n, rc.shift);
                const std::size_t by_pair_count =
                    ref.contact(repeated.circles(), repeated.boxes(), by_pair.view(), margin);
                const std::size_t want_contact_count =
                    ref.contact_box(scene.circles(), box, want_contacts.view(), margin);
                EXPECT_EQ(want_contact_count, by_pair_count);
                expect_same_contacts(want_contacts, by_pair);
                EXPECT_EQ(table.circle_aabb.contact_box(scene.circles(), box, got_contacts.view(),
                                                        margin),
                          want_contact_count);
                expect_same_contacts(got_contacts, want_contacts);
            }
        }
    }
}

// The random mix must really contain the cases it claims to: otherwise the tests above
// would pass vacuously. Counted with the reference on the long scene.
TEST(circle_aabb_scene, random_mix_covers_every_case) {
    pair_scene scene(100000, 0);
    fill_random(scene, 424242);
    std::size_t inside = 0, outside_hit = 0, inside_hit = 0, touching = 0, zero_radius = 0;
    std::vector<float> d2(scene.size());
    detail::reference_table().circle_aabb.distance_squared(scene.circles(), scene.boxes(),
                                                           d2.data());
    std::vector<std::uint8_t> hit(scene.size());
    detail::reference_table().circle_aabb.overlap(scene.circles(), scene.boxes(), hit.data(), 0.0F);
    for (std::size_t i = 0; i < scene.size(); ++i) {
        const float r = scene.radius[i];
        inside += d2[i] == 0.0F ? 1 : 0;
        inside_hit += d2[i] == 0.0F && hit[i] != 0 ? 1 : 0;
        outside_hit += d2[i] > 0.0F && hit[i] != 0 ? 1 : 0;
        touching += d2[i] > 0.0F && d2[i] == r * r ? 1 : 0;
        zero_radius += r == 0.0F ? 1 : 0;
    }
    EXPECT_GT(inside, 10000U);
    EXPECT_GT(inside_hit, 5000U);
    EXPECT_GT(outside_hit, 5000U);
    EXPECT_GT(touching, 1000U);
    EXPECT_GT(zero_radius, 1000U);
}

INSTANTIATE_TEST_SUITE_P(every_isa, circle_aabb_simd, ::testing::ValuesIn(simd_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
