// Phase 6 of the world, W contacts at a time: restitution and friction on packed velocity
// records, phase 5's gain into those records, and the records unpacked; the reference
// (kernels/pairwise/reference/world.inl) line for line.
#pragma once

#include "pairwise/simd/world_circles.hpp"
#include "pairwise/simd/world_common.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace simdcollide::simd {

template <class Arch>
struct world_impulses {
    using common = world_common<Arch>;
    using F = typename common::F;
    using M = typename common::M;
    using whole = typename common::whole;
    using ring = typename common::ring;
    static constexpr std::size_t width = common::width;

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
        const typename world_circles<Arch>::velocity_gain gain{u.inverse_h, u.cap};
        gain_into_records(c, u.moved_x, u.moved_y, gain, moving);
        if (u.box_vx != nullptr) {
            respond_boxes(u.boxes, u.box_count, u.friction, moving, whole{},
                          box_motion{u.box_vx, u.box_vy, u.moving_from});
        } else {
            respond_boxes(u.boxes, u.box_count, u.friction, moving);
        }
        respond_packed(u.pairs, u.pair_count, u.friction, moving);
        unpack_velocities(moving, c.count, c.vx, c.vy);
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

    // Phase 5 for every circle of c into (vx, vy) records: each circle's velocity after the
    // gain as its record, which is phase 6's pack done by the gain. Inlined, so that the
    // loop keeps the views' pointers in registers (for_each_block_storing).
    [[gnu::always_inline]] static void
    gain_into_records(const particles_view& c, const float* moved_x, const float* moved_y,
                      const typename world_circles<Arch>::velocity_gain& gain, float* records_out) {
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
    // The velocities of moving boxes (velocity_update::box_vx): box a's where a >= from.
    struct box_motion {
        const float* vx;
        const float* vy;
        std::uint32_t from;
    };
    // No box moves: nothing to take away.
    struct no_motion {};

    template <class Entry = whole, class Motion = no_motion>
    static void respond_boxes(const detail::world_touch* touches, std::size_t count, float friction,
                              float* moving, Entry entry = {}, Motion motion = {}) {
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
            F rx = v.vx;
            F ry = v.vy;
            if constexpr (std::is_same_v<Motion, box_motion>) {
                // The velocity relative to each lane's box: a static box's is left as it is.
                alignas(64) float ux[width];
                alignas(64) float uy[width];
                for (std::size_t j = 0; j < width; ++j) {
                    const std::uint32_t box = lane(j)->a;
                    const bool moves = box >= motion.from;
                    ux[j] = moves ? motion.vx[box - motion.from] : 0.0F;
                    uy[j] = moves ? motion.vy[box - motion.from] : 0.0F;
                }
                rx = rx - F::load_aligned(ux);
                ry = ry - F::load_aligned(uy);
            }
            const impulse p = impulse_of(t, rx, ry, mu, zero);
            // The box is static: the circle takes all of it, with its weight, with no test
            // (box contacts are listed only for circles of inverse mass > 0).
            V::store(moving, circle, {v.vx + p.x * t.weight_b, v.vy + p.y * t.weight_b}, lanes);
            k += lanes;
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

    // The reference's world_impulse_of for the touches t and the velocities (vx, vy) of b
    // relative to a: the impulse P.
    struct impulse {
        F x, y;
    };
    [[gnu::always_inline]] static impulse
    impulse_of(const touch_fields& t, const F& vx, const F& vy, const F& friction, const F& zero) {
        const F inverse_total = common::inverse_total_of(t.weight_a, t.weight_b);
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
