// The particle world's per-circle phases (world.hpp, phases 1 and 5), W circles at a time;
// its box contacts in phases 2 and 4, phase 3's separation in order (recording the circle
// pairs in contact) and phase 6's impulses, W pairs or contacts at a time: the reference
// (kernels/reference/world.inl) line for line, each `if` computed both ways and picked per
// lane.
#pragma once

#include "simd/block_loop.hpp"
#include "simd/circle_aabb.hpp"
#include "simd/circle_circle.hpp"
#include "simd/records.hpp"
#include "simd/velocity_records.hpp"

#include <simdcollide/soa.hpp>
#include <simdcollide/world.hpp>

#include "world_records.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace simdcollide::simd {

template <class Arch>
struct world {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    // Where a circle's record is: at its slot (whole), or at its entry in the bands' ring
    // (band_plan::ring_slot).
    struct whole {
        [[gnu::always_inline]] std::uint32_t operator()(std::uint32_t i) const { return i; }
    };
    struct ring {
        std::uint32_t mask;
        [[gnu::always_inline]] std::uint32_t operator()(std::uint32_t i) const { return i & mask; }
    };

    // Reference separate_in_order_loop. The circles packed as (x, y, radius, inverse mass)
    // records for the whole call; then each group's pairs 2 W at a time (two blocks per
    // round, as in circle_circle's pair list: two chains of square roots and divisions keep
    // the divider busy), both circles gathered, separated, and written back. No two pairs of
    // a group share a circle, so the blocks' lanes neither read nor write each other's
    // circles; a lane that does not move its circle writes back the bits it read. With a
    // record, the first round is recording_round. With a hold, each circle is held as its
    // position is written back from its record (unpack_held): the radius is in the record too.
    static std::size_t separate_in_order(particles_view c, const circle_pair* pairs,
                                         const std::uint32_t* ends, std::size_t groups,
                                         separation_weighting mode, int rounds,
                                         const detail::touch_recording* record,
                                         const detail::move_hold* hold, float* scratch) {
        using CC = circle_circle<Arch>;
        float* const bodies = scratch;
        CC::pack(c.x, c.y, c.radius, c.inverse_mass, c.count, bodies);
        std::size_t touching = 0;
        CC::with_mode(mode, [&](auto weighting) {
            int round = 0;
            if (record != nullptr && rounds > 0) {
                touching = recording_round<weighting()>(c, pairs, ends, groups, *record, scratch);
                round = 1;
            }
            for (; round < rounds; ++round) {
                for_each_pair_block(
                    pairs, ends, groups, bodies,
                    [=](const pair_block& one, const pair_block& two)
                        __attribute__((always_inline)) {
                            if constexpr (one_block_at_a_time) {
                                const gathered a = gather_pair(bodies, one);
                                write_back(bodies, one, separated<weighting()>(a, contact_of(a)));
                                const gathered b = gather_pair(bodies, two);
                                write_back(bodies, two, separated<weighting()>(b, contact_of(b)));
                            } else {
                                const gathered a = gather_pair(bodies, one);
                                const gathered b = gather_pair(bodies, two);
                                const gathered a_moved = separated<weighting()>(a, contact_of(a));
                                const gathered b_moved = separated<weighting()>(b, contact_of(b));
                                write_back(bodies, one, a_moved);
                                write_back(bodies, two, b_moved);
                            }
                        });
            }
        });
        if (hold == nullptr) {
            unpack(bodies, c.count, c.x, c.y);
        } else {
            unpack_held(bodies, c, *hold);
        }
        return touching;
    }

    // Reference permute_loop. With AVX2 or AVX-512, 4 or 8 floats per gather instruction,
    // with 64-bit indices: the 32-bit ones (vgatherdps) are signed, and an index of 2^31 or
    // more would reach before `from`. One float at a time elsewhere and for the tail. The
    // world moves six fields into slots and four back each step; one circle at a time, the
    // two moves took 7% of a step of the 10 000-circle pile in a sampling profile on an
    // Intel Xeon (CHANGELOG has the step's time before and after).
    //
    // From gathers_prefetched_from circles on, each round also prefetches the lines it will
    // gather gather_prefetch_distance slots later. A pile mixes as it settles: in the
    // benchmark's 1 000 000-circle pile, 256 consecutive slots gather from 228 different
    // lines of each field, so nearly every element is a line from L3 or memory, and the
    // hardware gathers keep too few of them in flight (the prefetches took the step from 85
    // to 74 ms on an AMD EPYC, Zen 5: CHANGELOG).
    static constexpr std::size_t gathers_prefetched_from = std::size_t{1} << 16;
    static constexpr std::size_t gather_prefetch_distance = 256; // slots; 1 024 no different
    static void permute(const float* from, const std::uint32_t* index, std::size_t count,
                        float* to) {
        std::size_t k = 0;
#if defined(__x86_64__)
        if constexpr (is_avx512<Arch> || std::is_base_of_v<xsimd::avx2, Arch>) {
            // W indices per round as one vector (its register type keeps these intrinsics
            // dependent, so that objects without AVX never look them up), widened to 64
            // bits half by half.
            using indices = xsimd::batch<std::uint32_t, Arch>;
            constexpr std::size_t width = indices::size;
            const auto gather_round = [=](std::size_t first) {
                const auto at = indices::load_unaligned(index + first).data;
                if constexpr (is_avx512<Arch>) {
                    const auto lower = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(at));
                    const auto upper = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(at, 1));
                    _mm256_storeu_ps(to + first, _mm512_i64gather_ps(lower, from, 4));
                    _mm256_storeu_ps(to + first + width / 2, _mm512_i64gather_ps(upper, from, 4));
                } else {
                    const auto lower = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(at));
                    const auto upper = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(at, 1));
                    _mm_storeu_ps(to + first, _mm256_i64gather_ps(from, lower, 4));
                    _mm_storeu_ps(to + first + width / 2, _mm256_i64gather_ps(from, upper, 4));
                }
            };
            if (count >= gathers_prefetched_from) {
                for (; k + gather_prefetch_distance + width <= count; k += width) {
                    for (std::size_t j = 0; j < width; ++j) {
                        _mm_prefetch(reinterpret_cast<const char*>(
                                         from + index[k + gather_prefetch_distance + j]),
                                     _MM_HINT_T0);
                    }
                    gather_round(k);
                }
            }
            for (; k + width <= count; k += width) {
                gather_round(k);
            }
        }
#endif
        for (; k < count; ++k) {
            to[k] = from[index[k]];
        }
    }

    // Reference integrate_loop.
    static void integrate(particles_view c, float gravity_h_x, float gravity_h_y, float h,
                          float* moved_x, float* moved_y) {
        const F gx(gravity_h_x);
        const F gy(gravity_h_y);
        const F step(h);
        for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const M moves = block.load(c.inverse_mass) > F(0.0F);
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            const F x = block.load(c.x);
            const F y = block.load(c.y);
            const F new_vx = vx + gx;
            const F new_vy = vy + gy;
            const F new_x = pick<Arch>(moves, x + new_vx * step, x);
            const F new_y = pick<Arch>(moves, y + new_vy * step, y);
            block.store(c.vx, pick<Arch>(moves, new_vx, vx));
            block.store(c.vy, pick<Arch>(moves, new_vy, vy));
            block.store(c.x, new_x);
            block.store(c.y, new_y);
            block.store(moved_x, new_x);
            block.store(moved_y, new_y);
        });
    }

    // Reference hold_moves_loop: a square root and a division for every lane, where the
    // reference takes them only for the rare long moves. Branch-free as gain_corrections is,
    // by its measurement; not measured against a branch per block here (the kernel is about
    // 1.5% of a step).
    static void hold_moves(particles_view c, const float* moved_x, const float* moved_y,
                           float fraction) {
        const F share(fraction);
        for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const auto [x, y] = held(block.load(c.x), block.load(c.y), block.load(c.radius),
                                     block.load(moved_x), block.load(moved_y), share);
            block.store(c.x, x);
            block.store(c.y, y);
        });
    }

    // Reference gain_corrections_loop. The capped lanes are rare, but a square root and a
    // division for every lane cost less than a branch per block.
    static void gain_corrections(particles_view c, const float* moved_x, const float* moved_y,
                                 float inverse_h, float cap) {
        const velocity_gain gain{inverse_h, cap};
        for_each_block_storing<Arch>(c.vx, c.count, [=](const auto& block) {
            const auto [vx, vy] = gain.of(c, moved_x, moved_y, block);
            block.store(c.vx, vx);
            block.store(c.vy, vy);
        });
    }

    // Reference respond_pairs_loop: the velocities packed as (vx, vy) records
    // (velocity_records.hpp), respond_packed, and unpacked.
    static void respond_pairs(particles_view c, const detail::world_touch* touches,
                              std::size_t count, float friction, float* scratch) {
        using V = velocity_records<Arch>;
        float* const moving = scratch;
        for_each_block_storing<Arch>(c.vx, c.count, [=](const auto& block) {
            V::store_run(moving, block.first, {block.load(c.vx), block.load(c.vy)},
                         lanes_in(block));
        });
        respond_packed(touches, count, friction, moving);
        unpack_velocities(moving, c.count, c.vx, c.vy);
    }

    // Reference gain_and_respond_loop, on the velocity records from the gain to the last
    // impulse: phase 5 stores each circle's new velocity as its (vx, vy) record, which is
    // respond_pairs' pack done by the gain (in separate kernels, the gain stored the
    // velocities and phase 6 loaded and packed them again); then the box contacts and the
    // circle pairs on the records, and the velocities unpacked once at the end.
    static void gain_and_respond(particles_view c, const detail::velocity_update& u,
                                 float* scratch) {
        float* const moving = scratch;
        const velocity_gain gain{u.inverse_h, u.cap};
        gain_into_records(c, u.moved_x, u.moved_y, gain, moving);
        respond_boxes(u.boxes, u.box_count, u.friction, moving);
        respond_packed(u.pairs, u.pair_count, u.friction, moving);
        unpack_velocities(moving, c.count, c.vx, c.vy);
    }

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
        const ring entry{plan.ring_mask};
        const auto circles_of = [&](std::size_t band) {
            return detail::band_circles(plan, c.count, band);
        };
        const bool restitution = s.touch.restitution != 0.0F;
        // Per slot: the bands whose velocities are in its `approach` (from 0 each wave: a
        // slot's first band is band 0).
        std::size_t approach_packed[detail::most_substeps_in_flight] = {};
        const velocity_gain gain{s.touch.inverse_h, s.cap};
        CC::with_mode(s.mode, [&](auto weighting) {
            const auto front = [&](std::size_t j, std::size_t band) {
                const detail::band_range r = circles_of(band);
                const particles_view f = detail::sub_view(c, r);
                const std::size_t at = plan.ring_slot(r.first);
                integrate(f, s.gravity_h_x, s.gravity_h_y, s.h, moved_x(j) + at, moved_y(j) + at);
                const std::size_t first_listed = detail::first_of(plan.listed_end, band);
                s.box_touch_end[band] = static_cast<std::uint32_t>(
                    first_listed + world::box_touches(c, s.box_listed + first_listed,
                                                      plan.listed_end[band] - first_listed, s.boxes,
                                                      s.touch, s.box_touches + first_listed));
                CC::pack(f.x, f.y, f.radius, f.inverse_mass, f.count, bodies(j) + 4 * at);
                s.velocity_ok[band] = !restitution && velocities_within_bound(f) ? 1 : 0;
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
                            ? recording_round_as<weighting(), true>(
                                  s.pairs, s.ends, g + 1, r, bodies(j), approach(j), g, entry)
                            : recording_round_as<weighting(), false>(
                                  s.pairs, s.ends, g + 1, r, bodies(j), approach(j), g, entry);
                    at += made;
                    s.touch_group_end[g] = static_cast<std::uint32_t>(at);
                }
            };
            const auto finish = [&](std::size_t j, std::size_t band) {
                const detail::band_range r = circles_of(band);
                const particles_view f = detail::sub_view(c, r);
                const std::size_t at = plan.ring_slot(r.first);
                unpack_held(bodies(j) + 4 * at, f,
                            {moved_x(j) + at, moved_y(j) + at, s.hold_fraction});
                const std::size_t first_listed = detail::first_of(plan.listed_end, band);
                world::push_boxes(c, s.box_listed + first_listed,
                                  plan.listed_end[band] - first_listed, s.boxes);
                gain_into_records(f, moved_x(j) + at, moved_y(j) + at, gain, moving(j) + 2 * at);
            };
            const auto respond_band = [&](std::size_t j, std::size_t band) {
                const std::size_t first_box = detail::first_of(plan.listed_end, band);
                respond_boxes(s.box_touches + first_box, s.box_touch_end[band] - first_box,
                              s.touch.friction, moving(j), entry);
                const F mu(s.touch.friction);
                std::size_t from = plan.touch_start[band];
                for (std::size_t g = detail::first_of(plan.group_end, band);
                     g < plan.group_end[band]; ++g) {
                    respond_in_group(pair_touches(j) + from, s.touch_group_end[g] - from, mu,
                                     moving(j), entry);
                    from = s.touch_group_end[g];
                }
                const detail::band_range r = circles_of(band);
                unpack_velocities(moving(j) + 2 * plan.ring_slot(r.first), r.end - r.first,
                                  c.vx + r.first, c.vy + r.first);
            };
            detail::run_substeps_in_bands(plan, c.count, s.substeps, s.in_flight, front, separate,
                                          finish, respond_band);
        });
    }

    // Phase 6 for the touches of one group, in order: no two share a circle (pair_groups),
    // so W at a time give the same bits as one after another.
    static void respond_in_group(const detail::world_touch* touches, std::size_t count, const F& mu,
                                 float* moving, ring entry) {
        std::size_t k = 0;
        for (; k + width <= count; k += width) {
            const detail::world_touch* const first = touches + k;
            const auto lane = [=](std::size_t j) { return first + j; };
            respond(lane, load_block(lane).fields, mu, moving, entry);
        }
        for (; k < count; ++k) {
            const detail::world_touch* const one = touches + k;
            const auto alike = [=](std::size_t) { return one; }; // every lane alike
            respond(alike, load_block(alike).fields, mu, moving, entry);
        }
    }

    // Reference box_touches_loop, W listed (circle, box) contacts at a time: the circles'
    // fields gathered lane by lane, the boxes' records as records<Arch> does, the contact as
    // circle_aabb's (bit for bit the reference's where hit), and the lanes in contact written
    // in order, branch-free (the end of the output advances only past them). For a box the
    // touch's weights are +0 and the circle's (no shock: the box is static), scaled where the
    // reference's touch_of scales them (scale_weights), their total 0 + w.
    static std::size_t box_touches(particles_view c, const circle_pair* listed, std::size_t count,
                                   const float* boxes, const detail::touch_parameters& p,
                                   detail::world_touch* touches) {
        const F zero(0.0F);
        const F restitution(p.restitution);
        const F friction(p.friction);
        const F inverse_h(p.inverse_h);
        std::size_t touching = 0;
        for (std::size_t k = 0; k < count; k += width) {
            const std::size_t lanes = count - k < width ? count - k : width;
            const box_block q = load_box_block(c, listed + k, lanes, boxes);
            F unused = zero;
            F w = gather(c.inverse_mass, q.circle);
            scale_weights<Arch>(unused, w);
            const F approach = gather(c.vx, q.circle) * q.contact.normal_x +
                               gather(c.vy, q.circle) * q.contact.normal_y;
            const F inverse_total = inverse_total_of(zero, w);
            const F field[6] = {q.contact.normal_x,
                                q.contact.normal_y,
                                zero,
                                w,
                                restitution * max_ps<Arch>(negate<Arch>(approach), zero),
                                friction * (q.contact.depth * inverse_h) * inverse_total};
            const std::uint32_t in_contact = lane_bits<Arch>(q.pushes);
#if defined(__x86_64__)
            if constexpr (is_avx<Arch>) {
                if (lanes == width) {
                    circle_circle<Arch>::template write_transposed<true>(
                        {listed + k, width}, field, in_contact, touches, touching);
                    continue;
                }
            }
#endif
            alignas(64) float out[6][width];
            for (std::size_t f = 0; f < 6; ++f) {
                field[f].store_aligned(out[f]);
            }
            for (std::size_t j = 0; j < lanes; ++j) {
                const circle_pair cb = listed[k + j];
                touches[touching] = {cb.b,      cb.a,      out[0][j], out[1][j],
                                     out[2][j], out[3][j], out[4][j], out[5][j]};
                touching += (in_contact >> j) & 1U;
            }
        }
        return touching;
    }

    // Reference push_boxes_loop. Entries of one circle follow each other in order, each from
    // where the last left it; so a block takes entries only while their circles strictly
    // increase (no circle twice: the lanes neither read nor write each other's), and a
    // circle's next box starts the next block. The world lists a circle's boxes together,
    // so its blocks end only there. Each lane writes back its circle's x and y, the bits it
    // read where it does not push.
    static void push_boxes(particles_view c, const circle_pair* listed, std::size_t count,
                           const float* boxes) {
        for (std::size_t k = 0; k < count;) {
            std::size_t lanes = 1;
            while (lanes < width && k + lanes < count &&
                   listed[k + lanes].a > listed[k + lanes - 1].a) {
                ++lanes;
            }
            const box_block q = load_box_block(c, listed + k, lanes, boxes);
            alignas(64) float x[width];
            alignas(64) float y[width];
            pick<Arch>(q.pushes, q.x + q.contact.normal_x * q.contact.depth, q.x).store_aligned(x);
            pick<Arch>(q.pushes, q.y + q.contact.normal_y * q.contact.depth, q.y).store_aligned(y);
            for (std::size_t j = 0; j < lanes; ++j) {
                const std::uint32_t i = listed[k + j].a;
                c.x[i] = x[j];
                c.y[i] = y[j];
            }
            k += lanes;
        }
    }

private:
    static constexpr std::size_t width = F::size;

    // In the AVX2 object, separate_in_order's rounds that record nothing take a round's two
    // blocks one after the other, each gathered, separated and written back before the next is
    // gathered: the order is the same (a group's blocks share no circle, so either way gives
    // the same bits), but with AVX2's 16 vector registers the two blocks side by side
    // spilled to the stack, and the core overlaps the two chains anyway. Measured on the
    // Intel Xeon (alternating runs, medians of 5): circle_circle/separate_in_order/avx2/4096
    // 30.4 -> 27.8 us. The AVX2 code in the AVX-512 object has 32 registers and keeps both
    // blocks side by side; so does the recording round everywhere (one at a time, the
    // world's recording round in the AVX2 object took 82 us against 70, world/
    // separate_recording/10000 with SIMDCOLLIDE_ISA=avx2). Not measured on an AMD machine.
    static constexpr bool one_block_at_a_time = std::is_same_v<Arch, xsimd::avx2>;
    using pair_block = typename circle_circle<Arch>::pair_block;
    using contact_result = typename circle_circle<Arch>::contact_result;

    // A pair block's circles as phase 3 gathers them from their records: (x, y, radius,
    // inverse mass) of the first circles (a) and of the second (b), lane by lane.
    struct gathered {
        typename records<Arch>::fields a;
        typename records<Arch>::fields b;
    };
    // A pair block's first (a) and second (b) circles' records, lane by lane.
    template <class Entry>
    [[gnu::always_inline]] static auto firsts(const pair_block& q, Entry entry) {
        return [p = q.pairs, entry](std::size_t j) { return entry(p[j].a); };
    }
    template <class Entry>
    [[gnu::always_inline]] static auto seconds(const pair_block& q, Entry entry) {
        return [p = q.pairs, entry](std::size_t j) { return entry(p[j].b); };
    }
    template <class Entry = whole>
    [[gnu::always_inline]] static gathered gather_pair(const float* bodies, const pair_block& q,
                                                       Entry entry = {}) {
        return {records<Arch>::load_inlined(bodies, firsts(q, entry)),
                records<Arch>::load_inlined(bodies, seconds(q, entry))};
    }
    [[gnu::always_inline]] static contact_result contact_of(const gathered& g) {
        return circle_circle<Arch>::contact_of(g.a.f0, g.a.f1, g.a.f2, g.b.f0, g.b.f1, g.b.f2);
    }
    // The records after the pairs' separation (behaviour.md 3) from their contact k: each circle
    // moved where its lane moves it, its bits kept where not.
    template <separation_weighting mode>
    [[gnu::always_inline]] static gathered separated(const gathered& g, const contact_result& k) {
        const typename circle_circle<Arch>::separation_result s =
            circle_circle<Arch>::template separation_from<mode>(k, g.a.f2, g.a.f3, g.b.f2, g.b.f3);
        return {{pick<Arch>(s.moves_a, g.a.f0 + s.a_dx, g.a.f0),
                 pick<Arch>(s.moves_a, g.a.f1 + s.a_dy, g.a.f1), g.a.f2, g.a.f3},
                {pick<Arch>(s.moves_b, g.b.f0 + s.b_dx, g.b.f0),
                 pick<Arch>(s.moves_b, g.b.f1 + s.b_dy, g.b.f1), g.b.f2, g.b.f3}};
    }
    // The moved positions back into the records; radius and inverse mass do not change.
    template <class Entry = whole>
    [[gnu::always_inline]] static void write_back(float* bodies, const pair_block& q,
                                                  const gathered& moved, Entry entry = {}) {
        records<Arch>::store_first_two(bodies, firsts(q, entry), moved.a, q.count);
        records<Arch>::store_first_two(bodies, seconds(q, entry), moved.b, q.count);
    }

    // One round of phase 3's loop: body(one, two) for each group's pairs, two blocks of W at
    // a time (circle_circle::for_each_pair_round), group after group; past the caches, the
    // second circles' records fetched ahead (prefetch_seconds), across the groups' ends
    // (not from a bands' ring, which is in cache). Always inlined, and so is each body: GCC
    // called them out of line, one call a block, from a first version of the recording
    // round, and the 10 000-circle step took 1.09 to 1.12 ms against 0.95 to 1.00 ms inlined
    // (alternating runs on an Intel Xeon).
    template <class Body, class Entry = whole>
    [[gnu::always_inline]] static void
    for_each_pair_block(const circle_pair* pairs, const std::uint32_t* ends, std::size_t groups,
                        const float* bodies, Body&& body, std::size_t first_group = 0,
                        Entry /*where the records are*/ = {}) {
        const std::size_t count = groups == 0 ? 0 : ends[groups - 1];
        const bool fetch_ahead = std::is_same_v<Entry, whole> && count >= prefetch_pairs_from;
        std::size_t begin = first_group == 0 ? 0 : ends[first_group - 1];
        for (std::size_t g = first_group; g < groups; ++g) {
            circle_circle<Arch>::for_each_pair_round_inlined(
                pairs + begin, ends[g] - begin,
                [&](const pair_block& one, const pair_block& two, std::size_t first)
                    __attribute__((always_inline)) {
                        if (fetch_ahead) {
                            prefetch_seconds(pairs, begin + first + pairs_ahead, count, bodies);
                        }
                        body(one, two);
                    });
            begin = ends[g];
        }
    }

    // Phase 3's first round with a record (reference separate_in_order_loop): each block's
    // contact worked out once, for its separation and for its touches. The velocities
    // serve only the touch's target, restitution * max(-approach, 0). With restitution +-0
    // (the world's default) that is restitution * 0, bits and all, for every approach but
    // -infinity (0 * infinity is NaN), and no approach is infinite while the velocities are
    // within bound (velocities_within_bound). Then the velocities are neither packed nor
    // gathered; else they are packed as (vx, vy, vx, vy) records after the circles' in scratch.
    template <separation_weighting mode>
    static std::size_t recording_round(const particles_view& c, const circle_pair* pairs,
                                       const std::uint32_t* ends, std::size_t groups,
                                       const detail::touch_recording& record, float* scratch) {
        float* const moving = scratch + std::size_t{4} * c.count;
        if (record.parameters.restitution != 0.0F || !velocities_within_bound(c)) {
            circle_circle<Arch>::pack(c.vx, c.vy, c.vx, c.vy, c.count, moving);
            return recording_round_as<mode, true>(pairs, ends, groups, record, scratch, moving);
        }
        return recording_round_as<mode, false>(pairs, ends, groups, record, scratch, moving);
    }

    // Whether every circle's velocity components are within +-2^120 (NaN is not). Then each
    // pair's approach speed (vb - va) . n is finite or NaN, never infinite: a normal's
    // components are about 1, and under 1.25 (worked out, not measured: where dx^2 rounds
    // to the smallest subnormal from just under 1.5 times it, |dx| / dist is sqrt(1.5)), so
    // each product is below 2^122.
    static bool velocities_within_bound(const particles_view& c) {
        const F bound(0x1p120F);
        const std::size_t within =
            for_each_block_storing<Arch>(c.vx, c.count, [=](const auto& block) {
                return both<Arch>(xsimd::abs(block.load(c.vx)) <= bound,
                                  xsimd::abs(block.load(c.vy)) <= bound);
            });
        return within == c.count;
    }

    // recording_round, with (approach_matters) or without the velocities. Each round's two
    // blocks are gathered and worked out, then their touches written (the first block's
    // first: list order), then their circles.
    // The records are at entry(slot): whole, or a bands' ring.
    template <separation_weighting mode, bool approach_matters, class Entry = whole>
    static std::size_t recording_round_as(const circle_pair* pairs, const std::uint32_t* ends,
                                          std::size_t groups, const detail::touch_recording& record,
                                          float* bodies, const float* moving,
                                          std::size_t first_group = 0, Entry entry = {}) {
        const pair_touch_constants constants(record.parameters);
        detail::world_touch* const touches = record.touches;
        std::size_t count = 0;
        for_each_pair_block(
            pairs, ends, groups, bodies,
            [&](const pair_block& one, const pair_block& two) __attribute__((always_inline)) {
                const gathered a = gather_pair(bodies, one, entry);
                const gathered b = gather_pair(bodies, two, entry);
                const contact_result a_contact = contact_of(a);
                const contact_result b_contact = contact_of(b);
                const gathered a_moved = separated<mode>(a, a_contact);
                const gathered b_moved = separated<mode>(b, b_contact);
                write_touches(
                    one, constants.template of<approach_matters>(one, a, a_contact, moving, entry),
                    touches, count);
                write_touches(
                    two, constants.template of<approach_matters>(two, b, b_contact, moving, entry),
                    touches, count);
                write_back(bodies, one, a_moved, entry);
                write_back(bodies, two, b_moved, entry);
            },
            first_group, entry);
        return count;
    }

    // A pair block's touch fields (normal x and y, the two weights, target and corrected
    // limit: world_touch after the two indices), and which lanes are in contact.
    struct pair_touch_block {
        F field[6];
        std::uint32_t in_contact;
    };
    // The touch parameters as vectors, and a block's touches from its circles and contact:
    // the reference's touch_of lane by lane.
    struct pair_touch_constants {
        F restitution, friction, inverse_h, down_x, down_y, shock_propagation;
        bool shocks;
        explicit pair_touch_constants(const detail::touch_parameters& p)
            : restitution(p.restitution), friction(p.friction), inverse_h(p.inverse_h),
              down_x(p.down_x), down_y(p.down_y), shock_propagation(p.shock_propagation),
              shocks(p.shock_propagation != 0.0F) {}
        template <bool approach_matters, class Entry>
        [[gnu::always_inline]] pair_touch_block of(const pair_block& q, const gathered& g,
                                                   const contact_result& k, const float* moving,
                                                   Entry entry) const {
            using R = records<Arch>;
            const F zero(0.0F);
            const F one(1.0F);
            F target = restitution * zero;
            if constexpr (approach_matters) {
                const typename R::fields va = R::load_inlined(moving, firsts(q, entry));
                const typename R::fields vb = R::load_inlined(moving, seconds(q, entry));
                const F approach = (vb.f0 - va.f0) * k.normal_x + (vb.f1 - va.f1) * k.normal_y;
                target = restitution * max_ps<Arch>(negate<Arch>(approach), zero);
            }
            // The reference's shock_of and shocked_weights; without shock propagation, the
            // plain weights (their bits: w * 1 is w), as the reference does.
            F wa = g.a.f3;
            F wb = g.b.f3;
            if (shocks) {
                const F down = k.normal_x * down_x + k.normal_y * down_y;
                const F shock = zero_unless<Arch>(both<Arch>(wa > zero, wb > zero),
                                                  shock_propagation * (down * xsimd::abs(down)));
                wa = wa * (one + min_ps<Arch>(shock, zero));
                wb = wb * (one - max_ps<Arch>(shock, zero));
            }
            scale_weights<Arch>(wa, wb);
            const F inverse_total = inverse_total_of(wa, wb);
            return {{k.normal_x, k.normal_y, wa, wb, target,
                     friction * (k.depth * inverse_h) * inverse_total},
                    lane_bits<Arch>(both<Arch>(k.hit, k.depth > zero))};
        }
    };

    // The block's lanes in contact written as world_touch records at touches[count] on,
    // in order, branch-free: every lane is written, and count advances only past those in
    // contact. Lanes past q.count (a group's last block) are not written.
    [[gnu::always_inline]] static void write_touches(const pair_block& q, const pair_touch_block& t,
                                                     detail::world_touch* touches,
                                                     std::size_t& count) {
#if defined(__x86_64__)
        if constexpr (is_avx<Arch>) {
            if (q.count == width) {
                circle_circle<Arch>::template write_transposed<false>(q, t.field, t.in_contact,
                                                                      touches, count);
                return;
            }
        }
#endif
        alignas(64) float field[6][width];
        for (std::size_t f = 0; f < 6; ++f) {
            t.field[f].store_aligned(field[f]);
        }
        for (std::size_t j = 0; j < q.count; ++j) {
            const circle_pair ab = q.pairs[j];
            touches[count] = {ab.a,        ab.b,        field[0][j], field[1][j],
                              field[2][j], field[3][j], field[4][j], field[5][j]};
            count += (t.in_contact >> j) & 1U;
        }
    }

    // Phase 5's arithmetic (reference gain_corrections_loop) for a block of circles: their
    // velocities after the gain.
    struct velocity_gain {
        F per_time;
        F limit;
        F limit2;
        velocity_gain(float inverse_h, float cap)
            : per_time(inverse_h), limit(cap), limit2(limit * limit) {}
        template <class Block>
        [[gnu::always_inline]] std::pair<F, F> of(const particles_view& c, const float* moved_x,
                                                  const float* moved_y, const Block& block) const {
            const M moves = block.load(c.inverse_mass) > F(0.0F);
            const F cx = (block.load(c.x) - block.load(moved_x)) * per_time;
            const F cy = (block.load(c.y) - block.load(moved_y)) * per_time;
            const F speed2 = cx * cx + cy * cy;
            const F scale = pick<Arch>(speed2 > limit2,
                                       divide<Arch>(limit, square_root<Arch>(speed2)), F(1.0F));
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            return {pick<Arch>(moves, vx + cx * scale, vx), pick<Arch>(moves, vy + cy * scale, vy)};
        }
    };

    // Phase 5 for every circle of c into (vx, vy) records: each circle's velocity after the
    // gain as its record, which is phase 6's pack done by the gain. Inlined, so that the
    // loop keeps the views' pointers in registers (for_each_block_storing).
    [[gnu::always_inline]] static void gain_into_records(const particles_view& c,
                                                         const float* moved_x, const float* moved_y,
                                                         const velocity_gain& gain,
                                                         float* records_out) {
        for_each_block_storing<Arch>(c.vx, c.count, [=](const auto& block) {
            const auto [vx, vy] = gain.of(c, moved_x, moved_y, block);
            velocity_records<Arch>::store_run(records_out, block.first, {vx, vy}, lanes_in(block));
        });
    }

    // Reference respond_pairs_loop on the packed velocity records. Its order is a chain:
    // each contact sees the velocities the last left. But contacts that share no circle give
    // the same bits whether they go one after another or side by side, so contact k of W
    // runs at once are worked out together when they are apart (apart()), and one by one
    // otherwise: in the 10 000-circle pile, 0.14% of the blocks of 8 were not (a shared
    // circle, or a run that has ended). The velocities are packed as (vx, vy) records
    // (velocity_records.hpp), so that gathering or writing back a circle's is one access;
    // the weights come with the touches.
    static void respond_packed(const detail::world_touch* touches, std::size_t count,
                               float friction, float* moving) {
        // W divides the runs: wider instruction sets take AVX2's code (world_pair_arch.hpp).
        static_assert(detail::impulse_runs % width == 0);
        const F mu(friction);
        const std::size_t run_length = (count + detail::impulse_runs - 1) / detail::impulse_runs;
        // Past the caches, each run's circles are fetched ahead (prefetch_runs).
        const bool fetch_ahead = count >= prefetch_contacts_from;
        for (std::size_t k = 0; k < run_length; ++k) {
            if (fetch_ahead && k + prefetch_contacts_ahead < run_length) {
                prefetch_runs(touches, k + prefetch_contacts_ahead, run_length, count, moving);
            }
            for (std::size_t run = 0; run < detail::impulse_runs; run += width) {
                // Lane j: contact k of run `run + j`.
                const detail::world_touch* const first = touches + k + run * run_length;
                const auto lane = [=](std::size_t j) { return first + j * run_length; };
                if (k + (run + width - 1) * run_length < count) {
                    const touch_block t = load_block(lane);
                    if (t.apart) {
                        respond(lane, t.fields, mu, moving);
                        continue;
                    }
                }
                for (std::size_t j = 0; j < width && k + (run + j) * run_length < count; ++j) {
                    const detail::world_touch* const one = lane(j);
                    const auto alike = [=](std::size_t) { return one; }; // every lane alike
                    respond(alike, load_block(alike).fields, mu, moving);
                }
            }
        }
    }

    // Reference gain_and_respond_loop's box contacts (world_impulse_of and push_box) on the
    // packed velocity records, in list order, W at a time where their circles (b) strictly
    // increase: no circle twice in a block, so the lanes neither read nor write each
    // other's records. The world lists a circle's boxes together, so a block ends early only
    // at a circle with two boxes in contact. The lanes past a short block repeat its last
    // contact, and are not written.
    template <class Entry = whole>
    static void respond_boxes(const detail::world_touch* touches, std::size_t count, float friction,
                              float* moving, Entry entry = {}) {
        using V = velocity_records<Arch>;
        const F mu(friction);
        const F zero(0.0F);
        for (std::size_t k = 0; k < count;) {
            std::size_t lanes = 1;
            while (lanes < width && k + lanes < count &&
                   touches[k + lanes].b > touches[k + lanes - 1].b) {
                ++lanes;
            }
            const detail::world_touch* const first = touches + k;
            const std::size_t last = lanes - 1;
            const auto lane = [=](std::size_t j) { return first + (j < last ? j : last); };
            const auto circle = [=](std::size_t j) { return entry(lane(j)->b); };
            const touch_fields t = load_block(lane).fields;
            const typename V::fields v = V::load(moving, circle);
            const impulse p = impulse_of(t, v.vx, v.vy, mu, zero);
            // The box is static: the circle takes all of it, with its weight, with no test
            // (box contacts are listed only for circles of inverse mass > 0).
            V::store(moving, circle, {v.vx + p.x * t.weight_b, v.vy + p.y * t.weight_b}, lanes);
            k += lanes;
        }
    }

    // Lane j of field[index(j)], one float at a time (kernel::set: xsimd 8.1 has no public
    // constructor from W scalars).
    template <class Index, std::size_t... J>
    [[gnu::always_inline]] static F gather_of(const float* field, Index index,
                                              std::index_sequence<J...> /*lanes*/) {
        return xsimd::kernel::set<Arch>(F{}, Arch{}, field[index(J)]...);
    }
    template <class Index>
    [[gnu::always_inline]] static F gather(const float* field, Index index) {
        return gather_of(field, index, std::make_index_sequence<width>{});
    }

    // Lane j's circle (a) or box (b) of a block of `lanes` listed (circle, box) contacts:
    // entry j, and the last entry again for the lanes past them, so that nothing past the
    // block is read.
    template <std::uint32_t circle_pair::*member>
    struct listed_lane {
        const circle_pair* listed;
        std::size_t last;
        std::uint32_t operator()(std::size_t j) const {
            return listed[j < last ? j : last].*member;
        }
    };

    // Such a block's circles' centres, each lane's contact (circle_aabb's, margin 0) and
    // where it pushes (hit, depth > 0).
    struct box_block {
        listed_lane<&circle_pair::a> circle;
        F x, y;
        typename circle_aabb<Arch>::contact_result contact;
        M pushes;
    };
    // Always inlined: GCC called it out of line, and in sampling profiles of the
    // 10 000-circle step the two box kernels went from 3.2% of the step (with that call) to
    // 3.0% (without it).
    [[gnu::always_inline]] static box_block load_box_block(particles_view c,
                                                           const circle_pair* listed,
                                                           std::size_t lanes, const float* boxes) {
        const listed_lane<&circle_pair::a> circle{listed, lanes - 1};
        const typename records<Arch>::fields box =
            records<Arch>::load(boxes, listed_lane<&circle_pair::b>{listed, lanes - 1});
        const F x = gather(c.x, circle);
        const F y = gather(c.y, circle);
        const F zero(0.0F);
        const typename circle_aabb<Arch>::contact_result contact = circle_aabb<Arch>::contact_of(
            x, y, gather(c.radius, circle), box.f0, box.f1, box.f2, box.f3, zero);
        return {circle, x, y, contact, both<Arch>(contact.hit, contact.depth > zero)};
    }

    // Phase 3 past the caches. Its pairs come in order of their first circle (group by
    // group within a chunk of the list), so the loop reaches the first circles' records
    // nearly in order, but a pair's second circle can be a row of the grid further on (about
    // 1.2 sqrt(n) slots in the benchmark pile), and the loop's first touch of its record
    // missed the caches. From prefetch_pairs_from pairs on (2 MiB of pairs: a pile of about
    // 100 000 circles), the records of the second circles of the pairs pairs_ahead on (two
    // rounds) are fetched first. Measured on the 1 000 000-circle pile (2.6 million pairs):
    // the phase took a sixth to a quarter less time. Below, no fetching: on the
    // 10 000-circle pile, everything is in L2.
    static constexpr std::size_t prefetch_pairs_from = std::size_t{1} << 18;
    static constexpr std::size_t pairs_ahead = 4 * width;
    // The second circles' records of pairs [at, at + 2 W) of a list of `count`, for writing.
    static void prefetch_seconds(const circle_pair* pairs, std::size_t at, std::size_t count,
                                 const float* bodies) {
        const std::size_t end = at + 2 * width < count ? at + 2 * width : count;
        for (std::size_t k = at; k < end; ++k) {
            __builtin_prefetch(bodies + std::size_t{4} * pairs[k].b, 1);
        }
    }

    // Phase 6 past the caches: the runs walk impulse_runs stretches of the circles far
    // apart, and a run's first touch of a circle's velocity record missed the caches. From
    // prefetch_contacts_from contacts on (8 MiB of them), the records of both circles of
    // each run's contact prefetch_contacts_ahead on are fetched first. Measured on the
    // 1 000 000-circle pile: the phase took about a tenth less time.
    static constexpr std::size_t prefetch_contacts_from = std::size_t{1} << 18;
    static constexpr std::size_t prefetch_contacts_ahead = 16;
    static void prefetch_runs(const detail::world_touch* touches, std::size_t k,
                              std::size_t run_length, std::size_t count, const float* moving) {
        for (std::size_t run = 0; run < detail::impulse_runs; ++run) {
            const std::size_t at = k + run * run_length;
            if (at < count) {
                __builtin_prefetch(moving + std::size_t{2} * touches[at].a, 1);
                __builtin_prefetch(moving + std::size_t{2} * touches[at].b, 1);
            }
        }
    }

    // Phase 3's hold (reference hold_moves_loop) for a block of circles at (x, y) with their
    // radii and their positions after phase 1: where each one is after the hold.
    [[gnu::always_inline]] static std::pair<F, F> held(const F& x, const F& y, const F& radius,
                                                       const F& mx, const F& my, const F& share) {
        const F dx = x - mx;
        const F dy = y - my;
        const F reach = share * radius;
        const F move2 = dx * dx + dy * dy;
        const M holds = move2 > reach * reach;
        const F scale = divide<Arch>(reach, square_root<Arch>(move2));
        return {pick<Arch>(holds, mx + dx * scale, x), pick<Arch>(holds, my + dy * scale, y)};
    }

    // Phase 3's end with its hold: each circle's (x, y, radius, inverse mass) record back
    // into x and y, held. In separate kernels, unpack stored the positions and hold_moves
    // loaded them (and the radii) again. Never inlined: inlined into separate_in_order,
    // the 10 000-circle step took about 1% longer than with the two kernels (alternating
    // runs on the Intel Xeon); out of line, about 1% less.
    [[gnu::noinline]] static void unpack_held(const float* bodies, const particles_view& c,
                                              const detail::move_hold& hold) {
        using R = records<Arch>;
        const F share(hold.fraction);
        for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const typename R::fields r = R::load_run(bodies, block);
            const auto [x, y] =
                held(r.f0, r.f1, r.f2, block.load(hold.moved_x), block.load(hold.moved_y), share);
            block.store(c.x, x);
            block.store(c.y, y);
        });
    }

    // `count` (vx, vy) records (velocity_records.hpp) back into two arrays.
    static void unpack_velocities(const float* records_in, std::size_t count, float* vx,
                                  float* vy) {
        for_each_block_storing<Arch>(vx, count, [=](const auto& block) {
            const typename velocity_records<Arch>::fields v =
                velocity_records<Arch>::load_run(records_in, block);
            block.store(vx, v.vx);
            block.store(vy, v.vy);
        });
    }

    // The first two fields of `count` records (circle_circle::pack's) back into two arrays.
    static void unpack(const float* records_in, std::size_t count, float* f0, float* f1) {
        using R = records<Arch>;
        for_each_block_storing<Arch>(f0, count, [=](const auto& block) {
            const typename R::fields r = R::load_run(records_in, block);
            block.store(f0, r.f0);
            block.store(f1, r.f1);
        });
    }

    // Whether the contacts at lane(0), ..., lane(W - 1) share no circle: each lane's
    // lower index above the last lane's higher one, and its own two different. (Sufficient,
    // not necessary; the pair list is sorted by first index, so its runs' contacts usually
    // are in this order.)
    template <class Lane>
    static bool apart(Lane lane) {
        bool ok = true;
        std::int64_t above = -1;
        for (std::size_t j = 0; j < width; ++j) {
            const std::uint32_t a = lane(j)->a;
            const std::uint32_t b = lane(j)->b;
            const std::uint32_t low = a < b ? a : b;
            const std::uint32_t high = a < b ? b : a;
            ok &= std::int64_t{low} > above && high > low;
            above = high;
        }
        return ok;
    }

    // The touch fields the impulse needs, lane j from *lane(j), and whether the lanes'
    // contacts are apart (apart() above).
    struct touch_fields {
        F normal_x, normal_y, weight_a, weight_b, target, corrected_limit;
    };
    struct touch_block {
        touch_fields fields;
        bool apart;
    };
    template <class Lane>
    static touch_block load_block(Lane lane) {
        static_assert(sizeof(detail::world_touch) == 32 && alignof(detail::world_touch) == 32 &&
                      offsetof(detail::world_touch, b) == 4 &&
                      offsetof(detail::world_touch, weight_a) == 16 &&
                      offsetof(detail::world_touch, corrected_limit) == 28);
#if defined(__x86_64__)
        if constexpr (std::is_base_of_v<xsimd::avx2, Arch>) {
            // The records (a, b, normal x and y, weights a and b, target, corrected limit),
            // transposed: one aligned load per record instead of seven; the indices checked
            // as vectors.
            using wide = typename F::register_type;
            const auto row = [&](std::size_t j) -> wide {
                return F::load_aligned(reinterpret_cast<const float*>(lane(j)));
            };
            wide u[8];
            for (std::size_t h = 0; h < 8; h += 4) { // lanes h..h+3: fields f | f + 4 in u[h + f]
                const typename records<Arch>::fields r =
                    records<Arch>::transpose_in_lanes(row(h), row(h + 1), row(h + 2), row(h + 3));
                u[h + 0] = r.f0;
                u[h + 1] = r.f1;
                u[h + 2] = r.f2;
                u[h + 3] = r.f3;
            }
            const auto low = [&](std::size_t f) -> wide {
                return _mm256_permute2f128_ps(u[f], u[f + 4], 0x20);
            };
            const auto high = [&](std::size_t f) -> wide {
                return _mm256_permute2f128_ps(u[f], u[f + 4], 0x31);
            };
            // Apart: a != b in every lane, and max(a, b) < min(a', b') of the next lane
            // (unsigned: x < y where max(x, y) != x).
            const auto a = _mm256_castps_si256(low(0));
            const auto b = _mm256_castps_si256(low(1));
            const auto lower = _mm256_min_epu32(a, b);
            const auto higher = _mm256_max_epu32(a, b);
            const auto next = xsimd::kernel::set<Arch>(xsimd::batch<std::int32_t, Arch>{}, Arch{},
                                                       1, 2, 3, 4, 5, 6, 7, 7);
            const auto next_lower = _mm256_permutevar8x32_epi32(lower, next);
            const auto same = _mm256_cmpeq_epi32(a, b);
            const auto not_below = _mm256_cmpeq_epi32(_mm256_max_epu32(higher, next_lower), higher);
            const int shared = _mm256_movemask_ps(_mm256_castsi256_ps(same)) |
                               (_mm256_movemask_ps(_mm256_castsi256_ps(not_below)) & 0x7F);
            return {{low(2), low(3), high(0), high(1), high(2), high(3)}, shared == 0};
        } else if constexpr (is_sse<Arch>) {
            // The records, transposed: two aligned loads per record instead of five.
            const auto row = [&](std::size_t j, std::size_t at) {
                return _mm_load_ps(reinterpret_cast<const float*>(lane(j)) + at);
            };
            __m128 f0 = row(0, 0), f1 = row(1, 0), f2 = row(2, 0), f3 = row(3, 0);
            __m128 f4 = row(0, 4), f5 = row(1, 4), f6 = row(2, 4), f7 = row(3, 4);
            _MM_TRANSPOSE4_PS(f0, f1, f2, f3); // a, b, normal x and y
            _MM_TRANSPOSE4_PS(f4, f5, f6, f7); // weights a and b, target, limit
            return {{f2, f3, f4, f5, f6, f7}, apart(lane)};
        }
#endif
        return {{field(lane, &detail::world_touch::normal_x),
                 field(lane, &detail::world_touch::normal_y),
                 field(lane, &detail::world_touch::weight_a),
                 field(lane, &detail::world_touch::weight_b),
                 field(lane, &detail::world_touch::target),
                 field(lane, &detail::world_touch::corrected_limit)},
                apart(lane)};
    }
    template <class Lane, std::size_t... J>
    static F field_of(Lane lane, float detail::world_touch::*member,
                      std::index_sequence<J...> /*lanes*/) {
        return xsimd::kernel::set<Arch>(F{}, Arch{}, (lane(J)->*member)...);
    }
    template <class Lane>
    static F field(Lane lane, float detail::world_touch::*member) {
        return field_of(lane, member, std::make_index_sequence<width>{});
    }

    // The reference's inverse_total_of: 1 / (wa + wb), +0 where the sum is not > 0.
    [[gnu::always_inline]] static F inverse_total_of(const F& wa, const F& wb) {
        const F total = wa + wb;
        return zero_unless<Arch>(total > F(0.0F), divide<Arch>(F(1.0F), total));
    }

    // The reference's world_impulse_of for the touches t and the velocities (vx, vy) of b
    // relative to a: the impulse P.
    struct impulse {
        F x, y;
    };
    [[gnu::always_inline]] static impulse
    impulse_of(const touch_fields& t, const F& vx, const F& vy, const F& friction, const F& zero) {
        const F inverse_total = inverse_total_of(t.weight_a, t.weight_b);
        const F vn = vx * t.normal_x + vy * t.normal_y;
        const F j = max_ps<Arch>(t.target - vn, zero) * inverse_total;
        const F tx = negate<Arch>(t.normal_y);
        const F ty = t.normal_x;
        const F vt = vx * tx + vy * ty;
        const F limit = t.corrected_limit + friction * j;
        const F jt = max_ps<Arch>(negate<Arch>(limit),
                                  min_ps<Arch>(negate<Arch>(vt) * inverse_total, limit));
        return {j * t.normal_x + jt * tx, j * t.normal_y + jt * ty};
    }

    // The reference's world_impulse_of and push_pair for the contacts at lane(j), on the
    // (vx, vy) records, with the touch's weights. Always inlined: GCC once called it out of
    // line from respond_pairs, and world/respond took 66.4-66.7 us against 63.0-64.1.
    // The records are at entry(slot): whole, or a bands' ring.
    template <class Lane, class Entry = whole>
    [[gnu::always_inline]] static void respond(Lane lane, const touch_fields& t, const F& friction,
                                               float* moving, Entry entry = {}) {
        using V = velocity_records<Arch>;
        const auto first = [&](std::size_t j) { return entry(lane(j)->a); };
        const auto second = [&](std::size_t j) { return entry(lane(j)->b); };
        const typename V::fields va = V::load(moving, first);
        const typename V::fields vb = V::load(moving, second);
        const F zero(0.0F);
        const impulse p = impulse_of(t, vb.vx - va.vx, vb.vy - va.vy, friction, zero);
        const F& wa = t.weight_a;
        const F& wb = t.weight_b;
        const M a_moves = wa > zero;
        const M b_moves = wb > zero;
        V::store(moving, first,
                 {pick<Arch>(a_moves, va.vx - p.x * wa, va.vx),
                  pick<Arch>(a_moves, va.vy - p.y * wa, va.vy)});
        V::store(moving, second,
                 {pick<Arch>(b_moves, vb.vx + p.x * wb, vb.vx),
                  pick<Arch>(b_moves, vb.vy + p.y * wb, vb.vy)});
    }
};

} // namespace simdcollide::simd
