// Circle against circle, W pairs at a time: the reference (kernels/pairwise/reference/
// circle_circle.inl) line for line, each `if` computed both ways and picked per lane.
#pragma once

#include "pairwise/pair_corrections.hpp"
#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/records.hpp"
#include "pairwise/simd/separation_weights.hpp"

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace simdcollide::simd {

template <class Arch>
struct circle_circle {
    using F = floats<Arch>;
    using M = lanes<Arch>;
    static constexpr std::size_t width = F::size;

    // The contact the pair would have; lanes with hit false are zeroed by contact() and
    // left alone by separation.
    struct contact_result {
        M hit;
        F normal_x;
        F normal_y;
        F depth;
        F point_x;
        F point_y;
    };

    // The part of a contact that goes through the divider: the offset between the centres,
    // its squared length, the distance and its inverse. Apart from contact_from so that a
    // loop can work this out one block ahead (for_each_block_pipelined).
    struct centre_distance {
        F dx;
        F dy;
        F d2;
        F dist;
        F inverse_dist;
    };
    [[gnu::always_inline]] static centre_distance centre_distance_of(const F& ax, const F& ay,
                                                                     const F& bx, const F& by) {
        centre_distance d;
        d.dx = bx - ax;
        d.dy = by - ay;
        d.d2 = d.dx * d.dx + d.dy * d.dy;
        d.dist = square_root<Arch>(d.d2);
        d.inverse_dist = divide<Arch>(F(1.0F), d.dist);
        return d;
    }

    // behaviour.md 1 and 2 (reference circle_contact_of), from the centres' distance d.
    [[gnu::always_inline]] static contact_result
    contact_from(const centre_distance& d, const F& ax, const F& ay, const F& ar, const F& br) {
        const F reach = ar + br;
        contact_result c;
        c.hit = d.d2 < reach * reach;
        const M coincident = d.d2 == F(0.0F);
        c.normal_x = pick<Arch>(coincident, F(1.0F), d.dx * d.inverse_dist);
        c.normal_y =
            zero_where<Arch>(coincident, d.dy * d.inverse_dist); // pick(coincident, +0, ...)
        c.depth = reach - d.dist;
        const F along = ar - c.depth * F(0.5F);
        c.point_x = ax + c.normal_x * along;
        c.point_y = ay + c.normal_y * along;
        return c;
    }

    // behaviour.md 1 and 2 for one block. Always inlined: separation in order calls it for
    // every block (simd/separate_in_order.hpp), and GCC called it out of line there.
    [[gnu::always_inline]] static contact_result contact_of(const F& ax, const F& ay, const F& ar,
                                                            const F& bx, const F& by, const F& br) {
        return contact_from(centre_distance_of(ax, ay, bx, by), ax, ay, ar, br);
    }

    struct separation_result {
        M moves_a;
        M moves_b;
        F a_dx;
        F a_dy;
        F b_dx;
        F b_dy;
    };

    // behaviour.md 3 (reference separation_weights_of and separation_of). The mode is a template
    // argument so that each loop has one copy per mode (with_weighting) and no branch per block.
    template <separation_weighting mode>
    static separation_result separation_of(const F& ax, const F& ay, const F& ar, const F& aw,
                                           const F& bx, const F& by, const F& br, const F& bw) {
        return separation_from<mode>(contact_of(ax, ay, ar, bx, by, br), ar, aw, br, bw);
    }

    // separation_of for the pair's contact c, worked out already. Not forced inline: forced,
    // the aligned separate takes a third longer (docs/performance.md, "Measurements behind the
    // code").
    template <separation_weighting mode>
    static separation_result separation_from(const contact_result& c, const F& ar, const F& aw,
                                             const F& br, const F& bw) {
        const separation_weights<Arch> w = separation_weights_of<Arch, mode>(ar, aw, br, bw);
        const F& wa = w.a;
        const F& wb = w.b;
        const F zero(0.0F);
        F scaled_a = wa;
        F scaled_b = wb;
        scale_weights<Arch>(scaled_a, scaled_b);
        const F total = scaled_a + scaled_b;
        const M moved = both<Arch>(c.hit, total > zero);
        const F share = divide<Arch>(c.depth, total);
        const F move_a = share * scaled_a;
        const F move_b = share * scaled_b;
        return {
            both<Arch>(moved, wa > zero),
            both<Arch>(moved, wb > zero),
            negate<Arch>(c.normal_x * move_a),
            negate<Arch>(c.normal_y * move_a),
            c.normal_x * move_b,
            c.normal_y * move_b,
        };
    }

    static void distance_squared(circles_cview a, circles_cview b, float* out) {
        for_each_block_storing<Arch>(out, a.count, [=](const auto& block) {
            const F dx = block.load(b.x) - block.load(a.x);
            const F dy = block.load(b.y) - block.load(a.y);
            block.store(out, dx * dx + dy * dy);
        });
    }

    // contact_of(...).hit alone.
    static std::size_t overlap(circles_cview a, circles_cview b, std::uint8_t* mask) {
        return for_each_block_storing<Arch>(a.x, a.count, [=](const auto& block) {
            const F dx = block.load(b.x) - block.load(a.x);
            const F dy = block.load(b.y) - block.load(a.y);
            const F reach = block.load(a.radius) + block.load(b.radius);
            const M hit = dx * dx + dy * dy < reach * reach;
            if (mask != nullptr) {
                block.store_mask(mask, hit);
            }
            return hit;
        });
    }

    // The early part of the pipelined loops (for_each_block_pipelined): a block's centre
    // distances, a[i] against b[i].
    template <class A, class B>
    static auto centre_distances(A a, B b) {
        return [=](const auto& block) __attribute__((always_inline)) {
            return centre_distance_of(block.load(a.x), block.load(a.y), block.load(b.x),
                                      block.load(b.y));
        };
    }

    // In cache, the centres' distances one block ahead (for_each_block_pipelined, which has
    // the measurements); past the caches, memory bounds the loop and it prefetches instead.
    static std::size_t contact(circles_cview a, circles_cview b, contacts_view out) {
        const auto touch = [=](const auto& block) {
            const contact_result k =
                contact_of(block.load(a.x), block.load(a.y), block.load(a.radius), block.load(b.x),
                           block.load(b.y), block.load(b.radius));
            store_contact<Arch>(block, out, k);
            return k.hit;
        };
        if (a.count < streams_from) {
            return for_each_block_pipelined<Arch>(
                out.normal_x, a.count, centre_distances(a, b),
                [=](const auto& block, const centre_distance& d) __attribute__((always_inline)) {
                    const contact_result k =
                        contact_from(d, block.load(a.x), block.load(a.y), block.load(a.radius),
                                     block.load(b.radius));
                    store_contact<Arch>(block, out, k);
                    return k.hit;
                });
        }
        return for_each_block_storing<Arch>(out.normal_x, a.count, [=](const auto& block) {
            prefetch_ahead<Arch>(block.first, a.count, a.x, a.y, a.radius, b.x, b.y, b.radius);
            prefetch_ahead_for_stores<Arch>(block.first, a.count, out.normal_x, out.normal_y,
                                            out.depth, out.point_x, out.point_y);
            return touch(block);
        });
    }

    // The centres' distances one block ahead (for_each_block_pipelined), as in contact; the
    // share's division stays in late.
    static std::size_t separate(particles_view a, particles_view b, separation_weighting mode) {
        return with_weighting(mode, [=](auto weighting) {
            return for_each_block_pipelined<Arch>(
                a.x, a.count, centre_distances(a, b),
                [=](const auto& block, const centre_distance& d) __attribute__((always_inline)) {
                    const F ax = block.load(a.x);
                    const F ay = block.load(a.y);
                    const F bx = block.load(b.x);
                    const F by = block.load(b.y);
                    const F ar = block.load(a.radius);
                    const F br = block.load(b.radius);
                    const separation_result s = separation_from<weighting()>(
                        contact_from(d, ax, ay, ar, br), ar, block.load(a.inverse_mass), br,
                        block.load(b.inverse_mass));
                    block.store(a.x, pick<Arch>(s.moves_a, ax + s.a_dx, ax));
                    block.store(a.y, pick<Arch>(s.moves_a, ay + s.a_dy, ay));
                    block.store(b.x, pick<Arch>(s.moves_b, bx + s.b_dx, bx));
                    block.store(b.y, pick<Arch>(s.moves_b, by + s.b_dy, by));
                    return either<Arch>(s.moves_a, s.moves_b);
                });
        });
    }

    // Every circle as one record (x, y, radius, inverse mass, or radius again when there is
    // no mass) at bodies + 4 i, so that gathering a circle is one load.
    static void pack(const float* x, const float* y, const float* radius, const float* mass,
                     std::size_t count, float* bodies) {
        for_each_block_storing<Arch>(x, count, [=](const auto& block) {
            records<Arch>::store_run(bodies, block.first,
                                     {block.load(x), block.load(y), block.load(radius),
                                      block.load(mass == nullptr ? radius : mass)},
                                     lanes_in(block));
        });
    }

    // W pairs of a pair list, read where they lie (records::load), and how many are real.
    // Lanes past `count` hold copies of the list's first pair; their results are dropped.
    struct pair_block {
        const circle_pair* pairs;
        std::size_t count;
        [[nodiscard]] auto first() const {
            return [p = pairs](std::size_t j) { return p[j].a; };
        }
        [[nodiscard]] auto second() const {
            return [p = pairs](std::size_t j) { return p[j].b; };
        }
    };

    // body(one, two, first) for pair blocks of 2 W pairs at a time from element `first`:
    // two blocks per round, because each block's square root and divisions are one long chain
    // of latency, and two independent chains keep the divider busy. The
    // last round's pairs are copied into a buffer padded with the first pair; its second
    // block may have no real pairs.
    // Never inlined: GCC calls it out of line from the pair-list kernels anyway, and inlined
    // into the pair-list separation it is slower (docs/performance.md, "Measurements behind the
    // code").
    template <class Body>
    [[gnu::noinline]] static void for_each_pair_round(const circle_pair* pairs,
                                                      std::size_t pair_count, Body&& body) {
        for_each_pair_round_inlined(pairs, pair_count, std::forward<Body>(body));
    }

    // for_each_pair_round, always inlined into its caller: separation in order
    // (simd/separate_in_order.hpp), where GCC called the loop out of line.
    template <class Body>
    [[gnu::always_inline]] static void
    for_each_pair_round_inlined(const circle_pair* pairs, std::size_t pair_count, Body&& body) {
        std::size_t first = 0;
        for (; pair_count - first >= 2 * width; first += 2 * width) {
            body(pair_block{pairs + first, width}, pair_block{pairs + first + width, width}, first);
        }
        if (first < pair_count) {
            const std::size_t left = pair_count - first;
            circle_pair padded[2 * width];
            for (std::size_t j = 0; j < 2 * width; ++j) {
                padded[j] = pairs[j < left ? first + j : 0];
            }
            body(pair_block{padded, left < width ? left : width},
                 pair_block{padded + width, left > width ? left - width : 0}, first);
        }
    }

    // A block's corrections of a and of b as sums records (dx, dy, count, 0): zero where
    // the pair does not move that circle.
    struct block_corrections {
        typename records<Arch>::fields a;
        typename records<Arch>::fields b;
    };
    template <separation_weighting mode>
    static block_corrections corrections_of(const pair_block& p, const float* bodies) {
        using R = records<Arch>;
        const typename R::fields a = R::load_inlined(bodies, p.first());
        const typename R::fields b = R::load_inlined(bodies, p.second());
        const separation_result s =
            separation_of<mode>(a.f0, a.f1, a.f2, a.f3, b.f0, b.f1, b.f2, b.f3);
        const F zero(0.0F);
        const F one(1.0F);
        return {{zero_unless<Arch>(s.moves_a, s.a_dx), zero_unless<Arch>(s.moves_a, s.a_dy),
                 zero_unless<Arch>(s.moves_a, one), zero},
                {zero_unless<Arch>(s.moves_b, s.b_dx), zero_unless<Arch>(s.moves_b, s.b_dy),
                 zero_unless<Arch>(s.moves_b, one), zero}};
    }

    // Pair list. First each circle is packed as one record (x, y, radius, inverse mass) in
    // the workspace, so that gathering a circle is one load; then W pairs at a time: both
    // circles gathered, the corrections computed as vectors, and added to the sums records in
    // pair order, a before b, as the reference does. A lane that does not move its circle
    // adds +0 to each sum, which changes no bits: the sums start at +0 and so are never -0.
    static void pair_corrections(particles_view c, const circle_pair* pairs, std::size_t pair_count,
                                 separation_weighting mode, const detail::pair_corrections& sums) {
        float* const bodies = sums.bodies;
        pack(c.x, c.y, c.radius, c.inverse_mass, c.count, bodies);
        with_weighting(mode, [=](auto weighting) {
            for_each_pair_round(
                pairs, pair_count, [=](const pair_block& one, const pair_block& two, std::size_t) {
                    const block_corrections one_moves = corrections_of<weighting()>(one, bodies);
                    const block_corrections two_moves = corrections_of<weighting()>(two, bodies);
                    add_corrections(sums, one, one_moves);
                    add_corrections(sums, two, two_moves);
                });
        });
    }

    static void add_corrections(const detail::pair_corrections& sums, const pair_block& q,
                                const block_corrections& moves) {
        records<Arch>::add_in_order(sums.sums, q.first(), moves.a, q.second(), moves.b, q.count);
    }

    // Pair list contacts: the circles packed, then W pairs at a time gathered and stored to
    // out as contact() stores aligned pairs. Two blocks per round, as in pair_corrections.
    static std::size_t pair_contact(circles_cview c, const circle_pair* pairs,
                                    std::size_t pair_count, contacts_view out, float* scratch) {
        using R = records<Arch>;
        pack(c.x, c.y, c.radius, nullptr, c.count, scratch);
        const auto contacts_of = [=](const pair_block& p) {
            const typename R::fields a = R::load(scratch, p.first());
            const typename R::fields b = R::load(scratch, p.second());
            return contact_of(a.f0, a.f1, a.f2, b.f0, b.f1, b.f2);
        };
        lane_counter<Arch> hits;
        for_each_pair_round(pairs, pair_count,
                            [&](const pair_block& one, const pair_block& two, std::size_t first) {
                                const contact_result one_contacts = contacts_of(one);
                                const contact_result two_contacts = contacts_of(two);
                                store_pair_block(one, first, out, one_contacts, hits);
                                if (two.count > 0) {
                                    store_pair_block(two, first + width, out, two_contacts, hits);
                                }
                            });
        return hits.total();
    }

    static void store_pair_block(const pair_block& p, std::size_t first, const contacts_view& out,
                                 const contact_result& k, lane_counter<Arch>& hits) {
        if (p.count == width) {
            const full_block<Arch> block{first};
            store_contact<Arch>(block, out, k);
            hits.add(block, k.hit);
        } else {
            const tail_block<Arch> block{first, p.count};
            store_contact<Arch>(block, out, k);
            hits.add(block, k.hit);
        }
    }

    // The reference's apply step (detail::apply_pair_corrections), W circles at a time:
    // x += sum_x / count where count > 0.
    static std::size_t apply_corrections(const detail::pair_corrections& sums, particles_view c) {
        using R = records<Arch>;
        return for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const typename R::fields s = R::load_run(sums.sums, block);
            const M moved = s.f2 > F(0.0F);
            const F x = block.load(c.x);
            const F y = block.load(c.y);
            block.store(c.x, pick<Arch>(moved, x + divide<Arch>(s.f0, s.f2), x));
            block.store(c.y, pick<Arch>(moved, y + divide<Arch>(s.f1, s.f2), y));
            return moved;
        });
    }
};

} // namespace simdcollide::simd
