// A run of up to W contacts or circles in the soft step's SIMD kernels (simd/solver.hpp): its
// fields loaded and stored, and the state of its contacts' circles gathered and scattered.
// Within a colour no moving circle appears twice, so a run's lanes name distinct circles.
#pragma once

#include "pairwise/simd/lanes.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

// W circles' state, a field a register.
template <class Arch>
struct run_bodies {
    floats<Arch> vx, vy, dx, dy;
};

// n <= W consecutive elements of a field from element k (contacts, or circles); lanes past n
// are 0 when loaded.
template <class Arch>
struct contact_run {
    using F = floats<Arch>;
    using M = lanes<Arch>;
    static constexpr std::size_t width = F::size;

    std::size_t k;
    std::size_t n;
    [[gnu::always_inline]] F load(const float* field) const {
        if (n == width) {
            return F::load_unaligned(field + k);
        }
        alignas(64) float lane[width] = {};
        for (std::size_t j = 0; j < n; ++j) {
            lane[j] = field[k + j];
        }
        return F::load_aligned(lane);
    }
    [[gnu::always_inline]] void store(float* field, const F& value) const {
        if (n == width) {
            value.store_unaligned(field + k);
            return;
        }
        alignas(64) float lane[width];
        value.store_aligned(lane);
        for (std::size_t j = 0; j < n; ++j) {
            field[k + j] = lane[j];
        }
    }
    // The state (vx, vy, dx, dy) of circle index[k + j] in lane j. A whole run on x86 as
    // one 16-byte load a circle and a transpose; otherwise lane by lane.
    [[gnu::always_inline]] run_bodies<Arch> gather(const float* state,
                                                   const std::uint32_t* index) const {
        const auto at = [&](std::size_t j) { return state + 4 * std::size_t{index[k + j]}; };
#if defined(__AVX2__)
        if constexpr (is_avx<Arch> && width == 8) {
            if (n == width) {
                __m256 r[4];
                for (std::size_t j = 0; j < 4; ++j) {
                    r[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(at(j))),
                                                _mm_load_ps(at(j + 4)), 1);
                }
                const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);
                const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);
                const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);
                const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
                return {F(_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0))),
                        F(_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2))),
                        F(_mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0))),
                        F(_mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2)))};
            }
        }
#endif
#if defined(__SSE2__)
        if constexpr (is_sse<Arch> && width == 4) {
            if (n == width) {
                __m128 r0 = _mm_load_ps(at(0));
                __m128 r1 = _mm_load_ps(at(1));
                __m128 r2 = _mm_load_ps(at(2));
                __m128 r3 = _mm_load_ps(at(3));
                _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
                return {F(r0), F(r1), F(r2), F(r3)};
            }
        }
#endif
        alignas(64) float lane[4][width] = {};
        for (std::size_t j = 0; j < n; ++j) {
            for (std::size_t f = 0; f < 4; ++f) {
                lane[f][j] = at(j)[f];
            }
        }
        return {F::load_aligned(lane[0]), F::load_aligned(lane[1]), F::load_aligned(lane[2]),
                F::load_aligned(lane[3])};
    }
    // (vx, vy) of lane j into circle index[k + j]'s state, where lane j of `writes` is set.
    [[gnu::always_inline]] void scatter(float* state, const std::uint32_t* index, const F& vx,
                                        const F& vy, const M& writes) const {
        const std::uint32_t bits = lane_bits<Arch>(writes);
        const auto at = [&](std::size_t j) { return state + 4 * std::size_t{index[k + j]}; };
        // a whole run that writes every lane (the common case) stores without a branch
        const bool every = n == width && bits == (std::uint32_t{1} << width) - 1U;
        const auto wanted = [&](std::size_t j) { return j < n && ((bits >> j) & 1U) != 0; };
#if defined(__AVX2__)
        if constexpr (is_avx<Arch> && width == 8) {
            const __m256 lo = _mm256_unpacklo_ps(vx.data, vy.data); // lanes 0, 1 | 4, 5
            const __m256 hi = _mm256_unpackhi_ps(vx.data, vy.data); // lanes 2, 3 | 6, 7
            const __m128 pairs[4] = {_mm256_castps256_ps128(lo), _mm256_castps256_ps128(hi),
                                     _mm256_extractf128_ps(lo, 1), _mm256_extractf128_ps(hi, 1)};
            if (every) {
                for (std::size_t q = 0; q < 4; ++q) {
                    _mm_storel_pi(reinterpret_cast<__m64*>(at(2 * q)), pairs[q]);
                    _mm_storeh_pi(reinterpret_cast<__m64*>(at(2 * q + 1)), pairs[q]);
                }
                return;
            }
            for (std::size_t q = 0; q < 4; ++q) {
                const std::size_t j = 2 * q;
                if (wanted(j)) {
                    _mm_storel_pi(reinterpret_cast<__m64*>(at(j)), pairs[q]);
                }
                if (wanted(j + 1)) {
                    _mm_storeh_pi(reinterpret_cast<__m64*>(at(j + 1)), pairs[q]);
                }
            }
            return;
        }
#endif
#if defined(__SSE2__)
        if constexpr (is_sse<Arch> && width == 4) {
            const __m128 pairs[2] = {_mm_unpacklo_ps(vx.data, vy.data),
                                     _mm_unpackhi_ps(vx.data, vy.data)};
            if (every) {
                for (std::size_t q = 0; q < 2; ++q) {
                    _mm_storel_pi(reinterpret_cast<__m64*>(at(2 * q)), pairs[q]);
                    _mm_storeh_pi(reinterpret_cast<__m64*>(at(2 * q + 1)), pairs[q]);
                }
                return;
            }
            for (std::size_t q = 0; q < 2; ++q) {
                const std::size_t j = 2 * q;
                if (wanted(j)) {
                    _mm_storel_pi(reinterpret_cast<__m64*>(at(j)), pairs[q]);
                }
                if (wanted(j + 1)) {
                    _mm_storeh_pi(reinterpret_cast<__m64*>(at(j + 1)), pairs[q]);
                }
            }
            return;
        }
#endif
        alignas(64) float lane_x[width];
        alignas(64) float lane_y[width];
        vx.store_aligned(lane_x);
        vy.store_aligned(lane_y);
        for (std::size_t j = 0; j < n; ++j) {
            if (every || wanted(j)) {
                at(j)[0] = lane_x[j];
                at(j)[1] = lane_y[j];
            }
        }
    }
};

} // namespace simdcollide::simd
