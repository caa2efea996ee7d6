// Public velocity-response entry points: check the arguments once, then call the table.
#include <simdcollide/response.hpp>

#include "pairwise/kernel_table.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace simdcollide {
namespace {

void check_parameters(response_parameters p) {
    if (!(p.restitution >= 0.0F && p.restitution <= 1.0F)) {
        throw std::invalid_argument("simdcollide::respond: restitution is " +
                                    std::to_string(p.restitution) + ", must be in [0, 1]");
    }
    if (!std::isfinite(p.friction) || p.friction < 0.0F) {
        throw std::invalid_argument("simdcollide::respond: friction is " +
                                    std::to_string(p.friction) + ", must be finite and >= 0");
    }
}

void check_contacts(std::size_t count, contacts_cview k) {
    detail::require_count("respond", "contacts", count, k.count);
    detail::require_fields("respond", "contacts", k.count, {k.normal_x, k.normal_y});
}

void check_velocities(const char* what, particles_view p) {
    detail::require_fields("respond", what, p.count, {p.vx, p.vy, p.inverse_mass});
}

std::size_t respond_aabb_with(const detail::kernel_table& t, particles_view c, contacts_cview k,
                              response_parameters p, const detail::task_runner& run = {}) {
    check_parameters(p);
    check_contacts(c.count, k);
    check_velocities("circles", c);
    detail::require_apart("respond",
                          {detail::writes("circles.vx", c.vx, c.count),
                           detail::writes("circles.vy", c.vy, c.count),
                           detail::reads("circles.inverse_mass", c.inverse_mass, c.count),
                           detail::reads("contacts.normal_x", k.normal_x, k.count),
                           detail::reads("contacts.normal_y", k.normal_y, k.count)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.response.circle_aabb(detail::slice(c, i, e), detail::slice(k, i, e), p);
        });
}

std::size_t respond_circle_with(const detail::kernel_table& t, particles_view a, particles_view b,
                                contacts_cview k, response_parameters p,
                                const detail::task_runner& run = {}) {
    check_parameters(p);
    detail::require_count("respond", "b", a.count, b.count);
    check_contacts(a.count, k);
    check_velocities("a", a);
    check_velocities("b", b);
    detail::require_apart(
        "respond",
        {detail::writes("a.vx", a.vx, a.count), detail::writes("a.vy", a.vy, a.count),
         detail::writes("b.vx", b.vx, b.count), detail::writes("b.vy", b.vy, b.count),
         detail::reads("a.inverse_mass", a.inverse_mass, a.count),
         detail::reads("b.inverse_mass", b.inverse_mass, b.count),
         detail::reads("contacts.normal_x", k.normal_x, k.count),
         detail::reads("contacts.normal_y", k.normal_y, k.count)},
        detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.response.circle_circle(detail::slice(a, i, e), detail::slice(b, i, e),
                                            detail::slice(k, i, e), p);
        });
}

} // namespace

std::size_t respond(particles_view circles, contacts_cview contacts, response_parameters p) {
    return respond_aabb_with(detail::active_table(), circles, contacts, p);
}
std::size_t respond(particles_view a, particles_view b, contacts_cview contacts,
                    response_parameters p) {
    return respond_circle_with(detail::active_table(), a, b, contacts, p);
}

std::size_t respond(particles_view circles, contacts_cview contacts, response_parameters p,
                    const workers& w) {
    return respond_aabb_with(detail::active_table(), circles, contacts, p, detail::runner_of(w));
}
std::size_t respond(particles_view a, particles_view b, contacts_cview contacts,
                    response_parameters p, const workers& w) {
    return respond_circle_with(detail::active_table(), a, b, contacts, p, detail::runner_of(w));
}

namespace reference {
std::size_t respond(particles_view circles, contacts_cview contacts, response_parameters p) {
    return respond_aabb_with(detail::reference_table(), circles, contacts, p);
}
std::size_t respond(particles_view a, particles_view b, contacts_cview contacts,
                    response_parameters p) {
    return respond_circle_with(detail::reference_table(), a, b, contacts, p);
}
} // namespace reference

} // namespace simdcollide
