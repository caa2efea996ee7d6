// The scalar reference for the particle world's phases 1 to 6 (world.hpp): what the
// impulse loop needs of each contact, and the loop itself. Included in a namespace with the
// other reference .inl files (see circle_aabb.inl); needs minmax.inl, circle_circle.inl, <limits>,
// <simdcollide/world.hpp> and, on x86, <emmintrin.h>.

// Shock propagation (world_options::shock_propagation): d, the normal's component along
// gravity, is > 0 when b lies below a. The share of the lower circle's weight taken away is
// p.shock_propagation * d * |d|, signed by which circle is lower: +0 unless both circles
// move and shock propagation is on.
inline float shock_of(float wa, float wb, float normal_x, float normal_y,
                      const simdcollide::detail::touch_parameters& p) {
    if (p.shock_propagation == 0.0F || !(wa > 0.0F && wb > 0.0F)) {
        return 0.0F;
    }
    const float down = normal_x * p.down_x + normal_y * p.down_y;
    return p.shock_propagation * (down * std::fabs(down));
}

// The weights a circle pair's impulse acts with (world_touch): the lower one's scaled by
// 1 - |shock|. With shock 0 they are wa and wb, bits and all.
struct pair_weights {
    float a;
    float b;
};
inline pair_weights shocked_weights(float wa, float wb, float shock) {
    return {wa * (1.0F + min_ps(shock, 0.0F)), wb * (1.0F - max_ps(shock, 0.0F))};
}

// 1 / W for a touch's weights (0 when their sum is not > 0). The touch's corrected limit is
// worked out with it, and phase 6 works it out again from the touch's weights: the same
// operands, so the same bits. In phase 6 it depends on the touch alone, off the chain of
// velocities that the impulses form.
inline float inverse_total_of(float weight_a, float weight_b) {
    const float total = weight_a + weight_b;
    return total > 0.0F ? 1.0F / total : 0.0F;
}

// A contact for phase 6: inverse masses wa (0 for a box) and wb, normal, depth and approach
// speed vn0 (< 0 when closing). What does not change within the substep is worked out here
// once: the loop that applies the impulses is a chain (each sees the last's velocities).
inline simdcollide::detail::world_touch touch_of(std::uint32_t a, std::uint32_t b, float wa,
                                                 float wb, float normal_x, float normal_y,
                                                 float depth, float approach,
                                                 const simdcollide::detail::touch_parameters& p) {
    const float shock = shock_of(wa, wb, normal_x, normal_y, p);
    pair_weights w = shocked_weights(wa, wb, shock);
    scale_weights(w.a, w.b);
    return {a,
            b,
            normal_x,
            normal_y,
            w.a,
            w.b,
            p.restitution * max_ps(-approach, 0.0F),
            p.friction * (depth * p.inverse_h) * inverse_total_of(w.a, w.b)};
}

// A listed (circle, box) contact's contact now: the circle-AABB contact (circle_aabb.inl,
// margin 0) of circle listed.a against box listed.b, a record of (min x, min y, max x,
// max y) in `boxes`.
inline contact_result box_contact_of(simdcollide::particles_view c, const float* boxes,
                                     simdcollide::circle_pair listed) {
    const std::uint32_t i = listed.a;
    const float* const box = boxes + std::size_t{4} * listed.b;
    return contact_of(c.x[i], c.y[i], c.radius[i], box[0], box[1], box[2], box[3], 0.0F);
}

// Phase 2 for the listed (circle, box) contacts: each one's contact, and for those in
// contact, in list order, the world_touch to touches: the box as a (static, weight 0), the
// circle as b, and the approach speed the circle's velocity along the normal.
inline std::size_t box_touches_loop(simdcollide::particles_view c,
                                    const simdcollide::circle_pair* listed, std::size_t count,
                                    const float* boxes,
                                    const simdcollide::detail::touch_parameters& p,
                                    simdcollide::detail::world_touch* touches) {
    std::size_t touching = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t i = listed[k].a;
        const contact_result t = box_contact_of(c, boxes, listed[k]);
        if (t.hit && t.depth > 0.0F) {
            const float approach = c.vx[i] * t.normal_x + c.vy[i] * t.normal_y;
            touches[touching] = touch_of(listed[k].b, i, 0.0F, c.inverse_mass[i], t.normal_x,
                                         t.normal_y, t.depth, approach, p);
            ++touching;
        }
    }
    return touching;
}

// Phase 4: each listed (circle, box) in list order, the circle pushed out along the
// contact's normal by its depth where in contact, from the position the last left
// (docs/behaviour.md's order rule: a circle's boxes act in ascending index when listed so).
inline void push_boxes_loop(simdcollide::particles_view c, const simdcollide::circle_pair* listed,
                            std::size_t count, const float* boxes) {
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t i = listed[k].a;
        const contact_result t = box_contact_of(c, boxes, listed[k]);
        if (t.hit && t.depth > 0.0F) {
            c.x[i] += t.normal_x * t.depth;
            c.y[i] += t.normal_y * t.depth;
        }
    }
}

// The world's circles into their slots and back: to[k] = from[index[k]], bits and all.
inline void permute_loop(const float* from, const std::uint32_t* index, std::size_t count,
                         float* to) {
    for (std::size_t k = 0; k < count; ++k) {
        to[k] = from[index[k]];
    }
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

// Phase 3's hold (world.hpp, step 3): a move from moved longer than fraction * radius is
// scaled back along its direction to that length. A move that compares false (NaN, or
// within reach) is left as it is, bits and all.
// The largest squared speed: max_ps(v2, m) over the circles (a NaN never wins).
inline float fastest_loop(simdcollide::particles_view c) {
    float m = 0.0F;
    for (std::size_t i = 0; i < c.count; ++i) {
        m = max_ps(c.vx[i] * c.vx[i] + c.vy[i] * c.vy[i], m);
    }
    return m;
}

inline void hold_moves_loop(simdcollide::particles_view c, const float* moved_x,
                            const float* moved_y, float fraction) {
    for (std::size_t i = 0; i < c.count; ++i) {
        const float dx = c.x[i] - moved_x[i];
        const float dy = c.y[i] - moved_y[i];
        const float reach = fraction * c.radius[i];
        const float move2 = dx * dx + dy * dy;
        if (move2 > reach * reach) {
            const float scale = reach / std::sqrt(move2);
            c.x[i] = moved_x[i] + dx * scale;
            c.y[i] = moved_y[i] + dy * scale;
        }
    }
}

// Phase 3 for one pair q = (i, j): recorded first (into touches[touching], counted) when
// `record` is not null and the pair is in contact, then separated.
inline void separate_pair(simdcollide::particles_view c, simdcollide::circle_pair q,
                          simdcollide::separation_weighting mode,
                          const simdcollide::detail::touch_recording* record,
                          std::size_t& touching) {
    const std::uint32_t i = q.a;
    const std::uint32_t j = q.b;
    if (record != nullptr) {
        const circle_circle_contact t =
            circle_contact_of(c.x[i], c.y[i], c.radius[i], c.x[j], c.y[j], c.radius[j]);
        if (t.depth > 0.0F) { // zero when there is no contact
            const float approach =
                (c.vx[j] - c.vx[i]) * t.normal_x + (c.vy[j] - c.vy[i]) * t.normal_y;
            record->touches[touching] =
                touch_of(i, j, c.inverse_mass[i], c.inverse_mass[j], t.normal_x, t.normal_y,
                         t.depth, approach, record->parameters);
            ++touching;
        }
    }
    const separation_result s = separation_of(mode, c.x[i], c.y[i], c.radius[i], c.inverse_mass[i],
                                              c.x[j], c.y[j], c.radius[j], c.inverse_mass[j]);
    if (s.moves_a) {
        c.x[i] += s.a_dx;
        c.y[i] += s.a_dy;
    }
    if (s.moves_b) {
        c.x[j] += s.b_dx;
        c.y[j] += s.b_dy;
    }
}

// Phase 3: `rounds` passes over the pairs in list order, each pair separated (behaviour.md 3) from
// the positions the pairs before it left. With a record, in the first round each pair in
// contact (depth > 0) is recorded as its turn comes, before it is separated: its contact
// from those positions, its approach speed from the velocities. The groups
// (pair_groups.hpp) only tell the SIMD paths which pairs they may take side by side; one by
// one, they change nothing. Then, unless `hold` is null, the hold.
inline std::size_t separate_in_order_loop(simdcollide::particles_view c,
                                          const simdcollide::circle_pair* pairs,
                                          const std::uint32_t* ends, std::size_t groups,
                                          simdcollide::separation_weighting mode, int rounds,
                                          const simdcollide::detail::touch_recording* record,
                                          const simdcollide::detail::move_hold* hold,
                                          float* /*scratch*/) {
    const std::size_t count = groups == 0 ? 0 : ends[groups - 1];
    std::size_t touching = 0;
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t k = 0; k < count; ++k) {
            separate_pair(c, pairs[k], mode, round == 0 ? record : nullptr, touching);
        }
    }
    if (hold != nullptr) {
        hold_moves_loop(c, hold->moved_x, hold->moved_y, hold->fraction);
    }
    return touching;
}

// Phase 5 for every circle: each one with inverse mass > 0 gains as velocity its correction
// since phase 1 divided by h (times inverse_h), that gain capped at `cap` in speed.
// A correction whose speed squared passes the float range (a circle pushed out of a box
// 1e38 wide) gains `cap` along its move, the move's halves divided by their larger
// magnitude so that nothing overflows: squaring it would give an infinite speed, and
// inf * (cap / inf) a NaN velocity.
inline void gain_corrections_loop(simdcollide::particles_view c, const float* moved_x,
                                  const float* moved_y, float inverse_h, float cap) {
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.inverse_mass[i] > 0.0F) {
            float cx = (c.x[i] - moved_x[i]) * inverse_h;
            float cy = (c.y[i] - moved_y[i]) * inverse_h;
            const float speed2 = cx * cx + cy * cy;
            float scale = speed2 > cap * cap ? cap / std::sqrt(speed2) : 1.0F;
            if (speed2 == std::numeric_limits<float>::infinity()) {
                const float half_x = c.x[i] * 0.5F - moved_x[i] * 0.5F;
                const float half_y = c.y[i] * 0.5F - moved_y[i] * 0.5F;
                const float larger = max_ps(std::fabs(half_x), std::fabs(half_y));
                cx = half_x / larger;
                cy = half_y / larger;
                scale = cap / std::sqrt(cx * cx + cy * cy);
            }
            c.vx[i] += cx * scale;
            c.vy[i] += cy * scale;
        }
    }
}

// max_ps(a, b) = a > b ? a : b, without a branch. GCC 12 compiles that expression against
// a constant 0 into a compare and a jump, and whether a contact's impulse is positive is
// close to random: in a profile of the benchmark pile, the mispredicted jumps were the
// costliest instructions of the impulse loop. x86's maxss is this exact function (the
// second operand wins ties and NaN).
inline float max_ps_branchless(float a, float b) {
#if defined(__SSE2__)
    return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(a), _mm_set_ss(b)));
#else
    return max_ps(a, b);
#endif
}

// The impulse of phase 6 (world.hpp) for one contact, after the velocity update: the
// normal velocity is raised to e times the approach speed before the substep's corrections
// (never lowered), and Coulomb friction is bounded by mu times the whole normal impulse,
// the one the position correction amounted to included. n runs from A to B; (vx, vy) is
// vB - vA. What does not change within the substep was worked out when the contact was
// recorded (touch_of: in phase 2 for a box, in phase 3 for a circle pair).
struct contact_impulse {
    float x; // the impulse P = j * n + jt * t
    float y;
    float normal; // j and jt: what a later pass starts from
    float tangent;
};
inline contact_impulse world_impulse_of(const simdcollide::detail::world_touch& t, float vx,
                                        float vy, float friction) {
    const float inverse_total = inverse_total_of(t.weight_a, t.weight_b);
    const float vn = vx * t.normal_x + vy * t.normal_y;
    const float j = max_ps_branchless(t.target - vn, 0.0F) * inverse_total;
    const float tx = -t.normal_y;
    const float ty = t.normal_x;
    const float vt = vx * tx + vy * ty;
    const float limit = t.corrected_limit + friction * j;
    const float jt = max_ps(-limit, min_ps(-vt * inverse_total, limit));
    return {j * t.normal_x + jt * tx, j * t.normal_y + jt * ty, j, jt};
}

// A circle pair's impulse applied: A gets -P * wa, B gets +P * wb (the touch's weights:
// their inverse masses, the lower one's scaled by shock propagation); a circle whose
// weight is 0 keeps its velocity's bits.
inline void push_pair(simdcollide::particles_view c, const simdcollide::detail::world_touch& t,
                      const contact_impulse& j) {
    const float wa = t.weight_a;
    const float wb = t.weight_b;
    if (wa > 0.0F) {
        c.vx[t.a] -= j.x * wa;
        c.vy[t.a] -= j.y * wa;
    }
    if (wb > 0.0F) {
        c.vx[t.b] += j.x * wb;
        c.vy[t.b] += j.y * wb;
    }
}

// A box contact's impulse applied to its circle, B (the box is A, static), with the
// touch's weight for it: its inverse mass. Box contacts are listed only for circles with
// inverse mass > 0, so no weight test.
inline void push_box(simdcollide::particles_view c, const simdcollide::detail::world_touch& t,
                     const contact_impulse& j) {
    const float wb = t.weight_b;
    c.vx[t.b] += j.x * wb;
    c.vy[t.b] += j.y * wb;
}

// Calls respond(k) for k in [0, count) in `runs` interleaved runs: k, k + q, k + 2q, ... for
// q = count / runs rounded up (phase 6's order for circle pairs, world.hpp).
template <class Respond>
void for_each_in_runs(std::size_t count, std::size_t runs, Respond&& respond) {
    const std::size_t run_length = (count + runs - 1) / runs;
    for (std::size_t k = 0; k < run_length; ++k) {
        for (std::size_t run = 0; run < runs; ++run) {
            if (k + run * run_length < count) {
                respond(k + run * run_length);
            }
        }
    }
}

// Phase 6 for the circle pairs in contact (a single pass): each one's impulse in the order
// of impulse_runs interleaved runs, each seeing the last's velocities.
inline void respond_pairs_loop(simdcollide::particles_view c,
                               const simdcollide::detail::world_touch* touches, std::size_t count,
                               float friction, float* /*scratch*/) {
    for_each_in_runs(count, simdcollide::detail::impulse_runs, [&](std::size_t k) {
        const simdcollide::detail::world_touch t = touches[k];
        push_pair(c, t,
                  world_impulse_of(t, c.vx[t.b] - c.vx[t.a], c.vy[t.b] - c.vy[t.a], friction));
    });
}

// Phases 5 and 6 with a single velocity pass: the corrections' gain, then the box
// contacts in order (a moving box's on the velocity relative to it), then the circle pairs. Copies,
// not references, of the friction and of each box touch: a store to a velocity could alias them for
// all GCC knows, and it would load them again after every store.
inline void gain_and_respond_loop(simdcollide::particles_view c,
                                  const simdcollide::detail::velocity_update& u, float* scratch) {
    gain_corrections_loop(c, u.moved_x, u.moved_y, u.inverse_h, u.cap);
    const float friction = u.friction;
    for (std::size_t k = 0; k < u.box_count; ++k) {
        const simdcollide::detail::world_touch t = u.boxes[k];
        float vx = c.vx[t.b];
        float vy = c.vy[t.b];
        if (u.box_vx != nullptr && t.a >= u.moving_from) { // relative to a moving box
            vx -= u.box_vx[t.a - u.moving_from];
            vy -= u.box_vy[t.a - u.moving_from];
        }
        push_box(c, t, world_impulse_of(t, vx, vy, friction));
    }
    respond_pairs_loop(c, u.pairs, u.pair_count, friction, scratch);
}

// Substeps with a single separation round and a single velocity pass, on
// run_substeps_in_bands' schedule (bands.hpp) one after another, whatever s.in_flight says
// (so that the SIMD paths, which overlap them, are held to these bits): each band fronted
// (phases 1 and 2), separated (phase 3, recording, group by group), finished (the hold,
// phase 4, phase 5) and responded (phase 6: its box touches, then its pair touches in list
// order) as the schedule says.
inline void substeps_in_bands_loop(simdcollide::particles_view c,
                                   simdcollide::detail::band_substep& s, float* /*scratch*/) {
    namespace detail = simdcollide::detail;
    const detail::band_plan& plan = s.plan;
    const auto front = [&](std::size_t /*slot*/, std::size_t band) {
        const detail::band_range r = detail::band_circles(plan, c.count, band);
        const std::size_t moved = plan.ring_slot(r.first);
        integrate_loop(detail::sub_view(c, r), s.gravity_h_x, s.gravity_h_y, s.h, s.moved_x + moved,
                       s.moved_y + moved);
        const std::size_t first_listed = detail::first_of(plan.listed_end, band);
        s.box_touch_end[band] = static_cast<std::uint32_t>(
            first_listed + box_touches_loop(c, s.box_listed + first_listed,
                                            plan.listed_end[band] - first_listed, s.boxes, s.touch,
                                            s.box_touches + first_listed));
    };
    const auto separate = [&](std::size_t /*slot*/, std::size_t band) {
        std::size_t at = plan.touch_start[band];
        const detail::touch_recording record{s.touch, s.pair_touches};
        for (std::size_t g = detail::first_of(plan.group_end, band); g < plan.group_end[band];
             ++g) {
            for (std::size_t k = detail::first_of(s.ends, g); k < s.ends[g]; ++k) {
                separate_pair(c, s.pairs[k], s.mode, &record, at);
            }
            s.touch_group_end[g] = static_cast<std::uint32_t>(at);
        }
    };
    const auto finish = [&](std::size_t /*slot*/, std::size_t band) {
        const detail::band_range r = detail::band_circles(plan, c.count, band);
        const simdcollide::particles_view f = detail::sub_view(c, r);
        const std::size_t moved = plan.ring_slot(r.first);
        hold_moves_loop(f, s.moved_x + moved, s.moved_y + moved, s.hold_fraction);
        const std::size_t first_listed = detail::first_of(plan.listed_end, band);
        push_boxes_loop(c, s.box_listed + first_listed, plan.listed_end[band] - first_listed,
                        s.boxes);
        gain_corrections_loop(f, s.moved_x + moved, s.moved_y + moved, s.touch.inverse_h, s.cap);
    };
    const auto respond = [&](std::size_t /*slot*/, std::size_t band) {
        const float friction = s.touch.friction;
        for (std::size_t k = detail::first_of(plan.listed_end, band); k < s.box_touch_end[band];
             ++k) {
            const detail::world_touch t = s.box_touches[k];
            push_box(c, t, world_impulse_of(t, c.vx[t.b], c.vy[t.b], friction));
        }
        const std::size_t last_group = plan.group_end[band];
        const std::size_t end = last_group == detail::first_of(plan.group_end, band)
                                    ? plan.touch_start[band]
                                    : s.touch_group_end[last_group - 1];
        for (std::size_t k = plan.touch_start[band]; k < end; ++k) {
            const detail::world_touch t = s.pair_touches[k];
            push_pair(c, t,
                      world_impulse_of(t, c.vx[t.b] - c.vx[t.a], c.vy[t.b] - c.vy[t.a], friction));
        }
    };
    detail::run_substeps_in_bands(plan, c.count, s.substeps, 1, front, separate, finish, respond);
}
