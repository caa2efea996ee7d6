// The world's per-circle kernels of the pairwise table (the copies into and out of slots,
// and the look for fast circles) on every instruction set against the scalar reference,
// bit for bit. The soft step's kernels are in test_solver_kernels_simd.cpp.
#include "circle_pair_scenes.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace simdcollide::testing {
namespace {

class world_circle_kernels_simd : public ::testing::TestWithParam<isa> {};

// The world's move of its circles into slots and back (kernel_table.hpp, permute): the same
// bits as the reference, which are from[index[k]]'s, on every length around the lane counts
// and every misalignment; permutations and indices that repeat, and values a float copy
// could change (signalling and quiet NaNs with payloads, -0, subnormals, infinities).
TEST_P(world_circle_kernels_simd, world_permute_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().world;
    const std::uint32_t odd[] = {0x7F800001U, 0xFFC01234U, 0x80000000U, 0x00000001U, 0xFF800000U};
    for (const run_case& rc : cases()) {
        guarded_floats from(rc.n, rc.shift);
        std::mt19937 rng(rc.seed);
        std::uniform_real_distribution<float> unit(-100.0F, 100.0F);
        for (std::size_t i = 0; i < rc.n; ++i) {
            from[i] = i % 7 < 5 ? unit(rng) : std::bit_cast<float>(odd[(i / 7) % 5]);
        }
        std::vector<std::uint32_t> index(rc.n);
        std::iota(index.begin(), index.end(), 0U);
        if (rc.seed % 2 == 0) {
            std::shuffle(index.begin(), index.end(), rng);
        } else if (rc.n > 0) { // repeats, the last circle included
            std::uniform_int_distribution<std::uint32_t> any(0,
                                                             static_cast<std::uint32_t>(rc.n) - 1);
            for (std::uint32_t& k : index) {
                k = any(rng);
            }
            index.back() = static_cast<std::uint32_t>(rc.n) - 1;
        }
        guarded_floats want(rc.n, rc.shift + 5), got(rc.n, rc.shift + 5);
        ref.permute(from.data(), index.data(), rc.n, want.data());
        table.world.permute(from.data(), index.data(), rc.n, got.data());
        expect_same(got, want, "permuted");
        for (std::size_t k = 0; k < rc.n; ++k) {
            EXPECT_SAME_BITS(want[k], from[index[k]], "reference", k);
        }
    }
}

// From 2^16 circles the SIMD permutes prefetch the lines they will gather (simd/world_circles.hpp,
// gathers_prefetched_from): the same bits there, at the threshold and past it with a tail
// the prefetching loop leaves to the plain one, from an unaligned start.
TEST_P(world_circle_kernels_simd, world_permute_of_a_large_pile_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table().world;
    for (const std::size_t n : {std::size_t{1} << 16, (std::size_t{1} << 16) + 263}) {
        guarded_floats from(n, 1);
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_real_distribution<float> unit(-100.0F, 100.0F);
        for (std::size_t i = 0; i < n; ++i) {
            from[i] = unit(rng);
        }
        std::vector<std::uint32_t> index(n);
        std::iota(index.begin(), index.end(), 0U);
        std::shuffle(index.begin(), index.end(), rng);
        guarded_floats want(n, 3), got(n, 3);
        ref.permute(from.data(), index.data(), n, want.data());
        table.world.permute(from.data(), index.data(), n, got.data());
        expect_same(got, want, "permuted");
    }
}

// The look for fast circles in each substep: the largest squared speed, exactly the reference's, at
// every length and misalignment, with a NaN, infinities and huge speeds among them.
TEST_P(world_circle_kernels_simd, world_fastest_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> speed(-50.0F, 50.0F);
    std::uniform_int_distribution<int> pick(0, 63);
    for (const std::size_t n : edge_lengths()) {
        for (std::size_t shift = 0; shift < 16; ++shift) {
            guarded_floats vx(n, shift), vy(n, shift + 5);
            for (std::size_t i = 0; i < n; ++i) {
                vx[i] = speed(rng);
                vy[i] = speed(rng);
                switch (pick(rng)) {
                case 0:
                    vx[i] = std::numeric_limits<float>::quiet_NaN();
                    break;
                case 1:
                    vy[i] = -std::numeric_limits<float>::infinity();
                    break;
                case 2:
                    vx[i] = 3e19F; // squares to infinity
                    break;
                default:
                    break;
                }
            }
            const particles_view p{nullptr, nullptr, nullptr, nullptr, vx.data(), vy.data(), n};
            EXPECT_EQ(bits(table.world.fastest(p)),
                      bits(detail::reference_table().world.fastest(p)))
                << "n=" << n << " shift=" << shift;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, world_circle_kernels_simd, ::testing::ValuesIn(simd_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
