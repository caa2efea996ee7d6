#include "runtime/arguments.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace simdcollide::detail {

void require_count(const char* kernel, const char* what, std::size_t expected, std::size_t got) {
    if (expected != got) {
        throw std::invalid_argument(std::string("simdcollide::") + kernel + ": " + what + " has " +
                                    std::to_string(got) + " elements, expected " +
                                    std::to_string(expected));
    }
}

void require_fields(const char* kernel, const char* what, std::size_t count,
                    std::initializer_list<const void*> fields) {
    if (count == 0) {
        return;
    }
    for (const void* field : fields) {
        if (field == nullptr) {
            throw std::invalid_argument(std::string("simdcollide::") + kernel + ": " + what +
                                        " has a null array for " + std::to_string(count) +
                                        " elements");
        }
    }
}

void require_apart(const char* kernel, std::initializer_list<array_use> arrays, in_place same) {
    require_apart(kernel, std::span<const array_use>(arrays.begin(), arrays.size()), same);
}

void require_apart(const char* kernel, std::span<const array_use> arrays, in_place same) {
    for (const array_use* w = arrays.data(); w != arrays.data() + arrays.size(); ++w) {
        if (!w->written || w->data == nullptr || w->count == 0) {
            continue;
        }
        const auto w_begin = reinterpret_cast<std::uintptr_t>(w->data);
        const std::uintptr_t w_end = w_begin + w->count * w->element_bytes;
        for (const array_use* o = arrays.data(); o != arrays.data() + arrays.size(); ++o) {
            if (o == w || o->data == nullptr || o->count == 0 || (o->written && o < w)) {
                continue; // two written arrays are compared once
            }
            const auto o_begin = reinterpret_cast<std::uintptr_t>(o->data);
            const std::uintptr_t o_end = o_begin + o->count * o->element_bytes;
            if (w_begin >= o_end || o_begin >= w_end) {
                continue;
            }
            const bool same_array = w_begin == o_begin && w_end == o_end;
            if (same_array && !o->written && same == in_place::allowed) {
                continue;
            }
            throw std::invalid_argument(
                std::string("simdcollide::") + kernel + ": " + w->name + " (written) and " +
                o->name + (o->written ? " (written)" : " (read)") +
                (same_array ? " are the same array" : " overlap in memory") +
                ", and the result would depend on the order of the writes");
        }
    }
}

void require_margin(const char* kernel, float margin) {
    if (!std::isfinite(margin) || margin < 0.0F) {
        throw std::invalid_argument(std::string("simdcollide::") + kernel + ": margin is " +
                                    std::to_string(margin) + ", must be finite and >= 0");
    }
}

void require_pair_list(const char* kernel, std::size_t circles, std::span<const circle_pair> pairs,
                       std::size_t first) {
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const circle_pair p = pairs[k];
        if (p.a >= circles || p.b >= circles || p.a == p.b) {
            throw std::invalid_argument(
                std::string("simdcollide::") + kernel + ": pair " + std::to_string(first + k) +
                " is (" + std::to_string(p.a) + ", " + std::to_string(p.b) + "), but " +
                (p.a == p.b ? std::string("a circle cannot be paired with itself")
                            : "there are " + std::to_string(circles) + " circles"));
        }
    }
}

} // namespace simdcollide::detail
