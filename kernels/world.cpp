// The particle world: the phases of a substep, in order (see world.hpp).
#include <simdcollide/world.hpp>

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/response.hpp>

#include "circle_grid.hpp"
#include "kernel_table.hpp"
#include "pair_list.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace simdcollide {
namespace detail::world_impl {
// minmax.inl first: the others use it.
#include "reference/minmax.inl"
#include "reference/weights.inl"

#include "reference/circle_aabb.inl"
#include "reference/circle_circle.inl"
#include "reference/response.inl"
#include "reference/world.inl"
} // namespace detail::world_impl

namespace {

namespace impl = detail::world_impl;

[[noreturn]] void refuse(const std::string& what) {
    throw std::invalid_argument("simdcollide::particle_world: " + what);
}

// A float as %g writes it (std::to_string writes 1e-9 as 0.000000).
std::string number(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

using impl::contact_impulse;
using impl::max_ps_branchless;
using impl::push_box;
using impl::world_impulse_of;

// A later pass of phase 6 over the same contact (world_options::velocity_iterations): the
// contact's impulses so far are totals, and this pass applies what changes them to the
// impulses the contact needs now, clamped as totals (sequential impulses): the normal total
// stays >= 0 (so it can give back what an earlier pass pushed too hard), and the friction
// total within mu times the whole normal impulse. `total` is updated.
[[gnu::always_inline]] inline contact_impulse accumulated_impulse_of(const detail::world_touch& t,
                                                                     float vx, float vy,
                                                                     float friction,
                                                                     detail::impulse_total& total) {
    const float inverse_total = impl::inverse_total_of(t.weight_a, t.weight_b);
    const float vn = vx * t.normal_x + vy * t.normal_y;
    const float normal = max_ps_branchless(total.normal + (t.target - vn) * inverse_total, 0.0F);
    const float tx = -t.normal_y;
    const float ty = t.normal_x;
    const float vt = vx * tx + vy * ty;
    const float limit = t.corrected_limit + friction * normal;
    const float tangent =
        impl::max_ps(-limit, impl::min_ps(total.tangent - vt * inverse_total, limit));
    const float j = normal - total.normal;
    const float jt = tangent - total.tangent;
    total = {normal, tangent};
    return {j * t.normal_x + jt * tx, j * t.normal_y + jt * ty, j, jt};
}

} // namespace

particle_world::particle_world(world_options options) : options_(options) {
    for (const auto& [name, rounds] :
         {std::pair{"substeps", options.substeps},
          std::pair{"velocity_iterations", options.velocity_iterations},
          std::pair{"separation_iterations", options.separation_iterations}}) {
        if (rounds < 1 || rounds > world_options::max_rounds) {
            refuse(std::string(name) + " is " + std::to_string(rounds) + ", must be from 1 to " +
                   std::to_string(world_options::max_rounds));
        }
    }
    if (options.circles_per_band % 16 != 0 || options.circles_per_band > (std::size_t{1} << 30)) {
        refuse("circles_per_band is " + std::to_string(options.circles_per_band) +
               ", must be 0 or a multiple of 16 up to 2^30");
    }
    if (!(options.restitution >= 0.0F && options.restitution <= 1.0F)) {
        refuse("restitution is " + std::to_string(options.restitution) + ", must be in [0, 1]");
    }
    if (!std::isfinite(options.friction) || options.friction < 0.0F) {
        refuse("friction is " + std::to_string(options.friction) + ", must be finite and >= 0");
    }
    if (!std::isfinite(options.max_correction_speed) || !(options.max_correction_speed > 0.0F)) {
        refuse("max_correction_speed is " + std::to_string(options.max_correction_speed) +
               ", must be finite and > 0");
    }
    if (!std::isfinite(options.pair_margin) || !(options.pair_margin >= 0.0F)) {
        refuse("pair_margin is " + std::to_string(options.pair_margin) +
               ", must be finite and >= 0");
    }
    if (!(options.shock_propagation >= 0.0F && options.shock_propagation <= 1.0F)) {
        refuse("shock_propagation is " + std::to_string(options.shock_propagation) +
               ", must be in [0, 1]");
    }
    for (const auto& [name, g] :
         {std::pair{"gravity_x", options.gravity_x}, std::pair{"gravity_y", options.gravity_y}}) {
        if (!(std::fabs(g) <= world_options::max_gravity)) {
            refuse(std::string(name) + " is " + number(g) + ", must be finite and within " +
                   number(world_options::max_gravity) + " of 0");
        }
    }
}

namespace {
// Why circle `index` (as it would be numbered) cannot be added, or empty.
std::string invalid_circle(std::size_t index, circle c, float inverse_mass, float vx, float vy) {
    const std::string name_of = "circle " + std::to_string(index);
    for (const auto& [name, value] :
         {std::pair{"x", c.x}, std::pair{"y", c.y}, std::pair{"radius", c.radius},
          std::pair{"inverse_mass", inverse_mass}, std::pair{"vx", vx}, std::pair{"vy", vy}}) {
        if (!std::isfinite(value)) {
            return name_of + ": " + name + " is " + std::to_string(value) + ", must be finite";
        }
    }
    if (c.radius < 0.0F) {
        return name_of + ": radius is " + std::to_string(c.radius) + ", must be >= 0";
    }
    if (inverse_mass < 0.0F) {
        return name_of + ": inverse_mass is " + std::to_string(inverse_mass) + ", must be >= 0";
    }
    return {};
}
} // namespace

std::size_t particle_world::add_circle(circle c, float inverse_mass, float vx, float vy) {
    if (const std::string why = invalid_circle(size(), c, inverse_mass, vx, vy); !why.empty()) {
        refuse(why);
    }
    indexed_.x.push_back(c.x);
    indexed_.y.push_back(c.y);
    indexed_.radius.push_back(c.radius);
    indexed_.inverse_mass.push_back(inverse_mass);
    indexed_.vx.push_back(vx);
    indexed_.vy.push_back(vy);
    circles_changed_ = true;
    return size() - 1;
}

std::size_t particle_world::add_circles(circles_cview circles, std::span<const float> inverse_mass,
                                        std::span<const float> vx, std::span<const float> vy) {
    const std::size_t n = circles.count;
    const std::size_t first = size();
    if (inverse_mass.size() != n) {
        refuse("add_circles: inverse_mass has " + std::to_string(inverse_mass.size()) +
               " elements, circles " + std::to_string(n));
    }
    if (vx.size() != vy.size() || (!vx.empty() && vx.size() != n)) {
        refuse("add_circles: vx and vy have " + std::to_string(vx.size()) + " and " +
               std::to_string(vy.size()) + " elements, must both have " + std::to_string(n) +
               " or both none");
    }
    if (n > 0 && (circles.x == nullptr || circles.y == nullptr || circles.radius == nullptr ||
                  inverse_mass.data() == nullptr)) {
        refuse("add_circles: a null array");
    }
    for (std::size_t k = 0; k < n; ++k) {
        const std::string why =
            invalid_circle(first + k, {circles.x[k], circles.y[k], circles.radius[k]},
                           inverse_mass[k], vx.empty() ? 0.0F : vx[k], vy.empty() ? 0.0F : vy[k]);
        if (!why.empty()) {
            refuse(why);
        }
    }
    for (std::size_t k = 0; k < n; ++k) {
        indexed_.x.push_back(circles.x[k]);
        indexed_.y.push_back(circles.y[k]);
        indexed_.radius.push_back(circles.radius[k]);
        indexed_.inverse_mass.push_back(inverse_mass[k]);
        indexed_.vx.push_back(vx.empty() ? 0.0F : vx[k]);
        indexed_.vy.push_back(vy.empty() ? 0.0F : vy[k]);
    }
    circles_changed_ = true;
    return first;
}

void particle_world::remove_circle(std::size_t index) {
    if (index >= size()) {
        throw std::out_of_range("simdcollide::particle_world: remove_circle(" +
                                std::to_string(index) + ") with " + std::to_string(size()) +
                                " circles");
    }
    std::vector<std::uint8_t> doomed(size());
    doomed[index] = 1;
    remove_marked(doomed);
}

// Keeps the circles not marked, in order. The slots and lists name the old indices, so the
// next step sorts and lists everything again (circles_changed_).
std::size_t particle_world::remove_marked(std::span<const std::uint8_t> doomed) {
    std::size_t kept = 0;
    for (aligned_floats* field : {&indexed_.x, &indexed_.y, &indexed_.radius,
                                  &indexed_.inverse_mass, &indexed_.vx, &indexed_.vy}) {
        kept = 0;
        for (std::size_t i = 0; i < doomed.size(); ++i) {
            if (doomed[i] == 0) {
                (*field)[kept++] = (*field)[i];
            }
        }
        field->resize(kept);
    }
    const std::size_t removed = doomed.size() - kept;
    if (removed > 0) {
        circles_changed_ = true;
    }
    return removed;
}

void particle_world::set_boxes(aabbs_view boxes) {
    static_box_grid grid(boxes); // validates; throws before anything changes
    const aabbs_view kept = grid.boxes();
    aligned_floats records(4 * kept.count);
    for (std::size_t k = 0; k < kept.count; ++k) {
        records[4 * k] = kept.min_x[k];
        records[4 * k + 1] = kept.min_y[k];
        records[4 * k + 2] = kept.max_x[k];
        records[4 * k + 3] = kept.max_y[k];
    }
    grid_ = std::move(grid);
    box_records_ = std::move(records);
    boxes_changed_ = true;
}

particles_view particle_world::particles() noexcept {
    return {indexed_.x.data(),
            indexed_.y.data(),
            indexed_.radius.data(),
            indexed_.inverse_mass.data(),
            indexed_.vx.data(),
            indexed_.vy.data(),
            size()};
}

std::vector<circle_pair> particle_world::listed_pairs() const {
    std::vector<circle_pair> out;
    out.reserve(pairs_.size());
    for (const circle_pair q : pairs_) {
        const std::uint32_t i = circle_of_slot_[q.a];
        const std::uint32_t j = circle_of_slot_[q.b];
        out.push_back({std::min(i, j), std::max(i, j)});
    }
    std::sort(out.begin(), out.end(),
              [](circle_pair l, circle_pair r) { return l.a != r.a ? l.a < r.a : l.b < r.b; });
    return out;
}

particles_view particle_world::slots() noexcept {
    return {x_.data(),  y_.data(),  radius_.data(), inverse_mass_.data(),
            vx_.data(), vy_.data(), x_.size()};
}

void particle_world::step(float dt) {
    if (!(dt > 0.0F && dt <= max_time_step) ||
        !(dt / static_cast<float>(options_.substeps) >= min_substep)) {
        refuse("time step is " + number(dt) + ", must be finite, at most " + number(max_time_step) +
               ", and at least " + number(min_substep) + " a substep (" +
               std::to_string(options_.substeps) + " substeps)");
    }
    // Resolved before anything changes: the first call reads SIMDCOLLIDE_ISA and may throw
    // isa_unavailable, which then leaves the world as it was.
    const detail::kernel_table& kernels = detail::active_table();
    if (circles_changed_ || circle_of_slot_.size() != size() || steps_ % sort_every == 0) {
        sort_slots();
        circles_changed_ = false;
    }
    gather(kernels);
    const listing listed = listing_needed(dt);
    switch (listed) {
    case listing::kept:
        break;
    case listing::some:
        relist_leavers(dt);
        ++listings_.partial;
        break;
    case listing::all:
        list_contacts(dt);
        ++listings_.full;
        break;
    }
    if (listed == listing::some) {
        grouper_.regroup(pairs_, size(), changed_blocks_);
    } else if (listed == listing::all) {
        grouper_.group(pairs_, size());
    }
    if (listed != listing::kept) {
        bands_current_ = false;
    }
    const float h = dt / static_cast<float>(options_.substeps);
    if (options_.circles_per_band != 0 && options_.separation_iterations == 1 &&
        options_.velocity_iterations == 1) {
        substeps_in_bands(h, kernels);
    } else {
        for (int s = 0; s < options_.substeps; ++s) {
            substep(h, kernels);
        }
    }
    scatter(kernels);
    ++steps_;
}

// The slots: the circles in the order of the cells of a grid over their centres (ascending
// index within a cell; circles in no cell, as a NaN centre is, last, ascending), so that
// circles near each other, which are the ones that touch, are near each other in memory.
// The lists name slots, so they are made again, in full. The sort borrows the relisting
// grid's storage (listed_cells_), which is then out of date.
void particle_world::sort_slots() {
    const std::size_t n = size();
    const circles_cview c(indexed_.x.data(), indexed_.y.data(), indexed_.radius.data(), n);
    listed_cells_.grid = detail::circle_grid_for(c, 0.0F);
    detail::sort_into_cells(c, listed_cells_);
    circle_of_slot_.assign(listed_cells_.order.begin(), listed_cells_.order.end());
    for (std::size_t i = 0; i < n; ++i) {
        if (listed_cells_.cell_of_circle[i] == detail::circle_cells::nowhere) {
            circle_of_slot_.push_back(static_cast<std::uint32_t>(i));
        }
    }
    slot_of_circle_.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        slot_of_circle_[circle_of_slot_[s]] = static_cast<std::uint32_t>(s);
    }
    cells_current_ = false;
    listed_x_.clear(); // the next listing is a full one
}

// The circles into their slots, for a step; and the step's results back to the caller's
// indexing (radius and inverse mass are not changed by a step). Both ways are gathers
// (kernel permute), the way back through the inverse permutation: SIMD paths gather several
// circles per instruction, where scattering would take one store each.
void particle_world::gather(const detail::kernel_table& kernels) {
    const std::size_t n = size();
    for (const auto& [indexed, slotted] :
         {std::pair{&indexed_.x, &x_}, std::pair{&indexed_.y, &y_},
          std::pair{&indexed_.radius, &radius_}, std::pair{&indexed_.inverse_mass, &inverse_mass_},
          std::pair{&indexed_.vx, &vx_}, std::pair{&indexed_.vy, &vy_}}) {
        slotted->resize(n);
        kernels.world.permute(indexed->data(), circle_of_slot_.data(), n, slotted->data());
    }
}

void particle_world::scatter(const detail::kernel_table& kernels) {
    const std::size_t n = size();
    for (const auto& [slotted, indexed] :
         {std::pair{&x_, &indexed_.x}, std::pair{&y_, &indexed_.y}, std::pair{&vx_, &indexed_.vx},
          std::pair{&vy_, &indexed_.vy}}) {
        kernels.world.permute(slotted->data(), slot_of_circle_.data(), n, indexed->data());
    }
}

// How far gravity alone carries a circle in a step of dt, |g| dt^2: the same for every
// circle, so worked out once per pass over them. sqrt(x^2 + y^2) rather than std::hypot
// (hypotf showed as 2% of a step in a profile): it overflows to infinity only for values over
// 1e19, and an infinite reach lists every step.
float particle_world::step_fall(float dt) const {
    const float gravity = std::sqrt(options_.gravity_x * options_.gravity_x +
                                    options_.gravity_y * options_.gravity_y);
    return gravity * dt * dt;
}

// How far circle i can move in a step of dt: |v| dt + fall, fall = step_fall(dt)
// (semi-implicit Euler over the substeps; corrections can move it further, and a pair that
// closes faster is found at the next listing).
float particle_world::step_reach(std::size_t i, float dt, float fall) const {
    const float move = std::sqrt(vx_[i] * vx_[i] + vy_[i] * vy_[i]) * dt + fall;
    return std::isfinite(move) ? move : std::numeric_limits<float>::infinity();
}

// Whether the lists made at the last listings still hold every pair and box that can touch
// during a step of dt (Verlet lists): kept while every circle, after this step's move, stays
// within the margin it was listed with, and no radius, inverse mass or box has changed. A
// pair not listed was at least r_i + r_j + s_i + s_j apart as listed, so it cannot touch
// while each circle moves less than its s. The circles that would leave (leavers_) can be
// listed again on their own while they are few and their reach is finite.
particle_world::listing particle_world::listing_needed(float dt) {
    leavers_.clear();
    if (listed_x_.size() != size() || boxes_changed_) {
        return listing::all;
    }
    const float fall = step_fall(dt);
    const std::size_t n = size();
    std::size_t i = 0;
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
            if (leavers_.size() == relist_at_most() || !std::isfinite(reach)) {
                return true;
            }
            leavers_.push_back(static_cast<std::uint32_t>(k));
        }
        return false;
    };
#if defined(__SSE2__)
    // Four circles at a time with SSE2 (every x86-64 CPU has it), by the same arithmetic as
    // needs_all: a block passes only where each of its circles would stay one by one (a move
    // that is not finite fails the comparison), and a block that does not pass goes one by
    // one. Measured: the loop one by one was about 4% of a step of the 10 000-circle pile.
    const __m128 step = _mm_set1_ps(dt);
    const __m128 falls = _mm_set1_ps(fall);
    const auto load = [](const float* field, std::size_t at) { return _mm_loadu_ps(field + at); };
    for (; i + 4 <= n; i += 4) {
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
                return listing::all;
            }
        }
    }
#endif
    for (; i < n; ++i) {
        if (needs_all(i)) {
            return listing::all;
        }
    }
    return leavers_.empty() ? listing::kept : listing::some;
}

// Lists every circle pair (pair_finder) and every (moving circle, box) that can touch while
// each circle moves less than its margin s = this step's reach + pair_margin, searching
// with radius r + s.
void particle_world::list_contacts(float dt) {
    const particles_view p = slots();
    listed_margin_.resize(size());
    search_radius_.resize(size());
    const float fall = step_fall(dt);
    for (std::size_t i = 0; i < size(); ++i) {
        const float reach = step_reach(i, dt, fall);
        listed_margin_[i] = std::isfinite(reach) ? reach + options_.pair_margin : 0.0F;
        search_radius_[i] = p.radius[i] + listed_margin_[i];
    }
    listed_x_.assign(p.x, p.x + size());
    listed_y_.assign(p.y, p.y + size());
    listed_radius_.assign(p.radius, p.radius + size());
    listed_inverse_mass_.assign(p.inverse_mass, p.inverse_mass + size());
    boxes_changed_ = false;
    cells_current_ = false;
    const std::span<const circle_pair> found =
        finder_.find(circles_cview(p.x, p.y, search_radius_.data(), size()));
    pairs_.assign(found.begin(), found.end());
    list_box_contacts();
}

// The (circle, box) pairs that can touch, by circle and then ascending box.
void particle_world::list_box_contacts() {
    box_contacts_.clear();
    for (std::size_t i = 0; i < size(); ++i) {
        append_box_contacts(i, box_contacts_);
    }
}

// Circle i's boxes, ascending: the grid's candidates for its search radius, kept only if the
// box is within that radius now. Static circles (inverse mass 0) are never moved by boxes,
// and a circle whose centre is no longer finite (a blown-up simulation) is listed with none:
// the grid would hand it every box to test, each listing, for nothing a push could mend.
void particle_world::append_box_contacts(std::size_t i, std::vector<circle_pair>& out) {
    if (grid_.size() == 0 || !(inverse_mass_[i] > 0.0F) || !std::isfinite(x_[i]) ||
        !std::isfinite(y_[i])) {
        return;
    }
    const aabbs_view boxes = grid_.boxes();
    const float reach = search_radius_[i];
    grid_.candidates(x_[i], y_[i], reach, 0.0F, candidates_);
    for (const std::uint32_t k : candidates_) {
        const float d2 = impl::distance_squared_of(x_[i], y_[i], boxes.min_x[k], boxes.min_y[k],
                                                   boxes.max_x[k], boxes.max_y[k]);
        if (d2 <= reach * reach) {
            out.push_back({static_cast<std::uint32_t>(i), k});
        }
    }
}

// Lists the leavers again on their own: each from where it is now, with a new margin,
// against every circle as that one was listed (search radius and position at its own
// listing), which is what a full listing would pair it with; and against the boxes. Their
// old entries go, the new ones are merged in, and the lists keep a full listing's order.
void particle_world::relist_leavers(float dt) {
    const std::size_t n = size();
    is_leaver_.assign(n, 0);
    const float fall = step_fall(dt);
    for (const std::uint32_t v : leavers_) {
        listed_margin_[v] = step_reach(v, dt, fall) + options_.pair_margin; // finite: checked
        search_radius_[v] = radius_[v] + listed_margin_[v];
        listed_x_[v] = x_[v];
        listed_y_[v] = y_[v];
        is_leaver_[v] = 1;
    }
    // A list's order, (a, b) ascending, as one comparison of 64-bit keys.
    const auto key = [](circle_pair q) { return std::uint64_t{q.a} << 32U | q.b; };
    const auto before = [&](circle_pair l, circle_pair r) { return key(l) < key(r); };
    // Entries [from, to) of a list without those `gone` says are old, and with the new
    // entries from `next` to `last` merged in, in one pass, written from `out` on; returns
    // where the writing ended and leaves `next` at `last`. Every kept entry is written (the
    // end advances past it only if kept), each new entry before the first kept one it
    // precedes, and a new entry equal to a gone one in its place. on_change is called for
    // the entries that went and the new ones that were not there before: a relisted circle
    // often keeps the same partners, and its entries then change nothing (the grouper, told
    // which chunks changed, colours only those). What std::erase_if and then std::merge
    // gave, in one pass over the list instead of three: the two took about 3% of a step of
    // the 10 000-circle pile in a sampling profile (most steps relist some circles). No new
    // entry equals a kept one (each new one has a leaver in it).
    const auto merge = [&](const circle_pair* from, const circle_pair* const to,
                           const circle_pair*& next, const circle_pair* const last,
                           circle_pair* out, auto gone, auto on_change) {
        // Where entries go one by one at least until: past a run of 8 found to hold one that
        // goes, so that the run is not tested again from each of its entries.
        const circle_pair* one_by_one_until = from;
        for (; from != to; ++from) {
            // Runs of 8 that keep every entry and precede the next new one are copied as
            // they are, tested without a branch per entry: most of a merged chunk is such
            // runs (a relisted circle mostly finds the partners it had).
            while (from >= one_by_one_until && to - from >= 8 &&
                   (next == last || before(from[7], *next))) {
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
            while (next != last && before(*next, q)) {
                on_change(*next);
                *out++ = *next++;
            }
            *out = q;
            if (!gone(q)) {
                ++out;
            } else if (next != last && key(*next) == key(q)) { // listed again as it was
                ++out;
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
    };
    // new_pairs_ in a list's order, to merge in. Each list is merged into a scratch list of
    // its own, which then holds its last version: with one shared by the pairs and the
    // boxes, the pairs' merge found the boxes' short list there and resizing it filled the
    // rest with zeros (at 1 000 000 circles, 21 MB each step that relisted: a fifth of
    // relisting's time in a sampling profile, though the step's time did not change
    // measurably without it).
    const auto sorted_new_entries = [&]() -> std::span<const circle_pair> {
        std::sort(new_pairs_.begin(), new_pairs_.end(), before);
        return new_pairs_;
    };

    // Pairs: each leaver against every circle as listed, through the cells of the listed
    // circles. They are sorted again when out of date after a full listing, or when more
    // circles than a relisting takes (relist_at_most) have been listed again since the sort:
    // those are kept apart (relisted_, found by the cells they are in now), and past that
    // many the stale entries they leave in the sorted cells would cost more than a sort. A
    // pair of two leavers is taken from the smaller index.
    const circles_cview listed(listed_x_.data(), listed_y_.data(), search_radius_.data(), n);
    if (!cells_current_ || relisted_.size() + leavers_.size() > relist_at_most()) {
        listed_cells_.grid = detail::circle_grid_for(listed, 0.0F);
        detail::sort_into_cells(listed, listed_cells_);
        relisted_.clear(n);
        cells_current_ = true;
    } else {
        relisted_.add(listed_cells_, listed, leavers_);
    }
    new_pairs_.clear();
    for (const std::uint32_t v : leavers_) {
        detail::for_each_near(listed_cells_, listed, v, relisted_, [&](std::uint32_t u) {
            if (is_leaver_[u] == 0 || v < u) {
                new_pairs_.push_back({std::min(u, v), std::max(u, v)});
            }
        });
    }
    // The blocks of first circles whose pairs changed, for the grouper (pair_grouper::regroup):
    // those of the pairs gone and of the pairs new, not of those listed again as they were.
    changed_blocks_.assign(n / circles_per_chunk + 1, 0);
    const auto pair_gone = [&](circle_pair q) { return (is_leaver_[q.a] | is_leaver_[q.b]) != 0; };
    const auto pair_changed = [&](circle_pair q) { changed_blocks_[q.a / circles_per_chunk] = 1; };
    {
        const std::span<const circle_pair> fresh = sorted_new_entries();
        const circle_pair* next = fresh.data();
        const circle_pair* const last = next + fresh.size();
        merged_pairs_.resize(pairs_.size() + fresh.size());
        circle_pair* out = merged_pairs_.data();
        // The grouper's chunks of the list (it grouped this list last: every listing is
        // grouped), each its pairs of one block of first circles, with its reach (one past
        // the highest circle they name). A chunk can hold a leaver's pair only if a leaver
        // lies in [its block's first circle, its reach) (leavers_ ascend: listing_needed
        // finds them in order), and new pairs go only into chunks of their first circle's
        // block: the others are copied whole. Measured at 1 000 000 circles, some 400
        // leavers a step (Intel Xeon, timers in an instrumented build): the merge took 4.8 ms a
        // relisting against 7.8 over every pair.
        const std::span<const pair_grouper::chunk_record> chunks = grouper_.chunks();
        const bool chunked = !chunks.empty() && chunks.front().list_begin == 0 &&
                             chunks.back().list_end == pairs_.size() &&
                             grouper_.groups().circle_count() == n;
#ifndef NDEBUG
        if (!std::is_sorted(leavers_.begin(), leavers_.end())) {
            throw std::logic_error("simdcollide::particle_world: leavers out of order");
        }
#endif
        if (!chunked) {
            out = merge(pairs_.data(), pairs_.data() + pairs_.size(), next, last, out, pair_gone,
                        pair_changed);
        } else {
            for (const pair_grouper::chunk_record& chunk : chunks) {
                const circle_pair* const from = pairs_.data() + chunk.list_begin;
                const circle_pair* const to = pairs_.data() + chunk.list_end;
                const std::size_t first_circle = chunk.block * circles_per_chunk;
                const auto leaver =
                    std::lower_bound(leavers_.begin(), leavers_.end(), first_circle);
                const bool may_lose = leaver != leavers_.end() && *leaver < chunk.reach;
                const circle_pair* chunk_last = next;
                while (chunk_last != last && chunk_last->a / circles_per_chunk <= chunk.block) {
                    ++chunk_last;
                }
                if (may_lose || chunk_last != next) {
                    out = merge(from, to, next, chunk_last, out, pair_gone, pair_changed);
                    continue;
                }
#ifndef NDEBUG
                // Debug builds (the sanitizer job's among them) hold the copy to its reason.
                if (std::any_of(from, to, pair_gone)) {
                    throw std::logic_error("simdcollide::particle_world: a chunk copied whole "
                                           "holds a leaver's pair");
                }
#endif
                out = std::copy(from, to, out);
            }
            out = merge(nullptr, nullptr, next, last, out, pair_gone, pair_changed);
        }
        merged_pairs_.resize(static_cast<std::size_t>(out - merged_pairs_.data()));
        pairs_.swap(merged_pairs_);
    }
#ifndef NDEBUG
    // Debug builds (the sanitizer job's among them) hold the merge to a full listing's order.
    if (!std::is_sorted(pairs_.begin(), pairs_.end(), before)) {
        throw std::logic_error("simdcollide::particle_world: relisted pairs out of order");
    }
#endif

    // Boxes: the leavers' entries made again.
    new_pairs_.clear();
    for (const std::uint32_t v : leavers_) {
        append_box_contacts(v, new_pairs_);
    }
    {
        const std::span<const circle_pair> fresh = sorted_new_entries();
        const circle_pair* next = fresh.data();
        merged_box_contacts_.resize(box_contacts_.size() + fresh.size());
        const circle_pair* const end = merge(
            box_contacts_.data(), box_contacts_.data() + box_contacts_.size(), next,
            fresh.data() + fresh.size(), merged_box_contacts_.data(),
            [&](circle_pair q) { return is_leaver_[q.a] != 0; }, [](circle_pair) {});
        merged_box_contacts_.resize(static_cast<std::size_t>(end - merged_box_contacts_.data()));
        box_contacts_.swap(merged_box_contacts_);
#ifndef NDEBUG
        if (!std::is_sorted(box_contacts_.begin(), box_contacts_.end(), before)) {
            throw std::logic_error("simdcollide::particle_world: relisted box contacts out of "
                                   "order");
        }
#endif
    }
}

// The touches' parameters for a substep of h (phase 2 for the boxes, phase 3's record for
// the circle pairs). Gravity's direction is worked out once here, in floats, for the
// reference and every SIMD path alike; without gravity (or with one so large that its
// square overflows) there is no "lower" circle and no shock propagation.
detail::touch_parameters particle_world::touch_parameters_for(float h) const {
    detail::touch_parameters touch{options_.restitution, options_.friction, 1.0F / h};
    const float gx = options_.gravity_x;
    const float gy = options_.gravity_y;
    const float length = std::sqrt(gx * gx + gy * gy);
    if (length > 0.0F && std::isfinite(length)) {
        touch.down_x = gx / length;
        touch.down_y = gy / length;
        touch.shock_propagation = options_.shock_propagation;
    }
    return touch;
}

// The bands of a substep (bands.hpp), for the lists as they are now: each band's groups,
// reach and box contacts, where its touches go, and the ring of per-circle entries. The touches go
// round a ring of a few bands' room (as many as can be in flight: a band's touches live from its
// separation until the last band its pairs reach is finished, and bands respond in order), so that
// at 1 000 000 circles they are read back from a core's cache; when that ring would need more room
// than the pairs (a few bands holding most of them), each band's touches go at its first pair's
// offset instead, which needs no more than one per pair.
void particle_world::plan_bands() {
    const std::size_t n = size();
    const std::size_t per_band = options_.circles_per_band;
    const std::size_t bands = (n + per_band - 1) / per_band;
    band_group_end_.assign(bands, 0);
    band_reach_.assign(bands, 0);
    band_touch_start_.assign(bands, 0);
    band_listed_end_.assign(bands, 0);
    const std::span<const circle_pair> pairs = grouper_.groups().pairs();
    const std::span<const std::uint32_t> ends = grouper_.groups().ends();
    // A group's first pair has its lowest first circle (list order within a chunk); its
    // reach is taken as its chunk's, which the grouper kept as it coloured. That is exact
    // where bands hold whole chunks, and else at least the group's own, which only fronts
    // bands and responds a little later (the same bits).
    for (const pair_grouper::chunk_record& chunk : grouper_.chunks()) {
        for (std::size_t g = chunk.ends_begin; g < chunk.ends_end; ++g) {
            const std::size_t begin = g == 0 ? 0 : ends[g - 1];
            if (ends[g] == begin) {
                continue;
            }
            const std::size_t band = pairs[begin].a / per_band;
            band_reach_[band] = std::max(band_reach_[band], chunk.reach);
            band_group_end_[band] = static_cast<std::uint32_t>(g + 1);
#ifndef NDEBUG
            // Debug builds (the sanitizer job's among them) hold the kept reach to the pairs.
            for (std::size_t k = begin; k < ends[g]; ++k) {
                if (pairs[k].b >= band_reach_[band]) {
                    throw std::logic_error("simdcollide::particle_world: a band's reach misses "
                                           "a pair's circle");
                }
            }
#endif
        }
    }
    std::size_t ring = 1;       // bands in flight at most
    std::size_t most_pairs = 0; // in one band
    std::size_t waits_for = 0;  // the band the one in hand responds after
    for (std::size_t band = 0; band < bands; ++band) {
        if (band > 0) {
            band_group_end_[band] = std::max(band_group_end_[band], band_group_end_[band - 1]);
        }
        const std::size_t end = std::min((band + 1) * per_band, n);
        band_reach_[band] = std::max(band_reach_[band], static_cast<std::uint32_t>(end));
        waits_for = std::max(waits_for, (band_reach_[band] - 1) / per_band);
        ring = std::max(ring, waits_for - band + 1);
        const std::size_t first_group = band == 0 ? 0 : band_group_end_[band - 1];
        const std::size_t first_pair = first_group == 0 ? 0 : ends[first_group - 1];
        const std::size_t last_group = band_group_end_[band];
        const std::size_t end_pair = last_group == 0 ? 0 : ends[last_group - 1];
        band_touch_start_[band] = static_cast<std::uint32_t>(first_pair);
        most_pairs = std::max(most_pairs, end_pair - first_pair);
        // The box contacts of the band's circles (the list is by circle).
        std::size_t listed = band == 0 ? 0 : band_listed_end_[band - 1];
        while (listed < box_contacts_.size() && box_contacts_[listed].a < end) {
            ++listed;
        }
        band_listed_end_[band] = static_cast<std::uint32_t>(listed);
    }
    band_touch_room_ = pairs.size();
    if (ring * most_pairs < pairs.size()) {
        for (std::size_t band = 0; band < bands; ++band) {
            band_touch_start_[band] = static_cast<std::uint32_t>((band % ring) * most_pairs);
        }
        band_touch_room_ = ring * most_pairs;
    }
    // What a substep keeps per circle while its band is in flight goes round a ring of the
    // bands in flight, rounded up to a power of two, where a band is one (band_plan::
    // ring_slot): with entries of their own for every circle, at 1 000 000 circles they were
    // written back to memory and read again each substep.
    const std::size_t ring_entries = std::bit_ceil(ring) * per_band;
    band_ring_mask_ = std::has_single_bit(per_band) && ring_entries < n
                          ? static_cast<std::uint32_t>(ring_entries - 1)
                          : ~std::uint32_t{0};
    bands_current_ = true;
}

// Every substep's phases 1 to 6 in bands (bands.hpp), for a single separation round and
// velocity pass. The substeps overlap (band_substep::in_flight) from
// world_options::overlap_substeps_from circles on, where both the per-circle entries and
// the pair touches go round rings, which each substep in flight then has of its own: a few
// bands' room each. (Without the rings each would need room for every circle or pair.)
void particle_world::substeps_in_bands(float h, const detail::kernel_table& kernels) {
    const std::size_t n = size();
    if (!bands_current_) {
        plan_bands();
    }
    const std::size_t bands = band_reach_.size();
    const detail::band_plan plan{options_.circles_per_band,
                                 bands,
                                 band_group_end_.data(),
                                 band_reach_.data(),
                                 band_touch_start_.data(),
                                 band_listed_end_.data(),
                                 band_ring_mask_};
    const std::size_t room = plan.ring_room(n);
    const bool rings =
        band_ring_mask_ != ~std::uint32_t{0} && band_touch_room_ < grouper_.groups().pairs().size();
    const std::size_t in_flight =
        rings && n >= options_.overlap_substeps_from
            ? std::min(static_cast<std::size_t>(options_.substeps), detail::most_substeps_in_flight)
            : 1;
    band_in_flight_ = in_flight;
    moved_from_x_.resize(in_flight * room);
    moved_from_y_.resize(in_flight * room);
    if (box_touching_.size() < box_contacts_.size()) {
        box_touching_.resize(box_contacts_.size());
    }
    if (pair_touching_.size() < in_flight * band_touch_room_) {
        pair_touching_.resize(in_flight * band_touch_room_);
    }
    touch_group_end_.resize(grouper_.groups().ends().size());
    band_box_touch_end_.resize(bands);
    band_velocity_ok_.resize(bands);
    if (band_scratch_.size() < in_flight * 10 * room) {
        band_scratch_ = aligned_floats(in_flight * 10 * room);
    }
    const pair_groups& groups = grouper_.groups();
    detail::band_substep s{
        .plan = plan,
        .substeps = options_.substeps,
        .in_flight = in_flight,
        .gravity_h_x = options_.gravity_x * h,
        .gravity_h_y = options_.gravity_y * h,
        .h = h,
        .moved_x = moved_from_x_.data(),
        .moved_y = moved_from_y_.data(),
        .moved_stride = room,
        .box_listed = box_contacts_.data(),
        .boxes = box_records_.data(),
        .touch = touch_parameters_for(h),
        .box_touches = box_touching_.data(),
        .pairs = groups.pairs().data(),
        .ends = groups.ends().data(),
        .mode = options_.weighting,
        .pair_touches = pair_touching_.data(),
        .pair_touch_stride = band_touch_room_,
        .scratch_stride = 10 * room,
        .hold_fraction = separation_reach / static_cast<float>(options_.substeps),
        .cap = options_.max_correction_speed,
        .box_touch_end = band_box_touch_end_.data(),
        .touch_group_end = touch_group_end_.data(),
        .velocity_ok = band_velocity_ok_.data(),
    };
    kernels.world.substeps_in_bands(slots(), s, band_scratch_.data());
    // Phase 6 is done: the touches are used up (and the pairs' gone round the ring).
    box_touching_count_ = 0;
    pair_touching_count_ = 0;
}

void particle_world::substep(float h, const detail::kernel_table& kernels) {
    const particles_view p = slots();
    const std::size_t n = size();
    const detail::touch_parameters touch = touch_parameters_for(h);

    // 1. Semi-implicit Euler: velocity first, then position with the new velocity.
    moved_from_x_.resize(n);
    moved_from_y_.resize(n);
    kernels.world.integrate(p, options_.gravity_x * h, options_.gravity_y * h, h,
                            moved_from_x_.data(), moved_from_y_.data());

    // 2. The listed boxes in contact now, each with its normal, depth and approach speed.
    if (box_touching_.size() < box_contacts_.size()) {
        box_touching_.resize(box_contacts_.size());
    }
    box_touching_count_ =
        kernels.world.box_touches(p, box_contacts_.data(), box_contacts_.size(),
                                  box_records_.data(), touch, box_touching_.data());

    // 3. Positions: separate every listed pair, in the grouper's order (Gauss-Seidel). The
    // first round records the pairs in contact as it reaches them, for phase 6: one kernel
    // works out each pair's contact once for both (a phase 2 of their own for the pairs,
    // gathering the same circles and taking the same square roots, was about a quarter of
    // a step). Then each circle's move by 3 held to separation_reach of its radius a step,
    // in the same kernel: SIMD paths hold each circle as they write its position back.
    // pair_touching_ only grows: its entries past the count are the kernel's scratch, and
    // resizing it down and up again each substep filled the difference with zeros (measured:
    // 2% of a step on the 10 000-circle pile, where a third of the listed pairs are apart).
    if (pair_touching_.size() < pairs_.size()) {
        pair_touching_.resize(pairs_.size());
    }
    const detail::touch_recording record{touch, pair_touching_.data()};
    const detail::move_hold hold{moved_from_x_.data(), moved_from_y_.data(),
                                 separation_reach / static_cast<float>(options_.substeps)};
    pair_touching_count_ = detail::separate_in_order_unchecked(
        kernels, p, grouper_.groups(), options_.weighting, options_.separation_iterations, &record,
        &hold, workspace_);

    // 4. Static boxes: each moving circle against its listed boxes in ascending order
    // (docs/behaviour.md's order rule).
    kernels.world.push_boxes(p, box_contacts_.data(), box_contacts_.size(), box_records_.data());

    // 5. Velocity update: the corrections of 3 and 4 become velocity, capped in speed, so
    // that a corrected overlap does not go on closing, and a correction is not free energy.
    // Divided by h as a multiplication by 1 / h, as in phase 6: one division a substep
    // instead of two a circle.
    // 6. Restitution and friction, with the contacts of 2 and 3: boxes, then circle pairs, each
    // seeing the last's result. The pairs go in interleaved runs (detail::impulse_runs):
    // pairs far apart in the list rarely share a circle, so the kernel applies several at
    // once. With velocity_iterations > 1, respond_in_passes; else one kernel does 5 and 6,
    // so that SIMD paths keep the velocities packed from the gain to the last impulse.
    if (options_.velocity_iterations > 1) {
        kernels.world.gain_corrections(p, moved_from_x_.data(), moved_from_y_.data(),
                                       touch.inverse_h, options_.max_correction_speed);
        respond_in_passes(p, options_.friction);
        return;
    }
    const std::span<const detail::world_touch> pairs = pair_touching();
    detail::gain_and_respond_unchecked(
        kernels, p,
        {moved_from_x_.data(), moved_from_y_.data(), touch.inverse_h, options_.max_correction_speed,
         options_.friction, box_touching_.data(), box_touching_count_, pairs.data(), pairs.size()},
        workspace_);
}

// Phase 6 with velocity_iterations > 1: the first pass as in substep, keeping each
// contact's impulses (box contacts first, then circle pairs in list order), then the later
// passes in the same order, each from those totals (accumulated_impulse_of). Kept apart
// from the single pass, which GCC compiles into a tighter loop on its own.
void particle_world::respond_in_passes(const particles_view& p, float friction) {
    const std::size_t boxes_touching = box_touching_count_;
    const std::size_t touching_pairs = pair_touching_count_;
    impulse_totals_.resize(boxes_touching + touching_pairs);
    detail::impulse_total* const totals = impulse_totals_.data();
    // Each pass in the single pass's order, records by value; the first pass keeps the
    // totals that the later ones start from.
    const auto in_order = [&](auto&& on_box, auto&& on_pair) {
        for (std::size_t k = 0; k < boxes_touching; ++k) {
            on_box(box_touching_[k], k);
        }
        impl::for_each_in_runs(touching_pairs, detail::impulse_runs, [&](std::size_t k) {
            on_pair(pair_touching_[k], boxes_touching + k);
        });
    };
    in_order(
        [&](const detail::world_touch t, std::size_t at) {
            const contact_impulse j = world_impulse_of(t, p.vx[t.b], p.vy[t.b], friction);
            totals[at] = {j.normal, j.tangent};
            push_box(p, t, j);
        },
        [&](const detail::world_touch t, std::size_t at) {
            const contact_impulse j =
                world_impulse_of(t, p.vx[t.b] - p.vx[t.a], p.vy[t.b] - p.vy[t.a], friction);
            totals[at] = {j.normal, j.tangent};
            impl::push_pair(p, t, j);
        });
    for (int pass = 1; pass < options_.velocity_iterations; ++pass) {
        in_order(
            [&](const detail::world_touch t, std::size_t at) {
                push_box(p, t,
                         accumulated_impulse_of(t, p.vx[t.b], p.vy[t.b], friction, totals[at]));
            },
            [&](const detail::world_touch t, std::size_t at) {
                impl::push_pair(p, t,
                                accumulated_impulse_of(t, p.vx[t.b] - p.vx[t.a],
                                                       p.vy[t.b] - p.vy[t.a], friction,
                                                       totals[at]));
            });
    }
}

} // namespace simdcollide
