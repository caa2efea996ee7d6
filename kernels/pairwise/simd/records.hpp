// Records of four floats per element (x, y, radius, inverse mass; vx, vy and the inverse
// mass twice; or dx, dy, count, 0), 16-byte aligned, read and written W elements at a time
// by index: the pair-list kernels' gather and scatter. One 128-bit load or store per element plus
// an in-register 4 x W transpose replaces four scalar loads and inserts (or read-modify-writes) per
// element.
//
// x86 gets transposes for SSE2 (W = 4), AVX2 (W = 8) and AVX-512 (W = 16); NEON moves one
// float at a time. Every path moves the same bits: only loads, stores, shuffles and, in add,
// the same lane-wise IEEE additions as the scalar code.
#pragma once

#include "pairwise/simd/block_loop.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct records {
    using F = floats<Arch>;
    using wide = typename F::register_type; // __m256 or __m512 in the AVX and AVX-512 branches
    static constexpr std::size_t width = F::size;

    /// The four fields of W records, each as one vector.
    struct fields {
        F f0;
        F f1;
        F f2;
        F f3;
    };

    /// Fields of the records at base + 4 * index(j), lane j. `index` is a callable, so that
    /// indices are read where they lie (a pair list, say) rather than copied first: GCC
    /// keeps a copied index array as W separate values and spills each.
    template <class Index>
    static fields load(const float* base, Index index) {
        return load_inlined(base, index);
    }

    /// The records of a block of circles (block_loop.hpp), circle block.first + j in lane
    /// j; a tail block's padding lanes hold its last circle's again, so nothing past the
    /// block is read. store_run's mirror.
    template <class Block>
    static fields load_run(const float* base, const Block& block) {
        const std::size_t last = lanes_in(block) - 1;
        return load(base, [&](std::size_t j) { return block.first + (j < last ? j : last); });
    }

    /// load, always inlined into its caller. GCC calls load out of line from some kernels,
    /// and which ones differs between the ISA objects; where that costs, the kernel calls
    /// this instead (docs/performance.md, "Measurements behind the code").
    template <class Index>
    [[gnu::always_inline]] static fields load_inlined(const float* base, Index index) {
#if defined(__x86_64__)
        if constexpr (is_avx512<Arch>) {
            const auto quad = [&](std::size_t j) { // records j | j + 4 | j + 8 | j + 12
                const auto at = [&](std::size_t k) {
                    return _mm_load_ps(base + std::size_t{4} * index(k));
                };
                wide m = _mm512_castps128_ps512(at(j));
                m = _mm512_insertf32x4(m, at(j + 4), 1);
                m = _mm512_insertf32x4(m, at(j + 8), 2);
                return _mm512_insertf32x4(m, at(j + 12), 3);
            };
            return transpose_in_lanes(quad(0), quad(1), quad(2), quad(3));
        } else if constexpr (is_avx<Arch>) {
            const auto pair = [&](std::size_t j) {
                return _mm256_insertf128_ps(
                    _mm256_castps128_ps256(_mm_load_ps(base + std::size_t{4} * index(j))),
                    _mm_load_ps(base + std::size_t{4} * index(j + 4)), 1);
            };
            const wide m0 = pair(0); // f0 f1 f2 f3 of records 0 | 4
            const wide m1 = pair(1);
            const wide m2 = pair(2);
            const wide m3 = pair(3);
            return transpose_in_lanes(m0, m1, m2, m3);
        } else if constexpr (is_sse<Arch>) {
            __m128 r0 = _mm_load_ps(base + std::size_t{4} * index(0));
            __m128 r1 = _mm_load_ps(base + std::size_t{4} * index(1));
            __m128 r2 = _mm_load_ps(base + std::size_t{4} * index(2));
            __m128 r3 = _mm_load_ps(base + std::size_t{4} * index(3));
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            return {r0, r1, r2, r3};
        }
#endif
        return {field(base, 0, index, std::make_index_sequence<width>{}),
                field(base, 1, index, std::make_index_sequence<width>{}),
                field(base, 2, index, std::make_index_sequence<width>{}),
                field(base, 3, index, std::make_index_sequence<width>{})};
    }

    /// For j in [0, count) in order: the record at base + 4 * index_a(j) gets lane j of
    /// `from_a` added, then the record at base + 4 * index_b(j) gets lane j of `from_b`. The
    /// order matters when an index repeats: float addition is not associative.
    template <class IndexA, class IndexB>
    static void add_in_order(float* base, IndexA index_a, const fields& from_a, IndexB index_b,
                             const fields& from_b, std::size_t count) {
#if defined(__x86_64__)
        if constexpr (is_avx512<Arch> || is_avx<Arch> || is_sse<Arch>) {
            __m128 a[width];
            __m128 b[width];
            transpose(from_a, a);
            transpose(from_b, b);
            for (std::size_t j = 0; j < count; ++j) {
                float* ra = base + std::size_t{4} * index_a(j);
                _mm_store_ps(ra, _mm_add_ps(_mm_load_ps(ra), a[j]));
                float* rb = base + std::size_t{4} * index_b(j);
                _mm_store_ps(rb, _mm_add_ps(_mm_load_ps(rb), b[j]));
            }
            return;
        }
#endif
        alignas(64) float a[4][width];
        alignas(64) float b[4][width];
        store_fields(from_a, a);
        store_fields(from_b, b);
        for (std::size_t j = 0; j < count; ++j) {
            float* ra = base + std::size_t{4} * index_a(j);
            float* rb = base + std::size_t{4} * index_b(j);
            for (std::size_t k = 0; k < 4; ++k) {
                ra[k] += a[k][j];
            }
            for (std::size_t k = 0; k < 4; ++k) {
                rb[k] += b[k][j];
            }
        }
    }

#if defined(__x86_64__)
    /// AVX and AVX-512: four rows of W floats to the 4 x 4 transposes of their 128-bit lanes:
    /// field k holds element k of rows 0 to 3 in its first lane, element k + 4 in its second,
    /// and so on. The gathers and scatters of records, and the world's 8 x 8 transposes, are
    /// built on it.
    static fields transpose_in_lanes(const wide& r0, const wide& r1, const wide& r2,
                                     const wide& r3) {
        if constexpr (is_avx512<Arch>) {
            const wide t0 = _mm512_unpacklo_ps(r0, r1);
            const wide t1 = _mm512_unpackhi_ps(r0, r1);
            const wide t2 = _mm512_unpacklo_ps(r2, r3);
            const wide t3 = _mm512_unpackhi_ps(r2, r3);
            return {_mm512_shuffle_ps(t0, t2, 0x44), _mm512_shuffle_ps(t0, t2, 0xEE),
                    _mm512_shuffle_ps(t1, t3, 0x44), _mm512_shuffle_ps(t1, t3, 0xEE)};
        } else {
            const wide t0 = _mm256_unpacklo_ps(r0, r1); // elements 0 0 1 1 of rows 0 1 | 4 4 5 5
            const wide t1 = _mm256_unpackhi_ps(r0, r1); // elements 2 2 3 3 | 6 6 7 7
            const wide t2 = _mm256_unpacklo_ps(r2, r3);
            const wide t3 = _mm256_unpackhi_ps(r2, r3);
            return {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                    _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE)};
        }
    }
#endif

    /// Writes lane j of the fields as the record at base + 4 * index(j), for j < count in
    /// order (a later lane's record wins where an index repeats).
    template <class Index>
    static void store(float* base, Index index, const fields& from, std::size_t count = width) {
#if defined(__x86_64__)
        if constexpr (is_avx512<Arch> || is_avx<Arch> || is_sse<Arch>) {
            __m128 r[width];
            transpose(from, r);
            for (std::size_t j = 0; j < count; ++j) {
                _mm_store_ps(base + std::size_t{4} * index(j), r[j]);
            }
            return;
        }
#endif
        alignas(64) float f[4][width];
        store_fields(from, f);
        for (std::size_t j = 0; j < count; ++j) {
            for (std::size_t k = 0; k < 4; ++k) {
                base[std::size_t{4} * index(j) + k] = f[k][j];
            }
        }
    }

    /// Writes lanes j < count of f0 and f1 as the first two floats of the record at
    /// base + 4 * index(j), in order, leaving its other two as they are: separation moves a
    /// circle's x and y, never its radius or inverse mass. Against store: two shuffles per
    /// four records instead of four, and 8-byte stores. A 16-byte load of a record cannot
    /// take its data from such a store still in flight; separation in order loads a record
    /// again only in a later group, where it has landed (docs/performance.md, "Measurements behind
    /// the code").
    template <class Index>
    [[gnu::always_inline]] static void store_first_two(float* base, Index index, const fields& from,
                                                       std::size_t count = width) {
        store_float_pairs<Arch, 4>(base, index, from.f0, from.f1, count);
    }

    /// Writes lane j of the fields as the record at base + 4 * (first + j), j < count. On
    /// AVX, a whole block as four 32-byte stores of two records each (the transpose's
    /// records j | j + 4 paired by a lane shuffle) instead of eight 16-byte ones
    /// (docs/performance.md, "Measurements behind the code"). Loading a run so (load_run) gains
    /// nothing.
    static void store_run(float* base, std::size_t first, const fields& from, std::size_t count) {
#if defined(__x86_64__)
        if constexpr (is_avx<Arch>) {
            if (count == width) {
                const fields r = transpose_in_lanes(from.f0, from.f1, from.f2, from.f3);
                float* const at = base + std::size_t{4} * first;
                _mm256_storeu_ps(at, _mm256_permute2f128_ps(r.f0, r.f1, 0x20));      // 0 | 1
                _mm256_storeu_ps(at + 8, _mm256_permute2f128_ps(r.f2, r.f3, 0x20));  // 2 | 3
                _mm256_storeu_ps(at + 16, _mm256_permute2f128_ps(r.f0, r.f1, 0x31)); // 4 | 5
                _mm256_storeu_ps(at + 24, _mm256_permute2f128_ps(r.f2, r.f3, 0x31)); // 6 | 7
                return;
            }
        }
#endif
        store(
            base, [first](std::size_t j) { return first + j; }, from, count);
    }

private:
    template <class Index, std::size_t... J>
    static F field(const float* base, std::size_t k, Index index,
                   std::index_sequence<J...> /*lanes*/) {
        // xsimd 8.1 has no public constructor from W scalars; its own constructors use
        // kernel::set, which lowers to the instruction set's set/insert sequence.
        return xsimd::kernel::set<Arch>(F{}, Arch{}, base[std::size_t{4} * index(J) + k]...);
    }

    static void store_fields(const fields& from, float (&out)[4][width]) {
        from.f0.store_aligned(out[0]);
        from.f1.store_aligned(out[1]);
        from.f2.store_aligned(out[2]);
        from.f3.store_aligned(out[3]);
    }

#if defined(__x86_64__)
    // W vectors of four fields to W records, record j in out[j]: load's transpose backwards.
    // Always inlined: with a second instantiation in an object, GCC calls it out of line,
    // where it costs a noticeable share of its callers' time.
    [[gnu::always_inline]] static void transpose(const fields& from, __m128 (&out)[width]) {
        if constexpr (is_avx512<Arch>) {
            const fields r = transpose_in_lanes(from.f0, from.f1, from.f2,
                                                from.f3); // records j | j + 4 | j + 8 | j + 12
            const wide rows[4] = {r.f0, r.f1, r.f2, r.f3};
            for (std::size_t j = 0; j < 4; ++j) {
                out[j] = _mm512_castps512_ps128(rows[j]);
                out[j + 4] = _mm512_extractf32x4_ps(rows[j], 1);
                out[j + 8] = _mm512_extractf32x4_ps(rows[j], 2);
                out[j + 12] = _mm512_extractf32x4_ps(rows[j], 3);
            }
        } else if constexpr (is_avx<Arch>) {
            const fields r =
                transpose_in_lanes(from.f0, from.f1, from.f2, from.f3); // records j | j + 4
            const wide r0 = r.f0;
            const wide r1 = r.f1;
            const wide r2 = r.f2;
            const wide r3 = r.f3;
            out[0] = _mm256_castps256_ps128(r0);
            out[1] = _mm256_castps256_ps128(r1);
            out[2] = _mm256_castps256_ps128(r2);
            out[3] = _mm256_castps256_ps128(r3);
            out[4] = _mm256_extractf128_ps(r0, 1);
            out[5] = _mm256_extractf128_ps(r1, 1);
            out[6] = _mm256_extractf128_ps(r2, 1);
            out[7] = _mm256_extractf128_ps(r3, 1);
        } else if constexpr (is_sse<Arch>) {
            __m128 r0 = from.f0;
            __m128 r1 = from.f1;
            __m128 r2 = from.f2;
            __m128 r3 = from.f3;
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            out[0] = r0;
            out[1] = r1;
            out[2] = r2;
            out[3] = r3;
        }
    }
#endif
};

} // namespace simdcollide::simd
