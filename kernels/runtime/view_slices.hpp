// Items [begin, end) of a view: how a batch entry point hands each worker its block. A null
// field (one a kernel does not read) stays null.
#pragma once

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <span>

namespace simdcollide::detail {

template <class T>
[[nodiscard]] T* from(T* p, std::size_t begin) noexcept {
    return p == nullptr ? nullptr : p + begin;
}

[[nodiscard]] inline circles_cview slice(circles_cview c, std::size_t begin, std::size_t end) {
    return {from(c.x, begin), from(c.y, begin), from(c.radius, begin), end - begin};
}
[[nodiscard]] inline circles_view slice(circles_view c, std::size_t begin, std::size_t end) {
    return {from(c.x, begin), from(c.y, begin), from(c.radius, begin), end - begin};
}
[[nodiscard]] inline particles_view slice(particles_view p, std::size_t begin, std::size_t end) {
    return {from(p.x, begin),
            from(p.y, begin),
            from(p.radius, begin),
            from(p.inverse_mass, begin),
            from(p.vx, begin),
            from(p.vy, begin),
            end - begin};
}
[[nodiscard]] inline aabbs_view slice(aabbs_view b, std::size_t begin, std::size_t end) {
    return {from(b.min_x, begin), from(b.min_y, begin), from(b.max_x, begin), from(b.max_y, begin),
            end - begin};
}
[[nodiscard]] inline box_bodies_view slice(box_bodies_view b, std::size_t begin, std::size_t end) {
    return {from(b.min_x, begin), from(b.min_y, begin),        from(b.max_x, begin),
            from(b.max_y, begin), from(b.inverse_mass, begin), end - begin};
}
[[nodiscard]] inline points_view slice(points_view p, std::size_t begin, std::size_t end) {
    return {from(p.x, begin), from(p.y, begin), end - begin};
}
[[nodiscard]] inline rays_cview slice(rays_cview r, std::size_t begin, std::size_t end) {
    return {from(r.x, begin), from(r.y, begin), from(r.dx, begin), from(r.dy, begin), end - begin};
}
[[nodiscard]] inline ray_hits_view slice(ray_hits_view h, std::size_t begin, std::size_t end) {
    return {from(h.fraction, begin),
            from(h.point_x, begin),
            from(h.point_y, begin),
            from(h.normal_x, begin),
            from(h.normal_y, begin),
            from(h.shape, begin),
            end - begin};
}
[[nodiscard]] inline contacts_view slice(contacts_view c, std::size_t begin, std::size_t end) {
    return {from(c.normal_x, begin), from(c.normal_y, begin), from(c.depth, begin),
            from(c.point_x, begin),  from(c.point_y, begin),  end - begin};
}
[[nodiscard]] inline contacts_cview slice(contacts_cview c, std::size_t begin, std::size_t end) {
    return {from(c.normal_x, begin), from(c.normal_y, begin), from(c.depth, begin),
            from(c.point_x, begin),  from(c.point_y, begin),  end - begin};
}
[[nodiscard]] inline displacements_cview slice(displacements_cview m, std::size_t begin,
                                               std::size_t end) {
    return {from(m.dx, begin), from(m.dy, begin), end - begin};
}
[[nodiscard]] inline impacts_view slice(impacts_view i, std::size_t begin, std::size_t end) {
    return {from(i.time, begin), from(i.normal_x, begin), from(i.normal_y, begin), end - begin};
}
template <class T>
[[nodiscard]] std::span<T> slice(std::span<T> s, std::size_t begin, std::size_t end) {
    return s.empty() ? s : s.subspan(begin, end - begin);
}

} // namespace simdcollide::detail
