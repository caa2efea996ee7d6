// Phase 3 of the world, W pairs at a time: separation in order over grouped pairs, its first
// round recording the pairs in contact for phase 6, and the hold as the positions are
// written back; the reference (kernels/pairwise/reference/world.inl) line for line.
#pragma once

#include "pairwise/simd/world_circles.hpp"
#include "pairwise/simd/world_common.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct world_separation {
    using common = world_common<Arch>;
    using F = typename common::F;
    using whole = typename common::whole;
    static constexpr std::size_t width = common::width;

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
            const F inverse_total = common::inverse_total_of(wa, wb);
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
            const auto [x, y] = world_circles<Arch>::held(
                r.f0, r.f1, r.f2, block.load(hold.moved_x), block.load(hold.moved_y), share);
            block.store(c.x, x);
            block.store(c.y, y);
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
};

} // namespace simdcollide::simd
