// Kinematic boxes (docs/world-design.md, "Kinematic boxes"): boxes the host moves, their moves
// a substep (world_kinematic.cpp), the circles listed with each (world_kinematic_lists.cpp),
// and the sweeps in a box's frame (the kinematic_sweep stage, world_kinematic_sweep.cpp).
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/world.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::detail {

struct world_filters;
struct world_materials;

enum class listing;
struct circle_slots;
struct contact_lists;
struct solver_state;
struct sweep_state;
struct task_runner;
struct world_boxes;

struct kinematic_boxes {
    // By index: where each box is, its velocity, and the place move_kinematic_box gave it
    // for the next step (if moving).
    std::vector<float> min_x, min_y, max_x, max_y, vx, vy;
    std::vector<std::uint8_t> moving;
    std::vector<float> next_min_x, next_min_y, next_max_x, next_max_y;
    // For the step under way: its corners' move a substep and where the step ends them (4 a
    // box), and its velocity in contacts.
    std::vector<float> step_move, step_end;
    std::vector<float> contact_vx, contact_vy;
    // 4 a box: the bounds its entries were listed for (where it went in the step it was
    // listed in, and a margin), kept while it goes no further; in a grid (current while
    // regions_current), for the circles listed again on their own.
    std::vector<float> region;
    static_box_grid regions;
    bool regions_current = false;
    // The substep under way: where each box starts (box_from) and ends (box_to) it, as
    // records of (min x, min y, max x, max y), its centre's move (2 a box), the furthest a
    // box's centre moves, and whether a circle can be fast against a box in it.
    std::vector<float> box_from, box_to, centre_move;
    float furthest_move = 0.0F;
    bool sweeps = false;
    // The step's entries: (slot, box), by slot and then box; whether they hold each box's
    // entries for its region and the circles' lists as they are; and how they were found.
    std::vector<circle_pair> entries;
    bool listed = false;
    particle_world::listing_counts listings;
    // The entries beside the static boxes' (each kinematic box numbered after them), as the
    // contacts take them.
    std::vector<circle_pair> box_entries;
    // For the kinematic sweeps (current while circles_current, made in a step's first
    // substep that sweeps): the circles in the entries (slots, ascending), the first of each
    // one's boxes in box_of (and one past the last), and where each started the substep.
    std::vector<std::uint32_t> circles, first_box, box_of;
    std::vector<float> start_x, start_y;
    bool circles_current = false;
    // Scratch: sorting, each slot's first entry, a relisting's new entries, grid queries,
    // and the boxes listed again.
    std::vector<circle_pair> sorted, fresh;
    std::vector<std::uint32_t> slot_start, near;
    std::vector<std::uint8_t> regrown;

    [[nodiscard]] std::size_t count() const noexcept { return vx.size(); }
};

/// Before a step of dt changes anything: each box's corners' move a substep and its
/// velocity in the step's contacts. Throws std::invalid_argument, changing nothing a step
/// reads, naming the first box whose move is not finite.
void plan_kinematic_step(kinematic_boxes& kinematic, int substeps, float dt);

/// After the step's listing of the circles (`listed`; `resorted` where the circles went into
/// new slots): the entries for the boxes' paths over the step, by slot and then box, and
/// box_entries beside the static boxes' entries.
void list_kinematic_entries(kinematic_boxes& kinematic, contact_lists& lists,
                            const circle_slots& slots, std::size_t static_boxes, listing listed,
                            bool resorted, const task_runner& tasks);

/// The step's (circle, box) entries for its contacts: the static boxes', and the kinematic
/// boxes' beside them where a circle is listed with one.
[[nodiscard]] const std::vector<circle_pair>& step_box_entries(const contact_lists& lists,
                                                               const kinematic_boxes& kinematic);

/// Before substep `substep` (from 0) of `substeps`: where each box starts and ends it, the
/// ends also after the static boxes' records in `boxes`.
void kinematic_substep_start(kinematic_boxes& kinematic, world_boxes& boxes, int substep,
                             int substeps);

/// Before a substep's positions are integrated, over h, after find_fast_circles: whether any
/// listed circle can be fast against a box in it, and if so where each starts the substep.
void note_kinematic_starts(kinematic_boxes& kinematic, const circle_slots& slots,
                           const sweep_state& sweeps, const world_options& options, float h);

/// The kinematic_sweep stage: each listed circle's move of the substep that is fast against a box
/// swept against the box in its own frame.
void sweep_kinematic_boxes(const kinematic_boxes& kinematic, circle_slots& slots,
                           solver_state& solver, const world_options& options,
                           const world_materials& materials, const world_filters& filters,
                           const task_runner& tasks);

/// After the step's substeps: each box where the step left it; a box sent somewhere is
/// there, and goes by its velocity again from the next step.
void finish_kinematic_step(kinematic_boxes& kinematic);

} // namespace simdcollide::detail
