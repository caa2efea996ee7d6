// Records of two floats per circle (vx, vy), 8-byte aligned: the world's phase 6 keeps the
// velocities so from the gain of phase 5 to its last impulse, and reads and writes them W
// circles at a time by index. A circle's record is one 64-bit access, addressed as
// base + 8 * index with no shift (x86 scales an index by 8 in the address itself), and
// the loads and stores of one record are the same size, so a record written by one block
// is forwarded to the next block's load. Phase 6 used (vx, vy, w, w) records of 16 bytes
// before the touches carried the weights; with these, world/respond on the 10 000-circle
// pile took 42 us against 53 (CHANGELOG).
//
// x86 gets lane shuffles for SSE2 (W = 4) and AVX (W = 8; compiled only where __AVX__ is
// defined, so that objects without AVX never see those intrinsics); elsewhere one float at
// a time. Only loads, stores and shuffles: the bits are the scalar code's.
#pragma once

#include "pairwise/simd/block_loop.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct velocity_records {
    using F = floats<Arch>;
    static constexpr std::size_t width = F::size;

    struct fields {
        F vx;
        F vy;
    };

    /// The records at base + 2 * index(j), lane j.
    template <class Index>
    [[gnu::always_inline]] static fields load(const float* base, Index index) {
#if defined(__AVX__)
        if constexpr (is_avx<Arch> && width == 8) {
            // Records j, j + 1 | j + 4, j + 5 in one register, j + 2, j + 3 | j + 6, j + 7 in
            // the other.
            const __m256 m0 =
                _mm256_insertf128_ps(_mm256_castps128_ps256(two_records(base, index, 0)),
                                     two_records(base, index, 4), 1);
            const __m256 m1 =
                _mm256_insertf128_ps(_mm256_castps128_ps256(two_records(base, index, 2)),
                                     two_records(base, index, 6), 1);
            return {_mm256_shuffle_ps(m0, m1, 0x88), _mm256_shuffle_ps(m0, m1, 0xDD)};
        }
#endif
#if defined(__x86_64__)
        if constexpr (is_sse<Arch> && width == 4) {
            const __m128 m0 = two_records(base, index, 0);
            const __m128 m1 = two_records(base, index, 2);
            return {_mm_shuffle_ps(m0, m1, 0x88), _mm_shuffle_ps(m0, m1, 0xDD)};
        }
#endif
        return {field(base, 0, index, std::make_index_sequence<width>{}),
                field(base, 1, index, std::make_index_sequence<width>{})};
    }

    /// Writes lane j as the record at base + 2 * index(j), for j < count in order (a later
    /// lane's record wins where an index repeats).
    template <class Index>
    [[gnu::always_inline]] static void store(float* base, Index index, const fields& from,
                                             std::size_t count = width) {
        store_float_pairs<Arch, 2>(base, index, from.vx, from.vy, count);
    }

    /// The records of a block of circles (block_loop.hpp), circle block.first + j in lane
    /// j; a tail block's padding lanes hold its last circle's again.
    template <class Block>
    [[gnu::always_inline]] static fields load_run(const float* base, const Block& block) {
        const std::size_t last = lanes_in(block) - 1;
        return load(base, [&](std::size_t j) { return block.first + (j < last ? j : last); });
    }

    /// Lane j as the record of circle first + j, j < count.
    [[gnu::always_inline]] static void store_run(float* base, std::size_t first, const fields& from,
                                                 std::size_t count) {
        store(
            base, [first](std::size_t j) { return first + j; }, from, count);
    }

private:
#if defined(__x86_64__)
    // A record as the double whose bits it is: only loaded and stored, never computed with.
    static const double* record(const float* base, std::uint32_t index) {
        return reinterpret_cast<const double*>(base) + index;
    }
    // The records at index(j) and index(j + 1) side by side in one register.
    template <class Index>
    [[gnu::always_inline]] static __m128 two_records(const float* base, Index index,
                                                     std::size_t j) {
        const __m128d low = _mm_load_sd(record(base, index(j)));
        return _mm_castpd_ps(_mm_loadh_pd(low, record(base, index(j + 1))));
    }
#endif

    template <class Index, std::size_t... J>
    static F field(const float* base, std::size_t k, Index index,
                   std::index_sequence<J...> /*lanes*/) {
        // xsimd 8.1 has no public constructor from W scalars (see records.hpp).
        return xsimd::kernel::set<Arch>(F{}, Arch{}, base[std::size_t{2} * index(J) + k]...);
    }
};

} // namespace simdcollide::simd
