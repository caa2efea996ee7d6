// The scalar reference for velocity response: docs/behaviour.md "Velocity response", one contact at
// a time. Included in a namespace with the other reference .inl files (see circle_aabb.inl); needs
// minmax.inl and <simdcollide/response.hpp>.

struct impulse_result {
    bool responds; // an approaching contact with some weight
    float x;       // the impulse P = j * n + jt * t
    float y;
};

// The impulse for a contact with normal n from A to B, relative velocity v = vB - vA and
// weights (inverse masses) wa, wb, scaled where scale_weights (weights.inl) says so by the
// caller, which applies the impulse with the same scaled weights. See response.hpp for the
// formulas.
inline impulse_result impulse_of(float nx, float ny, float vx, float vy, float wa, float wb,
                                 simdcollide::response_parameters p) {
    impulse_result r{};
    const float vn = vx * nx + vy * ny;
    const float total = wa + wb;
    if (!(vn < 0.0F) || !(total > 0.0F)) {
        return r;
    }
    // One division for both impulses (see response.hpp).
    const float inverse_total = 1.0F / total;
    const float j = -(1.0F + p.restitution) * vn * inverse_total;
    // Friction along t = (-n.y, n.x): remove the tangential velocity, within the Coulomb cone.
    const float tx = -ny;
    const float ty = nx;
    const float vt = vx * tx + vy * ty;
    const float limit = p.friction * j;
    const float jt = max_ps(-limit, min_ps(-vt * inverse_total, limit));
    r.responds = true;
    r.x = j * nx + jt * tx;
    r.y = j * ny + jt * ty;
    return r;
}

// Circle i against a static box (weight 0, velocity 0) with contact i.
inline std::size_t respond_circle_aabb_loop(simdcollide::particles_view c,
                                            simdcollide::contacts_cview k,
                                            simdcollide::response_parameters p) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        float unused = 0.0F;
        float w = c.inverse_mass[i];
        scale_weights(unused, w);
        const impulse_result r =
            impulse_of(k.normal_x[i], k.normal_y[i], c.vx[i], c.vy[i], 0.0F, w, p);
        if (r.responds) {
            c.vx[i] += r.x * w;
            c.vy[i] += r.y * w;
            ++count;
        }
    }
    return count;
}

// Circle a[i] against circle b[i] with contact i (normal from a to b).
inline std::size_t respond_circle_circle_loop(simdcollide::particles_view a,
                                              simdcollide::particles_view b,
                                              simdcollide::contacts_cview k,
                                              simdcollide::response_parameters p) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        float wa = a.inverse_mass[i];
        float wb = b.inverse_mass[i];
        scale_weights(wa, wb);
        const impulse_result r = impulse_of(k.normal_x[i], k.normal_y[i], b.vx[i] - a.vx[i],
                                            b.vy[i] - a.vy[i], wa, wb, p);
        if (r.responds) {
            if (wa > 0.0F) {
                a.vx[i] -= r.x * wa;
                a.vy[i] -= r.y * wa;
            }
            if (wb > 0.0F) {
                b.vx[i] += r.x * wb;
                b.vy[i] += r.y * wb;
            }
            ++count;
        }
    }
    return count;
}
