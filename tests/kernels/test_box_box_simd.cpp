// Every box-box SIMD kernel against the scalar reference, bit for bit, on every instruction
// set this build carries: random pairs mixing every case of the contract, every length
// around the lane counts, every misalignment, with and without a margin, pairwise and
// against one box.
#include "box_pair_scenes.hpp"
#include "test_support.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

class box_box_simd : public ::testing::TestWithParam<isa> {};

std::vector<run_case> cases() {
    return run_cases(7, {100000, 3, 515151});
}

constexpr float margins[] = {0.0F, 0.5F, 3.0F};

TEST_P(box_box_simd, overlap_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().box_box;
    for (const run_case& rc : cases()) {
        box_pair_scene scene(rc.n, rc.shift);
        fill_random(scene, rc.seed);
        for (float margin : margins) {
            std::vector<std::uint8_t> want(rc.n + 8, 7), got(rc.n + 8, 7);
            const std::size_t want_count =
                ref.overlap(scene.first(), scene.second(), want.data(), margin);
            const std::size_t got_count =
                table.box_box.overlap(scene.first(), scene.second(), got.data(), margin);
            EXPECT_EQ(got_count, want_count) << "n=" << rc.n << " margin=" << margin;
            EXPECT_EQ(table.box_box.overlap(scene.first(), scene.second(), nullptr, margin),
                      want_count);
            EXPECT_EQ(got, want) << "n=" << rc.n << " margin=" << margin;
        }
    }
}

TEST_P(box_box_simd, contact_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().box_box;
    for (const run_case& rc : cases()) {
        box_pair_scene scene(rc.n, rc.shift);
        fill_random(scene, rc.seed);
        for (float margin : margins) {
            guarded_contacts want(rc.n, rc.shift), got(rc.n, rc.shift);
            const std::size_t want_count =
                ref.contact(scene.first(), scene.second(), want.view(), margin);
            const std::size_t got_count =
                table.box_box.contact(scene.first(), scene.second(), got.view(), margin);
            EXPECT_EQ(got_count, want_count) << "n=" << rc.n << " margin=" << margin;
            expect_same_contacts(got, want);
        }
    }
}

// The bounds of both sides after a separation, as bits, and the count.
std::vector<std::uint32_t> bounds_bits(const box_pair_scene& scene, std::size_t moved) {
    std::vector<std::uint32_t> out;
    for (const guarded_floats* f :
         {&scene.a_min_x, &scene.a_min_y, &scene.a_max_x, &scene.a_max_y, &scene.b_min_x,
          &scene.b_min_y, &scene.b_max_x, &scene.b_max_y}) {
        for (std::size_t i = 0; i < scene.size(); ++i) {
            out.push_back(bits((*f)[i]));
        }
    }
    out.push_back(static_cast<std::uint32_t>(moved));
    return out;
}

constexpr separation_weighting weightings[] = {separation_weighting::inverse_mass,
                                               separation_weighting::equal,
                                               separation_weighting::by_radius};

TEST_P(box_box_simd, separate_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().box_box;
    for (const run_case& rc : cases()) {
        for (const separation_weighting mode : weightings) {
            box_pair_scene want(rc.n, rc.shift);
            box_pair_scene got(rc.n, rc.shift);
            fill_random(want, rc.seed);
            fill_random(got, rc.seed);
            const std::size_t want_moved =
                ref.separate(want.first_bodies(), want.second_bodies(), mode);
            const std::size_t got_moved =
                table.box_box.separate(got.first_bodies(), got.second_bodies(), mode);
            EXPECT_EQ(bounds_bits(got, got_moved), bounds_bits(want, want_moved))
                << "n=" << rc.n << " mode=" << static_cast<int>(mode);
        }
    }
}

TEST_P(box_box_simd, separate_against_one_box_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().box_box;
    for (const std::size_t n : edge_lengths()) {
        box_pair_scene source(n, 0);
        fill_random(source, static_cast<std::uint32_t>(190 + n));
        for (std::size_t k = 0; k < std::min<std::size_t>(n, 40); ++k) {
            const aabb one{source.b_min_x[k], source.b_min_y[k], source.b_max_x[k],
                           source.b_max_y[k]};
            box_pair_scene want(n, k % 16);
            box_pair_scene got(n, k % 16);
            fill_random(want, static_cast<std::uint32_t>(190 + n));
            fill_random(got, static_cast<std::uint32_t>(190 + n));
            const std::size_t want_moved = ref.separate_box(want.first_bodies(), one);
            const std::size_t got_moved = table.box_box.separate_box(got.first_bodies(), one);
            EXPECT_EQ(bounds_bits(got, got_moved), bounds_bits(want, want_moved))
                << "n=" << n << " box " << k;
        }
    }
}

// Against one box: each of the scene's second boxes in turn as the one box, for the
// scene's first boxes.
TEST_P(box_box_simd, one_box_forms_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().box_box;
    for (const std::size_t n : edge_lengths()) {
        box_pair_scene scene(n, n % 16);
        fill_random(scene, static_cast<std::uint32_t>(90 + n));
        for (std::size_t k = 0; k < std::min<std::size_t>(n, 40); ++k) {
            const aabb one{scene.b_min_x[k], scene.b_min_y[k], scene.b_max_x[k], scene.b_max_y[k]};
            for (float margin : margins) {
                std::vector<std::uint8_t> want_mask(n + 8, 7), got_mask(n + 8, 7);
                EXPECT_EQ(table.box_box.overlap_box(scene.first(), one, got_mask.data(), margin),
                          ref.overlap_box(scene.first(), one, want_mask.data(), margin));
                EXPECT_EQ(got_mask, want_mask) << "n=" << n << " box " << k;
                guarded_contacts want(n, k), got(n, k);
                EXPECT_EQ(table.box_box.contact_box(scene.first(), one, got.view(), margin),
                          ref.contact_box(scene.first(), one, want.view(), margin));
                expect_same_contacts(got, want);
            }
        }
    }
}

// The random pairs do reach every case: contacts along x and along y, each way, pairs
// apart, touching pairs that are not contacts, and ties.
TEST(box_box_scenes, cover_every_case) {
    box_pair_scene scene(100000, 0);
    fill_random(scene, 515151);
    guarded_contacts out(scene.size(), 0);
    const std::size_t hits =
        detail::reference_table().box_box.contact(scene.first(), scene.second(), out.view(), 0.0F);
    std::size_t along[4] = {};
    for (std::size_t i = 0; i < scene.size(); ++i) {
        along[0] += out.field[0][i] == 1.0F ? 1 : 0;
        along[1] += out.field[0][i] == -1.0F ? 1 : 0;
        along[2] += out.field[1][i] == 1.0F ? 1 : 0;
        along[3] += out.field[1][i] == -1.0F ? 1 : 0;
    }
    EXPECT_GT(hits, 20000U);
    EXPECT_LT(hits, 80000U);
    for (const std::size_t n : along) {
        EXPECT_GT(n, 2000U);
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, box_box_simd, ::testing::ValuesIn(simd_isas()), isa_test_name);

} // namespace
} // namespace simdcollide::testing
