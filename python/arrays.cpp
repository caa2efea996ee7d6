#include "arrays.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace simdcollide::python {

std::string label::text() const {
    return field == nullptr ? std::string(argument) : std::string(argument) + "." + field;
}

namespace {

// numpy's type numbers and flags (numpy/ndarraytypes.h), as pybind11 names them.
using npy = py::detail::npy_api;
constexpr int c_contiguous = npy::NPY_ARRAY_C_CONTIGUOUS_;
constexpr int aligned = npy::NPY_ARRAY_ALIGNED_;
constexpr int writeable = npy::NPY_ARRAY_WRITEABLE_;

const py::detail::PyArrayDescr_Proxy& descriptor_of(PyObject* array) {
    return *py::detail::array_descriptor_proxy(py::detail::array_proxy(array)->descr);
}

// '=' native, '|' not applicable (one byte), '<' or '>' explicit.
bool native_order(char byteorder) {
    constexpr char native = (std::endian::native == std::endian::little) ? '<' : '>';
    return byteorder == '=' || byteorder == '|' || byteorder == native;
}

std::string dtype_name(py::handle array) {
    return py::str(py::reinterpret_borrow<py::array>(array).dtype()).cast<std::string>();
}

std::string type_name(py::handle value) {
    return py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>();
}

// The checks every array shares: an ndarray of the element types allowed, `dims`
// dimensions, C-contiguous, aligned, in the machine's byte order, writable if written.
// Returns the array's proxy.
const py::detail::PyArray_Proxy& checked(py::handle value, label name,
                                         std::initializer_list<int> type_numbers,
                                         const char* wanted, int dims, access how) {
    if (!py::isinstance<py::array>(value)) {
        throw py::type_error(name.text() + " must be a numpy array of " + wanted + ", not " +
                             type_name(value));
    }
    const auto& array = *py::detail::array_proxy(value.ptr());
    const auto& descr = descriptor_of(value.ptr());
    bool type_ok = false;
    for (int t : type_numbers) {
        type_ok = type_ok || descr.type_num == t;
    }
    if (!type_ok || !native_order(descr.byteorder)) {
        throw py::type_error(name.text() + " must be an array of " + wanted + ", not " +
                             dtype_name(value) + " (no copy is made: convert it first)");
    }
    if (array.nd != dims) {
        throw py::value_error(name.text() + " must be " + std::to_string(dims) +
                              "-dimensional, not " + std::to_string(array.nd) + "-dimensional");
    }
    if ((array.flags & c_contiguous) == 0) {
        throw py::value_error(name.text() +
                              " must be C-contiguous (no copy is made: pass "
                              "numpy.ascontiguousarray of it, and read results from that)");
    }
    if ((array.flags & aligned) == 0) {
        throw py::value_error(name.text() + " must be aligned to its element size");
    }
    if (how == access::write && (array.flags & writeable) == 0) {
        throw py::value_error(name.text() + " is read-only, and this call writes it");
    }
    return array;
}

} // namespace

std::span<float> float_array(py::handle value, label name, access how) {
    const auto& array = checked(value, name, {npy::NPY_FLOAT_}, "float32", 1, how);
    return {reinterpret_cast<float*>(array.data), static_cast<std::size_t>(array.dimensions[0])};
}

std::span<std::uint8_t> mask_array(py::handle value, label name, access how) {
    const auto& array =
        checked(value, name, {npy::NPY_UBYTE_, npy::NPY_BOOL_}, "uint8 or bool", 1, how);
    return {reinterpret_cast<std::uint8_t*>(array.data),
            static_cast<std::size_t>(array.dimensions[0])};
}

std::span<const circle_pair> pair_array(py::handle value, label name) {
    const auto& array = checked(value, name, {npy::NPY_UINT_}, "uint32", 2, access::read);
    if (array.dimensions[1] != 2) {
        throw py::value_error(
            name.text() + " must have shape (n, 2), one row (a, b) a pair, not (" +
            std::to_string(array.dimensions[0]) + ", " + std::to_string(array.dimensions[1]) + ")");
    }
    static_assert(sizeof(circle_pair) == 2 * sizeof(std::uint32_t));
    return {reinterpret_cast<const circle_pair*>(array.data),
            static_cast<std::size_t>(array.dimensions[0])};
}

void check_length(std::size_t length, label name, std::size_t expected, label expected_name) {
    if (length != expected) {
        throw py::value_error(name.text() + " has " + std::to_string(length) + " elements where " +
                              expected_name.text() + " has " + std::to_string(expected));
    }
}

py::array_t<float> new_floats(std::size_t n) {
    constexpr std::size_t per_line = cache_line / sizeof(float);
    py::array_t<float> buffer(static_cast<py::ssize_t>(n + per_line - 1));
    const auto at = reinterpret_cast<std::uintptr_t>(buffer.data());
    const std::size_t skip = ((cache_line - at % cache_line) % cache_line) / sizeof(float);
    return py::array_t<float>({static_cast<py::ssize_t>(n)}, {}, buffer.mutable_data() + skip,
                              buffer);
}

py::array_t<std::uint8_t> new_mask(std::size_t n) {
    return py::array_t<std::uint8_t>(static_cast<py::ssize_t>(n));
}

py::array_t<std::uint32_t> uint32_array(std::span<const std::uint32_t> values) {
    py::array_t<std::uint32_t> out(static_cast<py::ssize_t>(values.size()));
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

py::array_t<std::uint32_t> pairs_to_array(std::span<const circle_pair> pairs) {
    py::array_t<std::uint32_t> out({static_cast<py::ssize_t>(pairs.size()), py::ssize_t{2}});
    if (!pairs.empty()) {
        std::memcpy(out.mutable_data(), pairs.data(), pairs.size_bytes());
    }
    return out;
}

py::array floats_over(float* data, std::size_t count, py::handle owner, access how) {
    py::array out(py::dtype::of<float>(), {static_cast<py::ssize_t>(count)}, {}, data, owner);
    if (how == access::read) {
        py::detail::array_proxy(out.ptr())->flags &= ~writeable;
    }
    return out;
}

} // namespace simdcollide::python
