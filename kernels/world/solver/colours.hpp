// The soft step's colours (docs/world-design.md, "Colours"): the contacts laid out so that
// within a colour no moving circle appears twice. Made from the lists alone, whenever they
// change, and so the same whatever the instruction set or the number of workers.
#pragma once

#include "world/solver/carry.hpp"
#include "world/solver/contacts.hpp"
#include "world/solver/materials.hpp"

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide::detail {

struct task_runner;

/// Colours a pair may take before it goes to the overflow (the last colour).
inline constexpr std::size_t pair_colours = 24;
/// Pairs a worker lays out at a time once they are coloured.
inline constexpr std::size_t pairs_per_block = 16384;
/// Boxes of one circle that get a colour each; a circle's further boxes go to the overflow.
inline constexpr std::size_t box_colours = 4;

/// The contacts of `pairs` (slots, sorted by a then b): each pair takes the first colour in
/// which neither of its moving circles (inverse_mass > 0) has a contact yet, in list order,
/// or the overflow; within a colour they keep list order. Each takes its impulses from
/// `carry` (keys by slot) where its key is there, 0 otherwise, and its friction and
/// restitution from its two bodies' in `materials`. `marks` is scratch. The colours are found
/// in one pass; the contacts are laid out by blocks of pairs on the runner's workers, to the
/// same contacts on any number.
void colour_pairs(std::span<const circle_pair> pairs, std::span<const float> inverse_mass,
                  const material_arrays& materials, const std::vector<carried_impulse>& carry,
                  pair_contacts& out, std::vector<std::uint32_t>& marks, const task_runner& tasks);

/// The contacts of `entries` ((slot, box number), sorted by slot then box): a circle's r-th
/// box in colour r, its boxes past box_colours in the overflow; impulses from `carry`; the
/// materials of the circles (by slot) and of the boxes (by box number) combined.
void colour_boxes(std::span<const circle_pair> entries, const material_arrays& circles,
                  const material_arrays& boxes, const std::vector<carried_impulse>& carry,
                  box_contacts& out);

} // namespace simdcollide::detail
