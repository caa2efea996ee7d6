// The scalar reference for ray casts: docs/behaviour.md "Ray casts", each ray against every
// shape of a set, in ascending index. Included in a namespace after minmax.inl and
// swept.inl (whose unit vectors it uses); needs <cmath>, <cstddef>, <cstdint>, <limits> and
// <simdcollide/soa.hpp>.

// Where a ray enters one shape: whether it does, when (t), and whether its origin is in it.
struct ray_entry {
    bool hit;
    float time;
    bool inside;
};

// behaviour.md "Ray casts" 1 and 2: the origin relative to the centre, m = o - c, against a
// circle of radius r. From outside, the time of "Swept circles" 3, computed only for a ray
// that approaches (b < 0) the circle's line (disc >= 0): the others never hit.
inline ray_entry ray_circle_entry(float mx, float my, float dx, float dy, float r) {
    const float cc = (mx * mx + my * my) - r * r;
    if (cc <= 0.0F) {
        return {true, 0.0F, true};
    }
    const float a = dx * dx + dy * dy;
    const float b = mx * dx + my * dy;
    const float cross = mx * dy - my * dx;
    const float disc = a * (r * r) - cross * cross;
    if (!(b < 0.0F && disc >= 0.0F)) {
        return {false, 1.0F, false};
    }
    const float time = max_ps(cc / (std::sqrt(disc) - b), 0.0F);
    return {time <= 1.0F, time, false};
}

// The outward normal where the ray enters a circle from outside: m + t d to unit length.
inline unit_vector ray_circle_normal(float mx, float my, float dx, float dy, float time) {
    const float px = mx + time * dx;
    const float py = my + time * dy;
    return unit_or_against(px, py, px * px + py * py, dx, dy, dx * dx + dy * dy);
}

// One axis' slab of a box for a ray: "Swept circles" 2 with r = 0, the ray's 1 / d given.
inline slab_times ray_slab(float c, float d, float inverse_d, float lo, float hi) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    if (d == 0.0F) {
        return {lo <= c && c <= hi ? -inf : inf, inf};
    }
    const float t0 = (lo - c) * inverse_d;
    const float t1 = (hi - c) * inverse_d;
    return {min_ps(t0, t1), max_ps(t0, t1)};
}

struct ray_box_entry_result {
    ray_entry entry;
    bool x_face; // the face hit is on the x axis
};

// behaviour.md "Ray casts" 1 and 3.
inline ray_box_entry_result ray_box_entry(float ox, float oy, float dx, float dy, float inverse_dx,
                                          float inverse_dy, float min_x, float min_y, float max_x,
                                          float max_y) {
    if (min_x <= ox && ox <= max_x && min_y <= oy && oy <= max_y) {
        return {{true, 0.0F, true}, false};
    }
    const slab_times sx = ray_slab(ox, dx, inverse_dx, min_x, max_x);
    const slab_times sy = ray_slab(oy, dy, inverse_dy, min_y, max_y);
    const float enter = max_ps(sx.enter, sy.enter);
    const float leave = min_ps(sx.leave, sy.leave);
    return {{enter <= leave && enter <= 1.0F && leave >= 0.0F, enter, false}, sx.enter > sy.enter};
}

// A ray's result: its hit at `time` (1 for none) with the normal and shape given.
inline void store_ray_hit(simdcollide::rays_cview rays, std::size_t i,
                          simdcollide::ray_hits_view out, float time, unit_vector normal,
                          std::uint32_t shape) {
    out.fraction[i] = time;
    out.point_x[i] = rays.x[i] + time * rays.dx[i];
    out.point_y[i] = rays.y[i] + time * rays.dy[i];
    out.normal_x[i] = normal.x;
    out.normal_y[i] = normal.y;
    out.shape[i] = shape;
}

// The loops: every ray against every shape, the earliest hit kept (the first on a tie).
// Arguments are already checked.

inline std::size_t ray_circles_loop(simdcollide::rays_cview rays, simdcollide::circles_cview c,
                                    simdcollide::ray_hits_view out) {
    std::size_t hits = 0;
    for (std::size_t i = 0; i < rays.count; ++i) {
        const float dx = rays.dx[i];
        const float dy = rays.dy[i];
        float best = std::numeric_limits<float>::infinity();
        std::uint32_t shape = simdcollide::no_shape;
        bool inside = false;
        float best_mx = 0.0F;
        float best_my = 0.0F;
        for (std::size_t k = 0; k < c.count; ++k) {
            const float mx = rays.x[i] - c.x[k];
            const float my = rays.y[i] - c.y[k];
            const ray_entry e = ray_circle_entry(mx, my, dx, dy, c.radius[k]);
            if (e.hit && e.time < best) {
                best = e.time;
                shape = static_cast<std::uint32_t>(k);
                inside = e.inside;
                best_mx = mx;
                best_my = my;
            }
        }
        if (shape == simdcollide::no_shape) {
            store_ray_hit(rays, i, out, 1.0F, {0.0F, 0.0F}, shape);
            continue;
        }
        const unit_vector n =
            inside ? unit_vector{0.0F, 0.0F} : ray_circle_normal(best_mx, best_my, dx, dy, best);
        store_ray_hit(rays, i, out, best, n, shape);
        ++hits;
    }
    return hits;
}

inline std::size_t ray_boxes_loop(simdcollide::rays_cview rays, simdcollide::aabbs_view b,
                                  simdcollide::ray_hits_view out) {
    std::size_t hits = 0;
    for (std::size_t i = 0; i < rays.count; ++i) {
        const float dx = rays.dx[i];
        const float dy = rays.dy[i];
        const float inverse_dx = 1.0F / dx;
        const float inverse_dy = 1.0F / dy;
        float best = std::numeric_limits<float>::infinity();
        std::uint32_t shape = simdcollide::no_shape;
        bool inside = false;
        bool x_face = false;
        for (std::size_t k = 0; k < b.count; ++k) {
            const ray_box_entry_result e =
                ray_box_entry(rays.x[i], rays.y[i], dx, dy, inverse_dx, inverse_dy, b.min_x[k],
                              b.min_y[k], b.max_x[k], b.max_y[k]);
            if (e.entry.hit && e.entry.time < best) {
                best = e.entry.time;
                shape = static_cast<std::uint32_t>(k);
                inside = e.entry.inside;
                x_face = e.x_face;
            }
        }
        if (shape == simdcollide::no_shape) {
            store_ray_hit(rays, i, out, 1.0F, {0.0F, 0.0F}, shape);
            continue;
        }
        unit_vector n{0.0F, 0.0F};
        if (!inside && x_face) {
            n.x = dx < 0.0F ? 1.0F : -1.0F;
        } else if (!inside) {
            n.y = dy < 0.0F ? 1.0F : -1.0F;
        }
        store_ray_hit(rays, i, out, best, n, shape);
        ++hits;
    }
    return hits;
}

// One ray against a run of circles met in any order (a cell of a grid): the earliest entry,
// the lowest index on a tie, as the loop above finds it over circles in ascending index.
inline void ray_circle_run_loop(float ox, float oy, float dx, float dy, const float* x,
                                const float* y, const float* radius, const std::uint32_t* index,
                                std::size_t count, simdcollide::detail::ray_best& best) {
    for (std::size_t k = 0; k < count; ++k) {
        const float mx = ox - x[k];
        const float my = oy - y[k];
        const ray_entry e = ray_circle_entry(mx, my, dx, dy, radius[k]);
        if (e.hit && (e.time < best.time || (e.time == best.time && index[k] < best.shape))) {
            best = {e.time, index[k], e.inside, mx, my};
        }
    }
}

// Several rays against one run of circles, each from no hit yet.
inline void rays_circle_run_loop(simdcollide::rays_cview rays, const float* x, const float* y,
                                 const float* radius, const std::uint32_t* index, std::size_t count,
                                 simdcollide::detail::ray_best* best) {
    for (std::size_t i = 0; i < rays.count; ++i) {
        best[i] = {};
        ray_circle_run_loop(rays.x[i], rays.y[i], rays.dx[i], rays.dy[i], x, y, radius, index,
                            count, best[i]);
    }
}
