// Input validation. Kernels do not validate (that is the fast path); call these once where
// data enters the simulation. On invalid input a kernel never crashes and never reads or
// writes out of bounds, and no other element's result changes, but the invalid element's
// own results are unspecified.
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

/// Checks every circle: finite centre, finite radius, radius >= 0.
[[nodiscard]] validation validate(circles_cview circles);

/// Checks every box: finite corners, min_x <= max_x, min_y <= max_y.
[[nodiscard]] validation validate(aabbs_view boxes);

/// Checks a contact margin: finite and >= 0.
[[nodiscard]] validation validate_margin(float margin);

} // namespace simdcollide
