// The scalar reference for the world's per-circle kernels (kernel_table.hpp,
// world_kernels_table): the copies into and out of slots, and the look for fast circles.
// Included in a namespace with the other reference .inl files (see circle_aabb.inl); needs
// minmax.inl.

// The world's circles into their slots and back: to[k] = from[index[k]], bits and all.
inline void permute_loop(const float* from, const std::uint32_t* index, std::size_t count,
                         float* to) {
    for (std::size_t k = 0; k < count; ++k) {
        to[k] = from[index[k]];
    }
}

// The largest squared speed: max_ps(v2, m) over the circles (a NaN never wins).
inline float fastest_loop(simdcollide::particles_view c) {
    float m = 0.0F;
    for (std::size_t i = 0; i < c.count; ++i) {
        m = max_ps(c.vx[i] * c.vx[i] + c.vy[i] * c.vy[i], m);
    }
    return m;
}
