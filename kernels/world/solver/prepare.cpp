// The soft step's prepare stage for the contacts with boxes (prepare.hpp).
#include "world/solver/prepare.hpp"

#include <simdcollide/circle_circle.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace simdcollide::detail {
namespace prepare_impl {
// minmax.inl and weights.inl first: box_box.inl uses them.
#include "pairwise/reference/minmax.inl"
#include "pairwise/reference/weights.inl"

#include "pairwise/reference/box_box.inl"
} // namespace prepare_impl

namespace {

struct normal_and_base {
    float nx, ny, base;
};

// The normal from a box's closest point to a circle's centre, and their separation; a
// centre inside leaves through the nearest face (docs/behaviour.md, circle against AABB).
normal_and_base circle_from_box(float cx, float cy, float radius, const float* box) {
    const float sx = std::fmax(box[0], std::fmin(cx, box[2]));
    const float sy = std::fmax(box[1], std::fmin(cy, box[3]));
    const float dx = cx - sx;
    const float dy = cy - sy;
    const float d2 = dx * dx + dy * dy;
    if (d2 > 0.0F) {
        const float distance = std::sqrt(d2);
        return {dx / distance, dy / distance, distance - radius};
    }
    const float left = cx - box[0];
    const float right = box[2] - cx;
    const float down = cy - box[1];
    const float up = box[3] - cy;
    const float face_x = right <= left ? right : left;
    const float face_y = up <= down ? up : down;
    if (face_y <= face_x) {
        return {0.0F, up <= down ? 1.0F : -1.0F, -face_y - radius};
    }
    return {right <= left ? 1.0F : -1.0F, 0.0F, -face_x - radius};
}

// The normal from box `second` towards box `first` and their separation along it, as
// box against box's contact (docs/behaviour.md) gives it, apart or not.
normal_and_base box_from_box(const float* first, const float* second) {
    const prepare_impl::box_contact_result c =
        prepare_impl::box_contact_of(first[0], first[1], first[2], first[3], second[0], second[1],
                                     second[2], second[3], std::numeric_limits<float>::infinity());
    return {c.normal_x, c.normal_y, -c.depth};
}

// Dynamic box j's bounds as a record.
void record_of(const dynamic_box_shapes& d, std::size_t j, float* r) {
    r[0] = d.x[j] - d.half_width[j];
    r[1] = d.y[j] - d.half_height[j];
    r[2] = d.x[j] + d.half_width[j];
    r[3] = d.y[j] + d.half_height[j];
}

// Box contact k from its normal and separation, the box's velocity and the body's (vx, vy).
void store_box_contact(box_contacts& c, std::size_t k, const normal_and_base& g,
                       const step_boxes& boxes, float vx, float vy, float impulse_ratio) {
    c.normal_x[k] = g.nx;
    c.normal_y[k] = g.ny;
    c.base[k] = g.base;
    const float bvx = boxes.vx[c.box[k]];
    const float bvy = boxes.vy[c.box[k]];
    const float box_normal = bvx * g.nx + bvy * g.ny;
    c.box_normal[k] = box_normal;
    c.box_tangent[k] = bvx * -g.ny + bvy * g.nx;
    const float approach = (vx * g.nx + vy * g.ny) - box_normal;
    c.approach[k] = g.base >= 0.0F ? approach : 0.0F;
    c.max_normal[k] = 0.0F;
    c.normal[k] = c.normal[k] * impulse_ratio;
    c.tangent[k] = c.tangent[k] * impulse_ratio;
}

} // namespace

void prepare_boxes(const particles_view& p, const step_boxes& boxes, box_contacts& c,
                   std::size_t begin, std::size_t end, float impulse_ratio) {
    for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t i = c.circle[k];
        const float* const box = boxes.records + 4 * std::size_t{c.box[k]};
        const normal_and_base g = circle_from_box(p.x[i], p.y[i], p.radius[i], box);
        store_box_contact(c, k, g, boxes, p.vx[i], p.vy[i], impulse_ratio);
    }
}

void prepare_dynamic_pairs(const particles_view& p, const dynamic_box_shapes& d, const float* state,
                           pair_contacts& c, float impulse_ratio) {
    const std::size_t n = p.count;
    for (std::size_t k = 0; k < c.size(); ++k) {
        const std::uint32_t a = c.a[k];
        const std::uint32_t b = c.b[k];
        float rb[4];
        record_of(d, b - n, rb);
        normal_and_base g{};
        float wa = 0.0F;
        if (a < n) {
            // a circle and a box: the normal from the circle towards the box
            const normal_and_base from_box = circle_from_box(p.x[a], p.y[a], p.radius[a], rb);
            g = {-from_box.nx, -from_box.ny, from_box.base};
            wa = p.inverse_mass[a];
        } else {
            float ra[4];
            record_of(d, a - n, ra);
            g = box_from_box(rb, ra);
            wa = d.inverse_mass[a - n];
        }
        c.normal_x[k] = g.nx;
        c.normal_y[k] = g.ny;
        c.base[k] = g.base;
        const velocity_shares shares = shares_of(wa, d.inverse_mass[b - n]);
        c.wa[k] = shares.a;
        c.wb[k] = shares.b;
        const float* const va = state + 4 * std::size_t{a};
        const float* const vb = state + 4 * std::size_t{b};
        const float approach = (vb[0] - va[0]) * g.nx + (vb[1] - va[1]) * g.ny;
        c.approach[k] = g.base >= 0.0F ? approach : 0.0F;
        c.max_normal[k] = 0.0F;
        c.normal[k] = c.normal[k] * impulse_ratio;
        c.tangent[k] = c.tangent[k] * impulse_ratio;
    }
}

void prepare_dynamic_fixed(std::size_t first_box_body, const dynamic_box_shapes& d,
                           const step_boxes& boxes, const float* state, box_contacts& c,
                           float impulse_ratio) {
    for (std::size_t k = 0; k < c.size(); ++k) {
        const std::uint32_t i = c.circle[k];
        float body[4];
        record_of(d, i - first_box_body, body);
        const float* const box = boxes.records + 4 * std::size_t{c.box[k]};
        const normal_and_base g = box_from_box(body, box);
        const float* const v = state + 4 * std::size_t{i};
        store_box_contact(c, k, g, boxes, v[0], v[1], impulse_ratio);
    }
}

} // namespace simdcollide::detail
