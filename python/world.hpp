// The particle world from Python: World(**options), circles added one by one or from
// arrays, static boxes, step(dt) with the GIL released, and the world's fields as numpy
// arrays over its own memory.
#pragma once

#include <pybind11/pybind11.h>

namespace simdcollide::python {

namespace py = pybind11;

void bind_world(py::module_& m);

} // namespace simdcollide::python
