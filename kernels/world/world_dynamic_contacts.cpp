// The dynamic boxes' contacts (world_dynamic_boxes.hpp): made from the step's entries every
// step, coloured as the circles' are, each taking the impulses its key ended the last step
// with; and those impulses kept after the step under keys that outlast the slots (the
// caller's circle indices, dynamic_box_key | box).
#include "world/world_dynamic_boxes.hpp"
#include "world/world_materials.hpp"

#include "world/solver/colours.hpp"
#include "world/world_slots.hpp"
#include "world/world_solve.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace simdcollide {

namespace {

bool key_less(const detail::carried_impulse& l, const detail::carried_impulse& r) {
    return detail::key_of(l) < detail::key_of(r);
}

bool is_box(std::uint32_t key) {
    return (key & detail::dynamic_box_key) != 0;
}

// The impulses of `carried` with their keys as the step's body numbers: circles by slot,
// box j as slots + j; sorted.
void to_bodies(const std::vector<detail::carried_impulse>& carried, bool both,
               const detail::circle_slots& slots, std::vector<detail::carried_impulse>& out) {
    const auto n = static_cast<std::uint32_t>(slots.size());
    const auto body = [&](std::uint32_t key) {
        return is_box(key) ? n + (key & ~detail::dynamic_box_key) : slots.slot_of_circle[key];
    };
    out.clear();
    for (const detail::carried_impulse& c : carried) {
        const std::uint32_t a = body(c.a);
        const std::uint32_t b = both ? body(c.b) : c.b;
        out.push_back({both ? std::min(a, b) : a, both ? std::max(a, b) : b, c.normal, c.tangent});
    }
    std::sort(out.begin(), out.end(), key_less);
}

// The non-zero impulses of `contacts` under the caller's keys, sorted.
template <class Contacts, class Ends>
void keep_from(const Contacts& contacts, Ends&& ends, bool both, const detail::circle_slots& slots,
               std::vector<detail::carried_impulse>& out) {
    const auto n = static_cast<std::uint32_t>(slots.size());
    const auto key = [&](std::uint32_t body) {
        return body >= n ? detail::dynamic_box_key | (body - n) : slots.circle_of_slot[body];
    };
    out.clear();
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        if (contacts.normal[k] == 0.0F && contacts.tangent[k] == 0.0F) {
            continue;
        }
        const auto [a, b] = ends(k);
        const std::uint32_t ka = key(a);
        const std::uint32_t kb = both ? key(b) : b;
        out.push_back({both ? std::min(ka, kb) : ka, both ? std::max(ka, kb) : kb,
                       contacts.normal[k], contacts.tangent[k]});
    }
    std::sort(out.begin(), out.end(), key_less);
}

// Whether each body's inverse mass (the circles' by slot, then the boxes') is `made`'s.
bool same_inverse_masses(const std::vector<float>& made, const detail::circle_slots& slots,
                         const detail::dynamic_boxes& dynamic) {
    const std::size_t n = slots.size();
    return made.size() == n + dynamic.count() &&
           std::equal(made.begin(), made.begin() + static_cast<std::ptrdiff_t>(n),
                      slots.inverse_mass.data()) &&
           std::equal(made.begin() + static_cast<std::ptrdiff_t>(n), made.end(),
                      dynamic.inverse_mass.data());
}

} // namespace

bool detail::make_dynamic_box_contacts(solver_state& solver, dynamic_boxes& dynamic,
                                       const circle_slots& slots, bool resorted,
                                       const world_materials& materials, const task_runner& tasks) {
    if (!resorted && dynamic.carried_as_kept && same_entries(dynamic.pairs, dynamic.made_pairs) &&
        same_entries(dynamic.fixed, dynamic.made_fixed) &&
        same_inverse_masses(dynamic.body_inverse_mass, slots, dynamic)) {
        return false;
    }
    dynamic.body_inverse_mass.assign(slots.inverse_mass.data(),
                                     slots.inverse_mass.data() + slots.size());
    dynamic.body_inverse_mass.insert(dynamic.body_inverse_mass.end(), dynamic.inverse_mass.data(),
                                     dynamic.inverse_mass.data() + dynamic.count());
    dynamic.made_pairs = dynamic.pairs;
    dynamic.made_fixed = dynamic.fixed;
    std::vector<carried_impulse> carried;
    to_bodies(dynamic.carried_pairs, true, slots, carried);
    colour_pairs(dynamic.pairs, dynamic.body_inverse_mass, materials.bodies(), carried,
                 solver.dynamic_pairs, solver.colour_marks, tasks);
    to_bodies(dynamic.carried_fixed, false, slots, carried);
    colour_boxes(dynamic.fixed, materials.bodies(), materials.step_boxes(), carried,
                 solver.dynamic_fixed);
    return true;
}

void detail::keep_dynamic_box_impulses(const solver_state& solver, dynamic_boxes& dynamic,
                                       const circle_slots& slots) {
    const pair_contacts& pairs = solver.dynamic_pairs;
    keep_from(
        pairs,
        [&](std::size_t k) {
            return std::pair{pairs.a[k], pairs.b[k]};
        },
        true, slots, dynamic.carried_pairs);
    const box_contacts& fixed = solver.dynamic_fixed;
    keep_from(
        fixed,
        [&](std::size_t k) {
            return std::pair{fixed.circle[k], fixed.box[k]};
        },
        false, slots, dynamic.carried_fixed);
    dynamic.carried_as_kept = true;
}

void detail::remove_circles_from(dynamic_boxes& dynamic, std::span<const std::uint8_t> doomed) {
    dynamic.carried_as_kept = false;
    std::vector<std::uint32_t> new_index(doomed.size());
    std::uint32_t kept = 0;
    for (std::size_t i = 0; i < doomed.size(); ++i) {
        new_index[i] = kept;
        kept += doomed[i] == 0 ? 1 : 0;
    }
    // a circle is only ever the lower key of a pair
    std::erase_if(dynamic.carried_pairs, [&](const carried_impulse& c) {
        return !is_box(c.a) && (c.a >= doomed.size() || doomed[c.a] != 0);
    });
    for (carried_impulse& c : dynamic.carried_pairs) {
        c.a = is_box(c.a) ? c.a : new_index[c.a];
    }
}

void detail::remove_dynamic_box(dynamic_boxes& dynamic, std::size_t box) {
    dynamic.carried_as_kept = false;
    const auto at = static_cast<std::ptrdiff_t>(box);
    for (aligned_floats* field : {&dynamic.x, &dynamic.y, &dynamic.half_width, &dynamic.half_height,
                                  &dynamic.inverse_mass, &dynamic.vx, &dynamic.vy}) {
        float* const data = field->data();
        std::copy(data + at + 1, data + field->size(), data + at);
        field->resize(field->size() - 1);
    }
    const std::uint32_t gone = dynamic_box_key | static_cast<std::uint32_t>(box);
    const auto moved = [&](std::uint32_t key) { return key - (is_box(key) && key > gone ? 1 : 0); };
    std::erase_if(dynamic.carried_pairs,
                  [&](const carried_impulse& c) { return c.a == gone || c.b == gone; });
    std::erase_if(dynamic.carried_fixed, [&](const carried_impulse& c) { return c.a == gone; });
    for (std::vector<carried_impulse>* carried : {&dynamic.carried_pairs, &dynamic.carried_fixed}) {
        for (carried_impulse& c : *carried) {
            c.a = moved(c.a);
            c.b = carried == &dynamic.carried_pairs ? moved(c.b) : c.b;
        }
    }
}

void detail::remove_fixed_box(dynamic_boxes& dynamic, std::uint32_t box) {
    dynamic.carried_as_kept = false;
    std::erase_if(dynamic.carried_fixed, [&](const carried_impulse& c) { return c.b == box; });
    for (carried_impulse& c : dynamic.carried_fixed) {
        c.b -= c.b > box ? 1 : 0;
    }
}

} // namespace simdcollide
