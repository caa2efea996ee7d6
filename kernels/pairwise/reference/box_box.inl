// The scalar reference for box against box: docs/behaviour.md "Box against box", one pair at
// a time. These definitions are the meaning of every SIMD kernel's results.
//
// Included inside a namespace, as circle_aabb.inl is (see there): by
// kernels/pairwise/reference/reference.cpp, bench/autovec.cpp and the world's solver. The
// includer must have included <cstddef>, <cstdint>, <simdcollide/soa.hpp>,
// <simdcollide/circle_circle.hpp>, minmax.inl and weights.inl, and compiles it with
// -ffp-contract=off.

struct box_contact_result {
    bool hit;
    float normal_x;
    float normal_y;
    float depth;
    float point_x;
    float point_y;
};

// behaviour.md "Box against box": the contact of box A (first) with box B (second), zeros
// when there is none. On each axis A leaves B by the shorter of two moves, towards + (B's
// max side) or towards - (B's min side); the contact's axis is the one with the shorter move.
inline box_contact_result box_contact_of(float a_min_x, float a_min_y, float a_max_x, float a_max_y,
                                         float b_min_x, float b_min_y, float b_max_x, float b_max_y,
                                         float margin) {
    const float to_plus_x = b_max_x - a_min_x;
    const float to_minus_x = a_max_x - b_min_x;
    const float to_plus_y = b_max_y - a_min_y;
    const float to_minus_y = a_max_y - b_min_y;
    const bool minus_x = to_minus_x < to_plus_x; // a tie leaves towards +x
    const bool minus_y = to_minus_y < to_plus_y; // a tie leaves towards +y
    const float depth_x = min_ps(to_minus_x, to_plus_x);
    const float depth_y = min_ps(to_minus_y, to_plus_y);
    const bool x_axis = depth_x < depth_y; // a tie leaves along y

    box_contact_result c{};
    c.hit = depth_x > -margin && depth_y > -margin;
    if (!c.hit) {
        return c;
    }
    c.depth = min_ps(depth_x, depth_y);
    // The point lies on B's face, midway along the overlap of the two boxes' extents on the
    // other axis (halves added: the sum of two large coordinates would overflow).
    const float mid_x = 0.5F * max_ps(a_min_x, b_min_x) + 0.5F * min_ps(a_max_x, b_max_x);
    const float mid_y = 0.5F * max_ps(a_min_y, b_min_y) + 0.5F * min_ps(a_max_y, b_max_y);
    if (x_axis) {
        c.normal_x = minus_x ? -1.0F : 1.0F;
        c.point_x = minus_x ? b_min_x : b_max_x;
        c.point_y = mid_y;
    } else {
        c.normal_y = minus_y ? -1.0F : 1.0F;
        c.point_x = mid_x;
        c.point_y = minus_y ? b_min_y : b_max_y;
    }
    return c;
}

// The loops over pairs: box i of `a` against box i of `b`. Arguments are already checked.

inline std::size_t box_overlap_loop(simdcollide::aabbs_view a, simdcollide::aabbs_view b,
                                    std::uint8_t* mask, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const bool hit = box_contact_of(a.min_x[i], a.min_y[i], a.max_x[i], a.max_y[i], b.min_x[i],
                                        b.min_y[i], b.max_x[i], b.max_y[i], margin)
                             .hit;
        if (mask != nullptr) {
            mask[i] = hit ? 1 : 0;
        }
        count += hit ? 1 : 0;
    }
    return count;
}

inline void store_box_contact(simdcollide::contacts_view out, std::size_t i,
                              const box_contact_result& k) {
    out.normal_x[i] = k.normal_x;
    out.normal_y[i] = k.normal_y;
    out.depth[i] = k.depth;
    out.point_x[i] = k.point_x;
    out.point_y[i] = k.point_y;
}

inline std::size_t box_contact_loop(simdcollide::aabbs_view a, simdcollide::aabbs_view b,
                                    simdcollide::contacts_view out, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const box_contact_result k =
            box_contact_of(a.min_x[i], a.min_y[i], a.max_x[i], a.max_y[i], b.min_x[i], b.min_y[i],
                           b.max_x[i], b.max_y[i], margin);
        store_box_contact(out, i, k);
        count += k.hit ? 1 : 0;
    }
    return count;
}

// Every box against one box (a floor, a platform) as the second: the loops above with its
// fields held fixed.

inline std::size_t box_overlap_box_loop(simdcollide::aabbs_view a, simdcollide::aabb b,
                                        std::uint8_t* mask, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const bool hit = box_contact_of(a.min_x[i], a.min_y[i], a.max_x[i], a.max_y[i], b.min_x,
                                        b.min_y, b.max_x, b.max_y, margin)
                             .hit;
        if (mask != nullptr) {
            mask[i] = hit ? 1 : 0;
        }
        count += hit ? 1 : 0;
    }
    return count;
}

inline std::size_t box_contact_box_loop(simdcollide::aabbs_view a, simdcollide::aabb b,
                                        simdcollide::contacts_view out, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const box_contact_result k = box_contact_of(a.min_x[i], a.min_y[i], a.max_x[i], a.max_y[i],
                                                    b.min_x, b.min_y, b.max_x, b.max_y, margin);
        store_box_contact(out, i, k);
        count += k.hit ? 1 : 0;
    }
    return count;
}

// behaviour.md "Box against box" 6: separation moves the two boxes apart along the contact's
// axis by its depth in all, A by +n * depth * wa / (wa + wb) and B by -n * depth * wb / (wa +
// wb), with the weights of separation_weights_of (weights.inl; a box's size is its
// half-extent along the axis), scaled where scale_weights says so, as share = depth / (wa +
// wb), then n * (share * w). A box moves by shifting its min and max on that axis alike.
struct box_separation_result {
    bool moves_a; // false keeps a's bits exactly (static, or no contact)
    bool moves_b;
    bool x_axis;
    float a_shift; // along the axis, signed
    float b_shift;
};

inline box_separation_result box_separation_of(simdcollide::separation_weighting mode,
                                               float a_min_x, float a_min_y, float a_max_x,
                                               float a_max_y, float aw, float b_min_x,
                                               float b_min_y, float b_max_x, float b_max_y,
                                               float bw) {
    box_separation_result s{};
    const box_contact_result c = box_contact_of(a_min_x, a_min_y, a_max_x, a_max_y, b_min_x,
                                                b_min_y, b_max_x, b_max_y, 0.0F);
    const bool x_axis = c.normal_x != 0.0F;
    const float a_half = x_axis ? 0.5F * a_max_x - 0.5F * a_min_x : 0.5F * a_max_y - 0.5F * a_min_y;
    const float b_half = x_axis ? 0.5F * b_max_x - 0.5F * b_min_x : 0.5F * b_max_y - 0.5F * b_min_y;
    const separation_weights w = separation_weights_of(mode, a_half, aw, b_half, bw);
    float wa = w.a;
    float wb = w.b;
    scale_weights(wa, wb);
    const float total = wa + wb;
    if (!c.hit || !(total > 0.0F)) {
        return s;
    }
    const float share = c.depth / total;
    const float normal = x_axis ? c.normal_x : c.normal_y;
    s.moves_a = w.a > 0.0F;
    s.moves_b = w.b > 0.0F;
    s.x_axis = x_axis;
    s.a_shift = normal * (share * wa);
    s.b_shift = -(normal * (share * wb));
    return s;
}

// A box's min and max on the separation's axis, both shifted by `shift`.
inline void shift_box(float* min_x, float* min_y, float* max_x, float* max_y, std::size_t i,
                      bool x_axis, float shift) {
    if (x_axis) {
        min_x[i] += shift;
        max_x[i] += shift;
    } else {
        min_y[i] += shift;
        max_y[i] += shift;
    }
}

inline std::size_t box_separate_loop(simdcollide::box_bodies_view a, simdcollide::box_bodies_view b,
                                     simdcollide::separation_weighting mode) {
    std::size_t moved = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const box_separation_result s = box_separation_of(
            mode, a.min_x[i], a.min_y[i], a.max_x[i], a.max_y[i], a.inverse_mass[i], b.min_x[i],
            b.min_y[i], b.max_x[i], b.max_y[i], b.inverse_mass[i]);
        if (s.moves_a) {
            shift_box(a.min_x, a.min_y, a.max_x, a.max_y, i, s.x_axis, s.a_shift);
        }
        if (s.moves_b) {
            shift_box(b.min_x, b.min_y, b.max_x, b.max_y, i, s.x_axis, s.b_shift);
        }
        moved += s.moves_a || s.moves_b ? 1 : 0;
    }
    return moved;
}

// Every box out of one box that does not move: the loop above with that box repeated at
// inverse mass 0, weighted equally, so that a box moves by exactly its depth.
inline std::size_t box_separate_box_loop(simdcollide::box_bodies_view a, simdcollide::aabb b) {
    std::size_t moved = 0;
    for (std::size_t i = 0; i < a.count; ++i) {
        const box_separation_result s = box_separation_of(
            simdcollide::separation_weighting::equal, a.min_x[i], a.min_y[i], a.max_x[i],
            a.max_y[i], a.inverse_mass[i], b.min_x, b.min_y, b.max_x, b.max_y, 0.0F);
        if (s.moves_a) {
            shift_box(a.min_x, a.min_y, a.max_x, a.max_y, i, s.x_axis, s.a_shift);
        }
        moved += s.moves_a ? 1 : 0;
    }
    return moved;
}
