// The particle world's lists of what can touch in a step: whether they are kept, made again
// for the few circles that leave their margins (world_relist.cpp), or made again in full
// (world.hpp; docs/world-design.md "Lists").
#include "world/world_lists.hpp"

#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_boxes.hpp"
#include "world/world_find_in_blocks.hpp"
#include "world/world_reference.hpp"
#include "world/world_slots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simdcollide {

namespace impl = detail::world_impl;

namespace {
bool leavers_among(const detail::contact_lists& lists, const detail::circle_slots& slots,
                   std::size_t begin, std::size_t end, float dt, float fall, std::size_t most,
                   std::vector<std::uint32_t>& leavers);
} // namespace

// How far gravity alone carries a circle in a step of dt, |g| dt^2: the same for every
// circle, so worked out once per pass over them. sqrt(x^2 + y^2) rather than std::hypot
// (hypotf showed as 2% of a step in a profile): it overflows to infinity only for values over
// 1e19, and an infinite reach lists every step.
float detail::step_fall(const world_options& options, float dt) {
    const float gravity =
        std::sqrt(options.gravity_x * options.gravity_x + options.gravity_y * options.gravity_y);
    return gravity * dt * dt;
}

// How far circle i can move in a step of dt: |v| dt + fall, fall = step_fall(dt)
// (semi-implicit Euler over the substeps; corrections can move it further, and a pair that
// closes faster is found at the next listing).
float detail::step_reach(const circle_slots& slots, std::size_t i, float dt, float fall) {
    const float move = std::sqrt(slots.vx[i] * slots.vx[i] + slots.vy[i] * slots.vy[i]) * dt + fall;
    return std::isfinite(move) ? move : std::numeric_limits<float>::infinity();
}

// Whether the lists made at the last listings still hold every pair and box that can touch
// during a step of dt (Verlet lists): kept while every circle, after this step's move, stays
// within the margin it was listed with, and no radius, inverse mass or box has changed. A
// pair not listed was at least r_i + r_j + s_i + s_j apart as listed, so it cannot touch
// while each circle moves less than its s. The circles that would leave (lists.leavers) can be
// listed again on their own while they are few and their reach is finite.
detail::listing detail::listing_needed(contact_lists& lists, const circle_slots& slots,
                                       bool boxes_changed, const world_options& options, float dt,
                                       const task_runner& tasks) {
    lists.leavers.clear();
    const std::size_t n = slots.size();
    if (lists.listed_x.size() != n || boxes_changed) {
        return listing::all;
    }
    const float fall = step_fall(options, dt);
    const std::size_t most = relist_at_most(n);
    const auto find_leavers = [&](std::size_t begin, std::size_t end,
                                  std::vector<std::uint32_t>& leavers) {
        return leavers_among(lists, slots, begin, end, dt, fall, most, leavers);
    };
    // Blocks of circles on the workers, each finding its own leavers; they go into lists.leavers
    // in block order, so ascending, as one pass over every circle finds them.
    const std::size_t blocks = (n + detail::items_per_task - 1) / detail::items_per_task;
    if (blocks < 2) {
        return find_leavers(0, n, lists.leavers) ? listing::all
               : lists.leavers.empty()           ? listing::kept
                                                 : listing::some;
    }
    lists.leavers_of_block.resize(blocks);
    std::vector<std::uint8_t> all(blocks);
    detail::for_each_item(tasks, blocks, [&](std::size_t k) {
        const std::size_t first = k * detail::items_per_task;
        lists.leavers_of_block[k].clear();
        all[k] = find_leavers(first, std::min(n, first + detail::items_per_task),
                              lists.leavers_of_block[k])
                     ? 1
                     : 0;
    });
    for (std::size_t k = 0; k < blocks; ++k) {
        if (all[k] != 0 || lists.leavers.size() + lists.leavers_of_block[k].size() > most) {
            return listing::all;
        }
        lists.leavers.insert(lists.leavers.end(), lists.leavers_of_block[k].begin(),
                             lists.leavers_of_block[k].end());
    }
    return lists.leavers.empty() ? listing::kept : listing::some;
}

namespace {

// The leavers among circles [begin, end) into `leavers`, ascending; true where everything
// must be listed again: a circle whose radius or inverse mass changed, a leaver whose
// reach is not finite, or more than `most` leavers.
bool leavers_among(const detail::contact_lists& lists, const detail::circle_slots& slots,
                   std::size_t begin, std::size_t end, float dt, float fall, std::size_t most,
                   std::vector<std::uint32_t>& leavers) {
    std::size_t i = begin;
    // Circle k, one by one: a leaver if it would leave its margin; true if everything must
    // be listed again.
    const auto needs_all = [&](std::size_t k) {
        if (slots.radius[k] != lists.listed_radius[k] ||
            slots.inverse_mass[k] != lists.listed_inverse_mass[k]) {
            return true;
        }
        const float dx = slots.x[k] - lists.listed_x[k];
        const float dy = slots.y[k] - lists.listed_y[k];
        const float reach = detail::step_reach(slots, k, dt, fall);
        if (!(std::sqrt(dx * dx + dy * dy) + reach <= lists.listed_margin[k])) {
            if (leavers.size() == most || !std::isfinite(reach)) {
                return true;
            }
            leavers.push_back(static_cast<std::uint32_t>(k));
        }
        return false;
    };
#if defined(__SSE2__)
    // Four circles at a time with SSE2 (every x86-64 CPU has it), by the same arithmetic as
    // needs_all: a block passes only where each of its circles would stay one by one (a move
    // that is not finite fails the comparison), and a block that does not pass goes one by
    // one: one by one, the loop is a noticeable share of a step.
    const __m128 step = _mm_set1_ps(dt);
    const __m128 falls = _mm_set1_ps(fall);
    const auto load = [](const float* field, std::size_t at) { return _mm_loadu_ps(field + at); };
    for (; i + 4 <= end; i += 4) {
        const __m128 vx = load(slots.vx.data(), i);
        const __m128 vy = load(slots.vy.data(), i);
        const __m128 move = _mm_add_ps(
            _mm_mul_ps(_mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(vx, vx), _mm_mul_ps(vy, vy))), step),
            falls);
        const __m128 dx = _mm_sub_ps(load(slots.x.data(), i), load(lists.listed_x.data(), i));
        const __m128 dy = _mm_sub_ps(load(slots.y.data(), i), load(lists.listed_y.data(), i));
        const __m128 moved = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)));
        const __m128 stays =
            _mm_cmple_ps(_mm_add_ps(moved, move), load(lists.listed_margin.data(), i));
        const __m128 same = _mm_and_ps(
            _mm_cmpeq_ps(load(slots.radius.data(), i), load(lists.listed_radius.data(), i)),
            _mm_cmpeq_ps(load(slots.inverse_mass.data(), i),
                         load(lists.listed_inverse_mass.data(), i)));
        if (_mm_movemask_ps(_mm_and_ps(stays, same)) == 0xF) {
            continue;
        }
        for (std::size_t j = i; j < i + 4; ++j) {
            if (needs_all(j)) {
                return true;
            }
        }
    }
#endif
    for (; i < end; ++i) {
        if (needs_all(i)) {
            return true;
        }
    }
    return false;
}

} // namespace

// Lists every circle pair (pair_finder) and every (moving circle, box) that can touch while
// each circle moves less than its margin s = this step's reach + pair_margin, searching
// with radius r + s.
void detail::list_contacts(contact_lists& lists, const circle_slots& slots,
                           const world_boxes& boxes, const world_options& options, float dt,
                           const task_runner& tasks) {
    const std::size_t n = slots.size();
    for (std::vector<float>* v : {&lists.listed_margin, &lists.listed_x, &lists.listed_y,
                                  &lists.listed_radius, &lists.listed_inverse_mass}) {
        v->resize(n);
    }
    lists.search_radius.resize(n);
    const float fall = step_fall(options, dt);
    // Each circle's margin and its state as listed, block by block on the workers.
    detail::for_each_item(tasks, detail::task_blocks(n), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n);
        for (std::size_t i = b.first; i < b.end; ++i) {
            const float reach = step_reach(slots, i, dt, fall);
            lists.listed_margin[i] = std::isfinite(reach) ? reach + options.pair_margin : 0.0F;
            lists.search_radius[i] = slots.radius[i] + lists.listed_margin[i];
        }
        const auto copy = [&](const aligned_floats& from, std::vector<float>& to) {
            std::copy(from.data() + b.first, from.data() + b.end, to.begin() + b.first);
        };
        copy(slots.x, lists.listed_x);
        copy(slots.y, lists.listed_y);
        copy(slots.radius, lists.listed_radius);
        copy(slots.inverse_mass, lists.listed_inverse_mass);
    });
    lists.cells_current = false;
    const std::span<const circle_pair> found = lists.finder.find_on(
        circles_cview(slots.x.data(), slots.y.data(), lists.search_radius.data(), n), 0.0F, tasks);
    // Copied in blocks on the workers (the 100 000-circle pile lists some 270 000 pairs).
    lists.pairs.resize(found.size());
    detail::for_each_item(tasks, detail::task_blocks(found.size()), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, found.size());
        std::copy(found.begin() + static_cast<std::ptrdiff_t>(b.first),
                  found.begin() + static_cast<std::ptrdiff_t>(b.end),
                  lists.pairs.begin() + static_cast<std::ptrdiff_t>(b.first));
    });
    // The (circle, box) pairs that can touch, by circle and then ascending box.
    find_in_blocks(
        lists, n, lists.box_contacts, tasks,
        [&](std::size_t i, std::vector<circle_pair>& out, std::vector<std::uint32_t>& candidates) {
            append_box_contacts(lists, slots, boxes, i, out, candidates);
        });
}

// Circle i's boxes, ascending: the grid's candidates for its search radius, kept only if the
// box is within that radius now. Static circles (inverse mass 0) are never moved by boxes,
// and a circle whose centre is no longer finite (a blown-up simulation) is listed with none:
// the grid would hand it every box to test, each listing, for nothing a push could mend.
void detail::append_box_contacts(const contact_lists& lists, const circle_slots& slots,
                                 const world_boxes& boxes, std::size_t i,
                                 std::vector<circle_pair>& out,
                                 std::vector<std::uint32_t>& candidates) {
    const static_box_grid& grid = boxes.grid;
    if (grid.size() == 0 || !(slots.inverse_mass[i] > 0.0F) || !std::isfinite(slots.x[i]) ||
        !std::isfinite(slots.y[i])) {
        return;
    }
    const aabbs_view b = grid.boxes();
    const float reach = lists.search_radius[i];
    grid.candidates(slots.x[i], slots.y[i], reach, 0.0F, candidates);
    for (const std::uint32_t k : candidates) {
        const float d2 = impl::distance_squared_of(slots.x[i], slots.y[i], b.min_x[k], b.min_y[k],
                                                   b.max_x[k], b.max_y[k]);
        if (d2 <= reach * reach) {
            out.push_back({static_cast<std::uint32_t>(i), k});
        }
    }
}

} // namespace simdcollide
