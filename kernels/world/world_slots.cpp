// The particle world's slots: its circles sorted by grid cell, copied in for a step and
// back after it (world.hpp, docs/world-design.md "Slots").
#include "world/world_state.hpp"

#include "broad_phase/circle_grid.hpp"
#include "pairwise/kernel_table.hpp"
#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"

#include <utility>

namespace simdcollide {

// The slots: the circles in the order of the cells of a grid over their centres (ascending
// index within a cell; circles in no cell, as a NaN centre is, last, ascending), so that
// circles near each other, which are the ones that touch, are near each other in memory.
// The lists name slots, so they are made again, in full. The sort borrows the relisting
// grid's storage (listed_cells_), which is then out of date.
void detail::world_state::sort_slots() {
    const std::size_t n = size();
    const circles_cview c(indexed_.x.data(), indexed_.y.data(), indexed_.radius.data(), n);
    listed_cells_.grid = detail::circle_grid_for(c, 0.0F, task_runner());
    detail::sort_into_cells(c, listed_cells_, task_runner());
    circle_of_slot_.assign(listed_cells_.order.begin(), listed_cells_.order.end());
    for (std::size_t i = 0; i < n; ++i) {
        if (listed_cells_.cell_of_circle[i] == detail::circle_cells::nowhere) {
            circle_of_slot_.push_back(static_cast<std::uint32_t>(i));
        }
    }
    slot_of_circle_.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        slot_of_circle_[circle_of_slot_[s]] = static_cast<std::uint32_t>(s);
    }
    cells_current_ = false;
    listed_x_.clear(); // the next listing is a full one
}

// The circles into their slots, for a step; and the step's results back to the caller's
// indexing (radius and inverse mass are not changed by a step). Both ways are gathers
// (kernel permute), the way back through the inverse permutation: SIMD paths gather several
// circles per instruction, where scattering would take one store each.
void detail::world_state::gather(const detail::kernel_table& kernels) {
    const std::size_t n = size();
    const std::pair<const aligned_floats*, aligned_floats*> fields[] = {
        {&indexed_.x, &x_},           {&indexed_.y, &y_},
        {&indexed_.radius, &radius_}, {&indexed_.inverse_mass, &inverse_mass_},
        {&indexed_.vx, &vx_},         {&indexed_.vy, &vy_}};
    for (const auto& [indexed, slotted] : fields) {
        slotted->resize(n);
    }
    // Each block of slots gathers its own: the blocks write disjoint ranges.
    detail::for_each_item(task_runner(), detail::task_blocks(n), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n);
        for (const auto& [indexed, slotted] : fields) {
            kernels.world.permute(indexed->data(), circle_of_slot_.data() + b.first,
                                  b.end - b.first, slotted->data() + b.first);
        }
    });
}

void detail::world_state::scatter(const detail::kernel_table& kernels) {
    const std::size_t n = size();
    const std::pair<const aligned_floats*, aligned_floats*> fields[] = {
        {&x_, &indexed_.x}, {&y_, &indexed_.y}, {&vx_, &indexed_.vx}, {&vy_, &indexed_.vy}};
    detail::for_each_item(task_runner(), detail::task_blocks(n), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n);
        for (const auto& [slotted, indexed] : fields) {
            kernels.world.permute(slotted->data(), slot_of_circle_.data() + b.first,
                                  b.end - b.first, indexed->data() + b.first);
        }
    });
}

} // namespace simdcollide
