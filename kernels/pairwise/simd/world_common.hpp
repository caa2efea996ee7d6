// What the world's SIMD kernels share (simd/world_*.hpp): the vector types, where a circle's
// record is, gathering a field lane by lane, and the reference's inverse_total_of.
#pragma once

#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/circle_aabb.hpp"
#include "pairwise/simd/circle_circle.hpp"
#include "pairwise/simd/records.hpp"
#include "pairwise/simd/velocity_records.hpp"

#include <simdcollide/soa.hpp>
#include <simdcollide/world.hpp>

#include "pairwise/world_records.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace simdcollide::simd {

template <class Arch>
struct world_common {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    // Where a circle's record is: at its slot (whole), or at its entry in the bands' ring
    // (band_plan::ring_slot).
    struct whole {
        [[gnu::always_inline]] std::uint32_t operator()(std::uint32_t i) const { return i; }
    };
    struct ring {
        std::uint32_t mask;
        [[gnu::always_inline]] std::uint32_t operator()(std::uint32_t i) const { return i & mask; }
    };

    static constexpr std::size_t width = F::size;

    // Lane j of field[index(j)], one float at a time (kernel::set: xsimd 8.1 has no public
    // constructor from W scalars).
    template <class Index, std::size_t... J>
    [[gnu::always_inline]] static F gather_of(const float* field, Index index,
                                              std::index_sequence<J...> /*lanes*/) {
        return xsimd::kernel::set<Arch>(F{}, Arch{}, field[index(J)]...);
    }
    template <class Index>
    [[gnu::always_inline]] static F gather(const float* field, Index index) {
        return gather_of(field, index, std::make_index_sequence<width>{});
    }

    // The reference's inverse_total_of: 1 / (wa + wb), +0 where the sum is not > 0.
    [[gnu::always_inline]] static F inverse_total_of(const F& wa, const F& wb) {
        const F total = wa + wb;
        return zero_unless<Arch>(total > F(0.0F), divide<Arch>(F(1.0F), total));
    }
};

} // namespace simdcollide::simd
