// What the world's phases hand each other: the contact records from phases 2 and 3 to phase
// 6, the impulse totals of phase 6's passes, and what a substep records its touches with.
// Internal: the kernels (reference and SIMD), the world's stages and the tests read these.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simdcollide::detail {

/// A contact between phase 2 (boxes) or 3 (circle pairs) and phase 6 of a substep
/// (world_substep.cpp): what its impulse needs. Its weights are the two circles' inverse masses wa
/// and wb as the impulse acts with them: wa * (1 + min(s, 0)) and wb * (1 - max(s, 0)), for
/// s the share of the lower circle's weight that shock propagation takes away (> 0 takes it
/// from b, < 0 from a; world_options::shock_propagation; 0 when it is off, and then the
/// weights are wa and wb, bits and all). For a box, weight_a is 0 and weight_b the circle's
/// inverse mass. The impulse divides by their sum, W. With the weights here, phase 6 reads
/// a circle's velocity alone (two floats) where it read the velocity and the inverse mass.
/// 32 bytes, aligned: one aligned 256-bit access per record, never split across cache
/// lines.
struct alignas(32) world_touch {
    std::uint32_t a, b; // circles (for a box contact, a is the box)
    float normal_x, normal_y;
    float weight_a, weight_b; // the weights the impulse acts with (see above)
    float target;             // normal speed restitution aims for, e * max(-vn0, 0)
    float corrected_limit;    // mu * the normal impulse of the position correction
};

/// Interleaved runs of phase 6's circle pairs (world.hpp's step 6, kernel_table.hpp's
/// respond_pairs and gain_and_respond): a run's pairs are far apart in the list from the
/// other runs' at the same point, so they rarely share a circle, and the SIMD kernels apply
/// the runs' k-th pairs at once (up to W of them). More runs mean more streams of contact
/// records through memory at once, and more blocks whose pairs share a circle.
inline constexpr std::size_t impulse_runs = 8;

/// A contact's normal and friction impulses so far, over the passes of phase 6.
struct impulse_total {
    float normal;
    float tangent;
};

/// What a touch needs besides the contact (phase 2 for the boxes, the first round of phase 3
/// for the circle pairs): restitution e, friction mu, 1 / h, and for
/// shock propagation the direction of gravity as a unit vector (down_x, down_y) and
/// world_options::shock_propagation (0 for none).
struct touch_parameters {
    float restitution;
    float friction;
    float inverse_h;
    float down_x = 0.0F;
    float down_y = 0.0F;
    float shock_propagation = 0.0F;
};

} // namespace simdcollide::detail
