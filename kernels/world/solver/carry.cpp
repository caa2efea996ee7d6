// Warm starting across steps: the impulses kept while contacts are made again (carry.hpp).
#include "world/solver/carry.hpp"

#include "runtime/tasks.hpp"
#include "world/solver/colours.hpp"

#include <algorithm>
#include <cstdint>

namespace simdcollide::detail {

namespace {

// A closure, not a function pointer, so that the sort inlines it. The keys are unique, so
// any sort gives the one order.
constexpr auto key_less = [](const carried_impulse& l, const carried_impulse& r) {
    return key_of(l) < key_of(r);
};

} // namespace

// In the order of the lists the contacts were made from, which is the keys' order: the
// pairs by blocks of the list on the workers, joined in block order.
void impulse_carry::take(pair_contacts& p, box_contacts& b, const task_runner& tasks) {
    boxes.clear();
    join_in_blocks(tasks, p.position.size(), pairs_per_block, pairs_of_block, pairs,
                   [&](std::size_t first, std::size_t end, std::vector<carried_impulse>& out,
                       std::size_t /*block*/) {
                       const std::uint32_t* const position = p.position.data();
                       const float* const normal = p.normal.data();
                       const float* const tangent = p.tangent.data();
                       for (std::size_t e = first; e < end; ++e) {
                           const std::uint32_t k = position[e];
                           if (normal[k] != 0.0F || tangent[k] != 0.0F) {
                               out.push_back({p.a[k], p.b[k], normal[k], tangent[k]});
                           }
                       }
                   });
    for (const std::uint32_t k : b.position) {
        if (b.normal[k] != 0.0F || b.tangent[k] != 0.0F) {
            boxes.push_back({b.circle[k], b.box[k], b.normal[k], b.tangent[k]});
        }
    }
    // The fields keep their storage for the next colouring to overwrite: shrinking them
    // would zero them, a pass over every field of every contact.
    p.colour_start.clear();
    p.position.clear();
    b.colour_start.clear();
    b.position.clear();
}

namespace {

// Carried impulses a worker renames or sorts at a time.
constexpr std::size_t impulses_per_task = 16384;

// Every pair's key renamed by `name` (the lower name first), then the pairs sorted by key:
// blocks of impulses_per_task renamed and sorted on the workers, then merged two by two in
// rounds, each round's merges on the workers. The keys are unique, so this is the one order
// a single sort gives, however the blocks were shared out.
template <class Name>
void rename_and_sort(std::vector<carried_impulse>& pairs, std::vector<carried_impulse>& merged,
                     Name&& name, const task_runner& tasks) {
    const std::size_t n = pairs.size();
    const auto block = [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            carried_impulse& c = pairs[k];
            const std::uint32_t i = name(c.a);
            const std::uint32_t j = name(c.b);
            c.a = std::min(i, j);
            c.b = std::max(i, j);
        }
        std::sort(pairs.begin() + static_cast<std::ptrdiff_t>(begin),
                  pairs.begin() + static_cast<std::ptrdiff_t>(end), key_less);
    };
    const std::size_t blocks = (n + impulses_per_task - 1) / impulses_per_task;
    if (!tasks.parallel() || blocks < 2) {
        block(0, n);
        return;
    }
    for_each_item(tasks, blocks, [&](std::size_t k) {
        block(k * impulses_per_task, std::min(n, (k + 1) * impulses_per_task));
    });
    merged.resize(n);
    for (std::size_t width = impulses_per_task; width < n; width *= 2) {
        for_each_item(tasks, (n + 2 * width - 1) / (2 * width), [&](std::size_t k) {
            const auto at = [&](std::size_t i) {
                return pairs.begin() + static_cast<std::ptrdiff_t>(std::min(n, i));
            };
            std::merge(at(2 * k * width), at((2 * k + 1) * width), at((2 * k + 1) * width),
                       at((2 * k + 2) * width),
                       merged.begin() + static_cast<std::ptrdiff_t>(2 * k * width), key_less);
        });
        pairs.swap(merged);
    }
}

} // namespace

void impulse_carry::to_circles(std::span<const std::uint32_t> circle_of_slot,
                               const task_runner& tasks) {
    rename_and_sort(
        pairs, merged, [&](std::uint32_t slot) { return circle_of_slot[slot]; }, tasks);
    for (carried_impulse& c : boxes) {
        c.a = circle_of_slot[c.a];
    }
    std::sort(boxes.begin(), boxes.end(), key_less);
    by_circle = true;
}

void impulse_carry::to_slots(std::span<const std::uint32_t> slot_of_circle,
                             const task_runner& tasks) {
    rename_and_sort(
        pairs, merged, [&](std::uint32_t circle) { return slot_of_circle[circle]; }, tasks);
    for (carried_impulse& c : boxes) {
        c.a = slot_of_circle[c.a];
    }
    std::sort(boxes.begin(), boxes.end(), key_less);
    by_circle = false;
}

void impulse_carry::remove_circles(std::span<const std::uint8_t> doomed) {
    // new_index[i]: circle i's index once the doomed before it are gone
    std::vector<std::uint32_t> new_index(doomed.size());
    std::uint32_t kept = 0;
    for (std::size_t i = 0; i < doomed.size(); ++i) {
        new_index[i] = kept;
        kept += doomed[i] == 0 ? 1 : 0;
    }
    const auto gone = [&](std::uint32_t i) { return i >= doomed.size() || doomed[i] != 0; };
    std::erase_if(pairs, [&](const carried_impulse& c) { return gone(c.a) || gone(c.b); });
    std::erase_if(boxes, [&](const carried_impulse& c) { return gone(c.a); });
    for (carried_impulse& c : pairs) {
        c.a = new_index[c.a];
        c.b = new_index[c.b];
    }
    for (carried_impulse& c : boxes) {
        c.a = new_index[c.a];
    }
}

void impulse_carry::remove_box(std::uint32_t box) {
    std::erase_if(boxes, [&](const carried_impulse& c) { return c.b == box; });
    for (carried_impulse& c : boxes) {
        c.b -= c.b > box ? 1 : 0;
    }
}

} // namespace simdcollide::detail
