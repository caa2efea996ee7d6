// The soft step's table for an instruction set: the SIMD one this build carries for it, or
// the reference's.
#include "world/solver/solver_table.hpp"

#include <xsimd/xsimd.hpp>

namespace simdcollide {
namespace detail {

const solver_kernels& solver_table(isa which) noexcept {
    switch (which) {
#if SIMDCOLLIDE_HAVE_SSE2
    case isa::sse2:
        return simd_solver_table<xsimd::sse2>();
#endif
#if SIMDCOLLIDE_HAVE_AVX2
    case isa::avx2:
        return simd_solver_table<xsimd::avx2>();
#endif
#if SIMDCOLLIDE_HAVE_AVX512
    case isa::avx512:
        return simd_solver_table<xsimd::avx512f>();
#endif
#if SIMDCOLLIDE_HAVE_NEON
    case isa::neon:
        return simd_solver_table<xsimd::neon64>();
#endif
    default:
        return solver_reference();
    }
}

} // namespace detail
} // namespace simdcollide
