// The scale every split of a correction or an impulse by two weights works with:
// docs/behaviour.md's share depth * wa / (wa + wb) (and the impulse's division by wa + wb) in
// floats for every valid weight, from 0 and the subnormals to the largest finite float. Included in
// a namespace with the other reference .inl files (see circle_aabb.inl), after minmax.inl; needs
// <bit>, <cstdint> and <simdcollide/circle_circle.hpp> (separation_weighting).
//
// Weights whose sum lies in [2^-24, 2^24] (or is 0) are used as they are: their sum and its
// reciprocal are ordinary floats. Others are both multiplied by one power of two, chosen from
// the larger one's exponent, so that the larger lands in [2^-23, 4): their sum can no longer
// overflow (3e38 + 3e38) or be so small that dividing by it overflows (1e-45), and every split
// of the same total keeps its value. A weight below about 2^-150 of the other then becomes 0
// (its share rounds to nothing anyway). The choice is made for each pair on its own, so the
// SIMD paths make it lane by lane and give the same bits.

// The power of two for weights wa and wb (each >= 0): 2^(127 - e) for e the larger weight's
// biased exponent, taken within [1, 253] (a NaN or negative weight is invalid input: some
// power of two all the same).
inline float weight_scale_of(float wa, float wb) {
    const std::uint32_t exponent_bits = std::bit_cast<std::uint32_t>(max_ps(wa, wb)) & 0x7F800000U;
    const float power = max_ps(min_ps(std::bit_cast<float>(exponent_bits), 0x1p126F), 0x1p-126F);
    return std::bit_cast<float>(0x7F000000U - std::bit_cast<std::uint32_t>(power));
}

// Whether weights summing to `total` are scaled: a sum outside [2^-24, 2^24], other than 0
// (NaN included: invalid input).
inline bool weights_need_scale(float total) {
    return !(total <= 0x1p24F && (total >= 0x1p-24F || total == 0.0F));
}

// wa and wb, scaled by weight_scale_of where weights_need_scale says so.
inline void scale_weights(float& wa, float& wb) {
    if (weights_need_scale(wa + wb)) {
        const float scale = weight_scale_of(wa, wb);
        wa *= scale;
        wb *= scale;
    }
}

struct separation_weights {
    float a;
    float b;
};

// behaviour.md: the three weighting modes of a separation, for bodies of sizes a_size and
// b_size (a circle's radius, a box's half-extent along the contact's axis) and inverse masses
// aw and bw; a static body (inverse mass 0) has weight 0 in all.
inline separation_weights separation_weights_of(simdcollide::separation_weighting mode,
                                                float a_size, float aw, float b_size, float bw) {
    float wa = aw;
    float wb = bw;
    if (mode == simdcollide::separation_weighting::equal) {
        wa = 1.0F;
        wb = 1.0F;
    } else if (mode == simdcollide::separation_weighting::by_radius) {
        wa = b_size; // the larger body moves less
        wb = a_size;
    }
    return {aw == 0.0F ? 0.0F : wa, bw == 0.0F ? 0.0F : wb};
}
