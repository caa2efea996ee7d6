// Invalid input (NaN, infinity, negative radius, inverted box) in one pair: no crash, no
// write out of bounds, and no other pair's result changes, on every instruction set.
#include "test_support.hpp"

#include <limits>

namespace simdcollide::testing {
namespace {

class bad_input : public ::testing::TestWithParam<isa> {};

constexpr float nan = std::numeric_limits<float>::quiet_NaN();
constexpr float inf = std::numeric_limits<float>::infinity();

struct corruption {
    const char* what;
    void (*apply)(pair_scene&, std::size_t);
};

const corruption corruptions[] = {
    {"NaN x", [](pair_scene& s, std::size_t i) { s.x[i] = nan; }},
    {"NaN radius", [](pair_scene& s, std::size_t i) { s.radius[i] = nan; }},
    {"infinite y", [](pair_scene& s, std::size_t i) { s.y[i] = inf; }},
    {"negative radius", [](pair_scene& s, std::size_t i) { s.radius[i] = -3; }},
    {"inverted box",
     [](pair_scene& s, std::size_t i) {
         std::swap(s.min_x[i], s.max_x[i]);
         s.min_x[i] += 1;
     }},
    {"NaN box", [](pair_scene& s, std::size_t i) { s.max_y[i] = nan; }},
    {"infinite box",
     [](pair_scene& s, std::size_t i) {
         s.min_x[i] = -inf;
         s.max_x[i] = inf;
     }},
};

TEST_P(bad_input, one_bad_pair_changes_no_other_result) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const std::size_t n = 37; // several blocks and a tail at every width
    for (const corruption& bad : corruptions) {
        for (std::size_t victim : {std::size_t{0}, std::size_t{5}, n - 1}) {
            pair_scene clean(n, 1);
            fill_random(clean, 7);
            pair_scene dirty(n, 1);
            fill_random(dirty, 7);
            bad.apply(dirty, victim);

            contact_set want(n), got(n);
            const std::size_t want_hits = detail::reference_table().circle_aabb.contact(
                clean.circles(), clean.boxes(), want.view(), 0.0F);
            const std::size_t got_hits =
                table.circle_aabb.contact(dirty.circles(), dirty.boxes(), got.view(), 0.0F);
            EXPECT_LE(want_hits > got_hits ? want_hits - got_hits : got_hits - want_hits, 1U);
            std::vector<std::uint8_t> mask(n);
            table.circle_aabb.overlap(dirty.circles(), dirty.boxes(), mask.data(), 0.0F);

            const std::size_t moved =
                table.circle_aabb.push_out(dirty.circles(), dirty.boxes(), 0.0F);
            const std::size_t want_moved = detail::reference_table().circle_aabb.push_out(
                clean.circles(), clean.boxes(), 0.0F);
            EXPECT_LE(moved > want_moved ? moved - want_moved : want_moved - moved, 1U);

            for (std::size_t i = 0; i < n; ++i) {
                if (i == victim) {
                    continue;
                }
                EXPECT_EQ(bits(got.depth[i]), bits(want.depth[i])) << bad.what << " at " << i;
                EXPECT_EQ(bits(got.normal_x[i]), bits(want.normal_x[i])) << bad.what;
                EXPECT_EQ(bits(got.point_y[i]), bits(want.point_y[i])) << bad.what;
                EXPECT_EQ(mask[i] != 0,
                          want.depth[i] != 0 || want.normal_x[i] != 0 || want.normal_y[i] != 0)
                    << bad.what;
                EXPECT_EQ(bits(dirty.x[i]), bits(clean.x[i])) << bad.what << " at " << i;
                EXPECT_EQ(bits(dirty.y[i]), bits(clean.y[i])) << bad.what << " at " << i;
            }
            EXPECT_TRUE(dirty.x.guards_intact() && dirty.y.guards_intact()) << bad.what;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, bad_input, ::testing::ValuesIn([] {
                             std::vector<isa> all = compiled_isas(); // reference too
                             return all;
                         }()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
