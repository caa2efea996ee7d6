// The broad phases and separation in order on numpy arrays: StaticBoxGrid and push_out_all,
// PairFinder, PairGrouper and separate_in_order, with their references; the workspace the
// pair-list kernels reuse; validation.
#pragma once

#include <pybind11/pybind11.h>

namespace simdcollide::python {

namespace py = pybind11;

/// Defines the classes and functions on `m`, and their references on `reference`.
void bind_broad_phase(py::module_& m, py::module_& reference);

} // namespace simdcollide::python
