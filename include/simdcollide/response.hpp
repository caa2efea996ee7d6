// Velocity response: impulses that stop approaching contacts, with restitution and Coulomb
// friction. docs/behaviour.md "Velocity response".
//
// For a contact with unit normal n from A to B: relative velocity v = vB - vA, normal speed
// vn = v . n. Only approaching contacts (vn < 0) respond; pairs not in contact have a zero
// normal (as the contact kernels write them) and so never respond. With total weight
// wA + wB > 0 and its reciprocal w = 1 / (wA + wB) (one division, shared by both impulses):
//   j  = -(1 + restitution) * vn * w                    normal impulse
//   t  = (-n.y, n.x),  vt = v . t
//   jt = clamp(-vt * w, -friction * j, +friction * j)   tangential impulse
//   P  = j * n + jt * t;  vA -= P * wA;  vB += P * wB
// so restitution 1 keeps the normal speed, 0 removes it; friction 0 keeps the tangential
// velocity, and friction never reverses it. A body with inverse mass 0 keeps its velocity
// bits exactly.
//
// In floats, where wA + wB is above 2^24 or below 2^-24 (but not 0), both are first scaled
// by one power of two chosen from the larger, so that every valid inverse mass (0,
// subnormal, up to the largest float) gives a finite impulse; the velocities change as the
// formulas say. Other weights are used as they are.
//
// Preconditions, checked on every call before anything is written (std::invalid_argument):
// equal counts, no null array needed, restitution in [0, 1], friction finite and >= 0, and
// no velocity array sharing memory with another array of the call (each may only be the
// very array it is).
#pragma once

#include <simdcollide/soa.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>

namespace simdcollide {

/// Restitution and friction of a contact response.
struct response_parameters {
    float restitution = 0.0F; ///< in [0, 1]: 0 stops the normal motion, 1 reflects it
    float friction = 0.0F;    ///< Coulomb coefficient, >= 0
};

/// Circle i against a static box with contact i (normal from the box towards the circle,
/// as simdcollide::contact writes it). Reads the circles' vx, vy, inverse_mass; writes vx,
/// vy. Returns the number of contacts that responded.
std::size_t respond(particles_view circles, contacts_cview contacts,
                    response_parameters parameters);

/// Circle a[i] against circle b[i] with contact i (normal from a towards b). Reads vx, vy,
/// inverse_mass of both; writes vx, vy. The two sides must not overlap. Returns the number
/// of contacts that responded.
std::size_t respond(particles_view a, particles_view b, contacts_cview contacts,
                    response_parameters parameters);

/// The responses above on `w`'s workers (workers.hpp): the same checks and the same bits,
/// every worker taking blocks of the pairs.
std::size_t respond(particles_view circles, contacts_cview contacts, response_parameters p,
                    const workers& w);
std::size_t respond(particles_view a, particles_view b, contacts_cview contacts,
                    response_parameters p, const workers& w);

namespace reference {
std::size_t respond(particles_view circles, contacts_cview contacts,
                    response_parameters parameters);
std::size_t respond(particles_view a, particles_view b, contacts_cview contacts,
                    response_parameters parameters);
} // namespace reference

} // namespace simdcollide
