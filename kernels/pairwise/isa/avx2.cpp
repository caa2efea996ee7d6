// The avx2 kernels: explicit instantiations only, compiled with -mavx2 and nothing else.
// Nothing else may live here (see kernels/pairwise/simd/block_loop.hpp).
#include "pairwise/simd/table.hpp"

template const simdcollide::detail::kernel_table&
simdcollide::detail::simd_table<xsimd::avx2>() noexcept;
