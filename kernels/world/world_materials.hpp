// The world's materials (docs/behaviour.md, "Materials"): a friction and a restitution for
// every circle and box, as the caller indexes them, and the same by the numbers a step's
// contacts name bodies and boxes by, made again whenever those change.
#pragma once

#include "world/solver/materials.hpp"
#include "world/world_slots.hpp"

#include <simdcollide/world.hpp>

#include <cstddef>
#include <vector>

namespace simdcollide::detail {

struct world_materials {
    material defaults; // the world's options': every body's until it is given its own
    // By the caller's indices.
    std::vector<float> circle_friction, circle_restitution;
    std::vector<float> box_friction, box_restitution; // static boxes
    std::vector<float> kinematic_friction, kinematic_restitution;
    std::vector<float> dynamic_friction, dynamic_restitution;
    // As the contacts take them: bodies by slot, then the dynamic boxes (the solver's body
    // numbers); boxes by the step's box number (static, then kinematic).
    std::vector<float> body_friction, body_restitution;
    std::vector<float> step_box_friction, step_box_restitution;
    float max_restitution = 0.0F; // of every body and box: restitution runs where > 0
    bool stale = true;            // the arrays by number to be made again (an edit, a sort)
    bool changed = true;          // since the contacts were last made: they take them again

    /// A body added (its material the defaults) or removed, as its kind's arrays go.
    static void add(std::vector<float>& friction, std::vector<float>& restitution, material m) {
        friction.push_back(m.friction);
        restitution.push_back(m.restitution);
    }
    /// The arrays by number from the slots' order, where stale.
    void refresh(const circle_slots& slots);
    [[nodiscard]] material_arrays bodies() const noexcept {
        return {body_friction, body_restitution};
    }
    [[nodiscard]] material_arrays step_boxes() const noexcept {
        return {step_box_friction, step_box_restitution};
    }
    /// Any edit: the next step takes the materials again.
    void touch() noexcept {
        stale = true;
        changed = true;
    }
};

/// Refuses (std::invalid_argument, naming `what`) a friction not finite and >= 0 or a
/// restitution outside [0, 1].
void check_material(const char* what, std::size_t index, material m);

} // namespace simdcollide::detail
