// The library's copy of the scalar reference, and its kernel table.
//
// Compiled with -fno-tree-vectorize (see CMakeLists.txt) so that "reference" in benchmarks
// means scalar code; bench/autovec_circle_aabb.cpp compiles the same loops with GCC's best
// auto-vectorisation for comparison.
#include "kernel_table.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <simdcollide/soa.hpp>

namespace simdcollide::detail::reference_impl {
#include "reference/circle_aabb.inl"
} // namespace simdcollide::detail::reference_impl

namespace simdcollide::detail {

const kernel_table& reference_table() noexcept {
    static constexpr kernel_table table{
        isa::reference,
        {
            &reference_impl::closest_point_loop,
            &reference_impl::distance_squared_loop,
            &reference_impl::overlap_loop,
            &reference_impl::contact_loop,
            &reference_impl::push_out_loop,
        },
    };
    return table;
}

} // namespace simdcollide::detail
