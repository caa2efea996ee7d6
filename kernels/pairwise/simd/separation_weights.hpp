// The weights of a separation, W pairs at a time: the reference's separation_weights_of
// (reference/weights.inl) for a mode fixed at compile time.
#pragma once

#include "pairwise/simd/lanes.hpp"

#include <simdcollide/circle_circle.hpp>

#include <type_traits>

namespace simdcollide::simd {

template <class Arch>
struct separation_weights {
    floats<Arch> a, b;
};

/// The weights for bodies of sizes a_size and b_size (a circle's radius, a box's half-extent
/// along the contact's axis) and inverse masses aw and bw; 0 for a static body in every mode.
template <class Arch, separation_weighting mode>
[[gnu::always_inline]] inline separation_weights<Arch>
separation_weights_of(const floats<Arch>& a_size, const floats<Arch>& aw,
                      const floats<Arch>& b_size, const floats<Arch>& bw) {
    using F = floats<Arch>;
    F wa = aw;
    F wb = bw;
    if constexpr (mode == separation_weighting::equal) {
        wa = F(1.0F);
        wb = F(1.0F);
    } else if constexpr (mode == separation_weighting::by_radius) {
        wa = b_size; // the larger body moves less
        wb = a_size;
    }
    const F zero(0.0F);
    return {zero_where<Arch>(aw == zero, wa), zero_where<Arch>(bw == zero, wb)};
}

/// body(std::integral_constant<separation_weighting, mode>{}) for the run-time mode, so that
/// each loop has one copy per mode and no branch per block.
template <class Body>
decltype(auto) with_weighting(separation_weighting mode, Body body) {
    using enum separation_weighting;
    switch (mode) {
    case equal:
        return body(std::integral_constant<separation_weighting, equal>{});
    case by_radius:
        return body(std::integral_constant<separation_weighting, by_radius>{});
    case inverse_mass:
        break;
    }
    return body(std::integral_constant<separation_weighting, inverse_mass>{});
}

} // namespace simdcollide::simd
