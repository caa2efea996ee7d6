// The particle world's slots: its circles sorted by grid cell, copied in for a step and
// back after it (world.hpp, docs/world-design.md "Slots").
#include "world/world_slots.hpp"

#include "broad_phase/circle_grid.hpp"
#include "pairwise/kernel_table.hpp"
#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_lists.hpp"

#include <utility>

namespace simdcollide {

// The slots: the circles in the order of the cells of a grid over their centres (ascending
// index within a cell; circles in no cell, as a NaN centre is, last, ascending), so that
// circles near each other, which are the ones that touch, are near each other in memory.
// The lists name slots, so they are made again, in full. The sort borrows the relisting
// grid's storage (lists.listed_cells), which is then out of date.
void detail::sort_slots(const circle_fields& circles, circle_slots& slots, contact_lists& lists,
                        const task_runner& tasks) {
    const std::size_t n = circles.size();
    const circles_cview c(circles.x.data(), circles.y.data(), circles.radius.data(), n);
    circle_cells& cells = lists.listed_cells;
    cells.grid = detail::circle_grid_for(c, 0.0F, tasks);
    detail::sort_into_cells(c, cells, tasks);
    slots.circle_of_slot.assign(cells.order.begin(), cells.order.end());
    for (std::size_t i = 0; i < n; ++i) {
        if (cells.cell_of_circle[i] == detail::circle_cells::nowhere) {
            slots.circle_of_slot.push_back(static_cast<std::uint32_t>(i));
        }
    }
    slots.slot_of_circle.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        slots.slot_of_circle[slots.circle_of_slot[s]] = static_cast<std::uint32_t>(s);
    }
    lists.forget(); // the next listing is a full one
}

// The circles into their slots, for a step; and the step's results back to the caller's
// indexing (radius and inverse mass are not changed by a step). Both ways are gathers
// (kernel permute), the way back through the inverse permutation: SIMD paths gather several
// circles per instruction, where scattering would take one store each.
void detail::gather(const circle_fields& circles, circle_slots& slots, const kernel_table& kernels,
                    const task_runner& tasks) {
    const std::size_t n = circles.size();
    const std::pair<const aligned_floats*, aligned_floats*> fields[] = {
        {&circles.x, &slots.x},           {&circles.y, &slots.y},
        {&circles.radius, &slots.radius}, {&circles.inverse_mass, &slots.inverse_mass},
        {&circles.vx, &slots.vx},         {&circles.vy, &slots.vy}};
    for (const auto& [indexed, slotted] : fields) {
        slotted->resize(n);
    }
    // Each block of slots gathers its own: the blocks write disjoint ranges.
    detail::for_each_item(tasks, detail::task_blocks(n), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n);
        for (const auto& [indexed, slotted] : fields) {
            kernels.world.permute(indexed->data(), slots.circle_of_slot.data() + b.first,
                                  b.end - b.first, slotted->data() + b.first);
        }
    });
}

void detail::scatter(const circle_slots& slots, circle_fields& circles, const kernel_table& kernels,
                     const task_runner& tasks) {
    const std::size_t n = circles.size();
    const std::pair<const aligned_floats*, aligned_floats*> fields[] = {{&slots.x, &circles.x},
                                                                        {&slots.y, &circles.y},
                                                                        {&slots.vx, &circles.vx},
                                                                        {&slots.vy, &circles.vy}};
    detail::for_each_item(tasks, detail::task_blocks(n), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n);
        for (const auto& [slotted, indexed] : fields) {
            kernels.world.permute(slotted->data(), slots.slot_of_circle.data() + b.first,
                                  b.end - b.first, indexed->data() + b.first);
        }
    });
}

} // namespace simdcollide
