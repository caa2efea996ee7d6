// The particle world's relisting: the few circles that left their margins listed again on
// their own, their old entries dropped and the new ones merged into the lists in order
// (world.hpp; docs/world-design.md "Lists").
#include "world/world_lists.hpp"

#include "broad_phase/circle_grid.hpp"
#include "runtime/tasks.hpp"
#include "world/world_find_in_blocks.hpp"
#include "world/world_slots.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

namespace simdcollide {

namespace {

// A list's order, (a, b) ascending, as one comparison of 64-bit keys.
std::uint64_t list_key(circle_pair q) {
    return std::uint64_t{q.a} << 32U | q.b;
}
bool list_before(circle_pair l, circle_pair r) {
    return list_key(l) < list_key(r);
}

// Entries [from, to) of a list without those `gone` says are old, and with the new
// entries from `next` to `last` merged in, in one pass, written from `out` on; returns
// where the writing ended and leaves `next` at `last`. Every kept entry is written (the
// end advances past it only if kept), each new entry before the first kept one it
// precedes, and a new entry equal to a gone one in its place. on_change is called for
// the entries that went and the new ones that were not there before: a relisted circle
// often keeps the same partners, and its entries then change nothing (the step then keeps
// its contacts). What std::erase_if and then std::merge gave, in one pass over the list
// instead of three (docs/performance.md, "Measurements behind the code"). No new entry
// equals a kept one (each new one has a leaver in it).
template <class Gone, class OnChange>
circle_pair* merge_list(const circle_pair* from, const circle_pair* const to,
                        const circle_pair*& next, const circle_pair* const last, circle_pair* out,
                        Gone gone, OnChange on_change) {
    // Where entries go one by one at least until: past a run of 8 found to hold one that
    // goes, so that the run is not tested again from each of its entries.
    const circle_pair* one_by_one_until = from;
    for (; from != to; ++from) {
        // Runs of 8 that keep every entry and precede the next new one are copied as
        // they are, tested without a branch per entry: most of a merged chunk is such
        // runs (a relisted circle mostly finds the partners it had).
        while (from >= one_by_one_until && to - from >= 8 &&
               (next == last || list_before(from[7], *next))) {
            bool any_gone = false;
            for (std::size_t k = 0; k < 8; ++k) {
                any_gone |= gone(from[k]);
            }
            if (any_gone) {
                one_by_one_until = from + 8;
                break;
            }
            for (std::size_t k = 0; k < 8; ++k) {
                out[k] = from[k];
            }
            out += 8;
            from += 8;
        }
        if (from == to) {
            break;
        }
        const circle_pair q = *from;
        while (next != last && list_before(*next, q)) {
            on_change(*next);
            *out++ = *next++;
        }
        // Written only where kept, or listed again as it was.
        if (!gone(q)) {
            *out++ = q;
        } else if (next != last && list_key(*next) == list_key(q)) { // listed again as it was
            *out++ = q;
            ++next;
        } else {
            on_change(q);
        }
    }
    for (; next != last; ++next) {
        on_change(*next);
        *out++ = *next;
    }
    return out;
}

} // namespace

// The listed circles (listed centre, search radius) into cells, with none listed again since.
void detail::contact_lists::sort_cells(const task_runner& tasks) {
    const std::size_t n = listed_x.size();
    const circles_cview listed(listed_x.data(), listed_y.data(), search_radius.data(), n);
    listed_cells.grid = detail::circle_grid_for(listed, 0.0F, tasks);
    detail::sort_into_cells(listed, listed_cells, tasks);
    relisted.clear(n);
    cells_current = true;
}

// Lists the leavers again on their own: each from where it is now, with a new margin,
// against every circle as that one was listed (search radius and position at its own
// listing), which is what a full listing would pair it with; and against the boxes. Their
// old entries go, the new ones are merged in, and the lists keep a full listing's order.
bool detail::relist_leavers(contact_lists& lists, const circle_slots& slots,
                            const world_boxes& boxes, const world_options& options, float dt,
                            const task_runner& tasks) {
    bool pairs_changed = false;
    const std::size_t n = slots.size();
    lists.is_leaver.assign(n, 0);
    const float fall = step_fall(options, dt);
    for (const std::uint32_t v : lists.leavers) {
        lists.listed_margin[v] =
            step_reach(slots, v, dt, fall) + options.pair_margin; // finite: checked
        lists.search_radius[v] = slots.radius[v] + lists.listed_margin[v];
        lists.listed_x[v] = slots.x[v];
        lists.listed_y[v] = slots.y[v];
        lists.is_leaver[v] = 1;
    }
    // lists.new_pairs in a list's order, to merge in. Each list is merged into a scratch list of
    // its own, which then holds its last version: with one shared by the pairs and the
    // boxes, the pairs' merge found the boxes' short list there and resizing it filled the
    // rest with zeros (at 1 000 000 circles, 21 MB each step that relisted: a fifth of
    // relisting's time in a sampling profile, though the step's time did not change
    // measurably without it).
    const auto sorted_new_entries = [&]() -> std::span<const circle_pair> {
        std::sort(lists.new_pairs.begin(), lists.new_pairs.end(), list_before);
        return lists.new_pairs;
    };

    // Pairs: each leaver against every circle as listed, through the cells of the listed
    // circles. They are sorted again when out of date after a full listing, or when more
    // circles than a relisting takes (relist_at_most) have been listed again since the sort:
    // those are kept apart (lists.relisted, found by the cells they are in now), and past that
    // many the stale entries they leave in the sorted cells would cost more than a sort. A
    // pair of two leavers is taken from the smaller index.
    const circles_cview listed(lists.listed_x.data(), lists.listed_y.data(),
                               lists.search_radius.data(), n);
    if (!lists.cells_current || lists.relisted.size() + lists.leavers.size() > relist_at_most(n)) {
        lists.sort_cells(tasks);
    } else {
        lists.relisted.add(lists.listed_cells, listed, lists.leavers);
    }
    find_in_blocks(lists, lists.leavers.size(), lists.new_pairs, tasks,
                   [&](std::size_t at, std::vector<circle_pair>& out, std::vector<std::uint32_t>&) {
                       const std::uint32_t v = lists.leavers[at];
                       detail::for_each_near(
                           lists.listed_cells, listed, v, lists.relisted, [&](std::uint32_t u) {
                               if (lists.is_leaver[u] == 0 || v < u) {
                                   out.push_back({std::min(u, v), std::max(u, v)});
                               }
                           });
                   });
    const auto pair_gone = [&](circle_pair q) {
        return (lists.is_leaver[q.a] | lists.is_leaver[q.b]) != 0;
    };
    {
        const std::span<const circle_pair> fresh = sorted_new_entries();
        const circle_pair* next = fresh.data();
        const circle_pair* const last = next + fresh.size();
        lists.merged_pairs.resize(lists.pairs.size() + fresh.size());
        circle_pair* out = lists.merged_pairs.data();
#ifndef NDEBUG
        if (!std::is_sorted(lists.leavers.begin(), lists.leavers.end())) {
            throw std::logic_error("simdcollide::particle_world: leavers out of order");
        }
#endif
        out = merge_list(lists.pairs.data(), lists.pairs.data() + lists.pairs.size(), next, last,
                         out, pair_gone, [&](circle_pair) { pairs_changed = true; });
        lists.merged_pairs.resize(static_cast<std::size_t>(out - lists.merged_pairs.data()));
        lists.pairs.swap(lists.merged_pairs);
    }
#ifndef NDEBUG
    // Debug builds (the sanitizer job's among them) hold the merge to a full listing's order.
    if (!std::is_sorted(lists.pairs.begin(), lists.pairs.end(), list_before)) {
        throw std::logic_error("simdcollide::particle_world: relisted pairs out of order");
    }
#endif

    // Boxes: the leavers' entries made again.
    find_in_blocks(
        lists, lists.leavers.size(), lists.new_pairs, tasks,
        [&](std::size_t at, std::vector<circle_pair>& out, std::vector<std::uint32_t>& candidates) {
            append_box_contacts(lists, slots, boxes, lists.leavers[at], out, candidates);
        });
    {
        const std::span<const circle_pair> fresh = sorted_new_entries();
        const circle_pair* next = fresh.data();
        lists.merged_box_contacts.resize(lists.box_contacts.size() + fresh.size());
        const circle_pair* const end = merge_list(
            lists.box_contacts.data(), lists.box_contacts.data() + lists.box_contacts.size(), next,
            fresh.data() + fresh.size(), lists.merged_box_contacts.data(),
            [&](circle_pair q) { return lists.is_leaver[q.a] != 0; }, [](circle_pair) {});
        lists.merged_box_contacts.resize(
            static_cast<std::size_t>(end - lists.merged_box_contacts.data()));
        lists.box_contacts.swap(lists.merged_box_contacts);
#ifndef NDEBUG
        if (!std::is_sorted(lists.box_contacts.begin(), lists.box_contacts.end(), list_before)) {
            throw std::logic_error("simdcollide::particle_world: relisted box contacts out of "
                                   "order");
        }
#endif
    }
    return pairs_changed;
}

} // namespace simdcollide
