// The table of kernel entry points that one instruction set provides.
//
// Dispatch keeps a pointer to one table; the public functions check their arguments and
// call through it. The reference fills one table, and each per-instruction-set file
// fills one more (simd/table.hpp). Entries never check arguments: callers already did.
#pragma once

#include <simdcollide/dispatch.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::detail {

struct circle_aabb_kernels_table {
    void (*closest_point)(circles_cview, aabbs_view, points_view);
    void (*distance_squared)(circles_cview, aabbs_view, float* out);
    /// `mask` may be null: then only the count is computed.
    std::size_t (*overlap)(circles_cview, aabbs_view, std::uint8_t* mask, float margin);
    std::size_t (*contact)(circles_cview, aabbs_view, contacts_view, float margin);
    std::size_t (*push_out)(circles_view, aabbs_view, float margin);
};

struct kernel_table {
    isa id;
    circle_aabb_kernels_table circle_aabb;
};

/// The reference implementation's table (kernels/reference/).
const kernel_table& reference_table() noexcept;

/// The table for `which`, or null when this build does not contain it. Does not check
/// whether the CPU can run it: that is dispatch's job (dispatch.cpp).
const kernel_table* compiled_table(isa which) noexcept;

/// The active table: resolves SIMDCOLLIDE_ISA on first use (may throw isa_unavailable).
const kernel_table& active_table();

} // namespace simdcollide::detail
