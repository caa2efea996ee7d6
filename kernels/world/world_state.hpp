// The particle world's state: what particle_world (world.hpp) is the public face of, held
// by role (the circles, the slots, the boxes, the lists, the solver, the sweeps, the
// kinematic boxes), each a plain struct in a header named for it beside the functions of its
// stages. The step (world_step.cpp) hands each stage the parts it reads and writes.
// Internal, not installed: the tests and benchmarks reach what they look into through
// state_of(world).
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/containers.hpp>
#include <simdcollide/world.hpp>

#include "world/solver/contacts.hpp"
#include "world/world_boxes.hpp"
#include "world/world_dynamic_boxes.hpp"
#include "world/world_events.hpp"
#include "world/world_filters.hpp"
#include "world/world_kinematic.hpp"
#include "world/world_lists.hpp"
#include "world/world_materials.hpp"
#include "world/world_profile.hpp"
#include "world/world_sleep.hpp"
#include "world/world_slots.hpp"
#include "world/world_solve.hpp"
#include "world/world_sweep.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace simdcollide::detail {

class worker_pool;
struct task_runner;

/// A particle world (world.hpp, which says what a step does): what a caller can do with one,
/// and the step, which runs the stages over its parts (docs/architecture.md).
class world_state {
public:
    using listing_counts = particle_world::listing_counts;
    static constexpr std::size_t sort_every = particle_world::sort_every;
    static constexpr float max_time_step = particle_world::max_time_step;
    static constexpr float min_substep = particle_world::min_substep;

    /// Throws std::invalid_argument if an option is out of range (see world_options).
    explicit world_state(world_options options);

    // What particle_world's functions of the same names do.
    std::size_t add_circle(circle c, float inverse_mass, float vx, float vy);
    std::size_t add_circles(circles_cview circles, std::span<const float> inverse_mass,
                            std::span<const float> vx, std::span<const float> vy);
    void remove_circle(std::size_t index);
    std::size_t remove_marked(std::span<const std::uint8_t> doomed);
    void set_boxes(aabbs_view boxes);
    std::size_t add_kinematic_box(aabb box, float vx, float vy);
    void set_kinematic_velocity(std::size_t index, float vx, float vy);
    void move_kinematic_box(std::size_t index, aabb next);
    void remove_kinematic_box(std::size_t index);
    [[nodiscard]] std::size_t kinematic_box_count() const noexcept { return kinematic_.count(); }
    [[nodiscard]] particle_world::kinematic_box kinematic_box_at(std::size_t index) const;
    std::size_t add_dynamic_box(aabb box, float inverse_mass, float vx, float vy);
    void remove_dynamic_box(std::size_t index);
    [[nodiscard]] std::size_t dynamic_box_count() const noexcept { return dynamic_.count(); }
    [[nodiscard]] particle_world::dynamic_box dynamic_box_at(std::size_t index) const;
    [[nodiscard]] dynamic_boxes_view dynamic_boxes() noexcept;
    void step(float dt);
    void set_material(shape_kind kind, std::size_t index, material m);
    [[nodiscard]] material material_of(shape_kind kind, std::size_t index) const;
    void set_circle_materials(std::span<const float> friction, std::span<const float> restitution);
    void set_filter(shape_kind kind, std::size_t index, collision_filter f);
    [[nodiscard]] collision_filter filter_of(shape_kind kind, std::size_t index) const;
    void set_circle_filters(std::span<const std::uint64_t> category,
                            std::span<const std::uint64_t> mask);
    std::size_t cast_rays(rays_cview rays, ray_hits_view hits, std::span<shape_kind> kinds,
                          const collision_filter& filter) const;
    std::size_t query_region(const aabb& region, std::vector<shape_ref>& out,
                             const collision_filter& filter) const;
    std::size_t query_point(float x, float y, float distance, std::vector<shape_ref>& out,
                            const collision_filter& filter) const;
    [[nodiscard]] const contact_events& last_contact_events() const noexcept {
        return events_.last;
    }
    [[nodiscard]] std::vector<shape_pair> touching() const {
        return events_.touching(slots_.circle_of_slot);
    }
    std::size_t add_sensor(aabb box, collision_filter filter);
    void move_sensor(std::size_t index, aabb box);
    void remove_sensor(std::size_t index);
    [[nodiscard]] std::size_t sensor_count() const noexcept { return sensors_.count(); }
    [[nodiscard]] aabb sensor_at(std::size_t index) const;
    [[nodiscard]] std::span<const shape_ref> sensor_contents(std::size_t index) const;
    [[nodiscard]] const sensor_events& last_sensor_events() const noexcept { return sensors_.last; }
    [[nodiscard]] bool sleeping() const noexcept { return sleep_.asleep; }
    void wake() noexcept {
        sleep_.asleep = false;
        sleep_.rest = 0.0F;
    }
    /// How often the world fell asleep. For tests.
    [[nodiscard]] std::size_t sleeps() const noexcept { return sleep_.falls; }
    [[nodiscard]] std::size_t size() const noexcept { return circles_.size(); }
    [[nodiscard]] particles_view particles() noexcept;
    [[nodiscard]] const static_box_grid& boxes() const noexcept { return boxes_.grid; }
    [[nodiscard]] const world_options& options() const noexcept { return options_; }
    [[nodiscard]] std::size_t last_pair_count() const noexcept { return lists_.pairs.size(); }
    [[nodiscard]] std::vector<circle_pair> listed_pairs() const;
    [[nodiscard]] listing_counts listings() const noexcept { return lists_.listings; }

    // For tests, benchmarks and diagnostics.
    /// The listed pairs as the step keeps them: in slot indices (the circles in the step's own
    /// order, which the world sorts them into now and then), sorted. Valid until the next
    /// step.
    [[nodiscard]] std::span<const circle_pair> pairs_in_slots() const noexcept {
        return lists_.pairs;
    }
    /// The step's contacts and their impulses, in colour order (solver/contacts.hpp). Valid
    /// until the next step.
    [[nodiscard]] const detail::pair_contacts& pair_contacts_in_slots() const noexcept {
        return solver_.pairs;
    }
    [[nodiscard]] const detail::box_contacts& box_contacts_of_step() const noexcept {
        return solver_.boxes;
    }
    /// The dynamic boxes' contacts of the last step (solver_state). Valid until the next step.
    [[nodiscard]] const detail::pair_contacts& dynamic_pair_contacts() const noexcept {
        return solver_.dynamic_pairs;
    }
    [[nodiscard]] const detail::box_contacts& dynamic_fixed_contacts() const noexcept {
        return solver_.dynamic_fixed;
    }
    /// The impulses the dynamic boxes' contacts ended the last step with, under the caller's
    /// indices (world_dynamic_boxes.hpp).
    [[nodiscard]] const std::vector<carried_impulse>& dynamic_carried_pairs() const noexcept {
        return dynamic_.carried_pairs;
    }
    [[nodiscard]] const std::vector<carried_impulse>& dynamic_carried_fixed() const noexcept {
        return dynamic_.carried_fixed;
    }
    /// The caller's index of the circle in slot s.
    [[nodiscard]] std::uint32_t circle_of_slot(std::size_t s) const noexcept {
        return slots_.circle_of_slot[s];
    }
    /// Seconds spent in each stage of the steps since keep_profile(true) (world_profile.hpp).
    /// For benchmarks; a world keeps none unless asked.
    [[nodiscard]] const step_profile& profile() const noexcept { return clock_.profile(); }
    void keep_profile(bool on) noexcept { clock_.keep(on); }
    /// The listed circle-box entries as the step keeps them: (slot, box), where box indexes
    /// boxes().boxes(), sorted by slot and then box. For tests and diagnostics; valid until
    /// the next step.
    [[nodiscard]] std::span<const circle_pair> box_contacts_in_slots() const noexcept {
        return lists_.box_contacts;
    }
    /// What a step of dt does to find its fast circles (the fast_circles stage), alone: the
    /// floor, then each substep's look, all from the state as it is. Returns how many fast
    /// circles the looks found. For the benchmarks.
    std::size_t look_for_fast_circles(float dt);
    /// The (slot, kinematic box) entries of the last step:
    /// each circle whose listed reach meets a kinematic box's path over the step, by slot
    /// and then box. For tests; valid until the next step.
    [[nodiscard]] std::size_t kinematic_entry_count() const noexcept {
        return kinematic_.entries.size();
    }
    /// How the entries were found: afresh (every box), and in part (the boxes that left
    /// their regions and the circles listed again alone), over the world's steps.
    [[nodiscard]] listing_counts kinematic_listings() const noexcept { return kinematic_.listings; }
    /// Has the next step list every kinematic box's entries afresh. For tests.
    void relist_kinematic_boxes() noexcept { kinematic_.listed = false; }
    /// The circles in those entries, each once.
    [[nodiscard]] std::size_t kinematic_circle_count() const noexcept {
        const std::vector<circle_pair>& entries = kinematic_.entries;
        std::size_t circles = 0;
        for (std::size_t e = 0; e < entries.size(); ++e) {
            circles += e == 0 || entries[e].a != entries[e - 1].a ? 1 : 0;
        }
        return circles;
    }
    /// The steps that made the dynamic boxes' contacts afresh (the others kept them). For
    /// tests and benchmarks.
    [[nodiscard]] std::size_t dynamic_contacts_made() const noexcept {
        return dynamic_contacts_made_;
    }
    /// Has the next step make the dynamic boxes' contacts afresh. For tests.
    void remake_dynamic_contacts() noexcept { dynamic_.carried_as_kept = false; }

private:
    [[nodiscard]] detail::task_runner task_runner() const noexcept;
    void filters_changed();
    // The step's lists without the pairs the filters keep apart (world_filters.hpp).
    void filter_lists(bool pairs_changed);

    world_options options_;
    circle_fields circles_; // as the caller indexes them (particles())
    circle_slots slots_;
    world_boxes boxes_;
    contact_lists lists_;
    solver_state solver_;
    sweep_state sweeps_;
    kinematic_boxes kinematic_;
    detail::dynamic_boxes dynamic_;
    world_materials materials_;
    world_filters filters_;
    world_events events_;
    world_sensors sensors_;
    world_sleep sleep_;
    std::size_t steps_ = 0;
    std::size_t dynamic_contacts_made_ = 0;
    bool circles_changed_ = true; // added or removed since the last sort into slots
    // Workers: the world's own pool (none with one worker or the host's callbacks), and the
    // callbacks the step's tasks go to (none: the calling thread runs them).
    std::shared_ptr<detail::worker_pool> pool_;
    task_callbacks tasks_{};
    stage_clock clock_;
};

/// The state behind a world: for the tests and benchmarks that look into its step.
world_state& state_of(particle_world& world) noexcept;
const world_state& state_of(const particle_world& world) noexcept;

} // namespace simdcollide::detail
