// A substep in bands of circles (world.hpp, "Bands"): phases 1 to 6 run band by band, each
// band's phases as soon as what they read is ready, so that at 1 000 000 circles a band's
// circles, pairs and touches are still in a core's cache from one phase to the next, where
// a phase over every circle before the next had them all come back from memory.
//
// The schedule is the same for the reference and every instruction set (run_bands); what
// each step does is theirs, and bit-identical between them.
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/world.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::detail {

/// How a substep's circles fall into bands, made when the lists change (particle_world::
/// plan_bands). Band k is circles [k * circles, min((k + 1) * circles, count)); its groups
/// are those whose first pair's first circle is in it, [group_end[k - 1], group_end[k])
/// (from 0 for k = 0); reach[k] is one past the highest circle its pairs name, at least
/// the band's end; touch_start[k] is where its pair touches go in the touch buffer (a ring
/// of a few bands' room when the bands' reaches allow it, else each band at its pairs'
/// offset, so that no two bands in flight share room); its circles' listed box contacts are
/// [listed_end[k - 1], listed_end[k]) (from 0 for k = 0) of the list, which is by circle.
/// What a substep keeps per circle only while the circle's band is in flight (its position
/// after phase 1, and the records SIMD paths work on) is at ring_slot(circle): a ring of
/// ring_mask + 1 entries, a power of two that holds every band in flight (so a band's
/// entries are consecutive), when circles is a power of two and such a ring is smaller than
/// the circles; else ring_mask is all ones and each circle has an entry of its own.
struct band_plan {
    std::size_t circles = 0;
    std::size_t bands = 0;
    const std::uint32_t* group_end = nullptr;
    const std::uint32_t* reach = nullptr;
    const std::uint32_t* touch_start = nullptr;
    const std::uint32_t* listed_end = nullptr;
    std::uint32_t ring_mask = ~std::uint32_t{0};

    /// Where circle i's entry is in the ring.
    [[nodiscard, gnu::always_inline]] std::size_t ring_slot(std::size_t i) const {
        return i & ring_mask;
    }
    /// Entries the ring has for `count` circles.
    [[nodiscard, gnu::always_inline]] std::size_t ring_room(std::size_t count) const {
        return ring_mask == ~std::uint32_t{0} ? count : std::size_t{ring_mask} + 1;
    }
};

/// Everything a substep in bands reads and writes besides the circles (world.cpp's
/// substep). Scratch per band in box_touch_end and velocity_ok (bands entries each), per
/// group in touch_group_end (one past each group's last touch). Phase 6 uses each touch
/// within the substep, so nothing is left for the caller but the circles.
struct band_substep {
    band_plan plan;
    float gravity_h_x, gravity_h_y, h; // phase 1
    float* moved_x;                    // positions after phase 1, at plan.ring_slot
    float* moved_y;
    const circle_pair* box_listed; // (circle, box), by circle (plan.listed_end)
    const float* boxes;            // (min x, min y, max x, max y) records
    touch_parameters touch;
    world_touch* box_touches; // room for every listed box contact
    const circle_pair* pairs; // pair_groups' list and ends
    const std::uint32_t* ends;
    separation_weighting mode;
    world_touch* pair_touches; // room for every band at its touch_start
    float hold_fraction;       // phase 3's hold, per substep
    float cap;                 // phase 5's speed cap
    std::uint32_t* box_touch_end;
    std::uint32_t* touch_group_end;
    std::uint8_t* velocity_ok;
};

// Everything below is inlined into its caller and uses no std::min: a function or an
// instantiation shared by the per-instruction-set objects would be one weak symbol, kept
// once, and could run an AVX copy on a CPU without it (tests/check_isa_symbols.sh).
[[gnu::always_inline]] inline std::size_t lesser(std::size_t a, std::size_t b) {
    return a < b ? a : b;
}

/// The schedule. Band k's pairs move its circles and circles up to reach[k]; no later band's
/// pairs touch a circle below the band's start (pairs are (lower, higher) and grouped by
/// first circle). So, for each band k in order:
///   front(f) for every band f not yet fronted below the one holding reach[k] - 1: phases
///     1 and 2 for its circles (and whatever a path packs), before any pair moves them;
///   separate(k): phase 3 over k's groups, recording its touches;
///   finish(k): its circles are final for phase 3 now: the hold, phase 4 and phase 5;
///   respond(j) for each band j, in order, whose reach is now finished: phase 6 for j's box
///     touches, then its pair touches, group by group. Every circle j's touches name is
///     past phase 5 then, and no later band's touches name j's circles, so its velocities
///     are final after it.
/// The velocities a band's recording reads are still phase 1's, since no respond has
/// reached its circles yet: respond(j) changes circles below reach[j], at most the end of
/// the band just finished, and every later separate reads circles from the next band's
/// start.
template <class Front, class Separate, class Finish, class Respond>
[[gnu::always_inline]] inline void run_bands(const band_plan& plan, std::size_t count,
                                             Front&& front, Separate&& separate, Finish&& finish,
                                             Respond&& respond) {
    std::size_t fronted = 0;
    std::size_t responded = 0;
    for (std::size_t band = 0; band < plan.bands; ++band) {
        // One past the band that holds circle reach - 1.
        const std::size_t need =
            lesser((plan.reach[band] + plan.circles - 1) / plan.circles, plan.bands);
        for (; fronted < need; ++fronted) {
            front(fronted);
        }
        separate(band);
        finish(band);
        const std::size_t finished = lesser((band + 1) * plan.circles, count);
        for (; responded <= band && plan.reach[responded] <= finished; ++responded) {
            respond(responded);
        }
    }
    for (; responded < plan.bands; ++responded) {
        respond(responded);
    }
}

/// The circles of band k: [first, end).
struct band_range {
    std::size_t first, end;
};
[[gnu::always_inline]] inline band_range band_circles(const band_plan& plan, std::size_t count,
                                                      std::size_t band) {
    return {lesser(band * plan.circles, count), lesser((band + 1) * plan.circles, count)};
}

/// Circles [first, end) of a view, as a view of their own (a copy with its pointers moved:
/// no constructor to share).
[[gnu::always_inline]] inline particles_view sub_view(const particles_view& c, band_range r) {
    particles_view v = c;
    v.x += r.first;
    v.y += r.first;
    v.radius += r.first;
    v.inverse_mass += r.first;
    v.vx += r.first;
    v.vy += r.first;
    v.count = r.end - r.first;
    return v;
}

/// Where run k of consecutive runs starts, given each run's end: ends[k - 1], 0 for k = 0.
[[gnu::always_inline]] inline std::size_t first_of(const std::uint32_t* ends, std::size_t k) {
    return k == 0 ? 0 : ends[k - 1];
}

} // namespace simdcollide::detail
