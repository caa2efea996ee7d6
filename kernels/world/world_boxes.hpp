// The world's static boxes: the grid the lists and the sweeps search, and the same boxes as
// records for the sweeps and the contacts.
#pragma once

#include <simdcollide/containers.hpp>
#include <simdcollide/static_boxes.hpp>

#include <cstddef>

namespace simdcollide::detail {

struct world_boxes {
    static_box_grid grid;
    // (min x, min y, max x, max y) a box, as the grid holds them; then, while a substep that
    // sweeps against kinematic boxes is under way, each kinematic box where the substep ends
    // it (kinematic_substep_start).
    aligned_floats records;
    bool changed = true; // since the last full listing

    [[nodiscard]] std::size_t count() const noexcept { return grid.boxes().count; }
};

} // namespace simdcollide::detail
