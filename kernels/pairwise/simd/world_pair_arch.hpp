// Which architecture the pair kernels that gather and scatter circles are instantiated for:
// separation in order (simd/separate_in_order.hpp) and the soft step's contact passes
// (world/solver/simd/solver.hpp). On AVX-512 they run as AVX2 code, 8 lanes: a block's
// lanes are gathered circle by circle, so 16 lanes gain little, and the soft step's gather
// is an 8-lane transpose written for AVX (docs/performance.md has the measurements).
//
// With -mavx512vl (CMakeLists.txt) that AVX2 code may use all 32 vector registers.
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

/// The architecture of those kernels in `Arch`'s table: Arch itself but on AVX-512.
template <class Arch>
using world_pair_arch = typename world_pair_arch_of<Arch>::type;

} // namespace simdcollide::simd
