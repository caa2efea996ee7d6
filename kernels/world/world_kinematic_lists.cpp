// The kinematic boxes' entries, for the contacts and the kinematic sweeps: for each box, the moving
// circles whose listed reach (listed centre, search radius: where the lists hold the circle
// for the step) meets the box's region, the bounds of where the box goes in the step grown
// by a margin. Kept from step to step as the circles' own lists are (Verlet lists): a box
// that leaves its region is listed again alone, and so is a circle listed again alone;
// everything is listed afresh when the circles are.
#include "world/world_state.hpp"

#include "broad_phase/circle_grid.hpp"

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
bool reaches(const std::vector<float>& x, const std::vector<float>& y,
             const aligned_floats& search_radius, const aligned_floats& inverse_mass,
             std::uint32_t j, const bounds& to) {
    const float reach = search_radius[j];
    return inverse_mass[j] > 0.0F && math::distance_squared_of(x[j], y[j], to.min_x, to.min_y,
                                                               to.max_x, to.max_y) <= reach * reach;
}

bool by_slot_then_box(circle_pair l, circle_pair r) {
    return l.a != r.a ? l.a < r.a : l.b < r.b;
}
} // namespace

// After the step's listing of the circles (`listed`; `resorted` when the circles were sorted
// into new slots): the entries for the boxes' paths over the step, by slot and then box.
void detail::world_state::list_kinematic_entries(listing listed, bool resorted) {
    const std::size_t boxes = kinematic_box_count();
    const std::size_t n = size();
    if (boxes == 0 || n == 0) {
        kinematic_found_.clear();
        kinematic_listed_ = false;
        index_kinematic_entries();
        return;
    }
    const circles_cview listed_reach(listed_x_.data(), listed_y_.data(), search_radius_.data(), n);
    if (!cells_current_) {
        listed_cells_.grid = detail::circle_grid_for(listed_reach, 0.0F, task_runner());
        detail::sort_into_cells(listed_reach, listed_cells_, task_runner());
        relisted_.clear(n);
        cells_current_ = true;
    }
    auto& k = kinematic_;
    if (!kinematic_listed_ || resorted || listed == listing::all || k.region.size() != 4 * boxes) {
        // Everything afresh: box by box, then a counting sort by slot, stable (a comparison
        // sort was 4% of a step of the pile with 1 000 kinematic boxes).
        k.region.resize(4 * boxes);
        kinematic_found_.clear();
        for (std::size_t b = 0; b < boxes; ++b) {
            list_near_kinematic_box(b, kinematic_found_);
        }
        kinematic_slot_start_.assign(n + 1, 0);
        for (const circle_pair e : kinematic_found_) {
            ++kinematic_slot_start_[e.a + 1];
        }
        for (std::size_t i = 0; i < n; ++i) {
            kinematic_slot_start_[i + 1] += kinematic_slot_start_[i];
        }
        kinematic_sorted_.resize(kinematic_found_.size());
        for (const circle_pair e : kinematic_found_) {
            kinematic_sorted_[kinematic_slot_start_[e.a]++] = e;
        }
        kinematic_found_.swap(kinematic_sorted_);
        kinematic_regions_current_ = false;
        kinematic_listed_ = true;
        ++kinematic_listings_.full;
    } else {
        relist_kinematic_entries(listed);
    }
#ifndef NDEBUG
    // Debug builds (the sanitizer job's among them) hold the entries to a brute force's: each
    // moving circle whose listed reach meets a box's path is there, in order, once.
    for (std::size_t b = 0; b < boxes; ++b) {
        const bounds path = path_of(k, b);
        for (std::uint32_t j = 0; j < n; ++j) {
            if (reaches(listed_x_, listed_y_, search_radius_, inverse_mass_, j, path) &&
                !std::binary_search(kinematic_found_.begin(), kinematic_found_.end(),
                                    circle_pair{j, static_cast<std::uint32_t>(b)},
                                    by_slot_then_box)) {
                throw std::logic_error("simdcollide::particle_world: a circle near a kinematic "
                                       "box's path is not listed with it");
            }
        }
    }
    if (std::adjacent_find(kinematic_found_.begin(), kinematic_found_.end(),
                           [](circle_pair l, circle_pair r) { return !by_slot_then_box(l, r); }) !=
        kinematic_found_.end()) {
        throw std::logic_error("simdcollide::particle_world: kinematic entries out of order");
    }
#endif
    index_kinematic_entries();
}

// Box b's region for this step, and an entry to `out` for each moving circle whose listed
// reach meets it, found through the cells of the listed circles that partial relisting
// keeps: a few cells a box, whatever the number of circles.
void detail::world_state::list_near_kinematic_box(std::size_t b, std::vector<circle_pair>& out) {
    const bounds region = region_for(kinematic_, b);
    std::copy_n(&region.min_x, 4, kinematic_.region.data() + 4 * b);
    const float half_x = (region.max_x - region.min_x) * 0.5F;
    const float half_y = (region.max_y - region.min_y) * 0.5F;
    const auto b32 = static_cast<std::uint32_t>(b);
    detail::for_each_candidate_within(
        listed_cells_, relisted_, region.min_x + half_x, region.min_y + half_y,
        std::max(half_x, half_y), [&](std::uint32_t j) {
            if (reaches(listed_x_, listed_y_, search_radius_, inverse_mass_, j, region)) {
                out.push_back({j, b32});
            }
        });
}

// The entries kept, less those of the boxes whose path leaves their region and of the
// circles listed again alone this step (listed is listing::some), plus theirs afresh: a box
// through the cells, a circle through the regions' grid.
void detail::world_state::relist_kinematic_entries(listing listed) {
    auto& k = kinematic_;
    const std::size_t boxes = kinematic_box_count();
    kinematic_regrown_.assign(boxes, 0);
    kinematic_fresh_.clear();
    bool any_regrown = false;
    for (std::size_t b = 0; b < boxes; ++b) {
        if (!bounds_at(k.region, b).holds(path_of(k, b))) {
            kinematic_regrown_[b] = 1;
            any_regrown = true;
            list_near_kinematic_box(b, kinematic_fresh_);
        }
    }
    const bool some = listed == listing::some;
    if (!any_regrown && !some) {
        return;
    }
    ++kinematic_listings_.partial;
    if (any_regrown) {
        kinematic_regions_current_ = false;
    }
    std::erase_if(kinematic_found_, [&](circle_pair e) {
        return kinematic_regrown_[e.b] != 0 || (some && is_leaver_[e.a] != 0);
    });
    if (some) {
        if (!kinematic_regions_current_) {
            aabb_set regions;
            for (std::size_t b = 0; b < boxes; ++b) {
                const bounds r = bounds_at(k.region, b);
                regions.push_back(aabb::from_min_max(r.min_x, r.min_y, r.max_x, r.max_y));
            }
            kinematic_regions_ = static_box_grid(regions.view());
            kinematic_regions_current_ = true;
        }
        for (const std::uint32_t j : leavers_) {
            if (!(inverse_mass_[j] > 0.0F)) {
                continue;
            }
            kinematic_regions_.candidates(listed_x_[j], listed_y_[j], search_radius_[j], 0.0F,
                                          kinematic_near_);
            for (const std::uint32_t b : kinematic_near_) {
                // A box listed again above has its entries with every circle already.
                if (kinematic_regrown_[b] == 0 &&
                    reaches(listed_x_, listed_y_, search_radius_, inverse_mass_, j,
                            bounds_at(k.region, b))) {
                    kinematic_fresh_.push_back({j, b});
                }
            }
        }
    }
    std::sort(kinematic_fresh_.begin(), kinematic_fresh_.end(), by_slot_then_box);
    kinematic_sorted_.resize(kinematic_found_.size() + kinematic_fresh_.size());
    std::merge(kinematic_found_.begin(), kinematic_found_.end(), kinematic_fresh_.begin(),
               kinematic_fresh_.end(), kinematic_sorted_.begin(), by_slot_then_box);
    kinematic_found_.swap(kinematic_sorted_);
}

// The entries as the contacts take them: beside the static boxes' entries, each
// kinematic box numbered after them, a circle's static boxes first.
void detail::world_state::index_kinematic_entries() {
    kinematic_circles_current_ = false;
    kinematic_box_contacts_.clear();
    if (kinematic_found_.empty()) {
        return;
    }
    const auto statics = static_cast<std::uint32_t>(static_box_count());
    kinematic_sorted_.resize(kinematic_found_.size());
    std::transform(kinematic_found_.begin(), kinematic_found_.end(), kinematic_sorted_.begin(),
                   [&](circle_pair e) {
                       return circle_pair{e.a, e.b + statics};
                   });
    kinematic_box_contacts_.resize(box_contacts_.size() + kinematic_sorted_.size());
    std::merge(box_contacts_.begin(), box_contacts_.end(), kinematic_sorted_.begin(),
               kinematic_sorted_.end(), kinematic_box_contacts_.begin(), by_slot_then_box);
}

// The entries as the kinematic sweeps take them, made in the step's first substep that sweeps: the
// circles (slots, ascending), each one's first entry and its boxes.
void detail::world_state::index_kinematic_circles() {
    if (kinematic_circles_current_) {
        return;
    }
    kinematic_circles_.clear();
    kinematic_first_.clear();
    kinematic_box_of_.clear();
    for (const circle_pair e : kinematic_found_) {
        if (kinematic_circles_.empty() || kinematic_circles_.back() != e.a) {
            kinematic_circles_.push_back(e.a);
            kinematic_first_.push_back(static_cast<std::uint32_t>(kinematic_box_of_.size()));
        }
        kinematic_box_of_.push_back(e.b);
    }
    kinematic_first_.push_back(static_cast<std::uint32_t>(kinematic_box_of_.size()));
    kinematic_start_x_.resize(kinematic_circles_.size());
    kinematic_start_y_.resize(kinematic_circles_.size());
    kinematic_circles_current_ = true;
}

} // namespace simdcollide
