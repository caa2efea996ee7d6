// How the particle world refuses what it cannot take: std::invalid_argument naming the
// world, with numbers as %g writes them.
#pragma once

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace simdcollide::detail {

[[noreturn]] inline void refuse(const std::string& what) {
    throw std::invalid_argument("simdcollide::particle_world: " + what);
}

// std::out_of_range unless index < count, naming the call and the count of `what`.
inline void require_index(const char* call, std::size_t index, std::size_t count,
                          const char* what) {
    if (index >= count) {
        throw std::out_of_range("simdcollide::particle_world: " + std::string(call) + "(" +
                                std::to_string(index) + ") with " + std::to_string(count) + " " +
                                what);
    }
}

// A float as %g writes it (std::to_string writes 1e-9 as 0.000000).
inline std::string number(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

} // namespace simdcollide::detail
