// The world's circles, as the caller indexes them and in slots, the step's own order (circles
// near each other near each other in memory); and the stages that sort them into slots and
// copy them in for a step and back after it (world_slots.cpp; docs/world-design.md "Slots").
#pragma once

#include <simdcollide/containers.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::detail {

struct contact_lists;
struct kernel_table;
struct task_runner;

/// Every field of every circle, one array a field.
struct circle_fields {
    aligned_floats x, y, radius, inverse_mass, vx, vy;

    [[nodiscard]] std::size_t size() const noexcept { return x.size(); }
    [[nodiscard]] particles_view view() noexcept {
        return {x.data(),  y.data(),  radius.data(), inverse_mass.data(),
                vx.data(), vy.data(), size()};
    }
};

/// The circles in slot order, the circle (the caller's index) in each slot and the slot of
/// each circle. Every list of the step names slots.
struct circle_slots : circle_fields {
    std::vector<std::uint32_t> circle_of_slot, slot_of_circle;
};

/// The sort stage: the slots made again from where `circles` are, in the order of the cells
/// of a grid over their centres. The lists name the old slots: `lists` forgets its listing,
/// and its cells (borrowed for the sort) are out of date.
void sort_slots(const circle_fields& circles, circle_slots& slots, contact_lists& lists,
                const task_runner& tasks);

/// The gather stage: `circles` copied into their slots, for a step.
void gather(const circle_fields& circles, circle_slots& slots, const kernel_table& kernels,
            const task_runner& tasks);

/// The scatter stage: the step's positions and velocities from the slots back to `circles`
/// (a step changes no radius or inverse mass).
void scatter(const circle_slots& slots, circle_fields& circles, const kernel_table& kernels,
             const task_runner& tasks);

} // namespace simdcollide::detail
