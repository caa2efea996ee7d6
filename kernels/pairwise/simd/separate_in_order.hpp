// separate_in_order (pair_groups.hpp), W pairs at a time: separation in order over grouped
// pairs, the reference (kernels/pairwise/reference/in_order.inl) line for line.
#pragma once

#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/circle_circle.hpp"
#include "pairwise/simd/records.hpp"

#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace simdcollide::simd {

template <class Arch>
struct in_order {
    using F = floats<Arch>;
    static constexpr std::size_t width = F::size;

    // Reference separate_in_order_loop. The circles packed as (x, y, radius, inverse mass)
    // records for the whole call; then each group's pairs 2 W at a time (two blocks per
    // round, as in circle_circle's pair list: two chains of square roots and divisions keep
    // the divider busy), both circles gathered, separated, and written back. No two pairs of
    // a group share a circle, so the blocks' lanes neither read nor write each other's
    // circles; a lane that does not move its circle writes back the bits it read.
    static void separate_in_order(particles_view c, const circle_pair* pairs,
                                  const std::uint32_t* ends, std::size_t groups,
                                  separation_weighting mode, int rounds, float* scratch) {
        using CC = circle_circle<Arch>;
        float* const bodies = scratch;
        CC::pack(c.x, c.y, c.radius, c.inverse_mass, c.count, bodies);
        with_weighting(mode, [&](auto weighting) {
            for (int round = 0; round < rounds; ++round) {
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
        unpack(bodies, c.count, c.x, c.y);
    }

    // In the AVX2 object, a round's two blocks are taken one after the other, each gathered,
    // separated and written back before the next is gathered: the order is the same (a
    // group's blocks share no circle, so either way gives the same bits), but with AVX2's 16
    // vector registers the two blocks side by side spill to the stack. The AVX2 code in the
    // AVX-512 object has 32 registers and keeps both blocks side by side
    // (docs/performance.md).
    static constexpr bool one_block_at_a_time = std::is_same_v<Arch, xsimd::avx2>;
    using pair_block = typename circle_circle<Arch>::pair_block;
    using contact_result = typename circle_circle<Arch>::contact_result;

    // A pair block's circles as gathered from their records: (x, y, radius,
    // inverse mass) of the first circles (a) and of the second (b), lane by lane.
    struct gathered {
        typename records<Arch>::fields a;
        typename records<Arch>::fields b;
    };
    // A pair block's first (a) and second (b) circles' records, lane by lane.
    [[gnu::always_inline]] static auto firsts(const pair_block& q) {
        return [p = q.pairs](std::size_t j) { return p[j].a; };
    }
    [[gnu::always_inline]] static auto seconds(const pair_block& q) {
        return [p = q.pairs](std::size_t j) { return p[j].b; };
    }
    [[gnu::always_inline]] static gathered gather_pair(const float* bodies, const pair_block& q) {
        return {records<Arch>::load_inlined(bodies, firsts(q)),
                records<Arch>::load_inlined(bodies, seconds(q))};
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
    [[gnu::always_inline]] static void write_back(float* bodies, const pair_block& q,
                                                  const gathered& moved) {
        records<Arch>::store_first_two(bodies, firsts(q), moved.a, q.count);
        records<Arch>::store_first_two(bodies, seconds(q), moved.b, q.count);
    }

    // One round: body(one, two) for each group's pairs, two blocks of W at a time
    // (circle_circle::for_each_pair_round), group after group; past the caches, the second
    // circles' records fetched ahead (prefetch_seconds), across the groups' ends. Always
    // inlined, and so is each body: out of line, GCC makes a call a block.
    template <class Body>
    [[gnu::always_inline]] static void
    for_each_pair_block(const circle_pair* pairs, const std::uint32_t* ends, std::size_t groups,
                        const float* bodies, Body&& body) {
        const std::size_t count = groups == 0 ? 0 : ends[groups - 1];
        const bool fetch_ahead = count >= prefetch_pairs_from;
        std::size_t begin = 0;
        for (std::size_t g = 0; g < groups; ++g) {
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

    // Past the caches. Pairs listed by a grid come in order of their first circle, so the
    // loop reaches the first circles' records nearly in order, but a pair's second circle
    // can be a row of the grid further on, and the loop's first touch of its record misses
    // the caches. From prefetch_pairs_from pairs on (2 MiB of pairs: a pile of about 100 000
    // circles), the records of the second circles of the pairs pairs_ahead on (two rounds)
    // are fetched first; below, everything is in L2.
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
