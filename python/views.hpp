// The Python classes that name a simulation's arrays (Circles, Particles, Boxes, Contacts),
// as the C++ views of soa.hpp do, and their conversion to those views at each call.
//
// An object holds references to the caller's arrays and copies nothing. Its arrays are
// checked when it is made (dtype, shape, layout, equal lengths) and again at each call, since
// an array's flags and shape can change in between; a field a kernel writes must be writable
// then.
#pragma once

#include "arrays.hpp"

#include <simdcollide/soa.hpp>

#include <string>

namespace simdcollide::python {

/// Circles(x, y, radius=None): centres and radii.
struct circles_arrays {
    py::object x, y, radius; // radius may be None: kernels that read centres only
    [[nodiscard]] std::size_t size() const;
};

/// Particles(x, y, radius=None, inverse_mass=None, vx=None, vy=None): circles that move.
struct particles_arrays : circles_arrays {
    py::object inverse_mass, vx, vy; // each may be None where a kernel does not read it
};

/// Boxes(min_x, min_y, max_x, max_y).
struct boxes_arrays {
    py::object min_x, min_y, max_x, max_y;
    [[nodiscard]] std::size_t size() const;
};

/// BoxBodies(min_x, min_y, max_x, max_y, inverse_mass): boxes that a kernel may move.
struct box_bodies_arrays : boxes_arrays {
    py::object inverse_mass;
};

/// Contacts(normal_x, normal_y, depth, point_x, point_y).
struct contacts_arrays {
    py::object normal_x, normal_y, depth, point_x, point_y;
    [[nodiscard]] std::size_t size() const;
    [[nodiscard]] static contacts_arrays zeros(std::size_t n);
};

/// The fields a call reads or writes, each named in errors as `<argument>.<field>`. A
/// field that a call needs must be an array (not None).
[[nodiscard]] circles_cview read_circles(const circles_arrays& c, const char* argument,
                                         bool radius_needed = true);
[[nodiscard]] circles_view write_centres(const circles_arrays& c, const char* argument);

/// Which of a particle's fields a call writes (x and y, or vx and vy); every other field
/// named in `reads` is read. Fields neither read nor written are left null.
struct particle_fields {
    bool centres = false, radius = false, inverse_mass = false, velocity = false;
};
/// What separation reads and writes (x, y from radius and inverse mass).
inline constexpr particle_fields separation_reads{
    .centres = true, .radius = true, .inverse_mass = true};
inline constexpr particle_fields separation_writes{.centres = true};

[[nodiscard]] particles_view particles_for(const particles_arrays& p, const char* argument,
                                           particle_fields reads, particle_fields writes);

[[nodiscard]] aabbs_view read_boxes(const boxes_arrays& b, const char* argument);
/// The bounds written in place, the inverse masses read.
[[nodiscard]] box_bodies_view write_box_bodies(const box_bodies_arrays& b, const char* argument);
[[nodiscard]] contacts_view write_contacts(const contacts_arrays& c, const char* argument,
                                           access how = access::write);
[[nodiscard]] contacts_cview read_contacts(const contacts_arrays& c, const char* argument);

/// New arrays holding a copy of `boxes`.
[[nodiscard]] boxes_arrays copy_of(aabbs_view boxes);

/// Defines the classes on `m`.
void bind_views(py::module_& m);

} // namespace simdcollide::python
