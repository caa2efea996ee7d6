// The pairwise kernels and the pair-list kernels on numpy arrays: circle against box, circle
// against circle, velocity response, swept circles. The same functions are defined twice, on the
// module (the active instruction set) and on its `reference` submodule (the scalar reference).
#pragma once

#include <pybind11/pybind11.h>

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <string>

namespace simdcollide::python {

namespace py = pybind11;

/// "inverse_mass", "equal" or "by_radius"; ValueError for anything else.
[[nodiscard]] separation_weighting weighting_from(const std::string& name);

/// The SeparationWorkspace given as `workspace=`, or null for None.
[[nodiscard]] separation_workspace* workspace_of(const py::object& w);

/// The moves of a sweep: float32 arrays dx and dy of n elements each, read in place.
[[nodiscard]] displacements_cview read_moves(py::handle dx, py::handle dy, std::size_t n);

/// A sweep's outputs: the arrays given, or new ones of n floats where None, and the view
/// that writes them.
struct impact_outputs {
    py::object time, normal_x, normal_y;
    impacts_view view;
};
[[nodiscard]] impact_outputs impacts_output(py::object time, py::object normal_x,
                                            py::object normal_y, std::size_t n);

void bind_dispatched_kernels(py::module_& m);
void bind_reference_kernels(py::module_& m);

} // namespace simdcollide::python
