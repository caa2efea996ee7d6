// The neon soft-step kernels: an explicit instantiation only, compiled with this instruction
// set's flags (kernels/pairwise/simd/block_loop.hpp says why nothing else lives here).
#include "world/solver/simd/solver.hpp"

template const simdcollide::detail::solver_kernels&
simdcollide::detail::simd_solver_table<xsimd::neon64>() noexcept;
