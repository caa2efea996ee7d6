// The scalar reference for circle against AABB: docs/behaviour.md "Circle against AABB", one pair
// at a time. These definitions are the meaning of every SIMD kernel's results.
//
// This file has no include guard and opens no namespace on purpose: it is included inside
// a namespace by kernels/pairwise/reference/reference.cpp (the library's reference) and by
// bench/autovec.cpp (the same loops compiled with -O3 -march=native as a bar
// for the SIMD code). Two namespaces give two sets of symbols, so the linker can never
// keep the -march=native copy of a helper for the baseline caller.
//
// The includer must already have included <cmath>, <cstddef>, <cstdint>,
// <simdcollide/soa.hpp> and minmax.inl, and must compile it with -ffp-contract=off: a fused
// multiply-add would round differently from the SIMD code.

struct closest_point_result {
    float x;
    float y;
};

// behaviour.md 1: s.x = max(b.min_x, min(c.x, b.max_x)), and the same for y.
inline closest_point_result closest_point_of(float cx, float cy, float min_x, float min_y,
                                             float max_x, float max_y) {
    return {max_ps(min_x, min_ps(cx, max_x)), max_ps(min_y, min_ps(cy, max_y))};
}

// behaviour.md 2: d2 = (c.x - s.x)^2 + (c.y - s.y)^2; 0 inside the box and on its boundary.
inline float distance_squared_of(float cx, float cy, float min_x, float min_y, float max_x,
                                 float max_y) {
    const closest_point_result s = closest_point_of(cx, cy, min_x, min_y, max_x, max_y);
    const float dx = cx - s.x;
    const float dy = cy - s.y;
    return dx * dx + dy * dy;
}

struct contact_result {
    bool hit;
    float normal_x;
    float normal_y;
    float depth;
    float point_x;
    float point_y;
};

// behaviour.md 3, 4 and 7: the contact of one circle with one box, zeros when there is none.
inline contact_result contact_of(float cx, float cy, float r, float min_x, float min_y, float max_x,
                                 float max_y, float margin) {
    const closest_point_result s = closest_point_of(cx, cy, min_x, min_y, max_x, max_y);
    const float dx = cx - s.x;
    const float dy = cy - s.y;
    const float d2 = dx * dx + dy * dy;

    contact_result c{};
    if (d2 > 0.0F) {
        // Centre outside: the normal runs from the closest point to the centre.
        const float reach = r + margin;
        const float dist = std::sqrt(d2);
        c.hit = d2 < reach * reach;
        // One division for both components (dx / dist would take two): the contract's (c - s) /
        // dist to within an ulp, and the divider is the slowest unit these kernels use.
        const float inverse_dist = 1.0F / dist;
        c.normal_x = dx * inverse_dist;
        c.normal_y = dy * inverse_dist;
        c.depth = r - dist;
        c.point_x = s.x;
        c.point_y = s.y;
    } else {
        // Centre inside or on the boundary: leave through the nearest face.
        const float to_min_x = cx - min_x;
        const float to_max_x = max_x - cx;
        const float to_min_y = cy - min_y;
        const float to_max_y = max_y - cy;
        const bool leave_min_x = to_min_x < to_max_x; // a tie leaves through max_x
        const bool leave_min_y = to_min_y < to_max_y; // a tie leaves through max_y
        const float face_x = leave_min_x ? to_min_x : to_max_x;
        const float face_y = leave_min_y ? to_min_y : to_max_y;
        if (face_x < face_y) { // a tie leaves through the y face
            c.normal_x = leave_min_x ? -1.0F : 1.0F;
            c.normal_y = 0.0F;
            c.depth = face_x + r;
            c.point_x = leave_min_x ? min_x : max_x;
            c.point_y = cy;
        } else {
            c.normal_x = 0.0F;
            c.normal_y = leave_min_y ? -1.0F : 1.0F;
            c.depth = face_y + r;
            c.point_x = cx;
            c.point_y = leave_min_y ? min_y : max_y;
        }
        c.hit = c.depth > -margin;
    }
    if (!c.hit) {
        c = contact_result{};
    }
    return c;
}

// The loops over pairs: circle i against box i. Arguments are already checked.

inline void closest_point_loop(simdcollide::circles_cview c, simdcollide::aabbs_view b,
                               simdcollide::points_view out) {
    for (std::size_t i = 0; i < c.count; ++i) {
        const closest_point_result s =
            closest_point_of(c.x[i], c.y[i], b.min_x[i], b.min_y[i], b.max_x[i], b.max_y[i]);
        out.x[i] = s.x;
        out.y[i] = s.y;
    }
}

inline void distance_squared_loop(simdcollide::circles_cview c, simdcollide::aabbs_view b,
                                  float* out) {
    for (std::size_t i = 0; i < c.count; ++i) {
        out[i] =
            distance_squared_of(c.x[i], c.y[i], b.min_x[i], b.min_y[i], b.max_x[i], b.max_y[i]);
    }
}

// behaviour.md 6: overlap is "there is a contact".
inline std::size_t overlap_loop(simdcollide::circles_cview c, simdcollide::aabbs_view b,
                                std::uint8_t* mask, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const bool hit = contact_of(c.x[i], c.y[i], c.radius[i], b.min_x[i], b.min_y[i], b.max_x[i],
                                    b.max_y[i], margin)
                             .hit;
        if (mask != nullptr) {
            mask[i] = hit ? 1 : 0;
        }
        count += hit ? 1 : 0;
    }
    return count;
}

inline std::size_t contact_loop(simdcollide::circles_cview c, simdcollide::aabbs_view b,
                                simdcollide::contacts_view out, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const contact_result k = contact_of(c.x[i], c.y[i], c.radius[i], b.min_x[i], b.min_y[i],
                                            b.max_x[i], b.max_y[i], margin);
        out.normal_x[i] = k.normal_x;
        out.normal_y[i] = k.normal_y;
        out.depth[i] = k.depth;
        out.point_x[i] = k.point_x;
        out.point_y[i] = k.point_y;
        count += k.hit ? 1 : 0;
    }
    return count;
}

// behaviour.md 5 and 7: c += n * depth for each contact, never by a negative depth.
inline std::size_t push_out_loop(simdcollide::circles_view c, simdcollide::aabbs_view b,
                                 float margin) {
    std::size_t moved = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const contact_result k = contact_of(c.x[i], c.y[i], c.radius[i], b.min_x[i], b.min_y[i],
                                            b.max_x[i], b.max_y[i], margin);
        if (k.hit && k.depth > 0.0F) {
            c.x[i] += k.normal_x * k.depth;
            c.y[i] += k.normal_y * k.depth;
            ++moved;
        }
    }
    return moved;
}

// Every circle against one box (a floor, a wall): the loops above with the box's fields
// held fixed, the same operations on the same values as with the box repeated.

inline void closest_point_box_loop(simdcollide::circles_cview c, simdcollide::aabb b,
                                   simdcollide::points_view out) {
    for (std::size_t i = 0; i < c.count; ++i) {
        const closest_point_result s =
            closest_point_of(c.x[i], c.y[i], b.min_x, b.min_y, b.max_x, b.max_y);
        out.x[i] = s.x;
        out.y[i] = s.y;
    }
}

inline void distance_squared_box_loop(simdcollide::circles_cview c, simdcollide::aabb b,
                                      float* out) {
    for (std::size_t i = 0; i < c.count; ++i) {
        out[i] = distance_squared_of(c.x[i], c.y[i], b.min_x, b.min_y, b.max_x, b.max_y);
    }
}

inline std::size_t overlap_box_loop(simdcollide::circles_cview c, simdcollide::aabb b,
                                    std::uint8_t* mask, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const bool hit =
            contact_of(c.x[i], c.y[i], c.radius[i], b.min_x, b.min_y, b.max_x, b.max_y, margin).hit;
        if (mask != nullptr) {
            mask[i] = hit ? 1 : 0;
        }
        count += hit ? 1 : 0;
    }
    return count;
}

inline std::size_t contact_box_loop(simdcollide::circles_cview c, simdcollide::aabb b,
                                    simdcollide::contacts_view out, float margin) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const contact_result k =
            contact_of(c.x[i], c.y[i], c.radius[i], b.min_x, b.min_y, b.max_x, b.max_y, margin);
        out.normal_x[i] = k.normal_x;
        out.normal_y[i] = k.normal_y;
        out.depth[i] = k.depth;
        out.point_x[i] = k.point_x;
        out.point_y[i] = k.point_y;
        count += k.hit ? 1 : 0;
    }
    return count;
}

// push_out_loop against one box.
inline std::size_t push_out_box_loop(simdcollide::circles_view c, simdcollide::aabb b,
                                     float margin) {
    std::size_t moved = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const contact_result k =
            contact_of(c.x[i], c.y[i], c.radius[i], b.min_x, b.min_y, b.max_x, b.max_y, margin);
        if (k.hit && k.depth > 0.0F) {
            c.x[i] += k.normal_x * k.depth;
            c.y[i] += k.normal_y * k.depth;
            ++moved;
        }
    }
    return moved;
}
