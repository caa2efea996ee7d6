// A particle world: circles that move, static boxes that do not, stepped in time.
//
// One step(dt) first lists what can touch during the step: the circle pairs (pair_finder)
// and, for each moving circle, the static boxes (static_box_grid candidates, kept if within
// reach), each radius grown by its circle's possible move |v| dt + |g| dt^2. Then it runs
// `substeps` substeps of h = dt / substeps, each:
//   1. semi-implicit Euler for every circle with inverse mass > 0: v += gravity * h, then
//      x += v * h;
//   2. each listed pair's contact normal (zero, and so no impulse, if not in contact);
//   3. `separation_iterations` rounds of pair-list separation (circle_circle.hpp);
//   4. each moving circle against its listed boxes in ascending box index: velocity
//      response with the world's restitution and friction for each contact, then push-out
//      by SPEC.md's order rule (static circles are never moved);
//   5. velocity response of the circle pairs found in 2 that approach, in pair order.
// A pair or box that closes faster than the bound acts from the next step.
// Every phase is a public function too (pair_finder::find, separate, push_out_all, respond),
// for simulations that keep their own integrator.
//
// Deterministic: the same world and the same dt give the same bits, on every instruction
// set (each phase is bit-identical to its reference).
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/containers.hpp>
#include <simdcollide/pair_finder.hpp>
#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/static_boxes.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide {

/// How a world steps. The defaults suit particles of radius about 0.1 to 1 in metres.
struct world_options {
    float gravity_x = 0.0F;        ///< length / time^2
    float gravity_y = -9.81F;      ///< length / time^2
    int substeps = 4;              ///< >= 1: substeps per step
    int separation_iterations = 2; ///< >= 1: pair-list separation rounds per substep
    float restitution = 0.0F;      ///< in [0, 1], for every contact
    float friction = 0.2F;         ///< >= 0, Coulomb coefficient for every contact
    separation_weighting weighting = separation_weighting::inverse_mass;
};

/// Owns circles (position, radius, inverse mass, velocity) and static boxes, and steps them.
class particle_world {
public:
    /// Throws std::invalid_argument if an option is out of range (see world_options).
    explicit particle_world(world_options options = {});

    /// Adds one circle; returns its index (indices never change). Throws
    /// std::invalid_argument, and adds nothing, unless every value is finite, radius >= 0
    /// and inverse_mass >= 0 (0: static).
    std::size_t add_circle(circle c, float inverse_mass, float vx = 0.0F, float vy = 0.0F);

    /// Replaces the static boxes (building their grid). Throws std::invalid_argument naming
    /// the first invalid box, and then keeps the previous boxes.
    void set_boxes(aabbs_view boxes);

    /// Advances by dt (time units). Throws std::invalid_argument unless dt is finite and > 0.
    void step(float dt);

    [[nodiscard]] std::size_t size() const noexcept { return x_.size(); }
    /// The world's own arrays, for reading or editing between steps (the view is invalidated
    /// by add_circle).
    [[nodiscard]] particles_view particles() noexcept;
    [[nodiscard]] const static_box_grid& boxes() const noexcept { return grid_; }
    [[nodiscard]] const world_options& options() const noexcept { return options_; }
    /// Circle pairs listed for the last step (those that could touch during it).
    [[nodiscard]] std::size_t last_pair_count() const noexcept { return pairs_.size(); }

private:
    void list_box_contacts();
    void substep(float h);
    world_options options_;
    aligned_floats x_, y_, radius_, inverse_mass_, vx_, vy_;
    static_box_grid grid_;
    pair_finder finder_;
    separation_workspace workspace_;
    std::vector<circle_pair> pairs_;
    std::vector<circle_pair> box_contacts_; // (circle, box)
    std::vector<float> pair_normal_x_, pair_normal_y_;
    std::vector<std::uint32_t> candidates_;
    aligned_floats search_radius_;
};

} // namespace simdcollide
