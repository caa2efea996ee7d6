// Contact events and sensors (docs/behaviour.md, "Contact events" and "Sensors"): after each
// step, the pairs of shapes that began and stopped touching, found from the step's contacts
// as the step leaves their shapes (world_events.cpp), the contacts that hit, and what each
// sensor holds (world_sensors.cpp). Both keep what they found for the next step to compare
// with; removing a shape renumbers what names it.
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/world.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

struct circle_slots;
struct dynamic_boxes;
struct kernel_table;
struct kinematic_boxes;
struct solver_state;
struct task_runner;
struct world_boxes;
struct world_filters;

/// Shapes of one kind removed: each one's new index, no_shape for those that go.
struct shape_renumbering {
    shape_kind kind = shape_kind::none;
    std::vector<std::uint32_t> new_index;

    /// From a mark a shape (non-zero: it goes).
    static shape_renumbering of_marked(shape_kind kind, std::span<const std::uint8_t> doomed);
    /// Shape `index` of `count` going.
    static shape_renumbering of_one(shape_kind kind, std::size_t index, std::size_t count);
    /// `r` under its new index; false where it went. Keeps the order of a kind's shapes.
    bool apply(shape_ref& r) const noexcept;
};

struct world_events {
    bool on = false;
    float hit_speed = 1.0F;
    // What touched at the end of the last step: the circle pairs as keys a << 32 | b (a <
    // b), sorted, in slots while in_slots, else in the caller's indices (from a change of the
    // slots or a removal until the next step); the other pairs in shape order.
    std::vector<std::uint64_t> circle_keys;
    bool in_slots = true;
    std::vector<shape_pair> others;
    contact_events last;
    // Scratch: this step's touching.
    std::vector<std::uint64_t> now_keys;
    std::vector<std::vector<std::uint64_t>> keys_of_block;
    std::vector<shape_pair> now_others;

    /// Before the slots change: the circle pairs named by the caller's indices.
    void to_circles(std::span<const std::uint32_t> circle_of_slot);
    /// The touches of the shapes that go dropped (no event: their indices name no shape), the
    /// others renumbered; circle_of_slot: the slots as the last step left them.
    void renumber(const shape_renumbering& r, std::span<const std::uint32_t> circle_of_slot);
    /// Every touch of a kind dropped (set_boxes replaced the static boxes).
    void forget(shape_kind kind);
    /// Every touching pair, in shape order.
    [[nodiscard]] std::vector<shape_pair>
    touching(std::span<const std::uint32_t> circle_of_slot) const;
};

/// After a step: the pairs of its contacts (every listed pair and entry; `pairs`, the
/// circles', tested in blocks on the workers) whose shapes touch as the step leaves them,
/// compared with the last step's, and the contacts that approached faster than the hit speed
/// when the step began and pushed in it.
void find_contact_events(world_events& events, const solver_state& solver,
                         std::span<const circle_pair> pairs, const circle_slots& slots,
                         const world_boxes& boxes, const kinematic_boxes& kinematic,
                         const dynamic_boxes& dynamic, const task_runner& tasks);

struct world_sensors {
    std::vector<aabb> box;
    std::vector<collision_filter> filter;
    std::vector<std::vector<shape_ref>> contents; // at the end of the last step
    sensor_events last;
    std::vector<std::vector<shape_ref>> now; // scratch
    std::vector<aabb> slot_bounds;           // scratch: the bounds of each block of slots

    [[nodiscard]] std::size_t count() const noexcept { return box.size(); }
    void renumber(const shape_renumbering& r);
};

/// After a step: each sensor's circles and dynamic boxes, compared with the last step's.
/// `slots` hold the circles where the step left them.
void find_sensor_events(world_sensors& sensors, const circle_slots& slots,
                        const dynamic_boxes& dynamic, const world_filters& filters,
                        const kernel_table& kernels, const task_runner& tasks);

} // namespace simdcollide::detail
