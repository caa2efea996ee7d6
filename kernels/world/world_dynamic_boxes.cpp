// The particle world's dynamic boxes: added, removed, read (world.hpp).
#include "world/world_state.hpp"

#include "world/world_errors.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace simdcollide {

using detail::number;
using detail::refuse;

std::size_t detail::world_state::add_dynamic_box(aabb box, float inverse_mass, float vx, float vy) {
    const std::string name_of = "dynamic box " + std::to_string(dynamic_.count());
    for (const auto& [name, value] :
         {std::pair{"min_x", box.min_x}, std::pair{"min_y", box.min_y},
          std::pair{"max_x", box.max_x}, std::pair{"max_y", box.max_y},
          std::pair{"inverse_mass", inverse_mass}, std::pair{"vx", vx}, std::pair{"vy", vy}}) {
        if (!std::isfinite(value)) {
            refuse(name_of + ": " + name + " is " + number(value) + ", must be finite");
        }
    }
    if (!(box.min_x <= box.max_x && box.min_y <= box.max_y)) {
        refuse(name_of + " is inverted: min (" + number(box.min_x) + ", " + number(box.min_y) +
               ") must be <= max (" + number(box.max_x) + ", " + number(box.max_y) + ")");
    }
    if (inverse_mass < 0.0F) {
        refuse(name_of + ": inverse_mass is " + number(inverse_mass) + ", must be >= 0");
    }
    // Halves first: the sum of two large coordinates would overflow.
    dynamic_.x.push_back(0.5F * box.min_x + 0.5F * box.max_x);
    dynamic_.y.push_back(0.5F * box.min_y + 0.5F * box.max_y);
    dynamic_.half_width.push_back(0.5F * box.max_x - 0.5F * box.min_x);
    dynamic_.half_height.push_back(0.5F * box.max_y - 0.5F * box.min_y);
    dynamic_.inverse_mass.push_back(inverse_mass);
    dynamic_.vx.push_back(vx);
    dynamic_.vy.push_back(vy);
    world_materials::add(materials_.dynamic_friction, materials_.dynamic_restitution,
                         materials_.defaults);
    materials_.touch();
    world_filters::add(filters_.dynamic_category, filters_.dynamic_mask);
    filters_.stale = true;
    return dynamic_.count() - 1;
}

void detail::world_state::remove_dynamic_box(std::size_t index) {
    if (index >= dynamic_.count()) {
        throw std::out_of_range("simdcollide::particle_world: remove_dynamic_box(" +
                                std::to_string(index) + ") with " +
                                std::to_string(dynamic_.count()) + " dynamic boxes");
    }
    const auto renumbering =
        detail::shape_renumbering::of_one(shape_kind::dynamic_box, index, dynamic_.count());
    events_.renumber(renumbering, slots_.circle_of_slot);
    sensors_.renumber(renumbering);
    detail::remove_dynamic_box(dynamic_, index);
    const auto at = static_cast<std::ptrdiff_t>(index);
    materials_.dynamic_friction.erase(materials_.dynamic_friction.begin() + at);
    materials_.dynamic_restitution.erase(materials_.dynamic_restitution.begin() + at);
    materials_.touch();
    filters_.dynamic_category.erase(filters_.dynamic_category.begin() + at);
    filters_.dynamic_mask.erase(filters_.dynamic_mask.begin() + at);
    filters_.stale = true;
}

particle_world::dynamic_box detail::world_state::dynamic_box_at(std::size_t index) const {
    if (index >= dynamic_.count()) {
        throw std::out_of_range("simdcollide::particle_world: dynamic_box_at(" +
                                std::to_string(index) + ") with " +
                                std::to_string(dynamic_.count()) + " dynamic boxes");
    }
    return {dynamic_.bounds(index), dynamic_.inverse_mass[index], dynamic_.vx[index],
            dynamic_.vy[index]};
}

dynamic_boxes_view detail::world_state::dynamic_boxes() noexcept {
    return {dynamic_.x.data(),
            dynamic_.y.data(),
            dynamic_.half_width.data(),
            dynamic_.half_height.data(),
            dynamic_.inverse_mass.data(),
            dynamic_.vx.data(),
            dynamic_.vy.data(),
            dynamic_.count()};
}

} // namespace simdcollide
