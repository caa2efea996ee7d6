#include "broad_phase.hpp"

#include "arrays.hpp"
#include "kernels.hpp"
#include "views.hpp"

#include <simdcollide/pair_finder.hpp>
#include <simdcollide/pair_groups.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/swept.hpp>
#include <simdcollide/validate.hpp>
#include <simdcollide/workers.hpp>

namespace simdcollide::python {

namespace {

template <void (*Separate)(particles_view, const pair_groups&, separation_weighting, int,
                           separation_workspace&)>
void def_separate_in_order(py::module_& m) {
    m.def(
        "separate_in_order",
        [](const particles_arrays& p, const pair_groups& groups, const std::string& weighting,
           int rounds, const py::object& workspace) {
            const particles_view circles =
                particles_for(p, "circles", separation_reads, separation_writes);
            const separation_weighting mode = weighting_from(weighting);
            separation_workspace own;
            separation_workspace* const given = workspace_of(workspace);
            py::gil_scoped_release nogil;
            Separate(circles, groups, mode, rounds, given != nullptr ? *given : own);
        },
        py::arg("circles"), py::arg("groups"), py::arg("weighting") = "inverse_mass",
        py::arg("rounds") = 1, py::arg("workspace") = py::none(),
        "Separates the grouped pairs in order (Gauss-Seidel), `rounds` times over the list, "
        "writing x and y in place.");
}

// sweep_all on numpy arrays: `sweep(circles, moves, box_set..., out, box)` with the GIL
// released, as (time, normal_x, normal_y, box, count).
template <class Sweep>
py::tuple first_impacts(const circles_arrays& c, const py::object& dx, const py::object& dy,
                        Sweep sweep) {
    const circles_cview circles = read_circles(c, "circles");
    const displacements_cview moves = read_moves(dx, dy, circles.count);
    const impact_outputs out = impacts_output(py::none(), py::none(), py::none(), circles.count);
    std::vector<std::uint32_t> box(circles.count);
    std::size_t hits = 0;
    {
        py::gil_scoped_release nogil;
        hits = sweep(circles, moves, out.view, std::span<std::uint32_t>(box));
    }
    return py::make_tuple(out.time, out.normal_x, out.normal_y, uint32_array(box), hits);
}

// The Workers given as `workers=`, or null for None (the calling thread alone).
const workers* workers_of(const py::object& value) {
    return value.is_none() ? nullptr : &object_of<workers>(value, "workers", "Workers");
}

py::tuple validation_tuple(const validation& v) {
    return py::make_tuple(v.valid, v.index, v.reason);
}

} // namespace

void bind_broad_phase(py::module_& m, py::module_& reference) {
    py::class_<separation_workspace>(m, "SeparationWorkspace", R"(Scratch memory for the
pair-list kernels (eight floats a circle), kept from call to call to save an allocation
each. One per thread: two calls at once must not share one.)")
        .def(py::init<>());

    py::class_<workers>(m, "Workers", R"(Threads for push_out_all, sweep_all and PairFinder.find
(workers=): `count` workers, the calling thread among them, so count - 1 threads of their
own, started here and stopped when the object goes. The results are those of the call
without workers, bit for bit.)")
        .def(py::init<int>(), py::arg("count"))
        .def_property_readonly("count", &workers::count);

    py::class_<static_box_grid>(m, "StaticBoxGrid", R"(A grid over a fixed set of static boxes,
built once (the boxes are copied) and queried by push_out_all.)")
        .def(
            py::init([](const boxes_arrays& b) { return static_box_grid(read_boxes(b, "boxes")); }),
            py::arg("boxes"))
        .def("__len__", &static_box_grid::size)
        .def_property_readonly(
            "boxes", [](const static_box_grid& g) { return copy_of(g.boxes()); },
            "A copy of the grid's boxes.")
        .def_property_readonly("cell_count", &static_box_grid::cell_count)
        .def(
            "candidates",
            [](const static_box_grid& g, float x, float y, float r, float margin) {
                std::vector<std::uint32_t> out;
                g.candidates(x, y, r, margin, out);
                return uint32_array(out);
            },
            py::arg("x"), py::arg("y"), py::arg("radius"), py::arg("margin") = 0.0F,
            "The boxes that can touch a circle at (x, y), ascending (and perhaps a few near it "
            "that cannot).");

    m.def(
        "push_out_all",
        [](const circles_arrays& c, const static_box_grid& grid, float margin,
           const py::object& on) {
            const circles_view circles = write_centres(c, "circles");
            const workers* w = workers_of(on);
            py::gil_scoped_release nogil;
            return w != nullptr ? push_out_all(circles, grid, margin, *w)
                                : push_out_all(circles, grid, margin);
        },
        py::arg("circles"), py::arg("grid"), py::arg("margin") = 0.0F,
        py::arg("workers") = py::none(),
        "Pushes every circle out of every box of the grid, boxes in ascending index, writing "
        "circles.x and circles.y in place; returns the number of pushes.");
    reference.def(
        "push_out_all",
        [](const circles_arrays& c, const boxes_arrays& b, float margin) {
            const circles_view circles = write_centres(c, "circles");
            const aabbs_view boxes = read_boxes(b, "boxes");
            py::gil_scoped_release nogil;
            return reference::push_out_all(circles, boxes, margin);
        },
        py::arg("circles"), py::arg("boxes"), py::arg("margin") = 0.0F,
        "The brute force of push_out_all: every circle against every box.");

    m.def(
        "sweep_all",
        [](const circles_arrays& c, const py::object& dx, const py::object& dy,
           const static_box_grid& grid, const py::object& on) {
            const workers* w = workers_of(on);
            return first_impacts(c, dx, dy, [&](auto circles, auto moves, auto out, auto box) {
                return w != nullptr ? sweep_all(circles, moves, grid, out, box, *w)
                                    : sweep_all(circles, moves, grid, out, box);
            });
        },
        py::arg("circles"), py::arg("dx"), py::arg("dy"), py::arg("grid"),
        py::arg("workers") = py::none(),
        "Each move's first impact among the grid's boxes, and the box it hits (no_box for "
        "none): (time, normal_x, normal_y, box, count).");
    reference.def(
        "sweep_all",
        [](const circles_arrays& c, const py::object& dx, const py::object& dy,
           const boxes_arrays& b) {
            const aabbs_view boxes = read_boxes(b, "boxes");
            return first_impacts(c, dx, dy, [&](auto circles, auto moves, auto out, auto box) {
                return reference::sweep_all(circles, moves, boxes, out, box);
            });
        },
        py::arg("circles"), py::arg("dx"), py::arg("dy"), py::arg("boxes"),
        "The brute force of sweep_all: every move against every box.");
    m.attr("no_box") = no_box;

    py::class_<pair_finder>(m, "PairFinder", R"(Finds every pair of circles within margin of
contact through a grid, reusing its memory from call to call.)")
        .def(py::init<>())
        .def(
            "find",
            [](pair_finder& finder, const circles_arrays& c, float margin, const py::object& on) {
                const circles_cview circles = read_circles(c, "circles");
                const workers* w = workers_of(on);
                std::span<const circle_pair> pairs;
                {
                    py::gil_scoped_release nogil;
                    pairs = w != nullptr ? finder.find(circles, margin, *w)
                                         : finder.find(circles, margin);
                }
                return pairs_to_array(pairs);
            },
            py::arg("circles"), py::arg("margin") = 0.0F, py::arg("workers") = py::none(),
            "Every pair (i, j), i < j, with |c_j - c_i|^2 < (r_i + r_j + margin)^2, ordered by "
            "i then j: a new uint32 array of shape (n, 2).")
        .def_property_readonly("cell_count", &pair_finder::cell_count);
    reference.def(
        "find_pairs",
        [](const circles_arrays& c, float margin) {
            const circles_cview circles = read_circles(c, "circles");
            std::vector<circle_pair> pairs;
            {
                py::gil_scoped_release nogil;
                pairs = reference::find_pairs(circles, margin);
            }
            return pairs_to_array(pairs);
        },
        py::arg("circles"), py::arg("margin") = 0.0F,
        "Every pair by brute force: what PairFinder.find gives.");

    py::class_<pair_groups>(m, "PairGroups", R"(A pair list reordered into groups of pairs that
share no circle, as PairGrouper makes it: what separate_in_order takes.)")
        .def_property_readonly(
            "pairs", [](const pair_groups& g) { return pairs_to_array(g.pairs()); },
            "The reordered pairs: a new uint32 array of shape (n, 2).")
        .def_property_readonly(
            "ends", [](const pair_groups& g) { return uint32_array(g.ends()); },
            "One past each group's last pair.")
        .def_property_readonly("circle_count", &pair_groups::circle_count);
    py::class_<pair_grouper>(m, "PairGrouper", R"(Groups pair lists for separate_in_order,
regrouping only the chunks that changed since its last call.)")
        .def(py::init<>())
        .def(
            "group",
            [](pair_grouper& grouper, const py::array& pairs_, std::size_t circle_count) {
                const std::span<const circle_pair> pairs = pair_array(pairs_, "pairs");
                py::gil_scoped_release nogil;
                return grouper.group(pairs, circle_count);
            },
            py::arg("pairs").noconvert(), py::arg("circle_count"),
            "The pairs (uint32, shape (n, 2)) in groups: a new PairGroups.");
    def_separate_in_order<&simdcollide::separate_in_order>(m);
    def_separate_in_order<&simdcollide::reference::separate_in_order>(reference);

    py::class_<pair_blocks>(m, "PairBlocks", R"(A pair list cut into blocks of circles, so that
separate_in_order can take it on workers with the bits of one thread (pair_groups.hpp).)")
        .def(py::init<>())
        .def(
            "cut",
            [](pair_blocks& blocks, const py::array& pairs_, std::size_t circle_count,
               std::size_t block_circles, const py::object& on) {
                const std::span<const circle_pair> pairs = pair_array(pairs_, "pairs");
                const workers* w = workers_of(on);
                py::gil_scoped_release nogil;
                if (w != nullptr) {
                    blocks.cut(pairs, circle_count, block_circles, *w);
                } else {
                    blocks.cut(pairs, circle_count, block_circles);
                }
            },
            py::arg("pairs").noconvert(), py::arg("circle_count"), py::arg("block_circles") = 0,
            py::arg("workers") = py::none(),
            "Cuts the pairs (uint32, shape (n, 2), ascending as PairFinder.find gives them) "
            "into blocks of block_circles circles (0: chosen from the list).")
        .def_property_readonly("circle_count", &pair_blocks::circle_count)
        .def_property_readonly("block_circles", &pair_blocks::block_circles)
        .def_property_readonly("blocks", &pair_blocks::blocks)
        .def_property_readonly("far_pairs", &pair_blocks::far_pairs);
    m.def(
        "separate_in_order",
        [](const particles_arrays& p, const pair_blocks& blocks, const std::string& weighting,
           int rounds, const py::object& workspace, const py::object& on) {
            const particles_view circles =
                particles_for(p, "circles", separation_reads, separation_writes);
            const separation_weighting mode = weighting_from(weighting);
            separation_workspace own;
            separation_workspace* const given = workspace_of(workspace);
            const workers* w = workers_of(on);
            const workers one;
            py::gil_scoped_release nogil;
            separate_in_order(circles, blocks, mode, rounds, given != nullptr ? *given : own,
                              w != nullptr ? *w : one);
        },
        py::arg("circles"), py::arg("blocks"), py::arg("weighting") = "inverse_mass",
        py::arg("rounds") = 1, py::arg("workspace") = py::none(), py::arg("workers") = py::none(),
        "Separates the cut pairs in their order (PairBlocks), on the workers if given, with "
        "the bits of the call without them.");
    reference.def(
        "separate_in_order",
        [](const particles_arrays& p, const pair_blocks& blocks, const std::string& weighting,
           int rounds) {
            const particles_view circles =
                particles_for(p, "circles", separation_reads, separation_writes);
            const separation_weighting mode = weighting_from(weighting);
            py::gil_scoped_release nogil;
            reference::separate_in_order(circles, blocks, mode, rounds);
        },
        py::arg("circles"), py::arg("blocks"), py::arg("weighting") = "inverse_mass",
        py::arg("rounds") = 1, "The cut pairs separated in their order, one pair at a time.");

    m.def(
        "validate",
        [](const particles_arrays& p) {
            const particle_fields present{.centres = true,
                                          .radius = !p.radius.is_none(),
                                          .inverse_mass = !p.inverse_mass.is_none(),
                                          .velocity = !p.vx.is_none() || !p.vy.is_none()};
            return validation_tuple(validate(particles_for(p, "particles", present, {})));
        },
        py::arg("particles"));
    m.def(
        "validate",
        [](const circles_arrays& c) {
            return validation_tuple(validate(read_circles(c, "circles", false)));
        },
        py::arg("circles"),
        "Checks every circle (or particle, or box): (valid, first invalid index, reason).");
    m.def(
        "validate",
        [](const boxes_arrays& b) { return validation_tuple(validate(read_boxes(b, "boxes"))); },
        py::arg("boxes"));
}

} // namespace simdcollide::python
