// The world's collision filters (docs/behaviour.md, "Collision filters"): a category and a
// mask for every circle and box, as the caller indexes them, and by the numbers a step's
// lists name bodies and boxes by. Lists drop the entries of pairs that cannot collide as
// they are made, so no contact, sweep or solver pass sees them.
#pragma once

#include "world/world_slots.hpp"

#include <simdcollide/soa.hpp>
#include <simdcollide/world.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::detail {

struct world_filters {
    // By the caller's indices.
    std::vector<std::uint64_t> circle_category, circle_mask;
    std::vector<std::uint64_t> box_category, box_mask; // static boxes
    std::vector<std::uint64_t> kinematic_category, kinematic_mask;
    std::vector<std::uint64_t> dynamic_category, dynamic_mask;
    // By number: bodies by slot, then the dynamic boxes; boxes static, then kinematic.
    std::vector<std::uint64_t> body_category, body_mask, step_box_category, step_box_mask;
    bool active = false; // some body's filter is not the default: the lists are filtered
    bool stale = true;   // the arrays by number to be made again

    static void add(std::vector<std::uint64_t>& category, std::vector<std::uint64_t>& mask) {
        category.push_back(collision_filter{}.category);
        mask.push_back(collision_filter{}.mask);
    }
    /// The arrays by number from the slots' order, where stale.
    void refresh(const circle_slots& slots);

    [[nodiscard]] bool bodies_collide(std::uint32_t a, std::uint32_t b) const noexcept {
        return (body_category[a] & body_mask[b]) != 0 && (body_category[b] & body_mask[a]) != 0;
    }
    [[nodiscard]] bool collides_with_box(std::uint32_t body, std::uint32_t box) const noexcept {
        return (body_category[body] & step_box_mask[box]) != 0 &&
               (step_box_category[box] & body_mask[body]) != 0;
    }
    /// Drops the (body, body) pairs, or the (body, step box) entries, that cannot collide.
    void filter_pairs(std::vector<circle_pair>& pairs) const;
    void filter_box_entries(std::vector<circle_pair>& entries, std::uint32_t first_box = 0) const;
};

} // namespace simdcollide::detail
