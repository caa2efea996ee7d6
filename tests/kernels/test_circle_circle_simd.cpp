// Circle-circle and velocity-response SIMD kernels against the scalar reference, bit for
// bit, on every instruction set: random scenes with coincident centres, exact touching,
// zero radii, static circles on either or both sides, every length around the lane counts,
// every misalignment.
#include "circle_pair_scenes.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace simdcollide::testing {
namespace {

class circle_circle_simd : public ::testing::TestWithParam<isa> {};

TEST_P(circle_circle_simd, distance_squared_overlap_and_contact_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().circle_circle;
    for (const run_case& rc : cases()) {
        circle_pair_scene s(rc.n, rc.shift);
        fill_random(s, rc.seed);
        guarded_floats want(rc.n, rc.shift), got(rc.n, rc.shift);
        ref.distance_squared(s.ca(), s.cb(), want.data());
        table.circle_circle.distance_squared(s.ca(), s.cb(), got.data());
        expect_same(got, want, "d2");

        std::vector<std::uint8_t> want_mask(rc.n + 4, 9), got_mask(rc.n + 4, 9);
        const std::size_t want_hits = ref.overlap(s.ca(), s.cb(), want_mask.data());
        EXPECT_EQ(table.circle_circle.overlap(s.ca(), s.cb(), got_mask.data()), want_hits);
        EXPECT_EQ(table.circle_circle.overlap(s.ca(), s.cb(), nullptr), want_hits);
        EXPECT_EQ(got_mask, want_mask);

        guarded_contacts want_contacts(rc.n, rc.shift), got_contacts(rc.n, rc.shift);
        EXPECT_EQ(table.circle_circle.contact(s.ca(), s.cb(), got_contacts.view()),
                  ref.contact(s.ca(), s.cb(), want_contacts.view()));
        expect_same_contacts(got_contacts, want_contacts);
    }
}

// From 2^20 pairs contact prefetches its inputs and its five outputs (streams_from): the
// same bits, to the last element, from an unaligned start and with a tail.
TEST_P(circle_circle_simd, contact_over_a_million_pairs_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const std::size_t n = (std::size_t{1} << 20) + 13;
    circle_pair_scene s(n, 1);
    fill_random(s, 79);
    expect_long_contacts_match(
        n,
        [&](contacts_view out) {
            return detail::reference_table().circle_circle.contact(s.ca(), s.cb(), out);
        },
        [&](contacts_view out) { return table.circle_circle.contact(s.ca(), s.cb(), out); });
}

TEST_P(circle_circle_simd, aligned_separation_matches_reference_in_every_mode) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        for (const run_case& rc : cases()) {
            circle_pair_scene want(rc.n, rc.shift), got(rc.n, rc.shift);
            fill_random(want, rc.seed);
            fill_random(got, rc.seed);
            EXPECT_EQ(table.circle_circle.separate(got.a(), got.b(), mode),
                      detail::reference_table().circle_circle.separate(want.a(), want.b(), mode));
            expect_same(got.ax, want.ax, "a.x");
            expect_same(got.ay, want.ay, "a.y");
            expect_same(got.bx, want.bx, "b.x");
            expect_same(got.by, want.by, "b.y");
        }
    }
}

// One round of pair-list separation through `table` as the public call runs it (the sums
// zeroed, every pair's correction added, the means applied); returns how many circles moved.
std::size_t separate_round(const detail::kernel_table& table, particles_view circles,
                           const std::vector<circle_pair>& pairs, separation_weighting mode,
                           separation_workspace& workspace) {
    const detail::pair_corrections sums = detail::begin_pair_corrections(workspace, circles.count);
    table.circle_circle.pair_corrections(circles, pairs.data(), pairs.size(), mode, sums);
    return table.circle_circle.apply_corrections(sums, circles);
}

TEST_P(circle_circle_simd, pair_list_separation_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        for (const std::size_t n :
             {std::size_t{2}, std::size_t{5}, std::size_t{9}, std::size_t{40}, std::size_t{1000}}) {
            pile want(n, static_cast<std::uint32_t>(n));
            pile got(n, static_cast<std::uint32_t>(n));
            separation_workspace ws_want, ws_got;
            for (int iteration = 0; iteration < 3; ++iteration) {
                // Through the table: the public call runs the same shared accumulation.
                const std::size_t moved_want = separate_round(
                    detail::reference_table(), want.view(), want.pairs, mode, ws_want);
                EXPECT_EQ(separate_round(table, got.view(), got.pairs, mode, ws_got), moved_want);
                for (std::size_t i = 0; i < n; ++i) {
                    EXPECT_SAME_BITS(got.x[i], want.x[i], "x", i);
                    EXPECT_SAME_BITS(got.y[i], want.y[i], "y", i);
                }
            }
        }
    }
}

// Few circles, many random pairs in random order and orientation: one block holds the same
// circle several times, as a and as b, so adding a block's corrections in any order but
// the pair order would change bits. Through the public calls, on offset (unaligned) views.
TEST_P(circle_circle_simd, pair_list_separation_keeps_pair_order_within_a_block) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    for (const std::size_t n : {std::size_t{3}, std::size_t{7}, std::size_t{23}}) {
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(n) - 1);
        pile want(n + 1, 1);
        for (std::size_t i = 1; i <= n; ++i) { // element 0 is the offset
            want.x[i] = 3.0F * unit(rng);
            want.y[i] = 3.0F * unit(rng);
            want.r[i] = 0.5F + unit(rng);
            want.w[i] = i % 5 == 0 ? 0.0F : unit(rng) * 2.0F;
        }
        want.pairs.clear();
        for (int k = 0; k < 203; ++k) {
            const std::uint32_t a = pick(rng);
            const std::uint32_t b = pick(rng);
            if (a != b) {
                want.pairs.push_back({a, b});
            }
        }
        pile got = want;
        const auto offset = [n](pile& p) {
            return particles_view{p.x.data() + 1,
                                  p.y.data() + 1,
                                  p.r.data() + 1,
                                  p.w.data() + 1,
                                  p.vx.data() + 1,
                                  p.vy.data() + 1,
                                  n};
        };
        const auto& ref = detail::reference_table();
        separation_workspace ws_want, ws_got;
        for (int iteration = 0; iteration < 3; ++iteration) {
            const std::size_t moved = separate_round(ref, offset(want), want.pairs,
                                                     separation_weighting::inverse_mass, ws_want);
            EXPECT_EQ(separate_round(table, offset(got), got.pairs,
                                     separation_weighting::inverse_mass, ws_got),
                      moved);
            for (std::size_t i = 0; i <= n; ++i) {
                EXPECT_SAME_BITS(got.x[i], want.x[i], "x", i);
                EXPECT_SAME_BITS(got.y[i], want.y[i], "y", i);
            }
        }
    }
}

// A list sorted by a, as a broad phase writes one: circle i in a run of 1 to 35 pairs as a
// (runs shorter and longer than a block, starting anywhere in one), entered as b just before
// its run and again just after it. A scatter that sums a run in a register instead of in
// memory (as a variant of records::add_in_order might) must still add in pair order.
TEST_P(circle_circle_simd, pair_list_separation_matches_reference_on_runs_of_one_circle) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    constexpr std::size_t n = 48;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::uniform_int_distribution<std::uint32_t> pick(0, n - 1);
    pile want(n, 11);
    for (std::size_t i = 0; i < n; ++i) { // all within reach of each other, most overlapping
        want.x[i] = 2.0F * unit(rng);
        want.y[i] = 2.0F * unit(rng);
        want.r[i] = 0.6F + unit(rng);
    }
    want.pairs.clear();
    for (std::uint32_t i = 1; i < n; ++i) {
        want.pairs.push_back({i - 1, i});
        const std::size_t run = 1 + (i * 7) % 35;
        for (std::size_t k = 0; k < run; ++k) {
            const std::uint32_t other = pick(rng);
            if (other != i) {
                want.pairs.push_back({i, other});
            }
        }
        want.pairs.push_back({static_cast<std::uint32_t>((i + 1) % n), i});
    }
    pile got = want;
    const auto& ref = detail::reference_table();
    separation_workspace ws_want, ws_got;
    for (int iteration = 0; iteration < 3; ++iteration) {
        const std::size_t moved = separate_round(ref, want.view(), want.pairs,
                                                 separation_weighting::inverse_mass, ws_want);
        EXPECT_EQ(separate_round(table, got.view(), got.pairs, separation_weighting::inverse_mass,
                                 ws_got),
                  moved);
        EXPECT_GT(moved, n / 2);
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_SAME_BITS(got.x[i], want.x[i], "x", i);
            EXPECT_SAME_BITS(got.y[i], want.y[i], "y", i);
        }
    }
}

// Contacts over a pair list: the pile (coincident centres, a repeated pair, lengths around
// the lane count) and random pairs in both orientations, on views offset by one element.
TEST_P(circle_circle_simd, pair_list_contact_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table();
    for (const std::size_t n : {std::size_t{2}, std::size_t{5}, std::size_t{9}, std::size_t{17},
                                std::size_t{40}, std::size_t{1000}}) {
        pile scene(n + 1, static_cast<std::uint32_t>(n));
        // The view starts one element in: keep the pile's pairs that fit in its n circles.
        std::erase_if(scene.pairs, [n](const circle_pair& q) { return q.a >= n || q.b >= n; });
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(n) - 1);
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint32_t a = pick(rng);
            const std::uint32_t b = pick(rng);
            if (a != b) {
                scene.pairs.push_back({a, b});
            }
        }
        const circles_cview c(scene.x.data() + 1, scene.y.data() + 1, scene.r.data() + 1, n);
        for (const std::size_t count : {std::size_t{0}, std::size_t{1}, scene.pairs.size()}) {
            guarded_contacts want(count, 1);
            guarded_contacts got(count, 1);
            aligned_floats scratch(4 * n); // 16-byte aligned records, as the workspace's
            const std::size_t want_hits = ref.circle_circle.pair_contact(
                c, scene.pairs.data(), count, want.view(), scratch.data());
            const std::size_t got_hits = table.circle_circle.pair_contact(
                c, scene.pairs.data(), count, got.view(), scratch.data());
            EXPECT_EQ(got_hits, want_hits);
            expect_same_contacts(got, want);
        }
    }
}

TEST_P(circle_circle_simd, velocity_response_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table();
    for (const response_parameters p :
         {response_parameters{0.0F, 0.0F}, response_parameters{1.0F, 0.0F},
          response_parameters{0.3F, 0.5F}, response_parameters{0.7F, 100.0F}}) {
        for (const run_case& rc : cases()) {
            circle_pair_scene want(rc.n, rc.shift), got(rc.n, rc.shift);
            fill_random(want, rc.seed);
            fill_random(got, rc.seed);
            // Velocities of -0, which a circle that is not pushed must keep (x + 0 would
            // make them +0): both circles of some pairs (not approaching), and one circle
            // of others (static or approaching, or not).
            for (circle_pair_scene* s : {&want, &got}) {
                for (std::size_t i = 0; i < s->size(); i += 3) {
                    s->avx[i] = -0.0F;
                    s->avy[i] = -0.0F;
                    if (i % 2 == 0) {
                        s->bvx[i] = -0.0F;
                        s->bvy[i] = -0.0F;
                    }
                }
            }
            contact_set contacts(rc.n);
            ref.circle_circle.contact(want.ca(), want.cb(), contacts.view());

            EXPECT_EQ(table.response.circle_circle(got.a(), got.b(), contacts.view(), p),
                      ref.response.circle_circle(want.a(), want.b(), contacts.view(), p));
            expect_same(got.avx, want.avx, "a.vx");
            expect_same(got.avy, want.avy, "a.vy");
            expect_same(got.bvx, want.bvx, "b.vx");
            expect_same(got.bvy, want.bvy, "b.vy");

            // Circle against box: reuse the same normals as box contacts.
            EXPECT_EQ(table.response.circle_aabb(got.b(), contacts.view(), p),
                      ref.response.circle_aabb(want.b(), contacts.view(), p));
            expect_same(got.bvx, want.bvx, "box b.vx");
            expect_same(got.bvy, want.bvy, "box b.vy");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, circle_circle_simd, ::testing::ValuesIn(simd_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
