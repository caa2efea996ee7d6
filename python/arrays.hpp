// The numpy arrays a caller hands in, checked and used where they lie.
//
// A kernel reads and writes the caller's own memory, so an array it could only use through a
// copy (another dtype, a stride, another shape, read-only where it writes) is refused with a
// TypeError or ValueError naming it, before anything is written: a silent copy would throw
// the kernel's results away.
#pragma once

#include <simdcollide/soa.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace simdcollide::python {

namespace py = pybind11;

/// An argument's name in error messages, such as "out", or "circles.x" for a field of a
/// view: put together only when an error is raised, so that a call pays nothing for it.
struct label {
    const char* argument;
    const char* field = nullptr;
    label(const char* argument_, const char* field_ = nullptr) // NOLINT: from a plain name
        : argument(argument_), field(field_) {}
    [[nodiscard]] std::string text() const;
};

/// Whether a kernel only reads an array or also writes it.
enum class access { read, write };

/// `value` as float32 elements: a one-dimensional, C-contiguous, aligned numpy array of
/// float32 in the machine's byte order, writable if `how` is write. Else TypeError (not an
/// array, another dtype) or ValueError (shape, layout, read-only), naming `name`.
[[nodiscard]] std::span<float> float_array(py::handle value, label name, access how);

/// The same for a mask of uint8 or bool, as the overlap kernels write.
[[nodiscard]] std::span<std::uint8_t> mask_array(py::handle value, label name, access how);

/// `value` as circle pairs: a C-contiguous numpy array of uint32 of shape (n, 2), row k
/// being pair k's (a, b), read in place.
[[nodiscard]] std::span<const circle_pair> pair_array(py::handle value, label name);

/// `value` as the bound C++ class T (a Contacts, a SeparationWorkspace), or TypeError
/// naming `name` and the class wanted.
template <class T>
[[nodiscard]] T& object_of(py::handle value, const char* name, const char* wanted) {
    if (!py::isinstance<T>(value)) {
        throw py::type_error(
            std::string(name) + " must be a " + wanted + ", not " +
            py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>());
    }
    return value.cast<T&>();
}

/// ValueError unless `length` is `expected`, naming both arrays.
void check_length(std::size_t length, label name, std::size_t expected, label expected_name);

/// The alignment new_floats gives: a cache line, and the width of an AVX-512 register, so
/// that no vector load or store of the kernels straddles two lines.
inline constexpr std::size_t cache_line = 64;

/// New, uninitialised one-dimensional arrays for outputs; the floats start on a cache line.
[[nodiscard]] py::array_t<float> new_floats(std::size_t n);
[[nodiscard]] py::array_t<std::uint8_t> new_mask(std::size_t n);

/// A new one-dimensional uint32 array holding `values`.
[[nodiscard]] py::array_t<std::uint32_t> uint32_array(std::span<const std::uint32_t> values);

/// A new (n, 2) uint32 array holding `pairs`.
[[nodiscard]] py::array_t<std::uint32_t> pairs_to_array(std::span<const circle_pair> pairs);

/// A one-dimensional float32 array over `count` floats at `data`, owned by `owner` (kept
/// alive as the array's base), writable or not.
[[nodiscard]] py::array floats_over(float* data, std::size_t count, py::handle owner, access how);

} // namespace simdcollide::python
