// The soft step's prepare stage (prepare.hpp).
#include "world/solver/prepare.hpp"

#include <cmath>
#include <limits>

namespace simdcollide::detail {

void prepare_pairs(const particles_view& p, pair_contacts& c, std::size_t begin, std::size_t end,
                   float impulse_ratio) {
    for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t a = c.a[k];
        const std::uint32_t b = c.b[k];
        const float dx = p.x[b] - p.x[a];
        const float dy = p.y[b] - p.y[a];
        const float distance = std::sqrt(dx * dx + dy * dy);
        // from a towards b; (1, 0) where the centres coincide (docs/behaviour.md)
        const bool apart = distance > 0.0F;
        const float nx = apart ? dx / distance : 1.0F;
        const float ny = apart ? dy / distance : 0.0F;
        c.normal_x[k] = nx;
        c.normal_y[k] = ny;
        c.base[k] = distance - (p.radius[a] + p.radius[b]);
        // Each circle's share of the velocity change (contacts.hpp), so that no inverse mass,
        // however small or large, makes an impulse overflow (halved first where the sum
        // would).
        float wa = p.inverse_mass[a];
        float wb = p.inverse_mass[b];
        if (!(wa + wb <= std::numeric_limits<float>::max())) {
            wa = wa * 0.5F;
            wb = wb * 0.5F;
        }
        const float w = wa + wb;
        const bool moves = w > 0.0F;
        c.wa[k] = moves ? wa / w : 0.0F;
        c.wb[k] = moves ? wb / w : 0.0F;
        // Only an impact bounces: a contact that already overlapped (a resting or squeezed
        // one) has no approach speed for restitution (docs/world-design.md, "Restitution").
        const float approach = (p.vx[b] - p.vx[a]) * nx + (p.vy[b] - p.vy[a]) * ny;
        c.approach[k] = c.base[k] >= 0.0F ? approach : 0.0F;
        c.max_normal[k] = 0.0F;
        c.normal[k] = c.normal[k] * impulse_ratio;
        c.tangent[k] = c.tangent[k] * impulse_ratio;
    }
}

void prepare_boxes(const particles_view& p, const step_boxes& boxes, box_contacts& c,
                   std::size_t begin, std::size_t end, float impulse_ratio) {
    for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t i = c.circle[k];
        const float* const box = boxes.records + 4 * std::size_t{c.box[k]};
        const float cx = p.x[i];
        const float cy = p.y[i];
        // The closest point of the box, and the normal from there to the centre; a centre
        // inside leaves through the nearest face (docs/behaviour.md, circle against AABB).
        const float sx = std::fmax(box[0], std::fmin(cx, box[2]));
        const float sy = std::fmax(box[1], std::fmin(cy, box[3]));
        const float dx = cx - sx;
        const float dy = cy - sy;
        const float d2 = dx * dx + dy * dy;
        float nx = 0.0F;
        float ny = 0.0F;
        float base = 0.0F;
        if (d2 > 0.0F) {
            const float distance = std::sqrt(d2);
            nx = dx / distance;
            ny = dy / distance;
            base = distance - p.radius[i];
        } else {
            const float left = cx - box[0];
            const float right = box[2] - cx;
            const float down = cy - box[1];
            const float up = box[3] - cy;
            const float face_x = right <= left ? right : left;
            const float face_y = up <= down ? up : down;
            if (face_y <= face_x) {
                ny = up <= down ? 1.0F : -1.0F;
                base = -face_y - p.radius[i];
            } else {
                nx = right <= left ? 1.0F : -1.0F;
                base = -face_x - p.radius[i];
            }
        }
        c.normal_x[k] = nx;
        c.normal_y[k] = ny;
        c.base[k] = base;
        const float bvx = boxes.vx[c.box[k]];
        const float bvy = boxes.vy[c.box[k]];
        const float box_normal = bvx * nx + bvy * ny;
        c.box_normal[k] = box_normal;
        c.box_tangent[k] = bvx * -ny + bvy * nx;
        const float approach = (p.vx[i] * nx + p.vy[i] * ny) - box_normal;
        c.approach[k] = base >= 0.0F ? approach : 0.0F;
        c.max_normal[k] = 0.0F;
        c.normal[k] = c.normal[k] * impulse_ratio;
        c.tangent[k] = c.tangent[k] * impulse_ratio;
    }
}

} // namespace simdcollide::detail
