// The particle world's lists of what can touch in a step: whether they are kept, made again
// for the few circles that leave their margins (world_relist.cpp), or made again in full
// (world.hpp; docs/world-design.md "Lists").
#include "world/world_state.hpp"

#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"
#include "world/world_find_in_blocks.hpp"
#include "world/world_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace simdcollide {

namespace impl = detail::world_impl;

// How far gravity alone carries a circle in a step of dt, |g| dt^2: the same for every
// circle, so worked out once per pass over them. sqrt(x^2 + y^2) rather than std::hypot
// (hypotf showed as 2% of a step in a profile): it overflows to infinity only for values over
// 1e19, and an infinite reach lists every step.
float detail::world_state::step_fall(float dt) const {
    const float gravity = std::sqrt(options_.gravity_x * options_.gravity_x +
                                    options_.gravity_y * options_.gravity_y);
    return gravity * dt * dt;
}

// How far circle i can move in a step of dt: |v| dt + fall, fall = step_fall(dt)
// (semi-implicit Euler over the substeps; corrections can move it further, and a pair that
// closes faster is found at the next listing).
float detail::world_state::step_reach(std::size_t i, float dt, float fall) const {
    const float move = std::sqrt(vx_[i] * vx_[i] + vy_[i] * vy_[i]) * dt + fall;
    return std::isfinite(move) ? move : std::numeric_limits<float>::infinity();
}

// Whether the lists made at the last listings still hold every pair and box that can touch
// during a step of dt (Verlet lists): kept while every circle, after this step's move, stays
// within the margin it was listed with, and no radius, inverse mass or box has changed. A
// pair not listed was at least r_i + r_j + s_i + s_j apart as listed, so it cannot touch
// while each circle moves less than its s. The circles that would leave (leavers_) can be
// listed again on their own while they are few and their reach is finite.
detail::world_state::listing detail::world_state::listing_needed(float dt) {
    leavers_.clear();
    if (listed_x_.size() != size() || boxes_changed_) {
        return listing::all;
    }
    const float fall = step_fall(dt);
    const std::size_t n = size();
    // Blocks of circles on the workers, each finding its own leavers; they go into leavers_
    // in block order, so ascending, as one pass over every circle finds them.
    const std::size_t blocks = (n + detail::items_per_task - 1) / detail::items_per_task;
    if (blocks < 2) {
        return find_leavers(0, n, dt, fall, leavers_) ? listing::all
               : leavers_.empty()                     ? listing::kept
                                                      : listing::some;
    }
    leavers_of_block_.resize(blocks);
    std::vector<std::uint8_t> all(blocks);
    detail::for_each_item(task_runner(), blocks, [&](std::size_t k) {
        const std::size_t first = k * detail::items_per_task;
        leavers_of_block_[k].clear();
        all[k] = find_leavers(first, std::min(n, first + detail::items_per_task), dt, fall,
                              leavers_of_block_[k])
                     ? 1
                     : 0;
    });
    for (std::size_t k = 0; k < blocks; ++k) {
        if (all[k] != 0 || leavers_.size() + leavers_of_block_[k].size() > relist_at_most()) {
            return listing::all;
        }
        leavers_.insert(leavers_.end(), leavers_of_block_[k].begin(), leavers_of_block_[k].end());
    }
    return leavers_.empty() ? listing::kept : listing::some;
}

// The leavers among circles [begin, end) into `leavers`, ascending; true where everything
// must be listed again: a circle whose radius or inverse mass changed, a leaver whose
// reach is not finite, or more than relist_at_most leavers.
bool detail::world_state::find_leavers(std::size_t begin, std::size_t end, float dt, float fall,
                                       std::vector<std::uint32_t>& leavers) const {
    std::size_t i = begin;
    // Circle k, one by one: a leaver if it would leave its margin; true if everything must
    // be listed again.
    const auto needs_all = [&](std::size_t k) {
        if (radius_[k] != listed_radius_[k] || inverse_mass_[k] != listed_inverse_mass_[k]) {
            return true;
        }
        const float dx = x_[k] - listed_x_[k];
        const float dy = y_[k] - listed_y_[k];
        const float reach = step_reach(k, dt, fall);
        if (!(std::sqrt(dx * dx + dy * dy) + reach <= listed_margin_[k])) {
            if (leavers.size() == relist_at_most() || !std::isfinite(reach)) {
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
        const __m128 vx = load(vx_.data(), i);
        const __m128 vy = load(vy_.data(), i);
        const __m128 move = _mm_add_ps(
            _mm_mul_ps(_mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(vx, vx), _mm_mul_ps(vy, vy))), step),
            falls);
        const __m128 dx = _mm_sub_ps(load(x_.data(), i), load(listed_x_.data(), i));
        const __m128 dy = _mm_sub_ps(load(y_.data(), i), load(listed_y_.data(), i));
        const __m128 moved = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)));
        const __m128 stays = _mm_cmple_ps(_mm_add_ps(moved, move), load(listed_margin_.data(), i));
        const __m128 same = _mm_and_ps(
            _mm_cmpeq_ps(load(radius_.data(), i), load(listed_radius_.data(), i)),
            _mm_cmpeq_ps(load(inverse_mass_.data(), i), load(listed_inverse_mass_.data(), i)));
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

// Lists every circle pair (pair_finder) and every (moving circle, box) that can touch while
// each circle moves less than its margin s = this step's reach + pair_margin, searching
// with radius r + s.
void detail::world_state::list_contacts(float dt) {
    const particles_view p = slots();
    const std::size_t n = size();
    const detail::task_runner tasks = task_runner();
    for (std::vector<float>* v :
         {&listed_margin_, &listed_x_, &listed_y_, &listed_radius_, &listed_inverse_mass_}) {
        v->resize(n);
    }
    search_radius_.resize(n);
    const float fall = step_fall(dt);
    // Each circle's margin and its state as listed, block by block on the workers.
    detail::for_each_item(tasks, detail::task_blocks(n), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, n);
        for (std::size_t i = b.first; i < b.end; ++i) {
            const float reach = step_reach(i, dt, fall);
            listed_margin_[i] = std::isfinite(reach) ? reach + options_.pair_margin : 0.0F;
            search_radius_[i] = p.radius[i] + listed_margin_[i];
        }
        std::copy(p.x + b.first, p.x + b.end, listed_x_.begin() + b.first);
        std::copy(p.y + b.first, p.y + b.end, listed_y_.begin() + b.first);
        std::copy(p.radius + b.first, p.radius + b.end, listed_radius_.begin() + b.first);
        std::copy(p.inverse_mass + b.first, p.inverse_mass + b.end,
                  listed_inverse_mass_.begin() + b.first);
    });
    boxes_changed_ = false;
    cells_current_ = false;
    const std::span<const circle_pair> found =
        finder_.find_on(circles_cview(p.x, p.y, search_radius_.data(), n), 0.0F, tasks);
    // Copied in blocks on the workers (the 100 000-circle pile lists some 270 000 pairs).
    pairs_.resize(found.size());
    detail::for_each_item(tasks, detail::task_blocks(found.size()), [&](std::size_t k) {
        const detail::task_block b = detail::block_of(k, found.size());
        std::copy(found.begin() + static_cast<std::ptrdiff_t>(b.first),
                  found.begin() + static_cast<std::ptrdiff_t>(b.end),
                  pairs_.begin() + static_cast<std::ptrdiff_t>(b.first));
    });
    list_box_contacts();
}

// The (circle, box) pairs that can touch, by circle and then ascending box.
void detail::world_state::list_box_contacts() {
    find_in_blocks(
        size(), box_contacts_,
        [&](std::size_t i, std::vector<circle_pair>& out, std::vector<std::uint32_t>& candidates) {
            append_box_contacts(i, out, candidates);
        });
}

// Circle i's boxes, ascending: the grid's candidates for its search radius, kept only if the
// box is within that radius now. Static circles (inverse mass 0) are never moved by boxes,
// and a circle whose centre is no longer finite (a blown-up simulation) is listed with none:
// the grid would hand it every box to test, each listing, for nothing a push could mend.
void detail::world_state::append_box_contacts(std::size_t i, std::vector<circle_pair>& out,
                                              std::vector<std::uint32_t>& candidates) const {
    if (grid_.size() == 0 || !(inverse_mass_[i] > 0.0F) || !std::isfinite(x_[i]) ||
        !std::isfinite(y_[i])) {
        return;
    }
    const aabbs_view boxes = grid_.boxes();
    const float reach = search_radius_[i];
    grid_.candidates(x_[i], y_[i], reach, 0.0F, candidates);
    for (const std::uint32_t k : candidates) {
        const float d2 = impl::distance_squared_of(x_[i], y_[i], boxes.min_x[k], boxes.min_y[k],
                                                   boxes.max_x[k], boxes.max_y[k]);
        if (d2 <= reach * reach) {
            out.push_back({static_cast<std::uint32_t>(i), k});
        }
    }
}

} // namespace simdcollide
