// The particle world's circles and boxes: added one by one or in bulk, removed, replaced
// (world.hpp).
#include "world/world_state.hpp"

#include "runtime/tasks.hpp"
#include "world/world_errors.hpp"

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace simdcollide {

using detail::refuse;

namespace {
// Why circle `index` (as it would be numbered) cannot be added, or empty.
std::string invalid_circle(std::size_t index, circle c, float inverse_mass, float vx, float vy) {
    const std::string name_of = "circle " + std::to_string(index);
    for (const auto& [name, value] :
         {std::pair{"x", c.x}, std::pair{"y", c.y}, std::pair{"radius", c.radius},
          std::pair{"inverse_mass", inverse_mass}, std::pair{"vx", vx}, std::pair{"vy", vy}}) {
        if (!std::isfinite(value)) {
            return name_of + ": " + name + " is " + std::to_string(value) + ", must be finite";
        }
    }
    if (c.radius < 0.0F) {
        return name_of + ": radius is " + std::to_string(c.radius) + ", must be >= 0";
    }
    if (inverse_mass < 0.0F) {
        return name_of + ": inverse_mass is " + std::to_string(inverse_mass) + ", must be >= 0";
    }
    return {};
}
} // namespace

std::size_t detail::world_state::add_circle(circle c, float inverse_mass, float vx, float vy) {
    if (const std::string why = invalid_circle(size(), c, inverse_mass, vx, vy); !why.empty()) {
        refuse(why);
    }
    circles_.x.push_back(c.x);
    circles_.y.push_back(c.y);
    circles_.radius.push_back(c.radius);
    circles_.inverse_mass.push_back(inverse_mass);
    circles_.vx.push_back(vx);
    circles_.vy.push_back(vy);
    world_materials::add(materials_.circle_friction, materials_.circle_restitution,
                         materials_.defaults);
    materials_.touch();
    world_filters::add(filters_.circle_category, filters_.circle_mask);
    filters_.stale = true;
    circles_changed_ = true;
    return size() - 1;
}

std::size_t detail::world_state::add_circles(circles_cview circles,
                                             std::span<const float> inverse_mass,
                                             std::span<const float> vx, std::span<const float> vy) {
    const std::size_t n = circles.count;
    const std::size_t first = size();
    if (inverse_mass.size() != n) {
        refuse("add_circles: inverse_mass has " + std::to_string(inverse_mass.size()) +
               " elements, circles " + std::to_string(n));
    }
    if (vx.size() != vy.size() || (!vx.empty() && vx.size() != n)) {
        refuse("add_circles: vx and vy have " + std::to_string(vx.size()) + " and " +
               std::to_string(vy.size()) + " elements, must both have " + std::to_string(n) +
               " or both none");
    }
    if (n > 0 && (circles.x == nullptr || circles.y == nullptr || circles.radius == nullptr ||
                  inverse_mass.data() == nullptr)) {
        refuse("add_circles: a null array");
    }
    for (std::size_t k = 0; k < n; ++k) {
        const std::string why =
            invalid_circle(first + k, {circles.x[k], circles.y[k], circles.radius[k]},
                           inverse_mass[k], vx.empty() ? 0.0F : vx[k], vy.empty() ? 0.0F : vy[k]);
        if (!why.empty()) {
            refuse(why);
        }
    }
    // Copied out first: the arrays may be the world's own (particles()), which growing
    // them would move.
    const std::vector<float> x(circles.x, circles.x + n);
    const std::vector<float> y(circles.y, circles.y + n);
    const std::vector<float> radius(circles.radius, circles.radius + n);
    const std::vector<float> mass(inverse_mass.begin(), inverse_mass.end());
    const std::vector<float> vx_in(vx.begin(), vx.end());
    const std::vector<float> vy_in(vy.begin(), vy.end());
    for (std::size_t k = 0; k < n; ++k) {
        circles_.x.push_back(x[k]);
        circles_.y.push_back(y[k]);
        circles_.radius.push_back(radius[k]);
        circles_.inverse_mass.push_back(mass[k]);
        circles_.vx.push_back(vx_in.empty() ? 0.0F : vx_in[k]);
        circles_.vy.push_back(vy_in.empty() ? 0.0F : vy_in[k]);
        world_materials::add(materials_.circle_friction, materials_.circle_restitution,
                             materials_.defaults);
        world_filters::add(filters_.circle_category, filters_.circle_mask);
    }
    materials_.touch();
    filters_.stale = true;
    circles_changed_ = true;
    return first;
}

void detail::world_state::remove_circle(std::size_t index) {
    if (index >= size()) {
        throw std::out_of_range("simdcollide::particle_world: remove_circle(" +
                                std::to_string(index) + ") with " + std::to_string(size()) +
                                " circles");
    }
    std::vector<std::uint8_t> doomed(size());
    doomed[index] = 1;
    remove_marked(doomed);
}

// Keeps the circles not marked, in order. The slots and lists name the old indices, so the
// next step sorts and lists everything again (circles_changed_).
std::size_t detail::world_state::remove_marked(std::span<const std::uint8_t> doomed) {
    std::size_t kept = 0;
    for (aligned_floats* field : {&circles_.x, &circles_.y, &circles_.radius,
                                  &circles_.inverse_mass, &circles_.vx, &circles_.vy}) {
        kept = 0;
        for (std::size_t i = 0; i < doomed.size(); ++i) {
            if (doomed[i] == 0) {
                (*field)[kept++] = (*field)[i];
            }
        }
        field->resize(kept);
    }
    for (std::vector<float>* field :
         {&materials_.circle_friction, &materials_.circle_restitution}) {
        std::size_t at = 0;
        for (std::size_t i = 0; i < doomed.size(); ++i) {
            if (doomed[i] == 0) {
                (*field)[at++] = (*field)[i];
            }
        }
        field->resize(at);
    }
    materials_.touch();
    for (std::vector<std::uint64_t>* field : {&filters_.circle_category, &filters_.circle_mask}) {
        std::size_t at = 0;
        for (std::size_t i = 0; i < doomed.size(); ++i) {
            if (doomed[i] == 0) {
                (*field)[at++] = (*field)[i];
            }
        }
        field->resize(at);
    }
    filters_.stale = true;
    const std::size_t removed = doomed.size() - kept;
    if (removed > 0) {
        circles_changed_ = true;
        // the contacts' impulses go on under the circles' new indices
        keep_impulses_by_circle(solver_, slots_.circle_of_slot, task_runner());
        solver_.carried.remove_circles(doomed);
        remove_circles_from(dynamic_, doomed);
        const auto renumbering = detail::shape_renumbering::of_marked(shape_kind::circle, doomed);
        events_.renumber(renumbering, slots_.circle_of_slot);
        sensors_.renumber(renumbering);
    }
    return removed;
}

void detail::world_state::set_boxes(aabbs_view boxes) {
    static_box_grid grid(boxes); // validates; throws before anything changes
    const aabbs_view kept = grid.boxes();
    aligned_floats records(4 * kept.count);
    for (std::size_t k = 0; k < kept.count; ++k) {
        records[4 * k] = kept.min_x[k];
        records[4 * k + 1] = kept.min_y[k];
        records[4 * k + 2] = kept.max_x[k];
        records[4 * k + 3] = kept.max_y[k];
    }
    boxes_.grid = std::move(grid);
    boxes_.records = std::move(records);
    boxes_.changed = true;
    materials_.box_friction.assign(kept.count, materials_.defaults.friction);
    materials_.box_restitution.assign(kept.count, materials_.defaults.restitution);
    materials_.touch();
    filters_.box_category.assign(kept.count, collision_filter{}.category);
    filters_.box_mask.assign(kept.count, collision_filter{}.mask);
    filters_.stale = true;
    // new boxes, new contacts: the box contacts start again from 0
    keep_impulses(solver_, task_runner());
    solver_.carried.boxes.clear();
    dynamic_.carried_fixed.clear();
    dynamic_.carried_as_kept = false;
    events_.forget(shape_kind::static_box);
}

} // namespace simdcollide
