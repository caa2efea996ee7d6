#include "pairwise/pair_corrections.hpp"

#include <algorithm>

namespace simdcollide::detail {

pair_corrections begin_pair_corrections(separation_workspace& workspace, std::size_t circles) {
    workspace.scratch.resize(8 * circles);
    std::fill_n(workspace.scratch.data(), 4 * circles, 0.0F);
    return {workspace.scratch.data(), workspace.scratch.data() + 4 * circles};
}

std::size_t apply_pair_corrections(const pair_corrections& sums, particles_view c) {
    std::size_t moved = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        const float* s = sums.sums + 4 * i;
        if (s[2] > 0.0F) {
            c.x[i] += s[0] / s[2];
            c.y[i] += s[1] / s[2];
            ++moved;
        }
    }
    return moved;
}

} // namespace simdcollide::detail
