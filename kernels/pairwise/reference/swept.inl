// The scalar reference for swept circles: docs/behaviour.md "Swept circles", one move at a
// time. Included in a namespace after minmax.inl and circle_aabb.inl (see circle_aabb.inl for
// why); needs <cmath>, <cstddef>, <limits> and <simdcollide/soa.hpp>.

struct impact_result {
    bool hit;
    float time;
    float normal_x;
    float normal_y;
};

// What a move that hits nothing reports.
inline impact_result no_impact() {
    return {false, 1.0F, 0.0F, 0.0F};
}

// behaviour.md "Swept circles" 1: a start already in contact (normal n) is an impact at time 0
// when the move goes further in, d . n < 0; else none.
inline impact_result impact_at_start(float dx, float dy, float normal_x, float normal_y) {
    if (dx * normal_x + dy * normal_y < 0.0F) {
        return {true, 0.0F, normal_x, normal_y};
    }
    return no_impact();
}

struct unit_vector {
    float x;
    float y;
};

// (vx, vy) scaled to unit length, given its squared length v2; where that is 0, the move
// (dx, dy) reversed and scaled to unit length, given its squared length d2 (one square
// root and one division either way).
inline unit_vector unit_or_against(float vx, float vy, float v2, float dx, float dy, float d2) {
    const bool along = v2 > 0.0F;
    const float ux = along ? vx : -dx;
    const float uy = along ? vy : -dy;
    const float inverse_length = 1.0F / std::sqrt(along ? v2 : d2);
    return {ux * inverse_length, uy * inverse_length};
}

// behaviour.md "Swept circles" 3: the moving centre m + t d against a circle of radius `reach`
// at the origin, from a start outside it (cc = |m|^2 - reach^2 >= 0): the smaller root of
// |m + t d|^2 = reach^2. The discriminant b^2 - a cc is computed as a reach^2 - (m x d)^2, its
// equal, and the root as cc / (s - b): neither loses precision to cancellation when the
// circle is small beside its distance. An impact iff the move approaches (b = m . d < 0),
// reaches the circle (disc >= 0) and does so by t = 1. The normal is m + t d scaled to unit
// length; where that is the origin (reach 0, straight through its centre), -d scaled to unit
// length.
inline impact_result impact_on_circle(float mx, float my, float dx, float dy, float reach,
                                      float cc) {
    const float a = dx * dx + dy * dy;
    const float b = mx * dx + my * dy;
    const float cross = mx * dy - my * dx;
    const float disc = a * (reach * reach) - cross * cross;
    const float s = std::sqrt(disc);
    const float time = max_ps(cc / (s - b), 0.0F);
    if (!(b < 0.0F && disc >= 0.0F && time <= 1.0F)) {
        return no_impact();
    }
    const float px = mx + time * dx;
    const float py = my + time * dy;
    const unit_vector n = unit_or_against(px, py, px * px + py * py, dx, dy, a);
    return {true, time, n.x, n.y};
}

struct slab_times {
    float enter;
    float leave;
};

// When the centre c + t d is within [lo, hi] on one axis: [enter, leave], empty (enter =
// +inf) when it never is. One division for both ends.
inline slab_times slab_of(float c, float d, float lo, float hi) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    if (d == 0.0F) {
        return {lo <= c && c <= hi ? -inf : inf, inf};
    }
    const float inverse_d = 1.0F / d;
    const float t0 = (lo - c) * inverse_d;
    const float t1 = (hi - c) * inverse_d;
    return {min_ps(t0, t1), max_ps(t0, t1)};
}

// behaviour.md "Swept circles" 2: circle (c, r) moving by d against box [min, max].
inline impact_result sweep_box_of(float cx, float cy, float r, float dx, float dy, float min_x,
                                  float min_y, float max_x, float max_y) {
    const contact_result start = contact_of(cx, cy, r, min_x, min_y, max_x, max_y, 0.0F);
    if (start.hit) {
        return impact_at_start(dx, dy, start.normal_x, start.normal_y);
    }
    // The times the centre is within the box grown by r, axis by axis.
    const slab_times sx = slab_of(cx, dx, min_x - r, max_x + r);
    const slab_times sy = slab_of(cy, dy, min_y - r, max_y + r);
    const float enter = max_ps(sx.enter, sy.enter);
    const float leave = min_ps(sx.leave, sy.leave);
    if (!(enter <= leave && enter <= 1.0F && leave >= 0.0F)) {
        return no_impact();
    }
    // Where the centre enters the grown box (the start, if it is already inside).
    const float time = max_ps(enter, 0.0F);
    const float qx = cx + time * dx;
    const float qy = cy + time * dy;
    const bool below_x = qx < min_x;
    const bool above_x = qx > max_x;
    const bool below_y = qy < min_y;
    const bool above_y = qy > max_y;
    const bool out_x = below_x || above_x;
    const bool out_y = below_y || above_y;
    if (out_x && out_y) {
        // A corner's quarter circle: the corner of q's quadrant.
        const float mx = cx - (below_x ? min_x : max_x);
        const float my = cy - (below_y ? min_y : max_y);
        return impact_on_circle(mx, my, dx, dy, r, (mx * mx + my * my) - r * r);
    }
    // A face: the axis q lies beyond the box on; within both spans (r = 0), the axis entered last.
    const bool x_face = out_x || (!out_y && sx.enter > sy.enter);
    float normal_x = 0.0F;
    float normal_y = 0.0F;
    if (x_face) {
        normal_x = (out_x ? above_x : dx < 0.0F) ? 1.0F : -1.0F;
    } else {
        normal_y = (out_y ? above_y : dy < 0.0F) ? 1.0F : -1.0F;
    }
    if (!(dx * normal_x + dy * normal_y < 0.0F)) {
        return no_impact();
    }
    return {true, time, normal_x, normal_y};
}

// behaviour.md "Swept circles" 4: circle (a, ra) moving by d against a still circle (b, rb):
// the centre against a circle of radius ra + rb about b.
inline impact_result sweep_circle_of(float ax, float ay, float ar, float dx, float dy, float bx,
                                     float by, float br) {
    const float mx = ax - bx;
    const float my = ay - by;
    const float reach = ar + br;
    const float d2 = mx * mx + my * my;
    const float cc = d2 - reach * reach;
    if (cc < 0.0F) {
        // In contact at the start: the normal from b's centre to a's, or against the move
        // where the centres coincide.
        const unit_vector n = unit_or_against(mx, my, d2, dx, dy, dx * dx + dy * dy);
        return impact_at_start(dx, dy, n.x, n.y);
    }
    return impact_on_circle(mx, my, dx, dy, reach, cc);
}

// The loops: move i of circle i against obstacle i. Arguments are already checked.

inline void store_impact(simdcollide::impacts_view out, std::size_t i, const impact_result& k) {
    out.time[i] = k.time;
    out.normal_x[i] = k.normal_x;
    out.normal_y[i] = k.normal_y;
}

inline std::size_t sweep_box_loop(simdcollide::circles_cview c, simdcollide::displacements_cview d,
                                  simdcollide::aabbs_view b, simdcollide::impacts_view out) {
    std::size_t hits = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const impact_result k = sweep_box_of(c.x[i], c.y[i], c.radius[i], d.dx[i], d.dy[i],
                                             b.min_x[i], b.min_y[i], b.max_x[i], b.max_y[i]);
        store_impact(out, i, k);
        hits += k.hit ? 1 : 0;
    }
    return hits;
}

inline std::size_t sweep_one_box_loop(simdcollide::circles_cview c,
                                      simdcollide::displacements_cview d, simdcollide::aabb box,
                                      simdcollide::impacts_view out) {
    std::size_t hits = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const impact_result k = sweep_box_of(c.x[i], c.y[i], c.radius[i], d.dx[i], d.dy[i],
                                             box.min_x, box.min_y, box.max_x, box.max_y);
        store_impact(out, i, k);
        hits += k.hit ? 1 : 0;
    }
    return hits;
}

inline std::size_t sweep_circle_loop(simdcollide::circles_cview c,
                                     simdcollide::displacements_cview d,
                                     simdcollide::circles_cview obstacles,
                                     simdcollide::impacts_view out) {
    std::size_t hits = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const impact_result k =
            sweep_circle_of(c.x[i], c.y[i], c.radius[i], d.dx[i], d.dy[i], obstacles.x[i],
                            obstacles.y[i], obstacles.radius[i]);
        store_impact(out, i, k);
        hits += k.hit ? 1 : 0;
    }
    return hits;
}
