// A moving circle's answer to an impact on something the step does not move back (a static
// obstacle, or a kinematic box in its own frame), and the slide after it: shared by continuous
// collision (world_sweep.cpp) and the kinematic boxes (world_kinematic.cpp). Scalar code compiled
// once, so every instruction set gets the same bits.
#pragma once

#include <algorithm>

namespace simdcollide::detail {

/// The impulse of an obstacle on a circle at impact (docs/behaviour.md "Velocity response",
/// the obstacle's mass infinite), on the velocity (vx, vy) relative to the obstacle: its
/// approach along the normal n reversed times restitution, then friction along the surface
/// within mu times that impulse. A velocity that does not approach is left as it is.
inline void respond_to_impact(float& vx, float& vy, float nx, float ny, float restitution,
                              float friction) {
    const float vn = vx * nx + vy * ny;
    if (!(vn < 0.0F)) {
        return;
    }
    const float j = -(1.0F + restitution) * vn;
    vx += j * nx;
    vy += j * ny;
    const float tx = -ny;
    const float ty = nx;
    const float vt = vx * tx + vy * ty;
    const float limit = friction * j;
    const float jt = std::max(-limit, std::min(-vt, limit));
    vx += jt * tx;
    vy += jt * ty;
}

/// What slides on after an impact at `time` (a fraction of the move (dx, dy)) with normal n:
/// the rest of the move, less its part into the surface. `into` is that part (<= 0), or 0
/// when the rest does not go into the surface.
struct slide {
    float x;
    float y;
    float into;
};
inline slide slide_after(float time, float nx, float ny, float dx, float dy) {
    const float rest = 1.0F - time;
    slide s{dx * rest, dy * rest, 0.0F};
    const float into = s.x * nx + s.y * ny;
    if (into < 0.0F) {
        s.x -= into * nx;
        s.y -= into * ny;
        s.into = into;
    }
    return s;
}

} // namespace simdcollide::detail
