// Materials (docs/behaviour.md, "Materials"): each body's friction and restitution, and how a
// contact combines its two bodies' (Box2D's rule). The contacts take theirs when they are
// laid out (colours.hpp); a swept impact takes its pair's.
#pragma once

#include <cmath>
#include <span>

namespace simdcollide::detail {

/// Bodies' friction and restitution, by the numbers a list names them by.
struct material_arrays {
    std::span<const float> friction;
    std::span<const float> restitution;
};

/// The geometric mean of two frictions, rounded once from double: two equal ones give theirs.
[[nodiscard]] inline float combined_friction(float a, float b) noexcept {
    return a == b ? a : static_cast<float>(std::sqrt(static_cast<double>(a) * b));
}

/// The larger of two restitutions.
[[nodiscard]] inline float combined_restitution(float a, float b) noexcept {
    return a > b ? a : b;
}

} // namespace simdcollide::detail
