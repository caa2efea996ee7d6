// The world's materials: setting and reading them, and the arrays the contacts take
// (world_materials.hpp).
#include "world/world_materials.hpp"

#include "world/world_errors.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace simdcollide {

void detail::world_materials::refresh(const circle_slots& slots) {
    if (!stale) {
        return;
    }
    const std::size_t n = slots.size();
    body_friction.resize(n);
    body_restitution.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        body_friction[s] = circle_friction[slots.circle_of_slot[s]];
        body_restitution[s] = circle_restitution[slots.circle_of_slot[s]];
    }
    body_friction.insert(body_friction.end(), dynamic_friction.begin(), dynamic_friction.end());
    body_restitution.insert(body_restitution.end(), dynamic_restitution.begin(),
                            dynamic_restitution.end());
    step_box_friction = box_friction;
    step_box_friction.insert(step_box_friction.end(), kinematic_friction.begin(),
                             kinematic_friction.end());
    step_box_restitution = box_restitution;
    step_box_restitution.insert(step_box_restitution.end(), kinematic_restitution.begin(),
                                kinematic_restitution.end());
    max_restitution = defaults.restitution;
    for (const std::vector<float>* e :
         {&circle_restitution, &box_restitution, &kinematic_restitution, &dynamic_restitution}) {
        for (const float v : *e) {
            max_restitution = std::max(max_restitution, v);
        }
    }
    stale = false;
}

void detail::check_material(const char* what, std::size_t index, material m) {
    const std::string name = std::string(what) + " " + std::to_string(index);
    if (!std::isfinite(m.friction) || !(m.friction >= 0.0F)) {
        refuse(name + ": friction is " + number(m.friction) + ", must be finite and >= 0");
    }
    if (!(m.restitution >= 0.0F && m.restitution <= 1.0F)) {
        refuse(name + ": restitution is " + number(m.restitution) + ", must be in [0, 1]");
    }
}

void detail::world_state::set_material(shape_kind kind, std::size_t index, material m) {
    world_materials& w = materials_;
    const auto set = [&](const char* what, std::vector<float>& friction,
                         std::vector<float>& restitution) {
        require_index("set_material", index, friction.size(), "of that kind");
        check_material(what, index, m);
        friction[index] = m.friction;
        restitution[index] = m.restitution;
        w.touch();
    };
    switch (kind) {
    case shape_kind::circle:
        set("circle", w.circle_friction, w.circle_restitution);
        return;
    case shape_kind::static_box:
        set("static box", w.box_friction, w.box_restitution);
        return;
    case shape_kind::kinematic_box:
        set("kinematic box", w.kinematic_friction, w.kinematic_restitution);
        return;
    case shape_kind::dynamic_box:
        set("dynamic box", w.dynamic_friction, w.dynamic_restitution);
        return;
    default:
        refuse("set_material of shape_kind::none");
    }
}

material detail::world_state::material_of(shape_kind kind, std::size_t index) const {
    const world_materials& w = materials_;
    const auto get = [&](const std::vector<float>& friction,
                         const std::vector<float>& restitution) {
        require_index("material_of", index, friction.size(), "of that kind");
        return material{friction[index], restitution[index]};
    };
    switch (kind) {
    case shape_kind::circle:
        return get(w.circle_friction, w.circle_restitution);
    case shape_kind::static_box:
        return get(w.box_friction, w.box_restitution);
    case shape_kind::kinematic_box:
        return get(w.kinematic_friction, w.kinematic_restitution);
    case shape_kind::dynamic_box:
        return get(w.dynamic_friction, w.dynamic_restitution);
    default:
        refuse("material_of shape_kind::none");
    }
}

void detail::world_state::set_circle_materials(std::span<const float> friction,
                                               std::span<const float> restitution) {
    const std::size_t n = size();
    if (friction.size() != n || restitution.size() != n) {
        refuse("set_circle_materials: friction has " + std::to_string(friction.size()) +
               " and restitution " + std::to_string(restitution.size()) + " elements, circles " +
               std::to_string(n));
    }
    for (std::size_t i = 0; i < n; ++i) {
        check_material("circle", i, {friction[i], restitution[i]});
    }
    std::copy(friction.begin(), friction.end(), materials_.circle_friction.begin());
    std::copy(restitution.begin(), restitution.end(), materials_.circle_restitution.begin());
    materials_.touch();
}

} // namespace simdcollide
