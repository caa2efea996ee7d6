// Input validation. Kernels do not validate (that is the fast path); call these once where
// data enters the simulation. On invalid input a kernel never crashes and never reads or
// writes out of bounds, and the invalid element's own results are unspecified. What else
// it can change: in a pairwise kernel (element i of one view against element i of another)
// nothing; in a kernel over a pair list, the pairs it is in and, through them, the circles
// it is paired with (circle_circle.hpp says how far that reaches for each kernel).
#pragma once

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <string>

namespace simdcollide {

/// The outcome of a validation: either valid, or the first invalid element and why.
struct validation {
    bool valid = true;
    std::size_t index = 0; ///< the first invalid element (meaningful only when !valid)
    std::string reason;    ///< e.g. "circle 17: radius is -1, must be >= 0"

    explicit operator bool() const noexcept { return valid; }
};

/// Checks every circle: finite centre, finite radius, radius >= 0. A null radius array
/// checks the centres alone. Throws std::invalid_argument for a null x or y array with a
/// non-zero count.
[[nodiscard]] validation validate(circles_cview circles);

/// Checks every box: finite corners, min_x <= max_x, min_y <= max_y. Throws
/// std::invalid_argument for a null array with a non-zero count.
[[nodiscard]] validation validate(aabbs_view boxes);

/// Checks every particle: what validate(circles_cview) checks, then a finite inverse mass
/// >= 0 and a finite velocity, in that order for each particle. Fields that are null are
/// not checked (a kernel that does not read them accepts null), except x and y: throws
/// std::invalid_argument for a null x or y array with a non-zero count.
[[nodiscard]] validation validate(particles_view particles);

/// Checks a contact margin: finite and >= 0.
[[nodiscard]] validation validate_margin(float margin);

} // namespace simdcollide
