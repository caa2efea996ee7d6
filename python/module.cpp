// The Python module simdcollide: the kernels, broad phases and world on numpy arrays, in
// place. docs/python.md describes it.
#include "broad_phase.hpp"
#include "kernels.hpp"
#include "views.hpp"
#include "world.hpp"

#include <simdcollide/dispatch.hpp>
#include <simdcollide/version.hpp>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace {

simdcollide::isa isa_named(const std::string& name) {
    const auto which = simdcollide::isa_from_name(name);
    if (!which) {
        throw py::value_error("unknown instruction set '" + name +
                              "': one of reference, sse2, avx2, avx512, neon");
    }
    return *which;
}

std::vector<std::string> names_of(const std::vector<simdcollide::isa>& all) {
    std::vector<std::string> out;
    for (simdcollide::isa which : all) {
        out.emplace_back(simdcollide::isa_name(which));
    }
    return out;
}

void bind_isa(py::module_& m) {
    py::register_exception<simdcollide::isa_unavailable>(m, "IsaUnavailable", PyExc_RuntimeError);
    m.def(
        "active_isa", [] { return std::string(simdcollide::isa_name(simdcollide::active_isa())); },
        "The instruction set the kernels run now ('reference', 'sse2', 'avx2', 'avx512' or "
        "'neon').");
    m.def(
        "set_isa", [](const std::string& name) { simdcollide::set_isa(isa_named(name)); },
        py::arg("name"),
        "Runs every later kernel call, from C++ and Python, on that instruction set. Raises "
        "IsaUnavailable if this build or CPU lacks it.");
    m.def("reset_isa", &simdcollide::reset_isa,
          "Forgets set_isa: the next call chooses the widest supported set again.");
    m.def(
        "compiled_isas", [] { return names_of(simdcollide::compiled_isas()); },
        "The instruction sets this build contains, reference first.");
    m.def(
        "supported_isas",
        [] {
            std::vector<simdcollide::isa> supported;
            for (simdcollide::isa which : simdcollide::compiled_isas()) {
                if (simdcollide::isa_supported(which)) {
                    supported.push_back(which);
                }
            }
            return names_of(supported);
        },
        "The compiled instruction sets this CPU runs: every one gives the same bits.");
    m.def(
        "best_isa", [] { return std::string(simdcollide::isa_name(simdcollide::best_isa())); },
        "The widest supported instruction set.");
    m.def(
        "lane_count",
        [](const std::string& name) { return simdcollide::lane_count(isa_named(name)); },
        py::arg("name"), "Floats per vector register for that instruction set.");
}

} // namespace

PYBIND11_MODULE(simdcollide, m) {
    m.doc() = "SIMD collision kernels for 2D circles and axis-aligned boxes, on numpy arrays "
              "in place, and a particle world.";
    m.attr("__version__") = SIMDCOLLIDE_VERSION_STRING;
    py::module_ reference = m.def_submodule(
        "reference", "The scalar reference of every kernel: the definition of the results.");
    // So that `import simdcollide.reference` works as well as the attribute.
    py::module_::import("sys").attr("modules")["simdcollide.reference"] = reference;

    bind_isa(m);
    simdcollide::python::bind_views(m);
    simdcollide::python::bind_dispatched_kernels(m);
    simdcollide::python::bind_reference_kernels(reference);
    simdcollide::python::bind_broad_phase(m, reference);
    simdcollide::python::bind_world(m);
}
