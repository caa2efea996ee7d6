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

#include "pairwise/world_records.hpp"

#include "runtime/circle_blocks.hpp"

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

/// Substeps in flight at once at most (band_substep::in_flight): each holds its own ring
/// entries, pair touches and scratch while it is.
inline constexpr std::size_t most_substeps_in_flight = 4;

/// Everything substeps in bands read and write besides the circles (world_bands.cpp's
/// substeps_in_bands): `substeps` substeps of h, run_substeps_in_bands' schedule. Scratch per
/// band in box_touch_end and velocity_ok (bands entries each), per group in
/// touch_group_end (one past each group's last touch). Band k's box touches go at its
/// listed box contacts' offset, [first_of(plan.listed_end, k), box_touch_end[k]). What a
/// substep holds while in flight (its entries in the ring, at plan.ring_slot, its pair
/// touches, at plan.touch_start, and a path's scratch) is the first substep's plus
/// `in_flight_slot` times the stride: in_flight is 1 where the substeps run one after
/// another, up to most_substeps_in_flight where they overlap. Phase 6 uses each touch within
/// its substep, so nothing is left for the caller but the circles.
struct band_substep {
    band_plan plan;
    int substeps;                      // of h each
    std::size_t in_flight;             // substeps in flight at once, 1 to most_substeps_in_flight
    float gravity_h_x, gravity_h_y, h; // phase 1
    float* moved_x;                    // positions after phase 1, at plan.ring_slot
    float* moved_y;
    std::size_t moved_stride;      // between the moved_x (and moved_y) of substeps in flight
    const circle_pair* box_listed; // (circle, box), by circle (plan.listed_end)
    const float* boxes;            // (min x, min y, max x, max y) records
    touch_parameters touch;
    world_touch* box_touches; // room for every listed box contact
    const circle_pair* pairs; // pair_groups' list and ends
    const std::uint32_t* ends;
    separation_weighting mode;
    world_touch* pair_touches;     // room for every band at its touch_start
    std::size_t pair_touch_stride; // between the pair touches of substeps in flight
    std::size_t scratch_stride;    // floats between the scratch of substeps in flight
    float hold_fraction;           // phase 3's hold, per substep
    float cap;                     // phase 5's speed cap
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

/// The schedule of one substep, called run_bands below. Band k's pairs move its circles and
/// circles up to reach[k]; no later band's pairs touch a circle below the band's start
/// (pairs are (lower, higher) and grouped by first circle). So, for each band k in order:
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
///
/// run_bands' schedule for each of `substeps` substeps, overlapped where in_flight > 1: the
/// substeps go in waves of in_flight, and within a wave each substep follows the one before
/// it band by band, fronting a band only once the one before has responded it (so while a
/// pile's arrays are too large for the cache, a band's circles and pairs are read from memory
/// once a wave rather than once a substep). The same bits as one substep after another: a
/// band responded is final for its substep (run_bands: no later band's work there reads or
/// writes its circles), and a substep's work before it responds a band touches only
/// circles of bands it has fronted. What the schedule shares between substeps in flight is
/// per band and used by one substep between a band's front and its respond (box_touch_end,
/// velocity_ok, the box touches at the band's listed offset) or per group between its
/// separate and its band's respond (touch_group_end). Each callback takes (in_flight_slot,
/// band): the substep's place in its wave, for its own entries, touches and scratch, with
/// every slot's state starting afresh for each wave.
template <class Front, class Separate, class Finish, class Respond>
[[gnu::always_inline]] inline void
run_substeps_in_bands(const band_plan& plan, std::size_t count, int substeps, std::size_t in_flight,
                      Front&& front, Separate&& separate, Finish&& finish, Respond&& respond) {
    struct cursor {
        std::size_t fronted, band, responded;
    };
    for (std::size_t wave = 0; wave < static_cast<std::size_t>(substeps); wave += in_flight) {
        const std::size_t in_wave = lesser(in_flight, static_cast<std::size_t>(substeps) - wave);
        cursor at[most_substeps_in_flight] = {};
        // One band of slot j's run_bands loop (or, past the last band, the responds left);
        // nothing while what the band fronts has not been responded by the substep before.
        const auto advance = [&](std::size_t j) {
            cursor& c = at[j];
            if (c.band == plan.bands) {
                for (; c.responded < plan.bands; ++c.responded) {
                    respond(j, c.responded);
                }
                return;
            }
            const std::size_t need =
                lesser((plan.reach[c.band] + plan.circles - 1) / plan.circles, plan.bands);
            if (j > 0 && need > at[j - 1].responded) {
                return;
            }
            for (; c.fronted < need; ++c.fronted) {
                front(j, c.fronted);
            }
            separate(j, c.band);
            finish(j, c.band);
            const std::size_t finished = lesser((c.band + 1) * plan.circles, count);
            for (; c.responded <= c.band && plan.reach[c.responded] <= finished; ++c.responded) {
                respond(j, c.responded);
            }
            ++c.band;
        };
        while (at[in_wave - 1].responded < plan.bands) {
            for (std::size_t j = 0; j < in_wave; ++j) {
                if (at[j].responded < plan.bands) {
                    advance(j);
                }
            }
        }
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

/// Circles [first, end) of a view, as a view of their own.
[[gnu::always_inline]] inline particles_view sub_view(const particles_view& c, band_range r) {
    return circles_of(c, {r.first, r.end});
}

/// Where run k of consecutive runs starts, given each run's end: ends[k - 1], 0 for k = 0.
[[gnu::always_inline]] inline std::size_t first_of(const std::uint32_t* ends, std::size_t k) {
    return k == 0 ? 0 : ends[k - 1];
}

} // namespace simdcollide::detail
