// The pairwise kernels and the pair-list kernels on numpy arrays: circle against box, circle
// against circle, velocity response. The same functions are defined twice, on the module
// (the active instruction set) and on its `reference` submodule (the scalar reference).
#pragma once

#include <pybind11/pybind11.h>

#include <simdcollide/circle_circle.hpp>

#include <string>

namespace simdcollide::python {

namespace py = pybind11;

/// "inverse_mass", "equal" or "by_radius"; ValueError for anything else.
[[nodiscard]] separation_weighting weighting_from(const std::string& name);

void bind_dispatched_kernels(py::module_& m);
void bind_reference_kernels(py::module_& m);

} // namespace simdcollide::python
