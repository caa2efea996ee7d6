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

/// One array a kernel reads or writes: its name in messages, where it starts, its elements
/// and their size, and whether the kernel writes it. A null array (count 0, or a field the
/// kernel does not use) takes part in nothing.
struct array_use {
    const char* name;
    const void* data;
    std::size_t count;
    std::size_t element_bytes;
    bool written;
};

/// An array of `count` floats the kernel reads, or writes.
inline array_use reads(const char* name, const float* data, std::size_t count) {
    return {name, data, count, sizeof(float), false};
}
inline array_use writes(const char* name, const float* data, std::size_t count) {
    return {name, data, count, sizeof(float), true};
}

/// Whether an array the kernel writes may be the very array it reads (the same start and
/// length): elementwise kernels read an element's inputs before writing its outputs, so that
/// is in place; kernels over pair lists read circles by index, and may not.
enum class in_place { allowed, refused };

/// No array among `arrays` that the kernel writes shares memory with another: two written
/// arrays never, a written and a read one only where both are the same array and `same`
/// allows it. Otherwise the results would depend on the order of the writes, which differs
/// between instruction sets. O(arrays^2): a few dozen comparisons, whatever the counts.
void require_apart(const char* kernel, std::initializer_list<array_use> arrays, in_place same);
void require_apart(const char* kernel, std::span<const array_use> arrays, in_place same);

/// A contact margin must be finite and >= 0.
void require_margin(const char* kernel, float margin);

/// Every index of `pairs` below `circles`, and no circle paired with itself (one pass,
/// before anything is written). `pairs` may be part of a list that starts `first` pairs
/// earlier: the error names a pair by its place in that list.
void require_pair_list(const char* kernel, std::size_t circles, std::span<const circle_pair> pairs,
                       std::size_t first = 0);

} // namespace simdcollide::detail
