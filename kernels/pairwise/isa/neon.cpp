// The neon kernels: explicit instantiations only, compiled for aarch64, where NEON is baseline.
// Nothing else may live here (see kernels/pairwise/simd/block_loop.hpp).
#include "pairwise/simd/table.hpp"

template const simdcollide::detail::kernel_table&
simdcollide::detail::simd_table<xsimd::neon64>() noexcept;
