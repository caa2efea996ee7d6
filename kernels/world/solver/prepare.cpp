// The soft step's prepare stage for circle-box contacts (prepare.hpp).
#include "world/solver/prepare.hpp"

#include <cmath>

namespace simdcollide::detail {

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
