// The world's collision filters: setting and reading them, the arrays by number, and the
// lists' filtering (world_filters.hpp).
#include "world/world_filters.hpp"

#include "world/world_errors.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace simdcollide {

namespace {

// `by_number` from `of`: entry s takes of[index(s)] for s < n.
template <class Index>
void take(std::vector<std::uint64_t>& by_number, const std::vector<std::uint64_t>& of,
          std::size_t n, Index index) {
    by_number.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        by_number[s] = of[index(s)];
    }
}

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

} // namespace

void detail::world_filters::refresh(const circle_slots& slots) {
    if (!stale) {
        return;
    }
    const auto of_slot = [&](std::size_t s) { return slots.circle_of_slot[s]; };
    take(body_category, circle_category, slots.size(), of_slot);
    take(body_mask, circle_mask, slots.size(), of_slot);
    append(body_category, dynamic_category);
    append(body_mask, dynamic_mask);
    step_box_category = box_category;
    step_box_mask = box_mask;
    append(step_box_category, kinematic_category);
    append(step_box_mask, kinematic_mask);
    const collision_filter all{};
    active = false;
    for (const std::vector<std::uint64_t>* c :
         {&circle_category, &box_category, &kinematic_category, &dynamic_category}) {
        active = active || std::any_of(c->begin(), c->end(),
                                       [&](std::uint64_t v) { return v != all.category; });
    }
    for (const std::vector<std::uint64_t>* m :
         {&circle_mask, &box_mask, &kinematic_mask, &dynamic_mask}) {
        active = active ||
                 std::any_of(m->begin(), m->end(), [&](std::uint64_t v) { return v != all.mask; });
    }
    stale = false;
}

void detail::world_filters::filter_pairs(std::vector<circle_pair>& pairs) const {
    std::erase_if(pairs, [&](circle_pair p) { return !bodies_collide(p.a, p.b); });
}

void detail::world_filters::filter_box_entries(std::vector<circle_pair>& entries,
                                               std::uint32_t first_box) const {
    std::erase_if(entries, [&](circle_pair e) { return !collides_with_box(e.a, first_box + e.b); });
}

void detail::world_state::set_filter(shape_kind kind, std::size_t index, collision_filter f) {
    world_filters& w = filters_;
    std::vector<std::uint64_t>* category = nullptr;
    std::vector<std::uint64_t>* mask = nullptr;
    switch (kind) {
    case shape_kind::circle:
        category = &w.circle_category;
        mask = &w.circle_mask;
        break;
    case shape_kind::static_box:
        category = &w.box_category;
        mask = &w.box_mask;
        break;
    case shape_kind::kinematic_box:
        category = &w.kinematic_category;
        mask = &w.kinematic_mask;
        break;
    case shape_kind::dynamic_box:
        category = &w.dynamic_category;
        mask = &w.dynamic_mask;
        break;
    default:
        refuse("set_filter of shape_kind::none");
    }
    require_index("set_filter", index, category->size(), "of that kind");
    (*category)[index] = f.category;
    (*mask)[index] = f.mask;
    filters_changed();
}

collision_filter detail::world_state::filter_of(shape_kind kind, std::size_t index) const {
    const world_filters& w = filters_;
    const auto get = [&](const std::vector<std::uint64_t>& category,
                         const std::vector<std::uint64_t>& mask) {
        require_index("filter_of", index, category.size(), "of that kind");
        return collision_filter{category[index], mask[index]};
    };
    switch (kind) {
    case shape_kind::circle:
        return get(w.circle_category, w.circle_mask);
    case shape_kind::static_box:
        return get(w.box_category, w.box_mask);
    case shape_kind::kinematic_box:
        return get(w.kinematic_category, w.kinematic_mask);
    case shape_kind::dynamic_box:
        return get(w.dynamic_category, w.dynamic_mask);
    default:
        refuse("filter_of shape_kind::none");
    }
}

void detail::world_state::set_circle_filters(std::span<const std::uint64_t> category,
                                             std::span<const std::uint64_t> mask) {
    const std::size_t n = size();
    if (category.size() != n || mask.size() != n) {
        refuse("set_circle_filters: category has " + std::to_string(category.size()) +
               " and mask " + std::to_string(mask.size()) + " elements, circles " +
               std::to_string(n));
    }
    std::copy(category.begin(), category.end(), filters_.circle_category.begin());
    std::copy(mask.begin(), mask.end(), filters_.circle_mask.begin());
    filters_changed();
}

void detail::world_state::filter_lists(bool pairs_changed) {
    if (pairs_changed) {
        filters_.filter_pairs(lists_.pairs);
        filters_.filter_box_entries(lists_.box_contacts);
    }
    // The kinematic boxes' entries stay whole (their next relisting builds on them; the
    // kinematic sweep skips the pairs kept apart): the contacts' merged list drops them.
    filters_.filter_box_entries(kinematic_.box_entries);
    filters_.filter_pairs(dynamic_.pairs);
    filters_.filter_box_entries(dynamic_.fixed);
}

// A filter edit: pairs dropped before may collide now, so everything is listed again.
void detail::world_state::filters_changed() {
    filters_.stale = true;
    lists_.forget();
    kinematic_.listed = false;
}

} // namespace simdcollide
