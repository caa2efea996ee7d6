// Which public isa value an xsimd architecture tag stands for. Needs only xsimd's
// architecture tags, which are declared whatever the compiler flags, so baseline code
// (dispatch.cpp) can include it.
#pragma once

#include "pairwise/kernel_table.hpp"

#include <simdcollide/dispatch.hpp>
#include <xsimd/config/xsimd_arch.hpp>

namespace simdcollide::simd {

template <class Arch>
inline constexpr isa isa_of = isa::reference; // specialised below for every tag we build

template <>
inline constexpr isa isa_of<xsimd::sse2> = isa::sse2;
template <>
inline constexpr isa isa_of<xsimd::avx2> = isa::avx2;
template <>
inline constexpr isa isa_of<xsimd::avx512f> = isa::avx512;
template <>
inline constexpr isa isa_of<xsimd::neon64> = isa::neon;

} // namespace simdcollide::simd

namespace simdcollide::detail {

/// Defined in kernels/pairwise/simd/table.hpp, instantiated only in
/// kernels/pairwise/isa/<name>.cpp.
template <class Arch>
const kernel_table& simd_table() noexcept;

} // namespace simdcollide::detail
