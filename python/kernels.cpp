#include "kernels.hpp"

#include "arrays.hpp"
#include "views.hpp"

#include <simdcollide/box_box.hpp>
#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/circle_circle.hpp>
#include <simdcollide/queries.hpp>
#include <simdcollide/response.hpp>
#include <simdcollide/swept.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace simdcollide::python {

namespace {

// One set of kernels, as a type: the dispatched ones or the reference.
#define SIMDCOLLIDE_FORWARD(ns, name)                                                              \
    template <class... Args>                                                                       \
    static decltype(auto) name(Args&&... args) {                                                   \
        return ns::name(std::forward<Args>(args)...);                                              \
    }
#define SIMDCOLLIDE_KERNELS(ns)                                                                    \
    SIMDCOLLIDE_FORWARD(ns, closest_point)                                                         \
    SIMDCOLLIDE_FORWARD(ns, distance_squared)                                                      \
    SIMDCOLLIDE_FORWARD(ns, overlap)                                                               \
    SIMDCOLLIDE_FORWARD(ns, count_overlaps)                                                        \
    SIMDCOLLIDE_FORWARD(ns, contact)                                                               \
    SIMDCOLLIDE_FORWARD(ns, push_out)                                                              \
    SIMDCOLLIDE_FORWARD(ns, separate)                                                              \
    SIMDCOLLIDE_FORWARD(ns, respond)                                                               \
    SIMDCOLLIDE_FORWARD(ns, sweep)                                                                 \
    SIMDCOLLIDE_FORWARD(ns, cast_rays)                                                             \
    SIMDCOLLIDE_FORWARD(ns, circles_in_region)                                                     \
    SIMDCOLLIDE_FORWARD(ns, circles_near_point)                                                    \
    SIMDCOLLIDE_FORWARD(ns, boxes_in_region)                                                       \
    SIMDCOLLIDE_FORWARD(ns, boxes_near_point)
struct dispatched {
    SIMDCOLLIDE_KERNELS(simdcollide)
};
struct reference_kernels {
    SIMDCOLLIDE_KERNELS(simdcollide::reference)
};
#undef SIMDCOLLIDE_KERNELS
#undef SIMDCOLLIDE_FORWARD

// The box argument: many boxes (box i against circle i) or one for every circle.
aabbs_view boxes_of(const boxes_arrays& b) {
    return read_boxes(b, "boxes");
}
const aabb& boxes_of(const aabb& b) {
    return b;
}

// `out`, or a new array of n floats where it is None.
py::object float_output(py::object out, std::size_t n, const char* name, std::span<float>& data) {
    if (out.is_none()) {
        out = new_floats(n);
    }
    data = float_array(out, name, access::write);
    check_length(data.size(), name, n, "the input");
    return out;
}

py::object mask_output(py::object mask, std::size_t n, std::span<std::uint8_t>& data) {
    if (mask.is_none()) {
        mask = new_mask(n);
    }
    data = mask_array(mask, "mask", access::write);
    check_length(data.size(), "mask", n, "the input");
    return mask;
}

// `out` (a Contacts), or new Contacts of n zeros where it is None.
py::object contacts_output(py::object out, std::size_t n, contacts_view& view) {
    if (out.is_none()) {
        out = py::cast(contacts_arrays::zeros(n));
    }
    view = write_contacts(object_of<contacts_arrays>(out, "out", "Contacts"), "out");
    check_length(view.count, "out", n, "the input");
    return out;
}

constexpr particle_fields response_reads{.inverse_mass = true, .velocity = true};
constexpr particle_fields response_writes{.velocity = true};

// Circle against box, with boxes one per circle (boxes_arrays) or one for all (aabb).
template <class K, class Box>
void bind_circle_box(py::module_& m) {
    const py::object none = py::none();
    m.def(
        "closest_point",
        [](const circles_arrays& c, const Box& b, py::object out_x, py::object out_y) {
            const circles_cview circles = read_circles(c, "circles", false);
            std::span<float> px, py_;
            out_x = float_output(std::move(out_x), circles.count, "out_x", px);
            out_y = float_output(std::move(out_y), circles.count, "out_y", py_);
            {
                py::gil_scoped_release nogil;
                K::closest_point(circles, boxes_of(b),
                                 points_view{px.data(), py_.data(), circles.count});
            }
            return py::make_tuple(out_x, out_y);
        },
        py::arg("circles"), py::arg("boxes"), py::arg("out_x") = none, py::arg("out_y") = none,
        "The point of each box nearest each circle's centre: (out_x, out_y).");
    m.def(
        "distance_squared",
        [](const circles_arrays& c, const Box& b, py::object out) {
            const circles_cview circles = read_circles(c, "circles", false);
            std::span<float> d;
            out = float_output(std::move(out), circles.count, "out", d);
            {
                py::gil_scoped_release nogil;
                K::distance_squared(circles, boxes_of(b), d);
            }
            return out;
        },
        py::arg("circles"), py::arg("boxes"), py::arg("out") = none,
        "Squared distance from each centre to its box (0 inside): out.");
    m.def(
        "overlap",
        [](const circles_arrays& c, const Box& b, py::object mask, float margin) {
            const circles_cview circles = read_circles(c, "circles");
            std::span<std::uint8_t> m_;
            mask = mask_output(std::move(mask), circles.count, m_);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                hits = K::overlap(circles, boxes_of(b), m_, margin);
            }
            return py::make_tuple(mask, hits);
        },
        py::arg("circles"), py::arg("boxes"), py::arg("mask") = none, py::arg("margin") = 0.0F,
        "mask[i] = 1 where circle i touches its box (within margin), else 0: (mask, count).");
    m.def(
        "count_overlaps",
        [](const circles_arrays& c, const Box& b, float margin) {
            const circles_cview circles = read_circles(c, "circles");
            py::gil_scoped_release nogil;
            return K::count_overlaps(circles, boxes_of(b), margin);
        },
        py::arg("circles"), py::arg("boxes"), py::arg("margin") = 0.0F,
        "The number of circles in contact with their box, writing nothing.");
    m.def(
        "contact",
        [](const circles_arrays& c, const Box& b, py::object out, float margin) {
            const circles_cview circles = read_circles(c, "circles");
            contacts_view view;
            py::object arrays = contacts_output(std::move(out), circles.count, view);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                hits = K::contact(circles, boxes_of(b), view, margin);
            }
            return py::make_tuple(arrays, hits);
        },
        py::arg("circles"), py::arg("boxes"), py::arg("out") = none, py::arg("margin") = 0.0F,
        "Each circle's contact with its box (normal from the box towards the circle): "
        "(contacts, count).");
    m.def(
        "push_out",
        [](const circles_arrays& c, const Box& b, float margin) {
            const circles_view circles = write_centres(c, "circles");
            py::gil_scoped_release nogil;
            return K::push_out(circles, boxes_of(b), margin);
        },
        py::arg("circles"), py::arg("boxes"), py::arg("margin") = 0.0F,
        "Pushes each circle out of its box, writing circles.x and circles.y in place; returns "
        "how many moved.");
}

// Box against box, the second boxes one per first box (boxes_arrays) or one for all (aabb).
template <class K, class Box>
void bind_box_box(py::module_& m) {
    const py::object none = py::none();
    m.def(
        "overlap",
        [](const boxes_arrays& a, const Box& b, py::object mask, float margin) {
            const aabbs_view first = read_boxes(a, "first");
            std::span<std::uint8_t> m_;
            mask = mask_output(std::move(mask), first.count, m_);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                hits = K::overlap(first, boxes_of(b), m_, margin);
            }
            return py::make_tuple(mask, hits);
        },
        py::arg("first"), py::arg("second"), py::arg("mask") = none, py::arg("margin") = 0.0F,
        "mask[i] = 1 where box i of first touches its second box (within margin), else 0: "
        "(mask, count).");
    m.def(
        "count_overlaps",
        [](const boxes_arrays& a, const Box& b, float margin) {
            const aabbs_view first = read_boxes(a, "first");
            py::gil_scoped_release nogil;
            return K::count_overlaps(first, boxes_of(b), margin);
        },
        py::arg("first"), py::arg("second"), py::arg("margin") = 0.0F,
        "The number of box pairs in contact, writing nothing.");
    m.def(
        "contact",
        [](const boxes_arrays& a, const Box& b, py::object out, float margin) {
            const aabbs_view first = read_boxes(a, "first");
            contacts_view view;
            py::object arrays = contacts_output(std::move(out), first.count, view);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                hits = K::contact(first, boxes_of(b), view, margin);
            }
            return py::make_tuple(arrays, hits);
        },
        py::arg("first"), py::arg("second"), py::arg("out") = none, py::arg("margin") = 0.0F,
        "Each box pair's contact (normal from the second box towards the first): "
        "(contacts, count).");
    if constexpr (std::is_same_v<Box, aabb>) {
        m.def(
            "separate",
            [](const box_bodies_arrays& a, const aabb& b) {
                const box_bodies_view first = write_box_bodies(a, "first");
                py::gil_scoped_release nogil;
                return K::separate(first, b);
            },
            py::arg("first"), py::arg("second"),
            "Moves each box of first that overlaps the fixed box second out of it along the "
            "contact's axis, writing its bounds in place; returns how many boxes moved.");
    } else {
        m.def(
            "separate",
            [](const box_bodies_arrays& a, const box_bodies_arrays& b,
               const std::string& weighting) {
                const box_bodies_view first = write_box_bodies(a, "first");
                const box_bodies_view second = write_box_bodies(b, "second");
                const separation_weighting mode = weighting_from(weighting);
                py::gil_scoped_release nogil;
                return K::separate(first, second, mode);
            },
            py::arg("first"), py::arg("second"), py::arg("weighting") = "inverse_mass",
            "Separates each box pair first[i], second[i] that overlaps along the contact's "
            "axis, writing the bounds in place; returns how many pairs moved.");
    }
}

template <class K>
void bind_circle_circle(py::module_& m) {
    const py::object none = py::none();
    m.def(
        "distance_squared",
        [](const circles_arrays& a_, const circles_arrays& b_, py::object out) {
            const circles_cview a = read_circles(a_, "a", false);
            const circles_cview b = read_circles(b_, "b", false);
            std::span<float> d;
            out = float_output(std::move(out), a.count, "out", d);
            {
                py::gil_scoped_release nogil;
                K::distance_squared(a, b, d);
            }
            return out;
        },
        py::arg("a"), py::arg("b"), py::arg("out") = none,
        "|b.c - a.c|^2 for each pair a[i], b[i]: out.");
    m.def(
        "overlap",
        [](const circles_arrays& a_, const circles_arrays& b_, py::object mask) {
            const circles_cview a = read_circles(a_, "a");
            const circles_cview b = read_circles(b_, "b");
            std::span<std::uint8_t> m_;
            mask = mask_output(std::move(mask), a.count, m_);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                hits = K::overlap(a, b, m_);
            }
            return py::make_tuple(mask, hits);
        },
        py::arg("a"), py::arg("b"), py::arg("mask") = none,
        "mask[i] = 1 where a[i] and b[i] are in contact, else 0: (mask, count).");
    m.def(
        "count_overlaps",
        [](const circles_arrays& a_, const circles_arrays& b_) {
            const circles_cview a = read_circles(a_, "a");
            const circles_cview b = read_circles(b_, "b");
            py::gil_scoped_release nogil;
            return K::count_overlaps(a, b);
        },
        py::arg("a"), py::arg("b"), "The number of pairs a[i], b[i] in contact.");
    m.def(
        "contact",
        [](const circles_arrays& a_, const circles_arrays& b_, py::object out) {
            const circles_cview a = read_circles(a_, "a");
            const circles_cview b = read_circles(b_, "b");
            contacts_view view;
            py::object arrays = contacts_output(std::move(out), a.count, view);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                hits = K::contact(a, b, view);
            }
            return py::make_tuple(arrays, hits);
        },
        py::arg("a"), py::arg("b"), py::arg("out") = none,
        "Each pair's contact (normal from a towards b): (contacts, count).");
    m.def(
        "separate",
        [](const particles_arrays& a_, const particles_arrays& b_, const std::string& weighting) {
            const particles_view a = particles_for(a_, "a", separation_reads, separation_writes);
            const particles_view b = particles_for(b_, "b", separation_reads, separation_writes);
            const separation_weighting mode = weighting_from(weighting);
            py::gil_scoped_release nogil;
            return K::separate(a, b, mode);
        },
        py::arg("a"), py::arg("b"), py::arg("weighting") = "inverse_mass",
        "Separates each pair a[i], b[i] in contact, writing x and y in place; returns how "
        "many pairs moved.");
    m.def(
        "contact",
        [](const circles_arrays& c, const py::array& pairs_, py::object out,
           const py::object& workspace) {
            const circles_cview circles = read_circles(c, "circles");
            const std::span<const circle_pair> pairs = pair_array(pairs_, "pairs");
            contacts_view view;
            py::object arrays = contacts_output(std::move(out), pairs.size(), view);
            separation_workspace* w = workspace_of(workspace);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                hits = w ? K::contact(circles, pairs, view, *w) : K::contact(circles, pairs, view);
            }
            return py::make_tuple(arrays, hits);
        },
        py::arg("circles"), py::arg("pairs").noconvert(), py::arg("out") = none,
        py::arg("workspace") = none,
        "The contact of each listed pair (rows of pairs, uint32 of shape (n, 2)): "
        "(contacts, count).");
    m.def(
        "separate",
        [](const particles_arrays& p, const py::array& pairs_, const std::string& weighting,
           const py::object& workspace) {
            const particles_view circles =
                particles_for(p, "circles", separation_reads, separation_writes);
            const std::span<const circle_pair> pairs = pair_array(pairs_, "pairs");
            const separation_weighting mode = weighting_from(weighting);
            separation_workspace* w = workspace_of(workspace);
            py::gil_scoped_release nogil;
            return w ? K::separate(circles, pairs, mode, *w) : K::separate(circles, pairs, mode);
        },
        py::arg("circles"), py::arg("pairs").noconvert(), py::arg("weighting") = "inverse_mass",
        py::arg("workspace") = none,
        "Separates every listed pair at once (Jacobi, each circle moved by the mean of its "
        "corrections), writing x and y in place; returns how many circles moved.");
}

template <class K>
void bind_response(py::module_& m) {
    m.def(
        "respond",
        [](const particles_arrays& p, const contacts_arrays& c, float restitution, float friction) {
            const particles_view circles =
                particles_for(p, "circles", response_reads, response_writes);
            const contacts_cview contacts = read_contacts(c, "contacts");
            py::gil_scoped_release nogil;
            return K::respond(circles, contacts, response_parameters{restitution, friction});
        },
        py::arg("circles"), py::arg("contacts"), py::arg("restitution") = 0.0F,
        py::arg("friction") = 0.0F,
        "Impulses of circle i against a static box in contact i, writing vx and vy in place; "
        "returns how many contacts responded.");
    m.def(
        "respond",
        [](const particles_arrays& a_, const particles_arrays& b_, const contacts_arrays& c,
           float restitution, float friction) {
            const particles_view a = particles_for(a_, "a", response_reads, response_writes);
            const particles_view b = particles_for(b_, "b", response_reads, response_writes);
            const contacts_cview contacts = read_contacts(c, "contacts");
            py::gil_scoped_release nogil;
            return K::respond(a, b, contacts, response_parameters{restitution, friction});
        },
        py::arg("a"), py::arg("b"), py::arg("contacts"), py::arg("restitution") = 0.0F,
        py::arg("friction") = 0.0F,
        "Impulses of circle a[i] against b[i] in contact i, writing vx and vy in place; "
        "returns how many contacts responded.");
}

// What a sweep moves against: boxes one per circle, one box for all, or still circles.
circles_cview obstacles_of(const circles_arrays& c) {
    return read_circles(c, "obstacles");
}

template <class K, class Obstacles>
void bind_sweep(py::module_& m) {
    const py::object none = py::none();
    m.def(
        "sweep",
        [](const circles_arrays& c, const py::object& dx, const py::object& dy,
           const Obstacles& obstacles, py::object time, py::object normal_x, py::object normal_y) {
            const circles_cview circles = read_circles(c, "circles");
            const displacements_cview moves = read_moves(dx, dy, circles.count);
            impact_outputs out = impacts_output(std::move(time), std::move(normal_x),
                                                std::move(normal_y), circles.count);
            std::size_t hits = 0;
            {
                py::gil_scoped_release nogil;
                if constexpr (std::is_same_v<Obstacles, circles_arrays>) {
                    hits = K::sweep(circles, moves, obstacles_of(obstacles), out.view);
                } else {
                    hits = K::sweep(circles, moves, boxes_of(obstacles), out.view);
                }
            }
            return py::make_tuple(out.time, out.normal_x, out.normal_y, hits);
        },
        py::arg("circles"), py::arg("dx"), py::arg("dy"), py::arg("obstacles"),
        py::arg("time") = none, py::arg("normal_x") = none, py::arg("normal_y") = none,
        "Circle i moving by (dx[i], dy[i]) against its obstacle (Boxes, one AABB, or still "
        "Circles): the fraction of the move at first touch and the normal there, from the "
        "obstacle; time 1 and normal (0, 0) for a miss: (time, normal_x, normal_y, count).");
}

// Indices as a new uint32 array.
py::array_t<std::uint32_t> index_array(const std::vector<std::uint32_t>& indices) {
    py::array_t<std::uint32_t> out(indices.size());
    std::copy(indices.begin(), indices.end(), out.mutable_data());
    return out;
}

template <class K, class Shapes>
void bind_queries(py::module_& m) {
    const auto shapes_of = [](const Shapes& s) {
        if constexpr (std::is_same_v<Shapes, circles_arrays>) {
            return read_circles(s, "shapes");
        } else {
            return read_boxes(s, "shapes");
        }
    };
    m.def(
        "cast_rays",
        [shapes_of](const py::object& x, const py::object& y, const py::object& dx,
                    const py::object& dy, const Shapes& shapes) {
            const std::span<float> rx = float_array(x, "x", access::read);
            const std::size_t n = rx.size();
            const std::span<float> ry = float_array(y, "y", access::read);
            const std::span<float> rdx = float_array(dx, "dx", access::read);
            const std::span<float> rdy = float_array(dy, "dy", access::read);
            check_length(ry.size(), "y", n, "x");
            check_length(rdx.size(), "dx", n, "x");
            check_length(rdy.size(), "dy", n, "x");
            const auto targets = shapes_of(shapes);
            py::array_t<float> fraction(n), point_x(n), point_y(n), normal_x(n), normal_y(n);
            py::array_t<std::uint32_t> shape(n);
            const ray_hits_view hits(fraction.mutable_data(), point_x.mutable_data(),
                                     point_y.mutable_data(), normal_x.mutable_data(),
                                     normal_y.mutable_data(), shape.mutable_data(), n);
            std::size_t count = 0;
            {
                py::gil_scoped_release nogil;
                count = K::cast_rays(rays_cview(rx.data(), ry.data(), rdx.data(), rdy.data(), n),
                                     targets, hits);
            }
            return py::module_::import("types").attr("SimpleNamespace")(
                py::arg("fraction") = fraction, py::arg("point_x") = point_x,
                py::arg("point_y") = point_y, py::arg("normal_x") = normal_x,
                py::arg("normal_y") = normal_y, py::arg("shape") = shape, py::arg("count") = count);
        },
        py::arg("x"), py::arg("y"), py::arg("dx"), py::arg("dy"), py::arg("shapes"),
        "Each ray from (x, y) to (x + dx, y + dy)'s first hit among the shapes (Circles or "
        "Boxes; the lowest index on a tie): fraction (1 where none), point, outward normal, "
        "shape (0xFFFFFFFF where none) and count, the rays that hit.");
    if constexpr (std::is_same_v<Shapes, circles_arrays>) {
        m.def(
            "circles_in_region",
            [](const circles_arrays& c, const aabb& region) {
                std::vector<std::uint32_t> found;
                K::circles_in_region(read_circles(c, "circles"), region, found);
                return index_array(found);
            },
            py::arg("circles"), py::arg("region"),
            "The indices, ascending, of the circles that reach into the AABB (touching counts).");
        m.def(
            "circles_near_point",
            [](const circles_arrays& c, float x, float y, float distance) {
                std::vector<std::uint32_t> found;
                K::circles_near_point(read_circles(c, "circles"), x, y, distance, found);
                return index_array(found);
            },
            py::arg("circles"), py::arg("x"), py::arg("y"), py::arg("distance") = 0.0F,
            "The indices, ascending, of the circles within distance of the point (x, y).");
    } else {
        m.def(
            "boxes_in_region",
            [](const boxes_arrays& b, const aabb& region) {
                std::vector<std::uint32_t> found;
                K::boxes_in_region(read_boxes(b, "boxes"), region, found);
                return index_array(found);
            },
            py::arg("boxes"), py::arg("region"),
            "The indices, ascending, of the boxes that overlap or touch the AABB.");
        m.def(
            "boxes_near_point",
            [](const boxes_arrays& b, float x, float y, float distance) {
                std::vector<std::uint32_t> found;
                K::boxes_near_point(read_boxes(b, "boxes"), x, y, distance, found);
                return index_array(found);
            },
            py::arg("boxes"), py::arg("x"), py::arg("y"), py::arg("distance") = 0.0F,
            "The indices, ascending, of the boxes within distance of the point (x, y).");
    }
}

template <class K>
void bind_kernels(py::module_& m) {
    bind_circle_box<K, boxes_arrays>(m);
    bind_circle_box<K, aabb>(m);
    bind_box_box<K, boxes_arrays>(m);
    bind_box_box<K, aabb>(m);
    bind_circle_circle<K>(m);
    bind_response<K>(m);
    bind_sweep<K, boxes_arrays>(m);
    bind_sweep<K, aabb>(m);
    bind_sweep<K, circles_arrays>(m);
    bind_queries<K, circles_arrays>(m);
    bind_queries<K, boxes_arrays>(m);
}

} // namespace

separation_workspace* workspace_of(const py::object& w) {
    return w.is_none() ? nullptr
                       : &object_of<separation_workspace>(w, "workspace", "SeparationWorkspace");
}

displacements_cview read_moves(py::handle dx, py::handle dy, std::size_t n) {
    const std::span<float> x = float_array(dx, "dx", access::read);
    const std::span<float> y = float_array(dy, "dy", access::read);
    check_length(x.size(), "dx", n, "circles");
    check_length(y.size(), "dy", n, "circles");
    return {x.data(), y.data(), n};
}

impact_outputs impacts_output(py::object time, py::object normal_x, py::object normal_y,
                              std::size_t n) {
    std::span<float> t, nx, ny;
    impact_outputs out;
    out.time = float_output(std::move(time), n, "time", t);
    out.normal_x = float_output(std::move(normal_x), n, "normal_x", nx);
    out.normal_y = float_output(std::move(normal_y), n, "normal_y", ny);
    out.view = {t.data(), nx.data(), ny.data(), n};
    return out;
}

separation_weighting weighting_from(const std::string& name) {
    if (name == "inverse_mass") {
        return separation_weighting::inverse_mass;
    }
    if (name == "equal") {
        return separation_weighting::equal;
    }
    if (name == "by_radius") {
        return separation_weighting::by_radius;
    }
    throw py::value_error("weighting must be 'inverse_mass', 'equal' or 'by_radius', not '" + name +
                          "'");
}

void bind_dispatched_kernels(py::module_& m) {
    bind_kernels<dispatched>(m);
}
void bind_reference_kernels(py::module_& m) {
    bind_kernels<reference_kernels>(m);
}

} // namespace simdcollide::python
