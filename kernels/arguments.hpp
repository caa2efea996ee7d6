// Argument checks shared by every public kernel entry point. Each throws
// std::invalid_argument with a message that names the kernel and the offending argument,
// before the kernel writes anything.
#pragma once

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <initializer_list>
#include <span>

namespace simdcollide::detail {

/// `got` elements where `expected` are needed, e.g. boxes.count against circles.count.
void require_count(const char* kernel, const char* what, std::size_t expected, std::size_t got);

/// No null pointer among `fields` when `count > 0`.
void require_fields(const char* kernel, const char* what, std::size_t count,
                    std::initializer_list<const void*> fields);

/// A contact margin must be finite and >= 0.
void require_margin(const char* kernel, float margin);

/// Every index of `pairs` below `circles`, and no circle paired with itself (one pass,
/// before anything is written). `pairs` may be part of a list that starts `first` pairs
/// earlier: the error names a pair by its place in that list.
void require_pair_list(const char* kernel, std::size_t circles, std::span<const circle_pair> pairs,
                       std::size_t first = 0);

} // namespace simdcollide::detail
