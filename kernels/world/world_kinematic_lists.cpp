// The kinematic boxes' entries, for the contacts and the kinematic sweeps: for each box, the moving
// circles whose listed reach (listed centre, search radius: where the lists hold the circle
// for the step) meets the box's region, the bounds of where the box goes in the step grown
// by a margin. Kept from step to step as the circles' own lists are (Verlet lists): a box
// that leaves its region is listed again alone, and so is a circle listed again alone;
// everything is listed afresh when the circles are.
#include "world/world_kinematic.hpp"

#include "broad_phase/circle_grid.hpp"
#include "world/world_lists.hpp"
#include "world/world_slots.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace simdcollide {
namespace detail::world_kinematic_lists_impl {
// minmax.inl first: the others use it.
#include "pairwise/reference/minmax.inl"

#include "pairwise/reference/circle_aabb.inl"
} // namespace detail::world_kinematic_lists_impl

namespace {

namespace math = detail::world_kinematic_lists_impl;

// A box's region reaches as far again as it goes in this many steps: a box that goes on at
// the same velocity is listed again every few steps, and one that goes back and forth or
// stands still is never.
constexpr float margin_in_steps = 4.0F;

struct bounds {
    float min_x, min_y, max_x, max_y;

    [[nodiscard]] bool holds(const bounds& o) const noexcept {
        return min_x <= o.min_x && min_y <= o.min_y && o.max_x <= max_x && o.max_y <= max_y;
    }
};

bounds bounds_at(const std::vector<float>& records, std::size_t b) {
    const float* const r = records.data() + 4 * b;
    return {r[0], r[1], r[2], r[3]};
}

// Box b's path in the step: the bounds of where it starts and ends it.
template <class Kinematic>
bounds path_of(const Kinematic& k, std::size_t b) {
    const float* const end = k.step_end.data() + 4 * b;
    return {std::min(k.min_x[b], end[0]), std::min(k.min_y[b], end[1]),
            std::max(k.max_x[b], end[2]), std::max(k.max_y[b], end[3])};
}

// Box b's region: its path grown by margin_in_steps times the furthest its corners go in
// the step. The box needs no new entries while its path stays within.
template <class Kinematic>
bounds region_for(const Kinematic& k, std::size_t b) {
    const float* const end = k.step_end.data() + 4 * b;
    const float moves[4] = {end[0] - k.min_x[b], end[1] - k.min_y[b], end[2] - k.max_x[b],
                            end[3] - k.max_y[b]};
    float furthest = 0.0F;
    for (const float move : moves) {
        furthest = std::max(furthest, std::abs(move));
    }
    const float margin = margin_in_steps * furthest;
    const bounds path = path_of(k, b);
    const bounds region{path.min_x - margin, path.min_y - margin, path.max_x + margin,
                        path.max_y + margin};
    // A box near the end of the float range gets its path alone: a region past the range is
    // no box the regions' grid takes.
    const float extent = (region.max_x - region.min_x) + (region.max_y - region.min_y);
    return std::isfinite(extent) ? region : path;
}

// Whether moving circle j's listed reach meets bounds `to`.
bool reaches(const detail::contact_lists& lists, const detail::circle_slots& slots, std::uint32_t j,
             const bounds& to) {
    const float reach = lists.search_radius[j];
    return slots.inverse_mass[j] > 0.0F &&
           math::distance_squared_of(lists.listed_x[j], lists.listed_y[j], to.min_x, to.min_y,
                                     to.max_x, to.max_y) <= reach * reach;
}

bool by_slot_then_box(circle_pair l, circle_pair r) {
    return l.a != r.a ? l.a < r.a : l.b < r.b;
}
// Box b's region for this step, and an entry to `out` for each moving circle whose listed
// reach meets it, found through the cells of the listed circles that partial relisting
// keeps: a few cells a box, whatever the number of circles.
void list_near_kinematic_box(detail::kinematic_boxes& kinematic, const detail::contact_lists& lists,
                             const detail::circle_slots& slots, std::size_t b,
                             std::vector<circle_pair>& out) {
    const bounds region = region_for(kinematic, b);
    std::copy_n(&region.min_x, 4, kinematic.region.data() + 4 * b);
    const float half_x = (region.max_x - region.min_x) * 0.5F;
    const float half_y = (region.max_y - region.min_y) * 0.5F;
    const auto b32 = static_cast<std::uint32_t>(b);
    detail::for_each_candidate_within(lists.listed_cells, lists.relisted, region.min_x + half_x,
                                      region.min_y + half_y, std::max(half_x, half_y),
                                      [&](std::uint32_t j) {
                                          if (reaches(lists, slots, j, region)) {
                                              out.push_back({j, b32});
                                          }
                                      });
}

// The entries kept, less those of the boxes whose path leaves their region and of the
// circles listed again alone this step (listed is listing::some), plus theirs afresh: a box
// through the cells, a circle through the regions' grid.
void relist_kinematic_entries(detail::kinematic_boxes& kinematic,
                              const detail::contact_lists& lists, const detail::circle_slots& slots,
                              detail::listing listed) {
    auto& k = kinematic;
    const std::size_t boxes = kinematic.count();
    kinematic.regrown.assign(boxes, 0);
    kinematic.fresh.clear();
    bool any_regrown = false;
    for (std::size_t b = 0; b < boxes; ++b) {
        if (!bounds_at(k.region, b).holds(path_of(k, b))) {
            kinematic.regrown[b] = 1;
            any_regrown = true;
            list_near_kinematic_box(kinematic, lists, slots, b, kinematic.fresh);
        }
    }
    const bool some = listed == detail::listing::some;
    if (!any_regrown && !some) {
        return;
    }
    ++kinematic.listings.partial;
    if (any_regrown) {
        kinematic.regions_current = false;
    }
    std::erase_if(kinematic.entries, [&](circle_pair e) {
        return kinematic.regrown[e.b] != 0 || (some && lists.is_leaver[e.a] != 0);
    });
    if (some) {
        if (!kinematic.regions_current) {
            aabb_set regions;
            for (std::size_t b = 0; b < boxes; ++b) {
                const bounds r = bounds_at(k.region, b);
                regions.push_back(aabb::from_min_max(r.min_x, r.min_y, r.max_x, r.max_y));
            }
            kinematic.regions = static_box_grid(regions.view());
            kinematic.regions_current = true;
        }
        for (const std::uint32_t j : lists.leavers) {
            if (!(slots.inverse_mass[j] > 0.0F)) {
                continue;
            }
            kinematic.regions.candidates(lists.listed_x[j], lists.listed_y[j],
                                         lists.search_radius[j], 0.0F, kinematic.near);
            for (const std::uint32_t b : kinematic.near) {
                // A box listed again above has its entries with every circle already.
                if (kinematic.regrown[b] == 0 && reaches(lists, slots, j, bounds_at(k.region, b))) {
                    kinematic.fresh.push_back({j, b});
                }
            }
        }
    }
    std::sort(kinematic.fresh.begin(), kinematic.fresh.end(), by_slot_then_box);
    kinematic.sorted.resize(kinematic.entries.size() + kinematic.fresh.size());
    std::merge(kinematic.entries.begin(), kinematic.entries.end(), kinematic.fresh.begin(),
               kinematic.fresh.end(), kinematic.sorted.begin(), by_slot_then_box);
    kinematic.entries.swap(kinematic.sorted);
}

// The entries as the contacts take them: beside the static boxes' entries, each
// kinematic box numbered after them, a circle's static boxes first.
void index_kinematic_entries(detail::kinematic_boxes& kinematic, const detail::contact_lists& lists,
                             std::size_t static_boxes) {
    kinematic.circles_current = false;
    kinematic.box_entries.clear();
    if (kinematic.entries.empty()) {
        return;
    }
    const auto statics = static_cast<std::uint32_t>(static_boxes);
    kinematic.sorted.resize(kinematic.entries.size());
    std::transform(kinematic.entries.begin(), kinematic.entries.end(), kinematic.sorted.begin(),
                   [&](circle_pair e) {
                       return circle_pair{e.a, e.b + statics};
                   });
    kinematic.box_entries.resize(lists.box_contacts.size() + kinematic.sorted.size());
    std::merge(lists.box_contacts.begin(), lists.box_contacts.end(), kinematic.sorted.begin(),
               kinematic.sorted.end(), kinematic.box_entries.begin(), by_slot_then_box);
}

} // namespace

// After the step's listing of the circles (`listed`; `resorted` when the circles were sorted
// into new slots): the entries for the boxes' paths over the step, by slot and then box.
void detail::list_kinematic_entries(kinematic_boxes& kinematic, contact_lists& lists,
                                    const circle_slots& slots, std::size_t static_boxes,
                                    listing listed, bool resorted, const task_runner& tasks) {
    const std::size_t boxes = kinematic.count();
    const std::size_t n = slots.size();
    if (boxes == 0 || n == 0) {
        kinematic.entries.clear();
        kinematic.listed = false;
        index_kinematic_entries(kinematic, lists, static_boxes);
        return;
    }
    if (!lists.cells_current) {
        lists.sort_cells(tasks);
    }
    auto& k = kinematic;
    if (!kinematic.listed || resorted || listed == listing::all || k.region.size() != 4 * boxes) {
        // Everything afresh: box by box, then a counting sort by slot, stable (a comparison
        // sort was 4% of a step of the pile with 1 000 kinematic boxes).
        k.region.resize(4 * boxes);
        kinematic.entries.clear();
        for (std::size_t b = 0; b < boxes; ++b) {
            list_near_kinematic_box(kinematic, lists, slots, b, kinematic.entries);
        }
        kinematic.slot_start.assign(n + 1, 0);
        for (const circle_pair e : kinematic.entries) {
            ++kinematic.slot_start[e.a + 1];
        }
        for (std::size_t i = 0; i < n; ++i) {
            kinematic.slot_start[i + 1] += kinematic.slot_start[i];
        }
        kinematic.sorted.resize(kinematic.entries.size());
        for (const circle_pair e : kinematic.entries) {
            kinematic.sorted[kinematic.slot_start[e.a]++] = e;
        }
        kinematic.entries.swap(kinematic.sorted);
        kinematic.regions_current = false;
        kinematic.listed = true;
        ++kinematic.listings.full;
    } else {
        relist_kinematic_entries(kinematic, lists, slots, listed);
    }
#ifndef NDEBUG
    // Debug builds (the sanitizer job's among them) hold the entries to a brute force's: each
    // moving circle whose listed reach meets a box's path is there, in order, once.
    for (std::size_t b = 0; b < boxes; ++b) {
        const bounds path = path_of(k, b);
        for (std::uint32_t j = 0; j < n; ++j) {
            if (reaches(lists, slots, j, path) &&
                !std::binary_search(kinematic.entries.begin(), kinematic.entries.end(),
                                    circle_pair{j, static_cast<std::uint32_t>(b)},
                                    by_slot_then_box)) {
                throw std::logic_error("simdcollide::particle_world: a circle near a kinematic "
                                       "box's path is not listed with it");
            }
        }
    }
    if (std::adjacent_find(kinematic.entries.begin(), kinematic.entries.end(),
                           [](circle_pair l, circle_pair r) { return !by_slot_then_box(l, r); }) !=
        kinematic.entries.end()) {
        throw std::logic_error("simdcollide::particle_world: kinematic entries out of order");
    }
#endif
    index_kinematic_entries(kinematic, lists, static_boxes);
}

const std::vector<circle_pair>& detail::step_box_entries(const contact_lists& lists,
                                                         const kinematic_boxes& kinematic) {
    return kinematic.entries.empty() ? lists.box_contacts : kinematic.box_entries;
}

} // namespace simdcollide
