// The SIMD loop skeleton shared by every kernel: a first partial block up to the vector
// boundary of the array the kernel stores to, full blocks of W lanes straight from the
// caller's arrays (unaligned loads and stores), then one last partial block; partial blocks
// go through zero-padded stack buffers, so a kernel body is written once and sees only whole
// vectors.
//
// Everything here is a template on the xsimd architecture `Arch`. That is what keeps each
// instruction set's code apart: kernels/pairwise/isa/avx2.cpp instantiates these with xsimd::avx2
// under -mavx2, and every symbol it emits names avx2, so the linker can never hand an SSE2
// caller an AVX2 copy (tests/check_isa_symbols.sh proves no weak symbol is shared). Do not
// add a non-template helper here unless it is always_inline.
#pragma once

#include <simdcollide/soa.hpp>
#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

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
/// never computed with. Phase 6's (vx, vy) records (stride 2) and the x and y of phase 3's
/// (x, y, radius, inverse mass) records (stride 4) are written so.
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
/// Measured on a Zen 4, five alternating A/B rounds at 4096 pairs: AVX2 circle_aabb/contact
/// 1.14x to 1.22x as fast, push_out, separate and circle_circle/contact 3% to 5%. Only for
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
/// bitwise operations (chosen for Zen 3, which runs them on any of its four vector pipes and
/// a blend on two of them). Measured on an AMD Zen 5, three rounds of alternating runs,
/// medians of 5, 4096 pairs: box push-out with AVX2 2.21-2.23 -> 2.09-2.12 us, box contact
/// 2.20-2.24 -> 2.16-2.19 us; with SSE2 the blend made both about 1% slower.
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

/// A whole block of W lanes at element `first` of the caller's arrays. (Mask bytes are
/// written through a little-endian word: x86-64 and aarch64 Linux both are.)
template <class Arch>
struct full_block {
    static constexpr std::size_t width = floats<Arch>::size;
    std::size_t first;

    floats<Arch> load(const float* field) const {
        return floats<Arch>::load_unaligned(field + first);
    }
    void store(float* field, const floats<Arch>& value) const {
        value.store_unaligned(field + first);
    }
    // One byte of 0 or 1 a lane. On AVX2 and AVX-512 the lanes are narrowed to bytes in
    // vector registers and stored at once, where going through lane_bits took a shift, an
    // and, a multiply, an and and a store for every four lanes. Measured on the Intel Xeon
    // (medians of 5, three alternating runs at 4 096 pairs): box overlap AVX2 2.32-2.34 ->
    // 2.17-2.19 us, AVX-512 2.01-2.05 -> 1.42 us; circle overlap AVX2 1.32-1.34 -> 1.15-1.17
    // us, AVX-512 1.25-1.26 -> 0.78-0.79 us. Four lanes (SSE2, NEON) keep the multiply.
    void store_mask(std::uint8_t* field, const lanes<Arch>& value) const {
#if defined(__AVX512F__) // (objects without AVX-512 never see these intrinsics)
        if constexpr (is_avx512<Arch>) {
            // 1 in each set lane's 32 bits, then each lane's low byte (vpmovdb).
            const __m512i ones = _mm512_maskz_mov_epi32(value.data, _mm512_set1_epi32(1));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(field + first), _mm512_cvtepi32_epi8(ones));
            return;
        }
#endif
#if defined(__AVX2__)
        if constexpr (is_avx<Arch> && width == 8) {
            // A set lane is all ones: its sign bit shifted down is 1. Packed 32 -> 16 -> 8 bits
            // (unsigned saturation keeps 0 and 1), the low 8 bytes are the 8 lanes in order.
            const __m256i ones = _mm256_srli_epi32(_mm256_castps_si256(value.data), 31);
            const __m128i words =
                _mm_packus_epi32(_mm256_castsi256_si128(ones), _mm256_extracti128_si256(ones, 1));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(field + first),
                             _mm_packus_epi16(words, words));
            return;
        }
#endif
        const std::uint32_t bits = lane_bits<Arch>(value);
        for (std::size_t j = 0; j < width; j += 4) {
            const std::uint32_t bytes = one_byte_per_bit<Arch>((bits >> j) & 0xFU);
            std::memcpy(field + first + j, &bytes, 4);
        }
    }
};

/// The last `count < W` elements from element `first`: loads read only those elements
/// (the other lanes are 0) and stores write only those elements.
template <class Arch>
struct tail_block {
    static constexpr std::size_t width = floats<Arch>::size;
    std::size_t first;
    std::size_t count;

    floats<Arch> load(const float* field) const {
        // memcpy, not std::copy_n: at -O0 the std::copy helpers would be emitted as weak
        // functions in every per-ISA object, and the linker could keep an AVX copy of them.
        alignas(64) float buffer[width] = {};
        std::memcpy(buffer, field + first, count * sizeof(float));
        return floats<Arch>::load_aligned(buffer);
    }
    void store(float* field, const floats<Arch>& value) const {
        alignas(64) float buffer[width];
        value.store_aligned(buffer);
        std::memcpy(field + first, buffer, count * sizeof(float));
    }
    void store_mask(std::uint8_t* field, const lanes<Arch>& value) const {
        const std::uint32_t bits = lane_bits<Arch>(value);
        for (std::size_t j = 0; j < count; ++j) {
            field[first + j] = static_cast<std::uint8_t>((bits >> j) & 1U);
        }
    }
};

/// How many real elements a block holds.
template <class Arch>
constexpr std::size_t lanes_in(const full_block<Arch>& /*block*/) {
    return floats<Arch>::size;
}
template <class Arch>
constexpr std::size_t lanes_in(const tail_block<Arch>& block) {
    return block.count;
}

/// Counts set lanes across blocks: one scalar add per block of the mask's bit count (an
/// integer chain of one cycle per block; a vector tally in a register would be cheaper still,
/// but GCC keeps it on the stack, a store-to-load chain of about ten cycles per block).
template <class Arch>
class lane_counter {
public:
    void add(const full_block<Arch>&, const lanes<Arch>& set) {
        total_ += set_lanes_in(lane_bits<Arch>(set));
    }
    void add(const tail_block<Arch>& block, const lanes<Arch>& set) {
        bool bits[floats<Arch>::size];
        set.store_unaligned(bits);
        for (std::size_t j = 0; j < block.count; ++j) {
            total_ += bits[j] ? 1 : 0;
        }
    }
    std::size_t total() const { return total_; }

private:
    // Four lanes (SSE2, NEON: no popcount instruction to rely on) read their count from a
    // table of sixteen nibbles; AVX2 and AVX-512 CPUs all have POPCNT, which -mavx2 enables.
    static std::size_t set_lanes_in(std::uint32_t bits) {
        if constexpr (floats<Arch>::size == 4) {
            return static_cast<std::size_t>((0x4332322132212110ULL >> (bits * 4U)) & 0xFU);
        } else {
            // The builtin, not std::popcount: at -O0 that is an out-of-line function template,
            // a weak symbol the AVX2 and AVX-512 objects would share (see top).
            return static_cast<std::size_t>(__builtin_popcount(bits));
        }
    }
    std::size_t total_ = 0;
};

/// Stores a block's contacts (any result with hit, normal_x/y, depth, point_x/y); a pair
/// not in contact reports zeros, like the reference's default-constructed contact.
template <class Arch, class Block, class Contact>
void store_contact(const Block& block, const contacts_view& out, const Contact& k) {
    block.store(out.normal_x, zero_unless<Arch>(k.hit, k.normal_x));
    block.store(out.normal_y, zero_unless<Arch>(k.hit, k.normal_y));
    block.store(out.depth, zero_unless<Arch>(k.hit, k.depth));
    block.store(out.point_x, zero_unless<Arch>(k.hit, k.point_x));
    block.store(out.point_y, zero_unless<Arch>(k.hit, k.point_y));
}

/// Prefetches, once per 64-byte line of each field, the line `distance` floats ahead of
/// element `first`, if that is still inside the arrays. `for_writing` says the line is about
/// to be written: a store prefetch on aarch64; on x86 PREFETCHT0 either way, since GCC emits
/// PREFETCHW only under -mprfchw, which no object sets (measured here, the two alike).
template <class Arch, std::size_t distance, int for_writing, class... Fields>
[[gnu::always_inline]] inline void prefetch_lines(std::size_t first, std::size_t count,
                                                  const Fields*... fields) {
    constexpr std::size_t floats_per_line = 16;
    // Whole blocks follow one another W floats apart from wherever the loop's head left them
    // (for_each_block_storing), so exactly one block in each 16 floats starts in this range.
    if (first % floats_per_line < floats<Arch>::size && first + distance < count) {
        (__builtin_prefetch(fields + first + distance, for_writing), ...);
    }
}

/// Software prefetch for a kernel that streams its fields from memory. Zen 3's hardware
/// prefetchers do not keep nine streams ahead on their own while the kernel computes
/// (push-out at n = 16M took compute time plus memory time); with this, the two overlap.
/// Only worth it past the caches (in cache it costs a few percent), so kernels call it for
/// large counts only.
inline constexpr std::size_t prefetch_distance = 256; // floats (1 KiB); measured 128 to 512 alike

/// From this many pairs, kernels that stream their fields prefetch them (push_out its
/// seven, the contact kernels their inputs and their five outputs): push-out's seven fields
/// then take 28 MiB, about the size of a last-level cache. Measured on Zen 3: push-out 5%
/// slower with the prefetches at 65 536 pairs (2 MiB, in L3), 20% to 30% faster at 16M (in
/// memory). On the Intel Xeon (family 6, model 207), three runs of medians of 3 at 16M
/// pairs: box contact AVX2 55.2-56.7 -> 49.8-52.9 ms, AVX-512 54.8-56.3 -> 48.7-51.1 ms;
/// circle contact AVX2 49.1-50.2 -> 44.1-46.6 ms, AVX-512 51.3-52.9 -> 43.6-44.5 ms (with
/// the outputs alone prefetched: 54.1-54.8, 51.7-52.8, 46.5-46.8 and 44.8-46.2 ms).
inline constexpr std::size_t streams_from = std::size_t{1} << 20;

/// The lines a kernel will read, prefetch_distance floats ahead.
template <class Arch, class... Fields>
[[gnu::always_inline]] inline void prefetch_ahead(std::size_t first, std::size_t count,
                                                  const Fields*... fields) {
    prefetch_lines<Arch, prefetch_distance, 0>(first, count, fields...);
}

/// The lines a kernel will write (and not read), prefetch_distance floats ahead.
template <class Arch, class... Written>
[[gnu::always_inline]] inline void prefetch_ahead_for_stores(std::size_t first, std::size_t count,
                                                             const Written*... written) {
    prefetch_lines<Arch, prefetch_distance, 1>(first, count, written...);
}

/// Software prefetch for a kernel bound by writing arrays it does not read, a few lines
/// ahead, at every count: the arrays it writes for writing, and those it reads. On the
/// Intel Xeon (family 6, model 207) a store that misses L1 waits for its line, and a loop
/// that writes two of every eight arrays it touches waited on those lines even with every
/// array in L2: closest_point at 4 096 pairs took 1.85 to 1.89 us on AVX2 without this and
/// 1.10 to 1.17 us with it in two sets of runs (the written lines alone gave 1.15 us), SSE2
/// 2.09 to 2.14 against 1.42 us, AVX-512 1.21 to 1.26 against 1.11 to 1.12 us. The contact
/// kernels, which compute far more between their stores, measured mixed with their five
/// outputs prefetched (circle contact 13% faster on AVX2, 7% slower on AVX-512, no
/// different on SSE2; box contact up to 4% slower on AVX2), so only closest_point calls
/// it (the contact kernels prefetch further ahead from streams_from pairs, above).
inline constexpr std::size_t store_prefetch_distance = 64; // floats (4 lines); 32 to 128 alike

/// The lines a kernel will write, store_prefetch_distance floats ahead.
template <class Arch, class... Written>
[[gnu::always_inline]] inline void prefetch_for_stores(std::size_t first, std::size_t count,
                                                       const Written*... written) {
    prefetch_lines<Arch, store_prefetch_distance, 1>(first, count, written...);
}

/// The lines a kernel will read, as near ahead as prefetch_for_stores (prefetch_ahead goes
/// further, for memory).
template <class Arch, class... Read>
[[gnu::always_inline]] inline void prefetch_near(std::size_t first, std::size_t count,
                                                 const Read*... read) {
    prefetch_lines<Arch, store_prefetch_distance, 0>(first, count, read...);
}

/// Runs `body(block)` over elements [0, count): first elements [0, head) as one partial block
/// if head > 0 (head <= count), then blocks of W lanes, then the rest as one partial block. If
/// the body returns a lane mask, returns how many of the real (not padding) lanes were set;
/// else returns 0.
///
/// Always inlined, and bodies capture the views by value: xsimd stores through a may_alias
/// type, so if the loop reached the caller's pointers through memory, GCC would reload
/// every pointer after every store. Inlined, the pointers stay in registers.
template <class Arch, class Body>
[[gnu::always_inline]] inline std::size_t for_each_block_after(std::size_t head, std::size_t count,
                                                               Body body) {
    constexpr std::size_t width = floats<Arch>::size;
    using result = decltype(body(std::declval<const full_block<Arch>&>()));
    constexpr bool counts = !std::is_void_v<result>;

    lane_counter<Arch> counter;
    if (head > 0) {
        const tail_block<Arch> block{0, head};
        if constexpr (counts) {
            counter.add(block, body(block));
        } else {
            body(block);
        }
    }
    std::size_t first = head;
    for (; first + width <= count; first += width) {
        const full_block<Arch> block{first};
        if constexpr (counts) {
            counter.add(block, body(block));
        } else {
            body(block);
        }
    }
    if (first < count) {
        const tail_block<Arch> block{first, count - first};
        if constexpr (counts) {
            counter.add(block, body(block));
        } else {
            body(block);
        }
    }
    return counts ? counter.total() : 0;
}

/// How many elements of `field` come before its first address that is a multiple of the
/// vector size (W floats), at most `count`.
template <class Arch>
[[gnu::always_inline]] inline std::size_t elements_before_vector_boundary(const void* field,
                                                                          std::size_t count) {
    constexpr std::uintptr_t vector_bytes = sizeof(float) * floats<Arch>::size;
    const auto address = reinterpret_cast<std::uintptr_t>(field);
    const std::size_t head =
        ((vector_bytes - address % vector_bytes) % vector_bytes) / sizeof(float);
    return head < count ? head : count;
}

/// for_each_block_after over a caller's arrays, with the whole blocks' stores to `stored` (the
/// first field the body stores to, or one it loads where it stores none) aligned to the
/// vector size: the elements before that field's first vector boundary go first, as one
/// partial block. A vector store that straddles two cache lines costs far more than one
/// that does not: on an Intel Xeon with AVX-512 (docs/performance.md, "Where the arrays lie"),
/// circle contact at 4096 pairs took 2.2 us with every array 64-byte aligned and 5.5 to 6.8 us (two
/// runs) with every array 4 to 48 bytes past a line, as std::vector's allocations may lie;
/// 2.3 us with this. Where the fields share their offset within a line (one allocator's
/// large arrays, all 16 bytes past a page), every store is then aligned; where they do not,
/// the other fields' stores still split. Each element's result depends on that element
/// alone, so where the blocks start changes no bits.
template <class Arch, class Body>
[[gnu::always_inline]] inline std::size_t for_each_block_storing(const void* stored,
                                                                 std::size_t count, Body body) {
    return for_each_block_after<Arch>(elements_before_vector_boundary<Arch>(stored, count), count,
                                      body);
}

/// for_each_block_storing for a body in two parts, `early(block)` and `late(block, e)`, where e
/// is what early returned for that block: whole blocks run early one block ahead of late, so
/// that a block's square root and division (early) are on the divider while the block before
/// does its other work (late). Each block gets late(block, early(block)): the same
/// operations on the same values, so the same bits; the partial blocks at either end take
/// theirs at once. `late` returns the block's lane mask; returns the count of its set real
/// lanes. What early returns is kept in registers from one block to the next, so it should
/// hold what late needs and no more.
/// Measured on an AMD Zen 5 (three rounds of alternating runs, medians of 5, 4096 pairs),
/// where removing the square root and division altogether (an instrumented build) made circle
/// contact 1.4x as fast with AVX2: circle contact with AVX2 1.57-1.59 -> 1.39-1.43 us, with
/// SSE2 3.40-3.43 -> 3.08-3.11 us, with AVX-512 0.93-0.94 -> 0.94-0.96 us; see separate for
/// its own. Not used for the box kernels: there it gained nothing (box push-out with AVX2
/// 2.19-2.30 us with it, 2.20-2.27 without; GCC spilled what it carried), their loops
/// likely bound by the other instructions they issue.
template <class Arch, class Early, class Late>
[[gnu::always_inline]] inline std::size_t
for_each_block_pipelined(const void* stored, std::size_t count, Early early, Late late) {
    constexpr std::size_t width = floats<Arch>::size;
    const std::size_t head = elements_before_vector_boundary<Arch>(stored, count);
    lane_counter<Arch> counter;
    if (head > 0) {
        const tail_block<Arch> block{0, head};
        counter.add(block, late(block, early(block)));
    }
    std::size_t first = head;
    if (first + width <= count) {
        auto ahead = early(full_block<Arch>{first});
        for (; first + 2 * width <= count; first += width) {
            const auto next = early(full_block<Arch>{first + width});
            const full_block<Arch> block{first};
            counter.add(block, late(block, ahead));
            ahead = next;
        }
        const full_block<Arch> block{first};
        counter.add(block, late(block, ahead));
        first += width;
    }
    if (first < count) {
        const tail_block<Arch> block{first, count - first};
        counter.add(block, late(block, early(block)));
    }
    return counter.total();
}

} // namespace simdcollide::simd
