// The scalar reference for separate_in_order (pair_groups.hpp): separation in list order.
// Included in a namespace with the other reference .inl files (see circle_aabb.inl); needs
// circle_circle.inl.

// One pair q = (i, j) separated (behaviour.md 3) from the positions the pairs before it left.
inline void separate_pair(simdcollide::particles_view c, simdcollide::circle_pair q,
                          simdcollide::separation_weighting mode) {
    const std::uint32_t i = q.a;
    const std::uint32_t j = q.b;
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

// `rounds` passes over the pairs in list order, each pair separated as its turn comes. The
// groups (pair_groups.hpp) only tell the SIMD paths which pairs they may take side by side;
// one by one, they change nothing.
inline void separate_in_order_loop(simdcollide::particles_view c,
                                   const simdcollide::circle_pair* pairs, const std::uint32_t* ends,
                                   std::size_t groups, simdcollide::separation_weighting mode,
                                   int rounds, float* /*scratch*/) {
    const std::size_t count = groups == 0 ? 0 : ends[groups - 1];
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t k = 0; k < count; ++k) {
            separate_pair(c, pairs[k], mode);
        }
    }
}
