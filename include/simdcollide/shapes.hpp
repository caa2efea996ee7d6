// Single shapes, for building sets one element at a time. Kernels never take these: they
// take the structure-of-arrays views in soa.hpp.
#pragma once

namespace simdcollide {

/// A circle: centre `(x, y)` and `radius >= 0` (0 is a point particle), in length units.
struct circle {
    float x = 0;
    float y = 0;
    float radius = 0;
};

/// An axis-aligned box, the closed rectangle `[min_x, max_x] x [min_y, max_y]`.
/// Valid when every value is finite and `min <= max` on both axes (see validate.hpp).
struct aabb {
    float min_x = 0;
    float min_y = 0;
    float max_x = 0;
    float max_y = 0;

    /// The box with corners `(min_x, min_y)` and `(max_x, max_y)`, stored as given.
    static constexpr aabb from_min_max(float min_x, float min_y, float max_x,
                                       float max_y) noexcept {
        return {min_x, min_y, max_x, max_y};
    }

    /// The origin-and-size form: origin corner `(x, y)`, width `w` and height `h` extending towards
    /// +x and +y, so `min = (x, y)` and `max = (x + w, y + h)` (rounded once each, in float).
    /// `w` and `h` should be `>= 0`; a negative one makes an inverted, invalid box.
    static constexpr aabb from_origin_size(float x, float y, float w, float h) noexcept {
        return {x, y, x + w, y + h};
    }
};

} // namespace simdcollide
