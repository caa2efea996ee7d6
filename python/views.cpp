#include "views.hpp"

#include <simdcollide/shapes.hpp>

#include <algorithm>
#include <optional>

namespace simdcollide::python {

namespace {

// A field, checked as a float32 array of `count` elements (the first field's length when
// count is empty), or ValueError if it is None where a call needs it.
std::span<float> field(const py::object& value, const char* argument, const char* name, access how,
                       std::optional<std::size_t> count, const char* first) {
    const label full{argument, name};
    if (value.is_none()) {
        throw py::value_error(full.text() + " is None, and this call " +
                              (how == access::write ? "writes" : "reads") + " it");
    }
    const std::span<float> data = float_array(value, full, how);
    if (count) {
        check_length(data.size(), full, *count, label{argument, first});
    }
    return data;
}

float* optional_field(const py::object& value, const char* argument, const char* name, access how,
                      std::size_t count, bool needed) {
    if (!needed) {
        return nullptr;
    }
    return field(value, argument, name, how, count, "x").data();
}

// Checks every field that is not None as a float32 array as long as the first.
void check_fields(const char* type, std::initializer_list<std::pair<const char*, py::object>> all) {
    std::optional<std::size_t> count;
    const char* first = all.begin()->first;
    for (const auto& [name, value] : all) {
        if (value.is_none() && count) {
            continue;
        }
        count = field(value, type, name, access::read, count, first).size();
    }
}

std::size_t length_of(const py::object& first, const char* name) {
    return float_array(first, name, access::read).size();
}

} // namespace

std::size_t circles_arrays::size() const {
    return length_of(x, "x");
}
std::size_t boxes_arrays::size() const {
    return length_of(min_x, "min_x");
}
std::size_t contacts_arrays::size() const {
    return length_of(normal_x, "normal_x");
}

contacts_arrays contacts_arrays::zeros(std::size_t n) {
    const auto zero = [n] {
        py::array_t<float> a = new_floats(n);
        std::fill_n(a.mutable_data(), n, 0.0F);
        return py::object(a);
    };
    return {zero(), zero(), zero(), zero(), zero()};
}

circles_cview read_circles(const circles_arrays& c, const char* argument, bool radius_needed) {
    const std::span<float> x = field(c.x, argument, "x", access::read, std::nullopt, "x");
    const std::span<float> y = field(c.y, argument, "y", access::read, x.size(), "x");
    const float* radius = optional_field(c.radius, argument, "radius", access::read, x.size(),
                                         radius_needed || !c.radius.is_none());
    return {x.data(), y.data(), radius, x.size()};
}

circles_view write_centres(const circles_arrays& c, const char* argument) {
    const std::span<float> x = field(c.x, argument, "x", access::write, std::nullopt, "x");
    const std::span<float> y = field(c.y, argument, "y", access::write, x.size(), "x");
    const std::span<float> radius =
        field(c.radius, argument, "radius", access::read, x.size(), "x");
    return {x.data(), y.data(), radius.data(), x.size()};
}

particles_view particles_for(const particles_arrays& p, const char* argument, particle_fields reads,
                             particle_fields writes) {
    const auto how = [](bool written) { return written ? access::write : access::read; };
    const std::span<float> x = field(p.x, argument, "x", how(writes.centres), std::nullopt, "x");
    const std::size_t n = x.size();
    const bool centres = reads.centres || writes.centres;
    const bool velocity = reads.velocity || writes.velocity;
    float* y = optional_field(p.y, argument, "y", how(writes.centres), n, centres);
    return {centres ? x.data() : nullptr,
            y,
            optional_field(p.radius, argument, "radius", access::read, n, reads.radius),
            optional_field(p.inverse_mass, argument, "inverse_mass", access::read, n,
                           reads.inverse_mass),
            optional_field(p.vx, argument, "vx", how(writes.velocity), n, velocity),
            optional_field(p.vy, argument, "vy", how(writes.velocity), n, velocity),
            n};
}

aabbs_view read_boxes(const boxes_arrays& b, const char* argument) {
    const std::span<float> min_x =
        field(b.min_x, argument, "min_x", access::read, std::nullopt, "min_x");
    const std::size_t n = min_x.size();
    return {min_x.data(), field(b.min_y, argument, "min_y", access::read, n, "min_x").data(),
            field(b.max_x, argument, "max_x", access::read, n, "min_x").data(),
            field(b.max_y, argument, "max_y", access::read, n, "min_x").data(), n};
}

box_bodies_view write_box_bodies(const box_bodies_arrays& b, const char* argument) {
    const std::span<float> min_x =
        field(b.min_x, argument, "min_x", access::write, std::nullopt, "min_x");
    const std::size_t n = min_x.size();
    return {min_x.data(),
            field(b.min_y, argument, "min_y", access::write, n, "min_x").data(),
            field(b.max_x, argument, "max_x", access::write, n, "min_x").data(),
            field(b.max_y, argument, "max_y", access::write, n, "min_x").data(),
            field(b.inverse_mass, argument, "inverse_mass", access::read, n, "min_x").data(),
            n};
}

contacts_view write_contacts(const contacts_arrays& c, const char* argument, access how) {
    const auto f = [&](const py::object& v, const char* name, std::optional<std::size_t> n) {
        return field(v, argument, name, how, n, "normal_x");
    };
    const std::span<float> nx = f(c.normal_x, "normal_x", std::nullopt);
    const std::size_t n = nx.size();
    return {nx.data(),
            f(c.normal_y, "normal_y", n).data(),
            f(c.depth, "depth", n).data(),
            f(c.point_x, "point_x", n).data(),
            f(c.point_y, "point_y", n).data(),
            n};
}

contacts_cview read_contacts(const contacts_arrays& c, const char* argument) {
    return write_contacts(c, argument, access::read);
}

boxes_arrays copy_of(aabbs_view boxes) {
    const auto copy = [n = boxes.count](const float* from) {
        py::array_t<float> a = new_floats(n);
        std::copy_n(from, n, a.mutable_data());
        return py::object(a);
    };
    return {copy(boxes.min_x), copy(boxes.min_y), copy(boxes.max_x), copy(boxes.max_y)};
}

void bind_views(py::module_& m) {
    const py::object none = py::none();
    m.def(
        "empty", [](std::size_t n) { return new_floats(n); }, py::arg("n"),
        "A new float32 array of n elements, not initialised, starting on a 64-byte boundary: "
        "the kernels run fastest on arrays so aligned (numpy's own start on 16 bytes).");
    m.def(
        "zeros",
        [](std::size_t n) {
            py::array_t<float> a = new_floats(n);
            std::fill_n(a.mutable_data(), n, 0.0F);
            return a;
        },
        py::arg("n"), "As empty, filled with zeros.");
    py::class_<circles_arrays>(m, "Circles", R"(Circles: centres (x, y) and radii, each a
one-dimensional float32 numpy array of the same length, used in place (nothing is copied).
radius may be None for the kernels that read centres only.)")
        .def(py::init([](py::object x, py::object y, py::object radius) {
                 check_fields("Circles", {{"x", x}, {"y", y}, {"radius", radius}});
                 return circles_arrays{std::move(x), std::move(y), std::move(radius)};
             }),
             py::arg("x"), py::arg("y"), py::arg("radius") = none)
        .def_readonly("x", &circles_arrays::x)
        .def_readonly("y", &circles_arrays::y)
        .def_readonly("radius", &circles_arrays::radius)
        .def("__len__", &circles_arrays::size);

    py::class_<particles_arrays, circles_arrays>(m, "Particles", R"(Circles that move: centres,
radii, inverse masses (0: static) and velocities, each a one-dimensional float32 numpy array
of the same length, used in place. Fields a kernel does not read may be None. A Particles is
a Circles.)")
        .def(py::init([](py::object x, py::object y, py::object radius, py::object inverse_mass,
                         py::object vx, py::object vy) {
                 check_fields("Particles", {{"x", x},
                                            {"y", y},
                                            {"radius", radius},
                                            {"inverse_mass", inverse_mass},
                                            {"vx", vx},
                                            {"vy", vy}});
                 particles_arrays p;
                 p.x = std::move(x);
                 p.y = std::move(y);
                 p.radius = std::move(radius);
                 p.inverse_mass = std::move(inverse_mass);
                 p.vx = std::move(vx);
                 p.vy = std::move(vy);
                 return p;
             }),
             py::arg("x"), py::arg("y"), py::arg("radius") = none, py::arg("inverse_mass") = none,
             py::arg("vx") = none, py::arg("vy") = none)
        .def_readonly("inverse_mass", &particles_arrays::inverse_mass)
        .def_readonly("vx", &particles_arrays::vx)
        .def_readonly("vy", &particles_arrays::vy);

    py::class_<boxes_arrays>(m, "Boxes", R"(Axis-aligned boxes [min_x, max_x] x [min_y, max_y],
each field a one-dimensional float32 numpy array of the same length, used in place.)")
        .def(py::init([](py::object min_x, py::object min_y, py::object max_x, py::object max_y) {
                 check_fields(
                     "Boxes",
                     {{"min_x", min_x}, {"min_y", min_y}, {"max_x", max_x}, {"max_y", max_y}});
                 return boxes_arrays{std::move(min_x), std::move(min_y), std::move(max_x),
                                     std::move(max_y)};
             }),
             py::arg("min_x"), py::arg("min_y"), py::arg("max_x"), py::arg("max_y"))
        .def_readonly("min_x", &boxes_arrays::min_x)
        .def_readonly("min_y", &boxes_arrays::min_y)
        .def_readonly("max_x", &boxes_arrays::max_x)
        .def_readonly("max_y", &boxes_arrays::max_y)
        .def("__len__", &boxes_arrays::size);

    py::class_<box_bodies_arrays, boxes_arrays>(m, "BoxBodies", R"(Boxes that a kernel may move:
bounds as in Boxes and inverse masses (0: static, never moved), each a one-dimensional float32
numpy array of the same length, used in place. A BoxBodies is a Boxes.)")
        .def(py::init([](py::object min_x, py::object min_y, py::object max_x, py::object max_y,
                         py::object inverse_mass) {
                 check_fields("BoxBodies", {{"min_x", min_x},
                                            {"min_y", min_y},
                                            {"max_x", max_x},
                                            {"max_y", max_y},
                                            {"inverse_mass", inverse_mass}});
                 box_bodies_arrays b;
                 b.min_x = std::move(min_x);
                 b.min_y = std::move(min_y);
                 b.max_x = std::move(max_x);
                 b.max_y = std::move(max_y);
                 b.inverse_mass = std::move(inverse_mass);
                 return b;
             }),
             py::arg("min_x"), py::arg("min_y"), py::arg("max_x"), py::arg("max_y"),
             py::arg("inverse_mass"))
        .def_readonly("inverse_mass", &box_bodies_arrays::inverse_mass);

    py::class_<contacts_arrays>(m, "Contacts", R"(Contacts, as the contact kernels write them:
unit normal (normal_x, normal_y) from the first shape towards the second, penetration depth
(positive when overlapping) and contact point (point_x, point_y); all five 0 for a pair not
in contact. Each a one-dimensional float32 numpy array of the same length, used in place.)")
        .def(py::init(
                 [](py::object nx, py::object ny, py::object depth, py::object px, py::object py_) {
                     check_fields("Contacts", {{"normal_x", nx},
                                               {"normal_y", ny},
                                               {"depth", depth},
                                               {"point_x", px},
                                               {"point_y", py_}});
                     return contacts_arrays{std::move(nx), std::move(ny), std::move(depth),
                                            std::move(px), std::move(py_)};
                 }),
             py::arg("normal_x"), py::arg("normal_y"), py::arg("depth"), py::arg("point_x"),
             py::arg("point_y"))
        .def_static("zeros", &contacts_arrays::zeros, py::arg("n"),
                    "n contacts, every field a new float32 array of zeros.")
        .def_readonly("normal_x", &contacts_arrays::normal_x)
        .def_readonly("normal_y", &contacts_arrays::normal_y)
        .def_readonly("depth", &contacts_arrays::depth)
        .def_readonly("point_x", &contacts_arrays::point_x)
        .def_readonly("point_y", &contacts_arrays::point_y)
        .def("__len__", &contacts_arrays::size);

    py::class_<aabb>(m, "AABB", "One axis-aligned box, for the kernels' one-box forms.")
        .def(py::init([](float min_x, float min_y, float max_x, float max_y) {
                 return aabb::from_min_max(min_x, min_y, max_x, max_y);
             }),
             py::arg("min_x"), py::arg("min_y"), py::arg("max_x"), py::arg("max_y"))
        .def_readwrite("min_x", &aabb::min_x)
        .def_readwrite("min_y", &aabb::min_y)
        .def_readwrite("max_x", &aabb::max_x)
        .def_readwrite("max_y", &aabb::max_y)
        .def("__repr__", [](const aabb& b) {
            return "AABB(" + std::to_string(b.min_x) + ", " + std::to_string(b.min_y) + ", " +
                   std::to_string(b.max_x) + ", " + std::to_string(b.max_y) + ")";
        });
}

} // namespace simdcollide::python
