// The scalar reference for the particle world's phase 2 (world.hpp): what the impulse loop
// needs of each contact. Included in a namespace with the other reference .inl files (see
// circle_aabb.inl); needs minmax.inl, circle_circle.inl and <simdcollide/world.hpp>.

// A contact for phase 6: weights wa (0 for a box) and wb, normal, depth and approach speed
// vn0 (< 0 when closing). What does not change within the substep is worked out here once:
// the loop that applies the impulses is a chain (each sees the last's velocities), and a
// division in it would lengthen every link.
inline simdcollide::detail::world_touch touch_of(std::uint32_t a, std::uint32_t b, float wa,
                                                 float wb, float normal_x, float normal_y,
                                                 float depth, float approach,
                                                 const simdcollide::detail::touch_parameters& p) {
    const float total = wa + wb;
    const float inverse_total = total > 0.0F ? 1.0F / total : 0.0F;
    return {a,
            b,
            wa,
            wb,
            normal_x,
            normal_y,
            inverse_total,
            p.restitution * max_ps(-approach, 0.0F),
            p.friction * (depth * p.inverse_h) * inverse_total};
}

// Every listed pair's contact; those in contact, in list order, to touches and touching.
inline std::size_t pair_touches_loop(simdcollide::particles_view c,
                                     const simdcollide::circle_pair* pairs, std::size_t pair_count,
                                     const simdcollide::detail::touch_parameters& p,
                                     simdcollide::detail::world_touch* touches,
                                     simdcollide::circle_pair* touching, float* /*scratch*/) {
    std::size_t count = 0;
    for (std::size_t k = 0; k < pair_count; ++k) {
        const std::uint32_t i = pairs[k].a;
        const std::uint32_t j = pairs[k].b;
        const circle_circle_contact t =
            circle_contact_of(c.x[i], c.y[i], c.radius[i], c.x[j], c.y[j], c.radius[j]);
        if (t.depth > 0.0F) { // zero when there is no contact
            const float approach =
                (c.vx[j] - c.vx[i]) * t.normal_x + (c.vy[j] - c.vy[i]) * t.normal_y;
            touches[count] = touch_of(i, j, c.inverse_mass[i], c.inverse_mass[j], t.normal_x,
                                      t.normal_y, t.depth, approach, p);
            touching[count] = pairs[k];
            ++count;
        }
    }
    return count;
}

// Phase 1 for every circle: semi-implicit Euler, v += g * h then x += v * h, for each circle
// with inverse mass > 0 (gravity_h is g * h, worked out once); every circle's position after
// it also goes to moved_x, moved_y, where phase 5 measures the corrections from.
inline void integrate_loop(simdcollide::particles_view c, float gravity_h_x, float gravity_h_y,
                           float h, float* moved_x, float* moved_y) {
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.inverse_mass[i] > 0.0F) {
            c.vx[i] += gravity_h_x;
            c.vy[i] += gravity_h_y;
            c.x[i] += c.vx[i] * h;
            c.y[i] += c.vy[i] * h;
        }
        moved_x[i] = c.x[i];
        moved_y[i] = c.y[i];
    }
}

// Phase 5 for every circle: each one with inverse mass > 0 gains as velocity its correction
// since phase 1 divided by h (times inverse_h), that gain capped at `cap` in speed.
inline void gain_corrections_loop(simdcollide::particles_view c, const float* moved_x,
                                  const float* moved_y, float inverse_h, float cap) {
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.inverse_mass[i] > 0.0F) {
            const float cx = (c.x[i] - moved_x[i]) * inverse_h;
            const float cy = (c.y[i] - moved_y[i]) * inverse_h;
            const float speed2 = cx * cx + cy * cy;
            const float scale = speed2 > cap * cap ? cap / std::sqrt(speed2) : 1.0F;
            c.vx[i] += cx * scale;
            c.vy[i] += cy * scale;
        }
    }
}
