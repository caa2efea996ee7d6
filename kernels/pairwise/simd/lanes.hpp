// Lane-by-lane arithmetic and selection for the SIMD kernels, each the reference's
// operation on every lane with the same bits: minimum and maximum with x86's ties, IEEE
// division and square root, the weights' scaling, selects, masks and the stores of float
// pairs into records. The loop the kernels run on is block_loop.hpp.
//
// Everything here is a template on the xsimd architecture `Arch`, so that each instruction
// set's copy stays apart (block_loop.hpp, top). Do not add a non-template helper here
// unless it is always_inline.
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace simdcollide::simd {

template <class Arch>
using floats = xsimd::batch<float, Arch>;

template <class Arch>
using lanes = xsimd::batch_bool<float, Arch>;

// Which register family an xsimd architecture uses; the helpers below pick instructions by it.
template <class Arch>
inline constexpr bool is_avx512 = std::is_base_of_v<xsimd::avx512f, Arch>;
template <class Arch>
inline constexpr bool is_avx = std::is_base_of_v<xsimd::avx, Arch>; // avx, avx2
template <class Arch>
inline constexpr bool is_sse = std::is_base_of_v<xsimd::sse2, Arch>;

/// For j < count, in order: lane j of `first` and of `second` as the two floats at
/// base + stride * index(j), the rest of a longer record left as it is (a later lane wins
/// where an index repeats). On x86 the two vectors are interleaved by two shuffles per four
/// lanes and each lane is one 8-byte store; elsewhere one float at a time. Bits only,
/// never computed with. The x and y of separation's (x, y, radius, inverse mass) records
/// (stride 4) are written so.
template <class Arch, std::size_t stride, class Index>
[[gnu::always_inline]] inline void
store_float_pairs(float* base, Index index, const floats<Arch>& first, const floats<Arch>& second,
                  std::size_t count) {
    constexpr std::size_t width = floats<Arch>::size;
#if defined(__x86_64__)
    // The low (or, with `high`, the high) two floats of `two` as one 8-byte store to `at`.
    const auto store_two = [](float* at, __m128 two, bool high) {
        double* const bits = reinterpret_cast<double*>(at);
        if (high) {
            _mm_storeh_pd(bits, _mm_castps_pd(two));
        } else {
            _mm_storel_pd(bits, _mm_castps_pd(two));
        }
    };
#endif
#if defined(__AVX__) // (objects without AVX never see these intrinsics)
    if constexpr (is_avx<Arch> && width == 8) {
        const __m256 low = _mm256_unpacklo_ps(first.data, second.data);  // lanes 0 1 | 4 5
        const __m256 high = _mm256_unpackhi_ps(first.data, second.data); // lanes 2 3 | 6 7
        const __m128 two[4] = {_mm256_castps256_ps128(low), _mm256_castps256_ps128(high),
                               _mm256_extractf128_ps(low, 1), _mm256_extractf128_ps(high, 1)};
        for (std::size_t j = 0; j < count; ++j) {
            store_two(base + stride * index(j), two[j / 2], j % 2 == 1);
        }
        return;
    }
#endif
#if defined(__x86_64__)
    if constexpr (is_sse<Arch> && width == 4) {
        const __m128 two[2] = {_mm_unpacklo_ps(first.data, second.data),
                               _mm_unpackhi_ps(first.data, second.data)};
        for (std::size_t j = 0; j < count; ++j) {
            store_two(base + stride * index(j), two[j / 2], j % 2 == 1);
        }
        return;
    }
#endif
    alignas(64) float a[width];
    alignas(64) float b[width];
    first.store_aligned(a);
    second.store_aligned(b);
    for (std::size_t j = 0; j < count; ++j) {
        base[stride * index(j)] = a[j];
        base[stride * index(j) + 1] = b[j];
    }
}

// x86 minps/maxps return the second operand on ties and NaN, exactly like the reference's
// `a < b ? a : b`. NEON's vminq/vmaxq do not (signed zeros, NaN), so elsewhere we select.

/// a < b ? a : b, lane by lane (see reference min_ps).
template <class Arch>
floats<Arch> min_ps(const floats<Arch>& a, const floats<Arch>& b) {
    if constexpr (is_sse<Arch> || is_avx<Arch> || is_avx512<Arch>) {
        return xsimd::min(a, b);
    } else {
        return xsimd::select(a < b, a, b);
    }
}

/// a > b ? a : b, lane by lane (see reference max_ps).
template <class Arch>
floats<Arch> max_ps(const floats<Arch>& a, const floats<Arch>& b) {
    if constexpr (is_sse<Arch> || is_avx<Arch> || is_avx512<Arch>) {
        return xsimd::max(a, b);
    } else {
        return xsimd::select(a > b, a, b);
    }
}

/// -a lane by lane: the sign bit flipped, as the reference's unary minus does. Not xsimd's
/// operator-: xsimd 8.1 negates on AVX-512 as 0 - a, which makes -(+0) +0 where the
/// reference has -0 (a fuzzer found it on an AVX-512 CPU: a separation's move of +0
/// added to a coordinate of -0).
template <class Arch>
floats<Arch> negate(const floats<Arch>& a) {
    return xsimd::bitwise_xor(a, floats<Arch>(-0.0F));
}

/// The reference's weight_scale_of (reference/weights.inl) lane by lane: the power of two
/// 2^(127 - e), e the larger weight's exponent taken within [1, 253], made from the bits.
template <class Arch>
floats<Arch> weight_scale_of(const floats<Arch>& wa, const floats<Arch>& wb) {
    using F = floats<Arch>;
    using ints = xsimd::batch<std::int32_t, Arch>;
    const F exponent = xsimd::bitwise_and(max_ps<Arch>(wa, wb), F(__builtin_inff())); // 0x7F800000
    const F power = max_ps<Arch>(min_ps<Arch>(exponent, F(0x1p126F)), F(0x1p-126F));
    return xsimd::bitwise_cast<F>(ints(0x7F000000) - xsimd::bitwise_cast<ints>(power));
}

/// The reference's scale_weights (reference/weights.inl) lane by lane: the weights of lanes
/// whose sum needs it scaled, the others kept as they are. Blocks of ordinary weights (all
/// of them, in most simulations) take one test.
template <class Arch>
[[gnu::always_inline]] inline void scale_weights(floats<Arch>& wa, floats<Arch>& wb) {
    using F = floats<Arch>;
    const F total = wa + wb;
    const lanes<Arch> ordinary =
        (total <= F(0x1p24F)) & ((total >= F(0x1p-24F)) | (total == F(0.0F)));
    if (!xsimd::all(ordinary)) {
        const F scale = xsimd::select(ordinary, F(1.0F), weight_scale_of<Arch>(wa, wb));
        wa = wa * scale;
        wb = wb * scale;
    }
}

/// a / b, correctly rounded, lane by lane. xsimd 8.1 gives neon64 no float division of its
/// own: it falls back to 32-bit NEON's reciprocal estimate and Newton steps, which is close
/// but not IEEE division, so the results would differ from the reference's.
template <class Arch>
floats<Arch> divide(const floats<Arch>& a, const floats<Arch>& b) {
#if defined(__aarch64__)
    if constexpr (std::is_base_of_v<xsimd::neon64, Arch>) {
        return vdivq_f32(a, b);
    }
#endif
    return a / b;
}

/// sqrt(a), correctly rounded, lane by lane (xsimd 8.1's neon64 float sqrt is an estimate
/// refined by Newton steps, like its division).
template <class Arch>
floats<Arch> square_root(const floats<Arch>& a) {
#if defined(__aarch64__)
    if constexpr (std::is_base_of_v<xsimd::neon64, Arch>) {
        return vsqrtq_f32(a);
    }
#endif
    return xsimd::sqrt(a);
}

#if defined(__x86_64__)
/// c ? a : b for 8 lanes as one vblendvps, written out because GCC 12 will not emit it
/// alone: it folds _mm256_blendv_ps into a generic select on "the mask's sign bit is set",
/// and where a mask feeds several blends (the contact kernels' `outside`, `x_face`) it works
/// that out once with an integer compare (vpcmpgtd against zero) before the blends, or with
/// three instructions (vpminsd, vpcmpeqd, vpor) where two selects nest. Our masks come from
/// float compares and are all ones or all zeros, so the sign bit alone says the same.
/// The contact kernels gain from it (docs/performance.md, "Measurements behind the code"). Only for
/// the AVX2 object: with AVX-512VL (the world's AVX2 code in the AVX-512 object,
/// world_pair_arch.hpp) GCC has all 32 registers and mask registers for the intrinsic,
/// which a VEX-only asm operand would take away.
template <class Arch, class Register>
Register blend_lanes(Register c, Register a, Register b) {
    Register picked;
    asm("vblendvps %3, %2, %1, %0" : "=x"(picked) : "x"(b), "xm"(a), "x"(c));
    return picked;
}
#endif

/// c ? a : b lane by lane, for values and for masks. On AVX2, xsimd 8.1's mask logic
/// (negation, and, or) takes two SSE halves apart and back (vextracti128/vinserti128 in the
/// contact loop); these map to one instruction each.
template <class Arch>
floats<Arch> pick(const lanes<Arch>& c, const floats<Arch>& a, const floats<Arch>& b) {
#if defined(__x86_64__)
    if constexpr (is_avx<Arch>) {
#if defined(__AVX512VL__)
        return _mm256_blendv_ps(b, a, c);
#else
        using reg = typename floats<Arch>::register_type;
        return blend_lanes<Arch, reg>(c, a, b);
#endif
    }
#endif
    return xsimd::select(c, a, b);
}

template <class Arch>
lanes<Arch> pick(const lanes<Arch>& c, const lanes<Arch>& a, const lanes<Arch>& b) {
#if defined(__x86_64__)
    if constexpr (is_avx512<Arch>) {
        using bits = decltype(c.data); // __mmask16
        return static_cast<bits>((c.data & a.data) | (~c.data & b.data));
    } else if constexpr (is_avx<Arch>) {
#if defined(__AVX512VL__)
        return _mm256_or_ps(_mm256_and_ps(c, a), _mm256_andnot_ps(c, b));
#else
        using reg = typename lanes<Arch>::register_type;
        return blend_lanes<Arch, reg>(c, a, b);
#endif
    } else if constexpr (is_sse<Arch>) {
        return _mm_or_ps(_mm_and_ps(c, a), _mm_andnot_ps(c, b));
    }
#endif
    return (c && a) || (!c && b);
}

/// c ? v : +0 lane by lane: one and on x86 (the lanes of c are all ones or all zeros).
template <class Arch>
floats<Arch> zero_unless(const lanes<Arch>& c, const floats<Arch>& v) {
#if defined(__x86_64__)
    if constexpr (is_avx<Arch>) {
        return _mm256_and_ps(c, v);
    } else if constexpr (is_sse<Arch>) {
        return _mm_and_ps(c, v);
    }
#endif
    return xsimd::select(c, v, floats<Arch>(0.0F));
}

/// c ? +0 : v lane by lane: one and-not on x86, where GCC keeps pick(c, 0, v) a blend.
template <class Arch>
floats<Arch> zero_where(const lanes<Arch>& c, const floats<Arch>& v) {
#if defined(__x86_64__)
    if constexpr (is_avx<Arch>) {
        return _mm256_andnot_ps(c, v);
    } else if constexpr (is_sse<Arch>) {
        return _mm_andnot_ps(c, v);
    }
#endif
    return xsimd::select(c, floats<Arch>(0.0F), v);
}

/// c ? -1 : +1 lane by lane. With AVX2 one blend (pick). With SSE2 by setting the sign bit
/// of 1, two bitwise operations, where pick takes three. The AVX2 blend replaced the two
/// bitwise operations, which some cores run on any of their vector pipes and a blend on
/// fewer; the blend is the faster with AVX2 and the slower with SSE2
/// (docs/performance.md, "Measurements behind the code").
template <class Arch>
floats<Arch> minus_one_where(const lanes<Arch>& c) {
#if defined(__x86_64__)
    if constexpr (is_avx<Arch>) {
        return pick<Arch>(c, floats<Arch>(-1.0F), floats<Arch>(1.0F));
    } else if constexpr (is_sse<Arch>) {
        return _mm_or_ps(_mm_and_ps(c, floats<Arch>(-0.0F)), floats<Arch>(1.0F));
    }
#endif
    return xsimd::select(c, floats<Arch>(-1.0F), floats<Arch>(1.0F));
}

/// a && b lane by lane (see pick for why not xsimd's operator&& on x86).
template <class Arch>
lanes<Arch> both(const lanes<Arch>& a, const lanes<Arch>& b) {
#if defined(__x86_64__)
    if constexpr (is_avx512<Arch>) {
        using bits = decltype(a.data); // __mmask16
        return static_cast<bits>(a.data & b.data);
    } else if constexpr (is_avx<Arch>) {
        return _mm256_and_ps(a, b);
    } else if constexpr (is_sse<Arch>) {
        return _mm_and_ps(a, b);
    }
#endif
    return a && b;
}

/// a || b lane by lane (see pick for why not xsimd's operator|| on x86).
template <class Arch>
lanes<Arch> either(const lanes<Arch>& a, const lanes<Arch>& b) {
#if defined(__x86_64__)
    if constexpr (is_avx512<Arch>) {
        using bits = decltype(a.data); // __mmask16
        return static_cast<bits>(a.data | b.data);
    } else if constexpr (is_avx<Arch>) {
        return _mm256_or_ps(a, b);
    } else if constexpr (is_sse<Arch>) {
        return _mm_or_ps(a, b);
    }
#endif
    return a || b;
}

/// The lanes of a mask as the low W bits of an integer, lane 0 in bit 0. xsimd 8.1 has no
/// batch_bool::mask(), and its generic bool store goes through floats one lane at a time.
template <class Arch>
std::uint32_t lane_bits(const lanes<Arch>& set) {
#if defined(__x86_64__)
    if constexpr (is_avx512<Arch>) {
        return static_cast<std::uint32_t>(set.data); // already a bit mask (__mmask16)
    } else if constexpr (is_avx<Arch>) {
        return static_cast<std::uint32_t>(_mm256_movemask_ps(set));
    } else if constexpr (is_sse<Arch>) {
        return static_cast<std::uint32_t>(_mm_movemask_ps(set));
    }
#endif
    bool each[floats<Arch>::size];
    set.store_unaligned(each);
    std::uint32_t bits = 0;
    for (std::size_t j = 0; j < floats<Arch>::size; ++j) {
        bits |= (each[j] ? 1U : 0U) << j;
    }
    return bits;
}

/// Four bits to four bytes of 0 or 1, bit j to byte j (little-endian): one multiply puts
/// bit j at bit 8j, and four bits are few enough that no partial products overlap.
/// Templated on Arch only so that each instruction set gets its own copy (see top).
template <class Arch>
constexpr std::uint32_t one_byte_per_bit(std::uint32_t four_bits) {
    return (four_bits * 0x00204081U) & 0x01010101U;
}

} // namespace simdcollide::simd
