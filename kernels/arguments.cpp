#include "arguments.hpp"

#include <cmath>
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

void require_margin(const char* kernel, float margin) {
    if (!std::isfinite(margin) || margin < 0.0F) {
        throw std::invalid_argument(std::string("simdcollide::") + kernel + ": margin is " +
                                    std::to_string(margin) + ", must be finite and >= 0");
    }
}

} // namespace simdcollide::detail
