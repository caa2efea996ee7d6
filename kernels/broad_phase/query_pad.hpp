// The pad that keeps a grid query conservative, shared by the grid of circle centres
// (circle_grid.hpp) and the static-box grid (static_boxes.cpp).
#pragma once

#include <cmath>
#include <limits>

namespace simdcollide::detail {

/// How far beyond a reach (r_i + r_j for two circles, r + margin for a circle and a box) a
/// shape can be and still pass the contact test after the float rounding of d^2: a tiny
/// relative pad, so that the square a query looks in is conservative.
inline float query_pad(float x, float y, float reach) {
    return (std::fabs(x) + std::fabs(y) + reach) * 1e-5F + std::numeric_limits<float>::min();
}

} // namespace simdcollide::detail
