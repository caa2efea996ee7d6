// Which architecture the world's pair phases are instantiated for: phase 2 for the boxes
// (box_touches, push_boxes), phase 3 (separate_in_order, which records the circle pairs'
// touches) and phase 6 (respond_pairs, gain_and_respond). On AVX-512 they run as AVX2
// code, 8 lanes (phase 3 measured no faster in 16 lanes on a Zen 4):
// - phase 6 works out contact k of 8 runs side by side (detail::impulse_runs), so 16 lanes
//   would leave half of every vector idle and gather every record twice;
// - the branch-free writer of touch records is an 8 x 8 transpose, written for AVX.
// On an AVX-512 Xeon (16 cores, a noisy VM; three alternating rounds of medians of 3),
// world/respond at 10 000 circles took 244 to 260 us in 16 lanes against 96 to 134 us in
// the AVX2 code, and world/touches (the pairs' touches, then a phase of their own) 151 to
// 166 us against 117 to 131 us.
//
// With -mavx512vl (CMakeLists.txt) that AVX2 code may use all 32 vector registers, which
// made phase 3 a fifth faster on a Zen 4 (world/separate 41 -> 33 us).
//
// The AVX2 code is compiled into the AVX-512 object (-mavx512f implies AVX2) under an
// architecture type of its own, so that every symbol those instantiations emit names that
// type and none is shared with the AVX2 object (tests/check_isa_symbols.sh). The operations
// are the AVX2 path's, so the bits are too.
#pragma once

#include <xsimd/xsimd.hpp>

namespace simdcollide::simd {

#if defined(__x86_64__)
struct avx2_in_avx512 : xsimd::avx2 {
    static constexpr char const* name() noexcept { return "avx2 in avx512"; }
};
#endif

} // namespace simdcollide::simd

#if defined(__x86_64__) && XSIMD_WITH_AVX2
// Its registers are AVX's, declared anew rather than by xsimd's alias macro: an alias derives
// from simd_register<T, avx2>, whose constructor and conversion are then called out of line
// at -O0, weak symbols the AVX2 object has too (isa_objects_share_no_weak_symbol caught it).
namespace xsimd::types {
XSIMD_DECLARE_SIMD_REGISTER(bool, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(signed char, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(unsigned char, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(char, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(unsigned short, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(short, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(unsigned int, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(int, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(unsigned long int, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(long int, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(unsigned long long int, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(long long int, simdcollide::simd::avx2_in_avx512, __m256i);
XSIMD_DECLARE_SIMD_REGISTER(float, simdcollide::simd::avx2_in_avx512, __m256);
XSIMD_DECLARE_SIMD_REGISTER(double, simdcollide::simd::avx2_in_avx512, __m256d);
} // namespace xsimd::types
#endif

namespace simdcollide::simd {

template <class Arch>
struct world_pair_arch_of {
    using type = Arch;
};
#if defined(__x86_64__)
template <>
struct world_pair_arch_of<xsimd::avx512f> {
    using type = avx2_in_avx512;
};
#endif

/// The architecture of the world's pair phases in `Arch`'s table: Arch itself but on AVX-512.
template <class Arch>
using world_pair_arch = typename world_pair_arch_of<Arch>::type;

} // namespace simdcollide::simd
