// Dynamic boxes (docs/world-design.md, "Dynamic boxes"): boxes with a mass and a velocity,
// bodies of the solver beside the circles. What the world keeps of them, the step's entries
// of what each can touch (world_dynamic_lists.cpp) and the impulses their contacts carry from
// step to step (world_dynamic_contacts.cpp).
#pragma once

#include <simdcollide/containers.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/world.hpp>

#include "world/solver/carry.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

struct circle_slots;
struct contact_lists;
struct kinematic_boxes;
struct solver_state;
struct task_runner;
struct world_boxes;
struct world_materials;

/// A dynamic box's key in the carried impulses: its index with the top bit set, above
/// every circle's.
inline constexpr std::uint32_t dynamic_box_key = 0x80000000U;

struct dynamic_boxes {
    // By index, as the caller numbers them: centre, half-size, inverse mass, velocity.
    aligned_floats x, y, half_width, half_height, inverse_mass, vx, vy;
    // The step's entries, in the solver's body numbers (slots, then box j as slots + j):
    // (body, body) with a < b, sorted, each with a box in it; and (box body, fixed box
    // number: the static boxes, then the kinematic ones), sorted.
    std::vector<circle_pair> pairs, fixed;
    // The impulses of the last step's contacts, keyed by the caller's circle indices and
    // dynamic_box_key | box (pairs: (circle or box, box); fixed: (box, fixed box number)),
    // sorted by key. carried_as_kept: they are as the last step left them, which its
    // contacts still hold (false once an edit of the world changes them).
    std::vector<carried_impulse> carried_pairs, carried_fixed;
    bool carried_as_kept = false;
    // What the contacts were last made from: the entries and each body's inverse mass (for
    // the colours).
    std::vector<circle_pair> made_pairs, made_fixed;
    std::vector<float> body_inverse_mass;
    // Scratch: boxes by region, each box's region; a block of boxes' entries and grid
    // queries, a block each (the listing on the workers).
    std::vector<std::uint32_t> by_left;
    std::vector<float> region;
    std::vector<std::vector<circle_pair>> found_of_block;
    std::vector<std::vector<std::uint32_t>> near_of_block;

    [[nodiscard]] std::size_t count() const noexcept { return x.size(); }
    /// The boxes as the solver's per-body kernels take them: half_width as the radius (which
    /// they do not read).
    [[nodiscard]] particles_view view() noexcept {
        return {x.data(),  y.data(), half_width.data(), inverse_mass.data(), vx.data(),
                vy.data(), count()};
    }
    /// Box i's bounds now.
    [[nodiscard]] aabb bounds(std::size_t i) const noexcept {
        return aabb::from_min_max(x[i] - half_width[i], y[i] - half_height[i], x[i] + half_width[i],
                                  y[i] + half_height[i]);
    }
    /// Every box's bounds now, as a box set (for the queries).
    [[nodiscard]] aabb_set all_bounds() const {
        aabb_set out;
        for (std::size_t i = 0; i < count(); ++i) {
            out.push_back(bounds(i));
        }
        return out;
    }
};

/// After the circles' and kinematic boxes' listing of a step of dt: every body and fixed box
/// each dynamic box can touch in the step, as it moves at most its speed times dt, gravity's
/// fall and the pair margin: the circles whose listed reach meets that region, the other
/// boxes whose regions meet it, the static boxes and the kinematic boxes' paths.
void list_dynamic_box_entries(dynamic_boxes& dynamic, contact_lists& lists,
                              const circle_slots& slots, const world_boxes& boxes,
                              const kinematic_boxes& kinematic, const world_options& options,
                              float dt, const task_runner& tasks);

/// The contacts stage for the dynamic boxes: their entries' contacts, coloured, each with the
/// impulses it ended the last step with. Where the entries, the slots (`resorted` false) and
/// the inverse masses are those the contacts were last made from, and the impulses as the
/// last step kept them, the contacts are kept as they are: the same contacts, colours and
/// impulses that making them again would give (`resorted` also where the materials changed).
/// Returns whether they were made.
bool make_dynamic_box_contacts(solver_state& solver, dynamic_boxes& dynamic,
                               const circle_slots& slots, bool resorted,
                               const world_materials& materials, const task_runner& tasks);

/// After the step: the dynamic boxes' contacts' impulses into dynamic.carried_*, keyed by the
/// caller's indices.
void keep_dynamic_box_impulses(const solver_state& solver, dynamic_boxes& dynamic,
                               const circle_slots& slots);

/// The caller's circles where doomed[i] != 0 removed: their impulses with boxes dropped, the
/// others' keys moved down.
void remove_circles_from(dynamic_boxes& dynamic, std::span<const std::uint8_t> doomed);
/// Dynamic box `box` removed, and its impulses; the boxes after it move down one index.
void remove_dynamic_box(dynamic_boxes& dynamic, std::size_t box);
/// Fixed box number `box` removed (a kinematic box): its impulses dropped, higher numbers
/// moved down one.
void remove_fixed_box(dynamic_boxes& dynamic, std::uint32_t box);

} // namespace simdcollide::detail
