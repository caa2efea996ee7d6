// Warm starting across steps (docs/world-design.md, "Warm starting"): the contacts'
// accumulated impulses, kept while the contacts are made again (the lists change, the
// circles are sorted into slots, circles or kinematic boxes are removed), so that each
// contact that goes on starts the step with the impulses it ended the last one with. A new
// contact starts at 0.
#pragma once

#include "world/solver/contacts.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

struct task_runner;

/// A contact's impulses under its key: (lower circle, higher circle) for a pair, (circle,
/// box number) for a box.
struct carried_impulse {
    std::uint32_t a;
    std::uint32_t b;
    float normal;
    float tangent;
};

/// A contact's key (a, b) as one 64-bit number, ordered as the keys are: one comparison
/// where two would branch.
[[nodiscard]] constexpr std::uint64_t key_of(std::uint32_t a, std::uint32_t b) noexcept {
    return std::uint64_t{a} << 32U | b;
}
[[nodiscard]] constexpr std::uint64_t key_of(const carried_impulse& c) noexcept {
    return key_of(c.a, c.b);
}

/// The impulses while no contacts hold them, keyed by slot or by the caller's index.
struct impulse_carry {
    std::vector<carried_impulse> pairs, boxes; // sorted by key
    bool by_circle = false;                    // keys in the caller's indices (else in slots)

    std::vector<std::vector<carried_impulse>> pairs_of_block; // take's scratch
    std::vector<carried_impulse> merged;                      // the sorts' scratch

    /// The contacts' non-zero impulses, keyed by slot, the pairs' taken on the runner's
    /// workers; the contacts are left without colours, to be coloured again.
    void take(pair_contacts& p, box_contacts& b, const task_runner& tasks);
    /// Keys from slots to the caller's indices (circle_of_slot), sorted again; the pairs on
    /// the runner's workers, to the same carry as on one.
    void to_circles(std::span<const std::uint32_t> circle_of_slot, const task_runner& tasks);
    /// Keys from the caller's indices to slots (slot_of_circle), sorted again, the same way.
    void to_slots(std::span<const std::uint32_t> slot_of_circle, const task_runner& tasks);
    /// The caller's circles where doomed[i] != 0 removed: their impulses dropped, the
    /// others' keys moved down. Keys must be by circle.
    void remove_circles(std::span<const std::uint8_t> doomed);
    /// Box number `box` removed: its impulses dropped, higher numbers moved down one.
    void remove_box(std::uint32_t box);
};

} // namespace simdcollide::detail
