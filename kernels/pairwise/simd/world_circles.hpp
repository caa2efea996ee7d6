// The world's per-circle kernels, W circles at a time: the copies into and out of slots
// (permute) and the look for fast circles (fastest), the reference
// (kernels/pairwise/reference/world.inl) line for line.
#pragma once

#include "pairwise/simd/block_loop.hpp"

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct world_circles {
    using F = floats<Arch>;

    // Reference permute_loop. With AVX2 or AVX-512, 4 or 8 floats per gather instruction,
    // with 64-bit indices: the 32-bit ones (vgatherdps) are signed, and an index of 2^31 or
    // more would reach before `from`. One float at a time elsewhere and for the tail. The
    // world moves six fields into slots and four back each step, which one circle at a time
    // take a noticeable share of a step.
    //
    // From gathers_prefetched_from circles on, each round also prefetches the lines it will
    // gather gather_prefetch_distance slots later. A pile mixes as it settles: in the
    // benchmark's 1 000 000-circle pile, 256 consecutive slots gather from 228 different
    // lines of each field, so nearly every element is a line from L3 or memory, and the
    // hardware gathers keep too few of them in flight (docs/performance.md, "Measurements behind
    // the code").
    static constexpr std::size_t gathers_prefetched_from = std::size_t{1} << 16;
    static constexpr std::size_t gather_prefetch_distance = 256; // slots
    static void permute(const float* from, const std::uint32_t* index, std::size_t count,
                        float* to) {
        std::size_t k = 0;
#if defined(__x86_64__)
        if constexpr (is_avx512<Arch> || std::is_base_of_v<xsimd::avx2, Arch>) {
            // W indices per round as one vector (its register type keeps these intrinsics
            // dependent, so that objects without AVX never look them up), widened to 64
            // bits half by half.
            using indices = xsimd::batch<std::uint32_t, Arch>;
            constexpr std::size_t width = indices::size;
            const auto gather_round = [=](std::size_t first) {
                const auto at = indices::load_unaligned(index + first).data;
                if constexpr (is_avx512<Arch>) {
                    const auto lower = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(at));
                    const auto upper = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(at, 1));
                    _mm256_storeu_ps(to + first, _mm512_i64gather_ps(lower, from, 4));
                    _mm256_storeu_ps(to + first + width / 2, _mm512_i64gather_ps(upper, from, 4));
                } else {
                    const auto lower = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(at));
                    const auto upper = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(at, 1));
                    _mm_storeu_ps(to + first, _mm256_i64gather_ps(from, lower, 4));
                    _mm_storeu_ps(to + first + width / 2, _mm256_i64gather_ps(from, upper, 4));
                }
            };
            if (count >= gathers_prefetched_from) {
                for (; k + gather_prefetch_distance + width <= count; k += width) {
                    for (std::size_t j = 0; j < width; ++j) {
                        _mm_prefetch(reinterpret_cast<const char*>(
                                         from + index[k + gather_prefetch_distance + j]),
                                     _MM_HINT_T0);
                    }
                    gather_round(k);
                }
            }
            for (; k + width <= count; k += width) {
                gather_round(k);
            }
        }
#endif
        for (; k < count; ++k) {
            to[k] = from[index[k]];
        }
    }

    // Reference fastest_loop: each lane the largest of its circles, then the largest lane
    // (the largest of a set, whatever the order; padding lanes are 0).
    static float fastest(particles_view c) {
        F most(0.0F);
        for_each_block_after<Arch>(0, c.count, [&](const auto& block) {
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            most = max_ps<Arch>(vx * vx + vy * vy, most);
        });
        alignas(64) float lanes_of[F::size];
        most.store_aligned(lanes_of);
        float m = 0.0F;
        for (const float lane : lanes_of) {
            m = lane > m ? lane : m;
        }
        return m;
    }
};

} // namespace simdcollide::simd
