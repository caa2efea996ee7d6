// The particle world's SIMD kernels, one struct per stage, each the reference
// (kernels/pairwise/reference/world.inl) line for line with each `if` computed both ways and picked
// per lane:
//   world_circles.hpp     the per-circle phases (permute, 1 integrate, 3's hold, 5 gain);
//   world_boxes.hpp       phases 2 and 4, the box contacts;
//   world_separation.hpp  phase 3, separation in order, recording the pairs in contact;
//   world_impulses.hpp    phase 6, the impulses on packed velocity records;
// and here the substeps in bands, which run them all band by band.
#pragma once

#include "pairwise/simd/world_boxes.hpp"
#include "pairwise/simd/world_circles.hpp"
#include "pairwise/simd/world_common.hpp"
#include "pairwise/simd/world_impulses.hpp"
#include "pairwise/simd/world_separation.hpp"

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct world_bands {
    using F = floats<Arch>;

    // Reference substeps_in_bands_loop, on run_substeps_in_bands' schedule (bands.hpp), with
    // s.in_flight substeps overlapping where the reference runs them one after another.
    // Phase 3 works on records of (x, y, radius, inverse mass) as separate_in_order does,
    // each band's packed as it is fronted and written back, held, as it is finished; phases
    // 5 and 6 on (vx, vy) records as gain_and_respond does, each band's stored by its gain
    // and unpacked after its impulses. A band's pair touches are worked out W at a time
    // within each group (no two share a circle, so the lanes neither read nor write each
    // other's records). The recording round leaves the velocities out where it may
    // (recording_round): for a band, when restitution is 0 and every circle its pairs name
    // has its velocity within bound; else the velocities of those circles are packed first
    // (they are still as phase 1 left them: see bands.hpp). Every record is at the circle's
    // entry in its substep's ring (band_plan::ring_slot), which at 1 000 000 circles keeps
    // them in cache from a band's packing to its unpacking, where records of their own for
    // every circle were written back to memory and read again each substep.
    static void substeps_in_bands(particles_view c, detail::band_substep& s, float* scratch) {
        using CC = circle_circle<Arch>;
        const detail::band_plan& plan = s.plan;
        const std::size_t room = plan.ring_room(c.count);
        // Substep slot j's records: (x, y, radius, inverse mass), the velocities its
        // recording reads, and (vx, vy); its positions after phase 1 and its pair touches.
        const auto bodies = [&](std::size_t j) { return scratch + j * s.scratch_stride; };
        const auto approach = [&](std::size_t j) { return bodies(j) + std::size_t{4} * room; };
        const auto moving = [&](std::size_t j) { return bodies(j) + std::size_t{8} * room; };
        const auto moved_x = [&](std::size_t j) { return s.moved_x + j * s.moved_stride; };
        const auto moved_y = [&](std::size_t j) { return s.moved_y + j * s.moved_stride; };
        const auto pair_touches = [&](std::size_t j) {
            return s.pair_touches + j * s.pair_touch_stride;
        };
        const typename world_common<Arch>::ring entry{plan.ring_mask};
        const auto circles_of = [&](std::size_t band) {
            return detail::band_circles(plan, c.count, band);
        };
        const bool restitution = s.touch.restitution != 0.0F;
        // Per slot: the bands whose velocities are in its `approach` (from 0 each wave: a
        // slot's first band is band 0).
        std::size_t approach_packed[detail::most_substeps_in_flight] = {};
        const typename world_circles<Arch>::velocity_gain gain{s.touch.inverse_h, s.cap};
        CC::with_mode(s.mode, [&](auto weighting) {
            const auto front = [&](std::size_t j, std::size_t band) {
                const detail::band_range r = circles_of(band);
                const particles_view f = detail::sub_view(c, r);
                const std::size_t at = plan.ring_slot(r.first);
                world_circles<Arch>::integrate(f, s.gravity_h_x, s.gravity_h_y, s.h,
                                               moved_x(j) + at, moved_y(j) + at);
                const std::size_t first_listed = detail::first_of(plan.listed_end, band);
                s.box_touch_end[band] = static_cast<std::uint32_t>(
                    first_listed +
                    world_boxes<Arch>::box_touches(c, s.box_listed + first_listed,
                                                   plan.listed_end[band] - first_listed, s.boxes,
                                                   s.touch, s.box_touches + first_listed));
                CC::pack(f.x, f.y, f.radius, f.inverse_mass, f.count, bodies(j) + 4 * at);
                s.velocity_ok[band] =
                    !restitution && world_separation<Arch>::velocities_within_bound(f) ? 1 : 0;
                if (band == 0) {
                    approach_packed[j] = 0;
                }
            };
            const auto separate = [&](std::size_t j, std::size_t band) {
                const std::size_t last =
                    detail::lesser((plan.reach[band] - 1) / plan.circles, plan.bands - 1);
                bool approach_matters = false;
                for (std::size_t b = band; b <= last; ++b) {
                    approach_matters = approach_matters || s.velocity_ok[b] == 0;
                }
                if (approach_matters) {
                    for (std::size_t b = approach_packed[j] > band ? approach_packed[j] : band;
                         b <= last; ++b) {
                        const particles_view f = detail::sub_view(c, circles_of(b));
                        CC::pack(f.vx, f.vy, f.vx, f.vy, f.count,
                                 approach(j) + 4 * plan.ring_slot(circles_of(b).first));
                    }
                    approach_packed[j] = approach_packed[j] > last ? approach_packed[j] : last + 1;
                }
                std::size_t at = plan.touch_start[band];
                for (std::size_t g = detail::first_of(plan.group_end, band);
                     g < plan.group_end[band]; ++g) {
                    const detail::touch_recording r{s.touch, pair_touches(j) + at};
                    const std::size_t made =
                        approach_matters
                            ? world_separation<Arch>::template recording_round_as<weighting(),
                                                                                  true>(
                                  s.pairs, s.ends, g + 1, r, bodies(j), approach(j), g, entry)
                            : world_separation<Arch>::template recording_round_as<weighting(),
                                                                                  false>(
                                  s.pairs, s.ends, g + 1, r, bodies(j), approach(j), g, entry);
                    at += made;
                    s.touch_group_end[g] = static_cast<std::uint32_t>(at);
                }
            };
            const auto finish = [&](std::size_t j, std::size_t band) {
                const detail::band_range r = circles_of(band);
                const particles_view f = detail::sub_view(c, r);
                const std::size_t at = plan.ring_slot(r.first);
                world_separation<Arch>::unpack_held(
                    bodies(j) + 4 * at, f, {moved_x(j) + at, moved_y(j) + at, s.hold_fraction});
                const std::size_t first_listed = detail::first_of(plan.listed_end, band);
                world_boxes<Arch>::push_boxes(c, s.box_listed + first_listed,
                                              plan.listed_end[band] - first_listed, s.boxes);
                world_impulses<Arch>::gain_into_records(f, moved_x(j) + at, moved_y(j) + at, gain,
                                                        moving(j) + 2 * at);
            };
            const auto respond_band = [&](std::size_t j, std::size_t band) {
                const std::size_t first_box = detail::first_of(plan.listed_end, band);
                world_impulses<Arch>::respond_boxes(s.box_touches + first_box,
                                                    s.box_touch_end[band] - first_box,
                                                    s.touch.friction, moving(j), entry);
                const F mu(s.touch.friction);
                std::size_t from = plan.touch_start[band];
                for (std::size_t g = detail::first_of(plan.group_end, band);
                     g < plan.group_end[band]; ++g) {
                    world_impulses<Arch>::respond_in_group(
                        pair_touches(j) + from, s.touch_group_end[g] - from, mu, moving(j), entry);
                    from = s.touch_group_end[g];
                }
                const detail::band_range r = circles_of(band);
                world_impulses<Arch>::unpack_velocities(moving(j) + 2 * plan.ring_slot(r.first),
                                                        r.end - r.first, c.vx + r.first,
                                                        c.vy + r.first);
            };
            detail::run_substeps_in_bands(plan, c.count, s.substeps, s.in_flight, front, separate,
                                          finish, respond_band);
        });
    }
};

} // namespace simdcollide::simd
