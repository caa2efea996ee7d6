// The quality tool's scenes and measures (tools/scenes): measure() against worlds whose
// figures are worked out by hand; each scene, small, stepped for a while on every
// instruction set without losing a circle; and small scenes coming to rest.
#include "scenes/scenes.hpp"
#include "test_support.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace simdcollide::testing {
namespace {

// A scene around a world made here: a floor under [0, 10], walls at 0 and 10.
scenes::scene by_hand() {
    scenes::scene s{scenes::kind::box, std::make_unique<particle_world>()};
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(-1, -1, 11, 0));
    boxes.push_back(aabb::from_min_max(-1, 0, 0, 20));
    boxes.push_back(aabb::from_min_max(10, 0, 11, 20));
    s.world->set_boxes(boxes.view());
    s.right = 10.0F;
    return s;
}

TEST(scene_measures, overlap_penetration_speed_and_escapes_are_as_worked_out_by_hand) {
    scenes::scene s = by_hand();
    particle_world& w = *s.world;
    w.add_circle({2.0F, 1.0F, 0.5F}, 1.0F, 3.0F, 4.0F); // on the floor, speed 5
    w.add_circle({2.9F, 1.0F, 1.0F}, 1.0F);             // overlaps the first by 0.6
    w.add_circle({5.0F, 0.45F, 0.5F}, 1.0F);            // 0.05 into the floor: 10%
    w.add_circle({7.0F, 5.0F, 0.25F}, 1.0F);            // touching nothing
    w.add_circle({12.0F, 5.0F, 0.25F}, 1.0F);           // outside the container
    const scenes::quality q = scenes::measure(s);
    EXPECT_NEAR(q.overlap_max, 0.6 / 0.5, 1e-5);
    EXPECT_NEAR(q.overlap_mean, 0.6 / 0.5, 1e-5);
    EXPECT_EQ(q.deep_pairs, 1U);
    EXPECT_NEAR(q.penetration_max, 0.1, 1e-5);
    EXPECT_NEAR(q.max_speed, 5.0, 1e-6);
    EXPECT_NEAR(q.mean_v2, 25.0 / 5.0, 1e-6);
    EXPECT_EQ(q.escaped, 1U);
    EXPECT_EQ(q.not_finite, 0U);
    EXPECT_EQ(q.airborne, 2U); // the lone one inside and the one outside
    EXPECT_NEAR(q.mean_height, (1.0 + 1.0 + 0.45 + 5.0 + 5.0) / 5.0, 1e-5);
}

TEST(scene_measures, a_circle_with_a_nan_has_escaped) {
    scenes::scene s = by_hand();
    s.world->add_circle({2.0F, 1.0F, 0.5F}, 1.0F);
    s.world->particles().vx[0] = std::nanf("");
    const scenes::quality q = scenes::measure(s);
    EXPECT_EQ(q.not_finite, 1U);
    EXPECT_EQ(q.escaped, 1U);
}

TEST(scene_names, round_trip_and_unknown_names_are_refused) {
    for (const scenes::kind k : scenes::all_kinds()) {
        EXPECT_EQ(scenes::kind_named(scenes::name_of(k)), k);
    }
    EXPECT_THROW((void)scenes::kind_named("hourglass"), std::invalid_argument);
}

using scenes_on_every_isa = on_each_isa;

// Each scene with 600 circles for 3 simulated seconds: none lost, none NaN. (The column from
// high is still falling then: it lands after about 10 s.)
TEST_P(scenes_on_every_isa, small_scenes_keep_every_circle) {
    for (const scenes::kind k : scenes::all_kinds()) {
        scenes::scene s = scenes::make(k, 600);
        ASSERT_EQ(s.world->size(), 600U);
        for (int step = 0; step < 180; ++step) {
            s.world->step(1.0F / 60.0F);
        }
        const scenes::quality q = scenes::measure(s);
        EXPECT_EQ(q.escaped, 0U) << scenes::name_of(k);
        EXPECT_EQ(q.not_finite, 0U) << scenes::name_of(k);
        EXPECT_GT(q.mean_height, 0.0) << scenes::name_of(k);
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, scenes_on_every_isa, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

// The scenes at 1 500 circles, held to what they reach today (a guard against a step that
// rests worse; the 10 000-circle figures are in docs/world-design.md): with the defaults the
// box scene and the column from the floor rest after 20 simulated seconds, the column from
// high after 30, their overlaps under 1% (box) and 10% (columns) on average. The box
// scene's deepest overlap is one circle wedged against an obstacle (about 49%, 6% into the
// box). The column from high lands 10 s in at 98 m/s and splashes: its fastest circles fly
// off at 20 to 33 m/s and the pile rests 18 to 23 s in (1 400 to 2 000 circles), so it is
// measured at 30 s; it stands lower than one from the floor (18.5 against 26 high).
// Measured: mean v^2 under 1e-8 in each. About 6 s an instruction set in Release, so a
// soak test: left out of the sanitizer and emulated runs.
using scenes_soak = on_each_isa;

scenes::quality after_seconds(scenes::kind k, int seconds) {
    scenes::scene s = scenes::make(k, 1500, {});
    for (int step = 0; step < 60 * seconds; ++step) {
        s.world->step(1.0F / 60.0F);
    }
    return scenes::measure(s);
}

void expect_at_rest(const scenes::quality& q, double mean_v2, double overlap_mean,
                    double overlap_max, const std::string& what) {
    EXPECT_LT(q.mean_v2, mean_v2) << what;
    EXPECT_LT(q.max_speed, 0.5) << what;
    EXPECT_LT(q.overlap_mean, overlap_mean) << what;
    EXPECT_LT(q.overlap_max, overlap_max) << what;
    EXPECT_EQ(q.escaped, 0U) << what;
    EXPECT_EQ(q.not_finite, 0U) << what;
    EXPECT_LE(q.airborne, 10U) << what;
}

TEST_P(scenes_soak, small_scenes_come_to_rest) {
    const scenes::quality box = after_seconds(scenes::kind::box, 20);
    expect_at_rest(box, 1e-4, 0.01, 0.6, "box, defaults");
    EXPECT_LT(box.penetration_max, 0.08);
    const scenes::quality floor = after_seconds(scenes::kind::column_floor, 20);
    expect_at_rest(floor, 0.01, 0.10, 0.80, "column from the floor, defaults");
    const scenes::quality high = after_seconds(scenes::kind::column_high, 30);
    expect_at_rest(high, 0.01, 0.10, 0.80, "column from high, defaults");
    EXPECT_GT(high.mean_height, 0.6 * floor.mean_height);
}

INSTANTIATE_TEST_SUITE_P(every_isa, scenes_soak, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
