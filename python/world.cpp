#include "world.hpp"

#include "arrays.hpp"
#include "kernels.hpp"
#include "views.hpp"

#include <simdcollide/world.hpp>

#include <pybind11/stl.h>

#include <atomic>
#include <climits>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace simdcollide::python {

namespace {

// A world and whether a step of it is running: the GIL is released while it steps, so
// another Python thread could otherwise add circles to it, or step it, meanwhile.
class world_handle {
public:
    explicit world_handle(const world_options& options) : world(options) {}

    particle_world world;

    // Throws RuntimeError if a step is running (in another thread).
    void check_idle(const char* what) const {
        if (stepping_.load()) {
            throw std::runtime_error(std::string("World.") + what +
                                     ": the world is stepping in another thread");
        }
    }

    void step(float dt) {
        bool idle = false;
        if (!stepping_.compare_exchange_strong(idle, true)) {
            throw std::runtime_error("World.step: the world is stepping in another thread");
        }
        struct done {
            std::atomic<bool>& flag;
            ~done() { flag.store(false); }
        } reset{stepping_};
        py::gil_scoped_release nogil;
        world.step(dt);
    }

private:
    std::atomic<bool> stepping_{false};
};

// `value` (an array or anything numpy.asarray takes, or a number repeated n times) as
// float32 values: the world copies what it is given, so a copy here costs nothing more.
py::array_t<float> float_values(const py::handle& value, const char* name,
                                std::optional<std::size_t> n = std::nullopt) {
    auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!a) {
        PyErr_Clear();
        throw py::type_error(std::string(name) + " must be an array of numbers");
    }
    if (n && a.ndim() == 0) { // one number (Python's or numpy's) for every circle
        py::array_t<float> all(static_cast<py::ssize_t>(*n));
        std::fill_n(all.mutable_data(), *n, *a.data());
        return all;
    }
    if (a.ndim() != 1) {
        throw py::value_error(std::string(name) + " must be one-dimensional, not " +
                              std::to_string(a.ndim()) + "-dimensional");
    }
    if (n) {
        check_length(static_cast<std::size_t>(a.size()), name, *n, "x");
    }
    return a;
}

std::span<const float> span_of(const py::array_t<float>& a) {
    return {a.data(), static_cast<std::size_t>(a.size())};
}

// A query's shapes as two arrays: their kinds (ShapeKind values) and indices.
py::tuple shapes_to_arrays(const std::vector<shape_ref>& shapes) {
    py::array_t<std::uint8_t> kinds(shapes.size());
    py::array_t<std::uint32_t> indices(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        kinds.mutable_data()[i] = static_cast<std::uint8_t>(shapes[i].kind);
        indices.mutable_data()[i] = shapes[i].index;
    }
    return py::make_tuple(kinds, indices);
}

py::object namespace_of(py::kwargs fields) {
    return py::module_::import("types").attr("SimpleNamespace")(**fields);
}

// Pairs of shapes as arrays a_kind, a_index, b_kind, b_index (into `fields`).
template <class Pairs, class Pair>
py::kwargs pairs_of_shapes(const Pairs& pairs, Pair pair_of) {
    const std::size_t n = pairs.size();
    py::array_t<std::uint8_t> a_kind(n), b_kind(n);
    py::array_t<std::uint32_t> a_index(n), b_index(n);
    for (std::size_t i = 0; i < n; ++i) {
        const shape_pair& p = pair_of(pairs[i]);
        a_kind.mutable_data()[i] = static_cast<std::uint8_t>(p.a.kind);
        a_index.mutable_data()[i] = p.a.index;
        b_kind.mutable_data()[i] = static_cast<std::uint8_t>(p.b.kind);
        b_index.mutable_data()[i] = p.b.index;
    }
    py::kwargs fields;
    fields["a_kind"] = a_kind;
    fields["a_index"] = a_index;
    fields["b_kind"] = b_kind;
    fields["b_index"] = b_index;
    return fields;
}

py::object shape_pairs_namespace(std::span<const shape_pair> pairs) {
    return namespace_of(pairs_of_shapes(pairs, [](const shape_pair& p) { return p; }));
}

py::object hits_namespace(const std::vector<contact_hit>& hits) {
    py::kwargs fields = pairs_of_shapes(hits, [](const contact_hit& h) { return h.shapes; });
    const std::size_t n = hits.size();
    for (const auto& [name, field] :
         {std::pair{"point_x", &contact_hit::point_x}, std::pair{"point_y", &contact_hit::point_y},
          std::pair{"normal_x", &contact_hit::normal_x},
          std::pair{"normal_y", &contact_hit::normal_y}, std::pair{"speed", &contact_hit::speed}}) {
        py::array_t<float> values(n);
        for (std::size_t i = 0; i < n; ++i) {
            values.mutable_data()[i] = hits[i].*field;
        }
        fields[name] = values;
    }
    return namespace_of(fields);
}

py::object sensor_events_namespace(const std::vector<sensor_event>& events) {
    const std::size_t n = events.size();
    py::array_t<std::uint32_t> sensor(n), index(n);
    py::array_t<std::uint8_t> kind(n);
    for (std::size_t i = 0; i < n; ++i) {
        sensor.mutable_data()[i] = events[i].sensor;
        kind.mutable_data()[i] = static_cast<std::uint8_t>(events[i].shape.kind);
        index.mutable_data()[i] = events[i].shape.index;
    }
    py::kwargs fields;
    fields["sensor"] = sensor;
    fields["kind"] = kind;
    fields["index"] = index;
    return namespace_of(fields);
}

// The options as keyword arguments: each named as world_options names it.
world_options options_from(const py::kwargs& kwargs) {
    world_options o;
    // Python's and numpy's numbers alike (anything with __index__, or __float__ for a
    // number), but not bool, whose True would pass for 1.
    const auto as_int = [](const py::handle& v, const std::string& key) {
        if (PyBool_Check(v.ptr()) || PyIndex_Check(v.ptr()) == 0) {
            throw py::type_error("World: " + key + " must be an int");
        }
        return v.cast<long long>();
    };
    const auto as_float = [](const py::handle& v, const std::string& key) {
        if (PyBool_Check(v.ptr()) ||
            (PyIndex_Check(v.ptr()) == 0 && !py::hasattr(v, "__float__"))) {
            throw py::type_error("World: " + key + " must be a number");
        }
        return static_cast<float>(v.cast<double>());
    };
    const auto as_rounds = [&](const py::handle& v, const std::string& key) {
        const long long n = as_int(v, key);
        if (n < INT_MIN || n > INT_MAX) {
            throw py::value_error("World: " + key + " is out of range: " + std::to_string(n));
        }
        return static_cast<int>(n);
    };
    const auto as_bool = [](const py::handle& v, const std::string& key) {
        if (!PyBool_Check(v.ptr()) &&
            !py::isinstance(v, py::module_::import("numpy").attr("bool_"))) {
            throw py::type_error("World: " + key + " must be a bool");
        }
        return v.cast<bool>();
    };
    using setter = std::function<void(const py::handle&, const std::string&)>;
    const std::map<std::string, setter> setters = {
        {"gravity_x", [&](auto& v, auto& k) { o.gravity_x = as_float(v, k); }},
        {"gravity_y", [&](auto& v, auto& k) { o.gravity_y = as_float(v, k); }},
        {"substeps", [&](auto& v, auto& k) { o.substeps = as_rounds(v, k); }},
        {"restitution", [&](auto& v, auto& k) { o.restitution = as_float(v, k); }},
        {"friction", [&](auto& v, auto& k) { o.friction = as_float(v, k); }},
        {"contact_hertz", [&](auto& v, auto& k) { o.contact_hertz = as_float(v, k); }},
        {"contact_damping_ratio",
         [&](auto& v, auto& k) { o.contact_damping_ratio = as_float(v, k); }},
        {"max_push_speed", [&](auto& v, auto& k) { o.max_push_speed = as_float(v, k); }},
        {"restitution_threshold",
         [&](auto& v, auto& k) { o.restitution_threshold = as_float(v, k); }},
        {"relax_iterations", [&](auto& v, auto& k) { o.relax_iterations = as_rounds(v, k); }},
        {"sweep_from", [&](auto& v, auto& k) { o.sweep_from = as_float(v, k); }},
        {"pair_margin", [&](auto& v, auto& k) { o.pair_margin = as_float(v, k); }},
        {"contact_events", [&](auto& v, auto& k) { o.contact_events = as_bool(v, k); }},
        {"hit_speed", [&](auto& v, auto& k) { o.hit_speed = as_float(v, k); }},
        {"sleep", [&](auto& v, auto& k) { o.sleep = as_bool(v, k); }},
        {"sleep_speed", [&](auto& v, auto& k) { o.sleep_speed = as_float(v, k); }},
        {"sleep_time", [&](auto& v, auto& k) { o.sleep_time = as_float(v, k); }},
        {"workers", [&](auto& v, auto& k) { o.workers = as_rounds(v, k); }},
    };
    for (const auto& [key, value] : kwargs) {
        const std::string name = py::str(key);
        const auto it = setters.find(name);
        if (it == setters.end()) {
            throw py::type_error("World() got an unexpected keyword argument '" + name + "'");
        }
        it->second(value, name);
    }
    return o;
}

py::dict options_dict(const world_options& o) {
    py::dict d;
    d["gravity_x"] = o.gravity_x;
    d["gravity_y"] = o.gravity_y;
    d["substeps"] = o.substeps;
    d["restitution"] = o.restitution;
    d["friction"] = o.friction;
    d["contact_hertz"] = o.contact_hertz;
    d["contact_damping_ratio"] = o.contact_damping_ratio;
    d["max_push_speed"] = o.max_push_speed;
    d["restitution_threshold"] = o.restitution_threshold;
    d["relax_iterations"] = o.relax_iterations;
    d["sweep_from"] = o.sweep_from;
    d["pair_margin"] = o.pair_margin;
    d["contact_events"] = o.contact_events;
    d["hit_speed"] = o.hit_speed;
    d["sleep"] = o.sleep;
    d["sleep_speed"] = o.sleep_speed;
    d["sleep_time"] = o.sleep_time;
    d["workers"] = o.workers;
    return d;
}

// A field of the world as an array over its memory, the world kept alive by it.
// The world's fields as arrays over its memory, the world kept alive by them: x, y, vx and
// vy writable, radius and inverse mass read (particles_view has them const).
struct field_of_world {
    const char* name;
    float* (*of)(particles_view);
    access how;
};
constexpr field_of_world world_fields[] = {
    {"x", [](particles_view p) { return p.x; }, access::write},
    {"y", [](particles_view p) { return p.y; }, access::write},
    {"vx", [](particles_view p) { return p.vx; }, access::write},
    {"vy", [](particles_view p) { return p.vy; }, access::write},
    {"radius", [](particles_view p) { return const_cast<float*>(p.radius); }, access::read},
    {"inverse_mass", [](particles_view p) { return const_cast<float*>(p.inverse_mass); },
     access::read},
};

boxes_arrays boxes_from(const py::handle& min_x, const py::handle& min_y, const py::handle& max_x,
                        const py::handle& max_y) {
    py::array_t<float> a = float_values(min_x, "min_x");
    const std::size_t n = static_cast<std::size_t>(a.size());
    return {a, float_values(min_y, "min_y", n), float_values(max_x, "max_x", n),
            float_values(max_y, "max_y", n)};
}

} // namespace

void bind_world(py::module_& m) {
    const py::object none = py::none();
    py::enum_<shape_kind>(m, "ShapeKind",
                          "The kinds of shape a World holds, as its queries order them.")
        .value("CIRCLE", shape_kind::circle)
        .value("STATIC_BOX", shape_kind::static_box)
        .value("KINEMATIC_BOX", shape_kind::kinematic_box)
        .value("DYNAMIC_BOX", shape_kind::dynamic_box)
        .value("NONE", shape_kind::none);
    auto world =
        py::class_<world_handle>(m, "World", R"(A particle world: circles that move, static boxes,
kinematic boxes the host moves and dynamic boxes that fall and stack, stepped in time. World(**options) takes world_options' fields as keyword arguments
(gravity_x, gravity_y, substeps, restitution, friction, contact_hertz,
contact_damping_ratio, max_push_speed, restitution_threshold, relax_iterations, sweep_from,
pair_margin, contact_events, hit_speed, sleep, sleep_speed, sleep_time, workers); out-of-range values
raise ValueError. With workers > 1 the world runs workers - 1 threads of its own.)")
            .def(py::init([](const py::kwargs& kwargs) {
                return std::make_unique<world_handle>(options_from(kwargs));
            }))
            .def_property_readonly(
                "options", [](const world_handle& w) { return options_dict(w.world.options()); })
            .def(
                "add_circle",
                [](world_handle& w, float x, float y, float radius, float inverse_mass, float vx,
                   float vy) {
                    w.check_idle("add_circle");
                    return w.world.add_circle({x, y, radius}, inverse_mass, vx, vy);
                },
                py::arg("x"), py::arg("y"), py::arg("radius"), py::arg("inverse_mass") = 1.0F,
                py::arg("vx") = 0.0F, py::arg("vy") = 0.0F,
                "Adds one circle (inverse_mass 0: static); returns its index.")
            .def(
                "add_circles",
                [](world_handle& w, const py::handle& x_, const py::handle& y_,
                   const py::handle& radius_, const py::handle& inverse_mass_,
                   const py::handle& vx_, const py::handle& vy_) {
                    w.check_idle("add_circles");
                    const py::array_t<float> x = float_values(x_, "x");
                    const std::size_t n = static_cast<std::size_t>(x.size());
                    const py::array_t<float> y = float_values(y_, "y", n);
                    const py::array_t<float> radius = float_values(radius_, "radius", n);
                    const py::array_t<float> inverse_mass =
                        float_values(inverse_mass_, "inverse_mass", n);
                    if (vx_.is_none() != vy_.is_none()) {
                        throw py::value_error("add_circles: give both vx and vy, or neither");
                    }
                    py::array_t<float> vx, vy;
                    if (!vx_.is_none()) {
                        vx = float_values(vx_, "vx", n);
                        vy = float_values(vy_, "vy", n);
                    }
                    return w.world.add_circles(
                        circles_cview{x.data(), y.data(), radius.data(), n}, span_of(inverse_mass),
                        vx_.is_none() ? std::span<const float>{} : span_of(vx),
                        vy_.is_none() ? std::span<const float>{} : span_of(vy));
                },
                py::arg("x"), py::arg("y"), py::arg("radius"), py::arg("inverse_mass") = 1.0F,
                py::arg("vx") = none, py::arg("vy") = none,
                R"(Adds len(x) circles from arrays (converted to float32; inverse_mass may be one
number for all); returns the index of the first. A bad batch adds nothing.)")
            .def(
                "remove_circle",
                [](world_handle& w, std::size_t index) {
                    w.check_idle("remove_circle");
                    w.world.remove_circle(index);
                },
                py::arg("index"), "Removes one circle; those after it move down one index.")
            .def(
                "remove_circles",
                [](world_handle& w, const py::handle& mask_) {
                    w.check_idle("remove_circles");
                    const std::span<std::uint8_t> mask = mask_array(mask_, "mask", access::read);
                    check_length(mask.size(), "mask", w.world.size(), "the world");
                    return w.world.remove_circles_if([&](std::size_t i) { return mask[i] != 0; });
                },
                py::arg("mask"),
                "Removes every circle whose mask entry (bool or uint8) is set, keeping the others' "
                "order; returns how many were removed.")
            .def(
                "set_boxes",
                [](world_handle& w, const py::handle& min_x, const py::handle& min_y,
                   const py::handle& max_x, const py::handle& max_y) {
                    w.check_idle("set_boxes");
                    const boxes_arrays b = boxes_from(min_x, min_y, max_x, max_y);
                    w.world.set_boxes(read_boxes(b, "boxes"));
                },
                py::arg("min_x"), py::arg("min_y"), py::arg("max_x"), py::arg("max_y"),
                "Replaces the static boxes (arrays converted to float32).")
            .def(
                "set_boxes",
                [](world_handle& w, const boxes_arrays& b) {
                    w.check_idle("set_boxes");
                    w.world.set_boxes(read_boxes(b, "boxes"));
                },
                py::arg("boxes"))
            .def(
                "add_kinematic_box",
                [](world_handle& w, const aabb& box, float vx, float vy) {
                    w.check_idle("add_kinematic_box");
                    return w.world.add_kinematic_box(box, vx, vy);
                },
                py::arg("box"), py::arg("vx") = 0.0F, py::arg("vy") = 0.0F,
                "Adds a box the host moves, with velocity (vx, vy); returns its index among "
                "the kinematic boxes.")
            .def(
                "set_kinematic_velocity",
                [](world_handle& w, std::size_t index, float vx, float vy) {
                    w.check_idle("set_kinematic_velocity");
                    w.world.set_kinematic_velocity(index, vx, vy);
                },
                py::arg("index"), py::arg("vx"), py::arg("vy"),
                "Sets a kinematic box's velocity for the steps to come.")
            .def(
                "move_kinematic_box",
                [](world_handle& w, std::size_t index, const aabb& next) {
                    w.check_idle("move_kinematic_box");
                    w.world.move_kinematic_box(index, next);
                },
                py::arg("index"), py::arg("next"),
                "Where a kinematic box is to be at the end of the next step.")
            .def(
                "remove_kinematic_box",
                [](world_handle& w, std::size_t index) {
                    w.check_idle("remove_kinematic_box");
                    w.world.remove_kinematic_box(index);
                },
                py::arg("index"), "Removes a kinematic box; those after it move down one index.")
            .def_property_readonly("kinematic_box_count",
                                   [](const world_handle& w) {
                                       w.check_idle("kinematic_box_count");
                                       return w.world.kinematic_box_count();
                                   })
            .def(
                "kinematic_box",
                [](const world_handle& w, std::size_t index) {
                    w.check_idle("kinematic_box");
                    const particle_world::kinematic_box k = w.world.kinematic_box_at(index);
                    return py::make_tuple(k.box, k.vx, k.vy);
                },
                py::arg("index"), "A kinematic box now, as (AABB, vx, vy).")
            .def(
                "add_dynamic_box",
                [](world_handle& w, const aabb& box, float inverse_mass, float vx, float vy) {
                    w.check_idle("add_dynamic_box");
                    return w.world.add_dynamic_box(box, inverse_mass, vx, vy);
                },
                py::arg("box"), py::arg("inverse_mass") = 1.0F, py::arg("vx") = 0.0F,
                py::arg("vy") = 0.0F,
                "Adds a box that moves with gravity and contacts (inverse_mass 0: it never "
                "moves), with velocity (vx, vy); returns its index among the dynamic boxes.")
            .def(
                "remove_dynamic_box",
                [](world_handle& w, std::size_t index) {
                    w.check_idle("remove_dynamic_box");
                    w.world.remove_dynamic_box(index);
                },
                py::arg("index"), "Removes a dynamic box; those after it move down one index.")
            .def_property_readonly("dynamic_box_count",
                                   [](const world_handle& w) {
                                       w.check_idle("dynamic_box_count");
                                       return w.world.dynamic_box_count();
                                   })
            .def(
                "dynamic_box",
                [](const world_handle& w, std::size_t index) {
                    w.check_idle("dynamic_box");
                    const particle_world::dynamic_box d = w.world.dynamic_box_at(index);
                    return py::make_tuple(d.box, d.inverse_mass, d.vx, d.vy);
                },
                py::arg("index"), "A dynamic box now, as (AABB, inverse_mass, vx, vy).")
            .def(
                "dynamic_boxes",
                [](py::object self) {
                    world_handle& w = self.cast<world_handle&>();
                    w.check_idle("dynamic_boxes");
                    const dynamic_boxes_view d = w.world.dynamic_boxes();
                    const auto over = [&](const float* data, access how) {
                        return floats_over(const_cast<float*>(data), d.count, self, how);
                    };
                    return py::module_::import("types").attr("SimpleNamespace")(
                        py::arg("x") = over(d.x, access::write),
                        py::arg("y") = over(d.y, access::write),
                        py::arg("vx") = over(d.vx, access::write),
                        py::arg("vy") = over(d.vy, access::write),
                        py::arg("half_width") = over(d.half_width, access::read),
                        py::arg("half_height") = over(d.half_height, access::read),
                        py::arg("inverse_mass") = over(d.inverse_mass, access::read));
                },
                R"(The dynamic boxes' arrays over the world's memory, valid until a dynamic box is
added or removed: centres x, y and velocities vx, vy (writable, between steps), half_width,
half_height and inverse_mass (read-only).)")
            .def(
                "set_material",
                [](world_handle& w, shape_kind kind, std::size_t index, float friction,
                   float restitution) {
                    w.check_idle("set_material");
                    w.world.set_material(kind, index, {friction, restitution});
                },
                py::arg("kind"), py::arg("index"), py::arg("friction"), py::arg("restitution"),
                "Shape index of kind (a ShapeKind)'s friction (>= 0) and restitution (in [0, "
                "1]), from the next step on.")
            .def(
                "material",
                [](const world_handle& w, shape_kind kind, std::size_t index) {
                    w.check_idle("material");
                    const material m = w.world.material_of(kind, index);
                    return py::make_tuple(m.friction, m.restitution);
                },
                py::arg("kind"), py::arg("index"), "A shape's (friction, restitution).")
            .def(
                "set_circle_materials",
                [](world_handle& w, const py::handle& friction, const py::handle& restitution) {
                    w.check_idle("set_circle_materials");
                    const std::size_t n = w.world.size();
                    const py::array_t<float> f = float_values(friction, "friction", n);
                    const py::array_t<float> e = float_values(restitution, "restitution", n);
                    w.world.set_circle_materials(span_of(f), span_of(e));
                },
                py::arg("friction"), py::arg("restitution"),
                "Every circle's friction and restitution at once (arrays of len(world) values, "
                "or one number for all).")
            .def(
                "set_filter",
                [](world_handle& w, shape_kind kind, std::size_t index, std::uint64_t category,
                   std::uint64_t mask) {
                    w.check_idle("set_filter");
                    w.world.set_filter(kind, index, {category, mask});
                },
                py::arg("kind"), py::arg("index"), py::arg("category"), py::arg("mask"),
                "Shape index of kind (a ShapeKind)'s collision category and mask: two bodies "
                "collide when each one's category shares a bit with the other's mask.")
            .def(
                "filter",
                [](const world_handle& w, shape_kind kind, std::size_t index) {
                    w.check_idle("filter");
                    const collision_filter f = w.world.filter_of(kind, index);
                    return py::make_tuple(f.category, f.mask);
                },
                py::arg("kind"), py::arg("index"), "A shape's (category, mask).")
            .def(
                "set_circle_filters",
                [](world_handle& w, const py::handle& category, const py::handle& mask) {
                    w.check_idle("set_circle_filters");
                    using bits =
                        py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>;
                    const bits c = bits::ensure(category);
                    const bits m = bits::ensure(mask);
                    if (!c || !m || c.ndim() != 1 || m.ndim() != 1) {
                        PyErr_Clear();
                        throw py::type_error("category and mask must be one-dimensional arrays "
                                             "of unsigned integers");
                    }
                    w.world.set_circle_filters({c.data(), static_cast<std::size_t>(c.size())},
                                               {m.data(), static_cast<std::size_t>(m.size())});
                },
                py::arg("category"), py::arg("mask"),
                "Every circle's category and mask at once (arrays of len(world) values).")
            .def(
                "cast_rays",
                [](const world_handle& w, const py::handle& x, const py::handle& y,
                   const py::handle& dx, const py::handle& dy, std::uint64_t category,
                   std::uint64_t mask) {
                    w.check_idle("cast_rays");
                    const py::array_t<float> ax = float_values(x, "x");
                    const std::size_t n = static_cast<std::size_t>(ax.size());
                    const py::array_t<float> ay = float_values(y, "y", n);
                    const py::array_t<float> adx = float_values(dx, "dx", n);
                    const py::array_t<float> ady = float_values(dy, "dy", n);
                    py::array_t<float> fraction(n), point_x(n), point_y(n), normal_x(n),
                        normal_y(n);
                    py::array_t<std::uint32_t> shape(n);
                    py::array_t<std::uint8_t> kind(n);
                    const ray_hits_view hits(fraction.mutable_data(), point_x.mutable_data(),
                                             point_y.mutable_data(), normal_x.mutable_data(),
                                             normal_y.mutable_data(), shape.mutable_data(), n);
                    w.world.cast_rays(rays_cview(ax.data(), ay.data(), adx.data(), ady.data(), n),
                                      hits, {reinterpret_cast<shape_kind*>(kind.mutable_data()), n},
                                      {category, mask});
                    return py::module_::import("types").attr("SimpleNamespace")(
                        py::arg("fraction") = fraction, py::arg("point_x") = point_x,
                        py::arg("point_y") = point_y, py::arg("normal_x") = normal_x,
                        py::arg("normal_y") = normal_y, py::arg("shape") = shape,
                        py::arg("kind") = kind);
                },
                py::arg("x"), py::arg("y"), py::arg("dx"), py::arg("dy"), py::arg("category") = 1,
                py::arg("mask") = ~std::uint64_t{0},
                R"(Each ray from (x, y) to (x + dx, y + dy)'s first hit among the world's circles and
boxes that a query of this category and mask sees: fraction along the ray (1 where it hits nothing), point, outward normal ((0, 0) for a
ray that starts in the shape), the shape's index among its kind (0xFFFFFFFF for none) and its
kind (a ShapeKind value).)")
            .def(
                "query_region",
                [](const world_handle& w, const aabb& region, std::uint64_t category,
                   std::uint64_t mask) {
                    w.check_idle("query_region");
                    std::vector<shape_ref> found;
                    w.world.query_region(region, found, {category, mask});
                    return shapes_to_arrays(found);
                },
                py::arg("region"), py::arg("category") = 1, py::arg("mask") = ~std::uint64_t{0},
                "The shapes that reach into the AABB region, as (kinds, indices) arrays: "
                "circles, then static, kinematic and dynamic boxes, each by index.")
            .def(
                "query_point",
                [](const world_handle& w, float x, float y, float distance, std::uint64_t category,
                   std::uint64_t mask) {
                    w.check_idle("query_point");
                    std::vector<shape_ref> found;
                    w.world.query_point(x, y, distance, found, {category, mask});
                    return shapes_to_arrays(found);
                },
                py::arg("x"), py::arg("y"), py::arg("distance") = 0.0F, py::arg("category") = 1,
                py::arg("mask") = ~std::uint64_t{0},
                "The shapes within distance of the point (x, y), as query_region lists them.")
            .def(
                "contact_events",
                [](const world_handle& w) {
                    w.check_idle("contact_events");
                    const contact_events& e = w.world.last_contact_events();
                    py::kwargs fields;
                    fields["began"] = shape_pairs_namespace(e.began);
                    fields["ended"] = shape_pairs_namespace(e.ended);
                    fields["hits"] = hits_namespace(e.hits);
                    return namespace_of(fields);
                },
                R"(The last step's contact events (World(contact_events=True)): began and ended,
each with arrays a_kind, a_index, b_kind, b_index, the pairs of shapes that began and stopped
touching in shape order; hits, the same with point_x, point_y, normal_x, normal_y (from a to b)
and speed, the contacts that closed faster than hit_speed.)")
            .def(
                "touching",
                [](const world_handle& w) {
                    w.check_idle("touching");
                    return shape_pairs_namespace(w.world.touching());
                },
                "Every pair of shapes touching at the end of the last step, as contact_events "
                "lists them.")
            .def(
                "add_sensor",
                [](world_handle& w, const aabb& box, std::uint64_t category, std::uint64_t mask) {
                    w.check_idle("add_sensor");
                    return w.world.add_sensor(box, {category, mask});
                },
                py::arg("box"), py::arg("category") = 1, py::arg("mask") = ~std::uint64_t{0},
                "Adds a sensor: a box that collides with nothing and holds, after each step, the "
                "circles and dynamic boxes reaching into it that its category and mask collide "
                "with. Returns its index.")
            .def(
                "move_sensor",
                [](world_handle& w, std::size_t index, const aabb& box) {
                    w.check_idle("move_sensor");
                    w.world.move_sensor(index, box);
                },
                py::arg("index"), py::arg("box"), "Where a sensor is from the next step on.")
            .def(
                "remove_sensor",
                [](world_handle& w, std::size_t index) {
                    w.check_idle("remove_sensor");
                    w.world.remove_sensor(index);
                },
                py::arg("index"), "Removes a sensor; those after it move down one index.")
            .def_property_readonly("sensor_count",
                                   [](const world_handle& w) {
                                       w.check_idle("sensor_count");
                                       return w.world.sensor_count();
                                   })
            .def(
                "sensor",
                [](const world_handle& w, std::size_t index) {
                    w.check_idle("sensor");
                    return w.world.sensor_at(index);
                },
                py::arg("index"), "A sensor's box.")
            .def(
                "sensor_contents",
                [](const world_handle& w, std::size_t index) {
                    w.check_idle("sensor_contents");
                    const std::span<const shape_ref> in = w.world.sensor_contents(index);
                    return shapes_to_arrays({in.begin(), in.end()});
                },
                py::arg("index"),
                "The shapes in a sensor at the end of the last step, as (kinds, indices) arrays: "
                "circles, then dynamic boxes, each by index.")
            .def(
                "sensor_events",
                [](const world_handle& w) {
                    w.check_idle("sensor_events");
                    const sensor_events& e = w.world.last_sensor_events();
                    py::kwargs fields;
                    fields["began"] = sensor_events_namespace(e.began);
                    fields["ended"] = sensor_events_namespace(e.ended);
                    return namespace_of(fields);
                },
                "What came into (began) and went out of (ended) the sensors in the last step, "
                "each with arrays sensor, kind and index, by sensor and then shape.")
            .def_property_readonly(
                "sleeping",
                [](const world_handle& w) {
                    w.check_idle("sleeping");
                    return w.world.sleeping();
                },
                "Whether the world is asleep (World(sleep=True)): its last step changed nothing.")
            .def(
                "wake",
                [](world_handle& w) {
                    w.check_idle("wake");
                    w.world.wake();
                },
                "Wakes the world: the next step runs in full.")
            .def("step", &world_handle::step, py::arg("dt"),
                 "Advances by dt, with the GIL released.")
            .def("__len__", [](const world_handle& w) { return w.world.size(); })
            .def(
                "particles",
                [](py::object self) {
                    particles_arrays p;
                    p.x = self.attr("x");
                    p.y = self.attr("y");
                    p.radius = self.attr("radius");
                    p.inverse_mass = self.attr("inverse_mass");
                    p.vx = self.attr("vx");
                    p.vy = self.attr("vy");
                    return p;
                },
                "The world's fields as a Particles over its memory, for the kernels.")
            .def_property_readonly(
                "boxes", [](const world_handle& w) { return copy_of(w.world.boxes().boxes()); },
                "A copy of the static boxes.")
            .def_property_readonly("last_pair_count",
                                   [](const world_handle& w) {
                                       w.check_idle("last_pair_count");
                                       return w.world.last_pair_count();
                                   })
            .def(
                "listed_pairs",
                [](const world_handle& w) {
                    w.check_idle("listed_pairs");
                    return pairs_to_array(w.world.listed_pairs());
                },
                "The pairs listed for the last step, (lower index, higher index), sorted.")
            .def_property_readonly("listings", [](const world_handle& w) {
                w.check_idle("listings");
                const auto l = w.world.listings();
                return py::make_tuple(l.full, l.partial);
            });
    for (const field_of_world& f : world_fields) {
        world.def_property_readonly(
            f.name,
            [f](py::object self) {
                world_handle& w = self.cast<world_handle&>();
                return floats_over(f.of(w.world.particles()), w.world.size(), self, f.how);
            },
            f.how == access::write
                ? "An array over the world's memory, valid until circles are added or removed."
                : "A read-only array over the world's memory, valid until circles are added or "
                  "removed.");
    }
}

} // namespace simdcollide::python
