// The lists of what can touch in a step (docs/world-design.md "Lists"): every circle pair and
// (circle, box) entry that can touch while each circle stays within its margin, kept from step
// to step while every circle does (Verlet lists), made again for the few that leave
// (world_relist.cpp) or made again in full (world_lists.cpp).
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/containers.hpp>
#include <simdcollide/world.hpp>

#include "broad_phase/circle_grid.hpp"
#include "broad_phase/pair_search.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::detail {

struct circle_slots;
struct task_runner;
struct world_boxes;

/// What a step does with the lists: keeps them, lists again the circles that leave their
/// margins, or lists everything again.
enum class listing { kept, some, all };

struct contact_lists {
    std::vector<circle_pair> pairs;        // (slot, slot), a < b, sorted
    std::vector<circle_pair> box_contacts; // (slot, box), sorted
    pair_search finder;
    // The last listing: each circle's search radius (radius + margin), and its position,
    // radius, inverse mass and margin then.
    aligned_floats search_radius;
    std::vector<float> listed_x, listed_y, listed_radius, listed_inverse_mass, listed_margin;
    // The circles that leave their margins this step (slots, ascending; found a block at a
    // time), and a flag a slot for them.
    std::vector<std::uint32_t> leavers;
    std::vector<std::vector<std::uint32_t>> leavers_of_block;
    std::vector<std::uint8_t> is_leaver;
    // A relisting's new entries, and a list to merge each list into (holding its last
    // version).
    std::vector<circle_pair> new_pairs, merged_pairs, merged_box_contacts;
    // The listed circles (listed centre, search radius) sorted into cells, and those listed
    // again since that sort, whose cell entries are out of date; cells_current is false from
    // each full listing until the next sort.
    circle_cells listed_cells;
    moved_circles relisted;
    bool cells_current = false;
    // find_in_blocks' entries and scratch, a block each.
    std::vector<std::vector<circle_pair>> found_of_block;
    std::vector<std::vector<std::uint32_t>> candidates_of_block;
    particle_world::listing_counts listings;

    /// The listing forgotten: the next one lists everything (the slots changed).
    void forget() noexcept {
        cells_current = false;
        listed_x.clear();
    }
    /// The listed circles sorted into cells again (world_relist.cpp).
    void sort_cells(const task_runner& tasks);
};

/// Most circles listed again on their own before a step lists everything again: an eighth
/// of them, and at least 64. Each costs a look at the few cells near it; what it costs beyond
/// that, passes over the lists and now and then a sort of every circle into cells, is far
/// below a full listing's search.
[[nodiscard]] inline std::size_t relist_at_most(std::size_t circles) noexcept {
    return circles / 8 > 64 ? circles / 8 : 64;
}

/// The lists stage's first question: what a step of dt needs done with the lists (and the
/// leavers, where some). Everything, where the circles or boxes changed.
[[nodiscard]] listing listing_needed(contact_lists& lists, const circle_slots& slots,
                                     bool boxes_changed, const world_options& options, float dt,
                                     const task_runner& tasks);

/// Every pair and (moving circle, box) that can touch while each circle moves less than its
/// margin, listed afresh.
void list_contacts(contact_lists& lists, const circle_slots& slots, const world_boxes& boxes,
                   const world_options& options, float dt, const task_runner& tasks);

/// The leavers listed again on their own, their entries merged into the lists in order
/// (world_relist.cpp). Returns whether the pairs changed: a leaver often finds the partners
/// it had.
[[nodiscard]] bool relist_leavers(contact_lists& lists, const circle_slots& slots,
                                  const world_boxes& boxes, const world_options& options, float dt,
                                  const task_runner& tasks);

/// Slot i's (circle, box) entries into `out`, ascending by box (candidates: scratch).
void append_box_contacts(const contact_lists& lists, const circle_slots& slots,
                         const world_boxes& boxes, std::size_t i, std::vector<circle_pair>& out,
                         std::vector<std::uint32_t>& candidates);

/// How far gravity alone carries a circle in a step of dt, and how far slot i can move in it.
[[nodiscard]] float step_fall(const world_options& options, float dt);
[[nodiscard]] float step_reach(const circle_slots& slots, std::size_t i, float dt, float fall);

} // namespace simdcollide::detail
