// The scalar reference for circle against circle: docs/behaviour.md "Circle against circle", one
// pair at a time. Included in a namespace, like circle_aabb.inl (see there for why); needs <cmath>,
// <cstddef>, <cstdint>, <simdcollide/soa.hpp> and <simdcollide/circle_circle.hpp>.

struct circle_circle_contact {
    bool hit;
    float normal_x;
    float normal_y;
    float depth;
    float point_x;
    float point_y;
};

// behaviour.md 1 and 2: d = b.c - a.c; a contact iff d2 < (a.r + b.r)^2; the normal runs from a to
// b, (1, 0) for coincident centres; the point is the midpoint of the two surface points.
inline circle_circle_contact circle_contact_of(float ax, float ay, float ar, float bx, float by,
                                               float br) {
    const float dx = bx - ax;
    const float dy = by - ay;
    const float d2 = dx * dx + dy * dy;
    const float reach = ar + br;
    circle_circle_contact c{};
    c.hit = d2 < reach * reach;
    if (!c.hit) {
        return c; // zeros
    }
    const float dist = std::sqrt(d2);
    if (d2 == 0.0F) {
        c.normal_x = 1.0F;
        c.normal_y = 0.0F;
    } else {
        const float inverse_dist = 1.0F / dist; // one division for both (see circle_aabb.inl)
        c.normal_x = dx * inverse_dist;
        c.normal_y = dy * inverse_dist;
    }
    c.depth = reach - dist;
    const float along = ar - c.depth * 0.5F;
    c.point_x = ax + c.normal_x * along;
    c.point_y = ay + c.normal_y * along;
    return c;
}

struct separation_result {
    bool moves_a; // false keeps a's bits exactly (static, or no contact)
    bool moves_b;
    float a_dx;
    float a_dy;
    float b_dx;
    float b_dy;
};

// behaviour.md 3: the centres move apart along n by depth in total: a by -n * depth * wa / (wa +
// wb), b by +n * depth * wb / (wa + wb), computed with the weights scaled where scale_weights
// (weights.inl) says so, as share = depth / (wa + wb), then n * (share * w). Nothing moves when
// wa + wb == 0.
inline separation_result separation_of(simdcollide::separation_weighting mode, float ax, float ay,
                                       float ar, float aw, float bx, float by, float br, float bw) {
    separation_result s{};
    const circle_circle_contact c = circle_contact_of(ax, ay, ar, bx, by, br);
    const separation_weights w = separation_weights_of(mode, ar, aw, br, bw);
    float wa = w.a;
    float wb = w.b;
    scale_weights(wa, wb);
    const float total = wa + wb;
    if (!c.hit || !(total > 0.0F)) {
        return s;
    }
    const float share = c.depth / total;
    const float move_a = share * wa;
    const float move_b = share * wb;
    s.moves_a = w.a > 0.0F;
    s.moves_b = w.b > 0.0F;
    s.a_dx = -(c.normal_x * move_a);
    s.a_dy = -(c.normal_y * move_a);
    s.b_dx = c.normal_x * move_b;
    s.b_dy = c.normal_y * move_b;
    return s;
}

// The loops. Arguments are already checked.

inline void circle_distance_squared_loop(simdcollide::circles_cview a, simdcollide::circles_cview b,
                                         float* out) {
    for (std::size_t i = 0; i < a.count; ++i) {
        const float dx = b.x[i] - a.x[i];
        const float dy = b.y[i] - a.y[i];
        out[i] = dx * dx + dy * dy;
    }
}

inline std::size_t circle_overlap_loop(simdcollide::circles_cview a, simdcollide::circles_cview b,
                                       std::uint8_t* mask) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const bool hit =
            circle_contact_of(a.x[i], a.y[i], a.radius[i], b.x[i], b.y[i], b.radius[i]).hit;
        if (mask != nullptr) {
            mask[i] = hit ? 1 : 0;
        }
        count += hit ? 1 : 0;
    }
    return count;
}

inline std::size_t circle_contact_loop(simdcollide::circles_cview a, simdcollide::circles_cview b,
                                       simdcollide::contacts_view out) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const circle_circle_contact k =
            circle_contact_of(a.x[i], a.y[i], a.radius[i], b.x[i], b.y[i], b.radius[i]);
        out.normal_x[i] = k.normal_x;
        out.normal_y[i] = k.normal_y;
        out.depth[i] = k.depth;
        out.point_x[i] = k.point_x;
        out.point_y[i] = k.point_y;
        count += k.hit ? 1 : 0;
    }
    return count;
}

// Pair list: pair k's contact into out[k]. (The scratch is for SIMD paths.)
inline std::size_t circle_pair_contact_loop(simdcollide::circles_cview c,
                                            const simdcollide::circle_pair* pairs,
                                            std::size_t pair_count, simdcollide::contacts_view out,
                                            float* /*scratch*/) {
    std::size_t count = 0;
    for (std::size_t k = 0; k < pair_count; ++k) {
        const std::uint32_t i = pairs[k].a;
        const std::uint32_t j = pairs[k].b;
        const circle_circle_contact t =
            circle_contact_of(c.x[i], c.y[i], c.radius[i], c.x[j], c.y[j], c.radius[j]);
        out.normal_x[k] = t.normal_x;
        out.normal_y[k] = t.normal_y;
        out.depth[k] = t.depth;
        out.point_x[k] = t.point_x;
        out.point_y[k] = t.point_y;
        count += t.hit ? 1 : 0;
    }
    return count;
}

// Aligned pairs: a[i] against b[i], each pair on its own.
inline std::size_t circle_separate_loop(simdcollide::particles_view a,
                                        simdcollide::particles_view b,
                                        simdcollide::separation_weighting mode) {
    std::size_t moved = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const separation_result s =
            separation_of(mode, a.x[i], a.y[i], a.radius[i], a.inverse_mass[i], b.x[i], b.y[i],
                          b.radius[i], b.inverse_mass[i]);
        if (s.moves_a) {
            a.x[i] += s.a_dx;
            a.y[i] += s.a_dy;
        }
        if (s.moves_b) {
            b.x[i] += s.b_dx;
            b.y[i] += s.b_dy;
        }
        moved += s.moves_a || s.moves_b ? 1 : 0;
    }
    return moved;
}

// Pair list: every pair's correction from the positions at the start of the call, summed per
// circle in pair order by the shared accumulate step (simdcollide::detail, pair_list.cpp).
inline void circle_pair_corrections_loop(simdcollide::particles_view c,
                                         const simdcollide::circle_pair* pairs,
                                         std::size_t pair_count,
                                         simdcollide::separation_weighting mode,
                                         const simdcollide::detail::pair_corrections& out) {
    for (std::size_t k = 0; k < pair_count; ++k) {
        const std::uint32_t i = pairs[k].a;
        const std::uint32_t j = pairs[k].b;
        const separation_result s =
            separation_of(mode, c.x[i], c.y[i], c.radius[i], c.inverse_mass[i], c.x[j], c.y[j],
                          c.radius[j], c.inverse_mass[j]);
        out.add(i, s.moves_a, s.a_dx, s.a_dy);
        out.add(j, s.moves_b, s.b_dx, s.b_dy);
    }
}
