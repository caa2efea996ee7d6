// validate(): the first element that breaks docs/behaviour.md's validity rules, and why.
#include <simdcollide/validate.hpp>

#include "runtime/arguments.hpp"

#include <cmath>
#include <sstream>

namespace simdcollide {
namespace {

validation invalid(const char* what, std::size_t index, const std::string& why) {
    std::ostringstream message;
    message << what << ' ' << index << ": " << why;
    return {false, index, message.str()};
}

std::string describe(const char* field, float value, const char* rule) {
    std::ostringstream out;
    out << field << " is " << value << ", must be " << rule;
    return out.str();
}

// Why circle i of c is invalid, or nothing (a null radius array is not checked).
std::string circle_problem(circles_cview c, std::size_t i) {
    if (!std::isfinite(c.x[i])) {
        return describe("x", c.x[i], "finite");
    }
    if (!std::isfinite(c.y[i])) {
        return describe("y", c.y[i], "finite");
    }
    if (c.radius != nullptr) {
        if (!std::isfinite(c.radius[i])) {
            return describe("radius", c.radius[i], "finite");
        }
        if (c.radius[i] < 0.0F) {
            return describe("radius", c.radius[i], ">= 0");
        }
    }
    return {};
}

} // namespace

validation validate(circles_cview c) {
    detail::require_fields("validate", "circles", c.count, {c.x, c.y});
    for (std::size_t i = 0; i < c.count; ++i) {
        if (std::string why = circle_problem(c, i); !why.empty()) {
            return invalid("circle", i, why);
        }
    }
    return {};
}

validation validate(aabbs_view b) {
    detail::require_fields("validate", "boxes", b.count, {b.min_x, b.min_y, b.max_x, b.max_y});
    for (std::size_t i = 0; i < b.count; ++i) {
        const float fields[] = {b.min_x[i], b.min_y[i], b.max_x[i], b.max_y[i]};
        const char* names[] = {"min_x", "min_y", "max_x", "max_y"};
        for (int f = 0; f < 4; ++f) {
            if (!std::isfinite(fields[f])) {
                return invalid("box", i, describe(names[f], fields[f], "finite"));
            }
        }
        if (b.min_x[i] > b.max_x[i]) {
            std::ostringstream why;
            why << "min_x " << b.min_x[i] << " > max_x " << b.max_x[i] << " (inverted)";
            return invalid("box", i, why.str());
        }
        if (b.min_y[i] > b.max_y[i]) {
            std::ostringstream why;
            why << "min_y " << b.min_y[i] << " > max_y " << b.max_y[i] << " (inverted)";
            return invalid("box", i, why.str());
        }
    }
    return {};
}

validation validate(particles_view p) {
    detail::require_fields("validate", "particles", p.count, {p.x, p.y});
    for (std::size_t i = 0; i < p.count; ++i) {
        if (std::string why = circle_problem(p, i); !why.empty()) {
            return invalid("particle", i, why);
        }
        if (p.inverse_mass != nullptr) {
            const float w = p.inverse_mass[i];
            if (!std::isfinite(w)) {
                return invalid("particle", i, describe("inverse_mass", w, "finite"));
            }
            if (w < 0.0F) {
                return invalid("particle", i, describe("inverse_mass", w, ">= 0"));
            }
        }
        if (p.vx != nullptr && !std::isfinite(p.vx[i])) {
            return invalid("particle", i, describe("vx", p.vx[i], "finite"));
        }
        if (p.vy != nullptr && !std::isfinite(p.vy[i])) {
            return invalid("particle", i, describe("vy", p.vy[i], "finite"));
        }
    }
    return {};
}

validation validate_margin(float margin) {
    if (!std::isfinite(margin) || margin < 0.0F) {
        return invalid("margin", 0, describe("margin", margin, "finite and >= 0"));
    }
    return {};
}

} // namespace simdcollide
