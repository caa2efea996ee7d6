// Kinematic boxes (docs/world-design.md, "Kinematic boxes"): boxes the host moves, by a
// velocity or to a place it gives for the next step. Each step finds the circles near each
// box's path and lists them with the box beside the static boxes' entries
// (world_kinematic_lists.cpp), so that the solver's passes take a kinematic box's contacts as
// a static box's, with the circle's velocity relative to the box. A move that is fast against
// a box is swept in the box's frame as the positions are integrated (the kinematic_sweep stage,
// world_kinematic_sweep.cpp). This file holds the boxes themselves, their moves a substep,
// and where each ends the step.
#include "world/world_state.hpp"

#include "runtime/tasks.hpp"
#include "world/world_errors.hpp"
#include "world/world_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace simdcollide {
namespace {

namespace math = detail::world_impl;
using detail::number;
using detail::refuse;

std::string name_of(std::size_t index) {
    return "kinematic box " + std::to_string(index);
}

// Why `box` cannot be kinematic box `index`'s place, or empty.
std::string invalid_box(std::size_t index, const aabb& box) {
    for (const auto& [name, value] :
         {std::pair{"min_x", box.min_x}, std::pair{"min_y", box.min_y},
          std::pair{"max_x", box.max_x}, std::pair{"max_y", box.max_y}}) {
        if (!std::isfinite(value)) {
            return name_of(index) + ": " + name + " is " + number(value) + ", must be finite";
        }
    }
    if (!(box.min_x <= box.max_x && box.min_y <= box.max_y)) {
        return name_of(index) + ": (" + number(box.min_x) + ", " + number(box.min_y) + ") to (" +
               number(box.max_x) + ", " + number(box.max_y) +
               ") is inverted, must have min <= max on both axes";
    }
    return {};
}

void check_velocity(std::size_t index, float vx, float vy) {
    if (!std::isfinite(vx) || !std::isfinite(vy)) {
        refuse(name_of(index) + ": velocity (" + number(vx) + ", " + number(vy) +
               ") must be finite");
    }
}

// Where a corner that starts the step at `from` and moves by `move` a substep is after k of
// the step's substeps: from + k * move, and `next` exactly after the last one for a box sent
// there.
float corner_after(float from, float move, int k, int substeps, bool moving, float next) {
    if (moving && k == substeps) {
        return next;
    }
    return k == 0 ? from : from + static_cast<float>(k) * move;
}

} // namespace

std::size_t detail::world_state::add_kinematic_box(aabb box, float vx, float vy) {
    const std::size_t index = kinematic_box_count();
    if (const std::string why = invalid_box(index, box); !why.empty()) {
        refuse(why);
    }
    check_velocity(index, vx, vy);
    world_materials::add(materials_.kinematic_friction, materials_.kinematic_restitution,
                         materials_.defaults);
    materials_.touch();
    world_filters::add(filters_.kinematic_category, filters_.kinematic_mask);
    filters_.stale = true;
    kinematic_.min_x.push_back(box.min_x);
    kinematic_.min_y.push_back(box.min_y);
    kinematic_.max_x.push_back(box.max_x);
    kinematic_.max_y.push_back(box.max_y);
    kinematic_.vx.push_back(vx);
    kinematic_.vy.push_back(vy);
    kinematic_.moving.push_back(0);
    if (kinematic_.region.size() == 4 * index) {
        // A region that holds no path: the next step lists the new box alone.
        kinematic_.region.insert(kinematic_.region.end(), 4,
                                 std::numeric_limits<float>::quiet_NaN());
    }
    for (std::vector<float>* next : {&kinematic_.next_min_x, &kinematic_.next_min_y,
                                     &kinematic_.next_max_x, &kinematic_.next_max_y}) {
        next->push_back(0.0F);
    }
    return index;
}

namespace {
void check_index(const char* what, std::size_t index, std::size_t count) {
    detail::require_index(what, index, count, "kinematic boxes");
}
} // namespace

void detail::world_state::set_kinematic_velocity(std::size_t index, float vx, float vy) {
    check_index("set_kinematic_velocity", index, kinematic_box_count());
    check_velocity(index, vx, vy);
    kinematic_.vx[index] = vx;
    kinematic_.vy[index] = vy;
}

void detail::world_state::move_kinematic_box(std::size_t index, aabb next) {
    check_index("move_kinematic_box", index, kinematic_box_count());
    if (const std::string why = invalid_box(index, next); !why.empty()) {
        refuse(why);
    }
    kinematic_.moving[index] = 1;
    kinematic_.next_min_x[index] = next.min_x;
    kinematic_.next_min_y[index] = next.min_y;
    kinematic_.next_max_x[index] = next.max_x;
    kinematic_.next_max_y[index] = next.max_y;
}

void detail::world_state::remove_kinematic_box(std::size_t index) {
    check_index("remove_kinematic_box", index, kinematic_box_count());
    events_.renumber(
        detail::shape_renumbering::of_one(shape_kind::kinematic_box, index, kinematic_box_count()),
        slots_.circle_of_slot);
    const auto at = static_cast<std::ptrdiff_t>(index);
    for (std::vector<float>* field :
         {&kinematic_.min_x, &kinematic_.min_y, &kinematic_.max_x, &kinematic_.max_y,
          &kinematic_.vx, &kinematic_.vy, &kinematic_.next_min_x, &kinematic_.next_min_y,
          &kinematic_.next_max_x, &kinematic_.next_max_y, &materials_.kinematic_friction,
          &materials_.kinematic_restitution}) {
        field->erase(field->begin() + at);
    }
    materials_.touch();
    for (std::vector<std::uint64_t>* field :
         {&filters_.kinematic_category, &filters_.kinematic_mask}) {
        field->erase(field->begin() + at);
    }
    filters_.stale = true;
    kinematic_.moving.erase(kinematic_.moving.begin() + at);
    // Its entries go, and those of the boxes after it name them one lower.
    if (kinematic_.region.size() == 4 * (kinematic_box_count() + 1)) {
        kinematic_.region.erase(kinematic_.region.begin() + 4 * at,
                                kinematic_.region.begin() + 4 * at + 4);
    }
    const auto gone = static_cast<std::uint32_t>(index);
    std::erase_if(kinematic_.entries, [&](circle_pair e) { return e.b == gone; });
    for (circle_pair& e : kinematic_.entries) {
        e.b -= e.b > gone ? 1 : 0;
    }
    kinematic_.regions_current = false;
    keep_impulses(solver_, task_runner());
    solver_.carried.remove_box(static_cast<std::uint32_t>(boxes_.count() + index));
    remove_fixed_box(dynamic_, static_cast<std::uint32_t>(boxes_.count() + index));
}

particle_world::kinematic_box detail::world_state::kinematic_box_at(std::size_t index) const {
    check_index("kinematic_box_at", index, kinematic_box_count());
    const auto& k = kinematic_;
    return {aabb::from_min_max(k.min_x[index], k.min_y[index], k.max_x[index], k.max_y[index]),
            k.vx[index], k.vy[index], k.moving[index] != 0,
            aabb::from_min_max(k.next_min_x[index], k.next_min_y[index], k.next_max_x[index],
                               k.next_max_y[index])};
}

// Before a step of dt changes anything: each box's corners' move a substep and its velocity
// in the step's contacts, and a refusal naming the first box whose move is not finite.
void detail::plan_kinematic_step(kinematic_boxes& kinematic, int substeps, float dt) {
    const std::size_t boxes = kinematic.count();
    const float h = dt / static_cast<float>(substeps);
    auto& k = kinematic;
    k.step_move.resize(4 * boxes);
    k.step_end.resize(4 * boxes);
    k.contact_vx.resize(boxes);
    k.contact_vy.resize(boxes);
    for (std::size_t b = 0; b < boxes; ++b) {
        const bool moving = k.moving[b] != 0;
        const float from[4] = {k.min_x[b], k.min_y[b], k.max_x[b], k.max_y[b]};
        const float to[4] = {k.next_min_x[b], k.next_min_y[b], k.next_max_x[b], k.next_max_y[b]};
        float* const move = k.step_move.data() + 4 * b;
        bool finite = true;
        for (std::size_t c = 0; c < 4; ++c) {
            move[c] = moving ? (to[c] - from[c]) / static_cast<float>(substeps)
                             : (c % 2 == 0 ? k.vx[b] : k.vy[b]) * h;
            const float end = corner_after(from[c], move[c], substeps, substeps, moving, to[c]);
            k.step_end[4 * b + c] = end;
            finite = finite && std::isfinite(move[c]) && std::isfinite(end);
        }
        k.contact_vx[b] = moving ? (move[0] + move[2]) * 0.5F / h : k.vx[b];
        k.contact_vy[b] = moving ? (move[1] + move[3]) * 0.5F / h : k.vy[b];
        if (!finite || !std::isfinite(k.contact_vx[b]) || !std::isfinite(k.contact_vy[b])) {
            const auto corners = [](const float* c) {
                return "min (" + number(c[0]) + ", " + number(c[1]) + "), max (" + number(c[2]) +
                       ", " + number(c[3]) + ")";
            };
            refuse(name_of(b) + ": its move in a step of " + number(dt) + " is not finite (" +
                   (moving ? "sent from " + corners(from) + " to " + corners(to)
                           : "velocity (" + number(k.vx[b]) + ", " + number(k.vy[b]) + ")") +
                   ")");
        }
    }
}

// Before substep `substep` (from 0): where each box starts and ends it.
void detail::kinematic_substep_start(kinematic_boxes& kinematic, world_boxes& boxes, int substep,
                                     int substeps) {
    if (kinematic.entries.empty()) {
        return;
    }
    auto& k = kinematic;
    const std::size_t count = kinematic.count();
    // A substep starts each box where the last one ended it.
    if (substep == 0) {
        k.box_to.clear();
        for (std::size_t b = 0; b < count; ++b) {
            k.box_to.insert(k.box_to.end(), {k.min_x[b], k.min_y[b], k.max_x[b], k.max_y[b]});
        }
    }
    k.box_from.swap(k.box_to);
    k.box_to.resize(4 * count);
    k.centre_move.resize(2 * count);
    // Each box where the substep ends it, its centre's move, and the furthest any box's
    // centre moves in it (1c).
    const bool last = substep + 1 == substeps;
    float furthest2 = 0.0F;
    for (std::size_t b = 0; b < count; ++b) {
        const float start[4] = {k.min_x[b], k.min_y[b], k.max_x[b], k.max_y[b]};
        const float* const end = k.step_end.data() + 4 * b;
        const float* const move = k.step_move.data() + 4 * b;
        const float* const from = k.box_from.data() + 4 * b;
        float* const to = k.box_to.data() + 4 * b;
        for (std::size_t c = 0; c < 4; ++c) {
            to[c] = last ? end[c] : start[c] + static_cast<float>(substep + 1) * move[c];
        }
        const float mx = ((to[0] - from[0]) + (to[2] - from[2])) * 0.5F;
        const float my = ((to[1] - from[1]) + (to[3] - from[3])) * 0.5F;
        k.centre_move[2 * b] = mx;
        k.centre_move[2 * b + 1] = my;
        furthest2 = std::max(furthest2, mx * mx + my * my);
    }
    k.furthest_move = std::sqrt(furthest2);
    // The sweeps find each box where the substep ends it, after the static boxes.
    const std::size_t statics = boxes.count();
    boxes.records.resize(4 * (statics + count));
    std::copy(k.box_to.begin(), k.box_to.end(), boxes.records.data() + 4 * statics);
}

// After the step's substeps: each box where the step left it; a box sent somewhere is there,
// and goes by its velocity again from the next step.
void detail::finish_kinematic_step(kinematic_boxes& kinematic) {
    auto& k = kinematic;
    for (std::size_t b = 0; b < kinematic.count(); ++b) {
        float* const corner[4] = {&k.min_x[b], &k.min_y[b], &k.max_x[b], &k.max_y[b]};
        for (std::size_t c = 0; c < 4; ++c) {
            *corner[c] = k.step_end[4 * b + c];
        }
        k.moving[b] = 0;
    }
}

} // namespace simdcollide
