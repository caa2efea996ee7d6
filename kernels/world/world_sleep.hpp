// Sleep (docs/behaviour.md, "Sleep"): with world_options::sleep on, a world whose moving
// bodies have all been slower than sleep_speed for sleep_time falls asleep, their
// velocities set to 0, and its steps change nothing until something wakes it: an edit of the
// world, a body the host moved or set moving, or a kinematic box that moves
// (world_sleep.cpp).
#pragma once

#include <simdcollide/world.hpp>

#include <cstddef>
#include <vector>

namespace simdcollide::detail {

struct circle_fields;
struct dynamic_boxes;
struct kinematic_boxes;

struct world_sleep {
    bool asleep = false;
    float rest = 0.0F; // how long every moving body has been slower than sleep_speed
    // As the world fell asleep: every circle's and dynamic box's x, y, vx and vy, a field
    // after the other, and the count of kinematic boxes.
    std::vector<float> circles, boxes;
    std::size_t kinematic_count = 0;
    std::size_t falls = 0; // how often the world fell asleep

    /// Before a step: whether the world stays asleep through it. `edited`: the host changed
    /// the world's bodies, boxes, materials or filters since it fell asleep (the world's own
    /// flags). A host's change of a position or a velocity, in particles() or
    /// dynamic_boxes(), is found by comparing with what the world fell asleep with; a
    /// kinematic box that moves in the step (`kinematic_moves`) wakes it. Waking clears the
    /// state.
    bool stays_asleep(bool edited, bool kinematic_moves, const circle_fields& circles_now,
                      const dynamic_boxes& dynamic, const kinematic_boxes& kinematic);

    /// After a step of dt: the rest time, and the world asleep where it reaches sleep_time
    /// (its moving bodies' velocities then set to 0). `kinematic_moved`: a kinematic box
    /// moved in the step, which keeps the world awake.
    void after_step(const world_options& options, float dt, bool kinematic_moved,
                    circle_fields& circles_now, dynamic_boxes& dynamic,
                    const kinematic_boxes& kinematic);
};

/// Whether any kinematic box moves in the next step (a velocity, or a place to go).
[[nodiscard]] bool kinematic_boxes_move(const kinematic_boxes& kinematic) noexcept;

} // namespace simdcollide::detail
