// Circle against circle, W pairs at a time: the reference (kernels/reference/
// circle_circle.inl) line for line, each `if` computed both ways and picked per lane.
#pragma once

#include "pair_corrections.hpp"
#include "simd/block_loop.hpp"

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>
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

    // SPEC 1 and 2 (reference circle_contact_of).
    static contact_result contact_of(const F& ax, const F& ay, const F& ar, const F& bx,
                                     const F& by, const F& br) {
        const F dx = bx - ax;
        const F dy = by - ay;
        const F d2 = dx * dx + dy * dy;
        const F reach = ar + br;
        contact_result c;
        c.hit = d2 < reach * reach;
        const F dist = square_root<Arch>(d2);
        const M coincident = d2 == F(0.0F);
        c.normal_x = pick<Arch>(coincident, F(1.0F), divide<Arch>(dx, dist));
        c.normal_y = pick<Arch>(coincident, F(0.0F), divide<Arch>(dy, dist));
        c.depth = reach - dist;
        const F along = ar - c.depth * F(0.5F);
        c.point_x = ax + c.normal_x * along;
        c.point_y = ay + c.normal_y * along;
        return c;
    }

    struct separation_result {
        M moves_a;
        M moves_b;
        F a_dx;
        F a_dy;
        F b_dx;
        F b_dy;
    };

    // SPEC 3 (reference separation_weights_of and separation_of).
    static separation_result separation_of(separation_weighting mode, const F& ax, const F& ay,
                                           const F& ar, const F& aw, const F& bx, const F& by,
                                           const F& br, const F& bw) {
        const contact_result c = contact_of(ax, ay, ar, bx, by, br);
        F wa = aw;
        F wb = bw;
        if (mode == separation_weighting::equal) {
            wa = F(1.0F);
            wb = F(1.0F);
        } else if (mode == separation_weighting::by_radius) {
            wa = br;
            wb = ar;
        }
        const F zero(0.0F);
        wa = pick<Arch>(aw == zero, zero, wa);
        wb = pick<Arch>(bw == zero, zero, wb);
        const F total = wa + wb;
        const M moved = both<Arch>(c.hit, total > zero);
        const F share = divide<Arch>(c.depth, total);
        const F move_a = share * wa;
        const F move_b = share * wb;
        return {
            both<Arch>(moved, wa > zero), both<Arch>(moved, wb > zero), -(c.normal_x * move_a),
            -(c.normal_y * move_a),       c.normal_x * move_b,          c.normal_y * move_b,
        };
    }

    static void distance_squared(circles_cview a, circles_cview b, float* out) {
        for_each_block<Arch>(a.count, [=](const auto& block) {
            const F dx = block.load(b.x) - block.load(a.x);
            const F dy = block.load(b.y) - block.load(a.y);
            block.store(out, dx * dx + dy * dy);
        });
    }

    // contact_of(...).hit alone.
    static std::size_t overlap(circles_cview a, circles_cview b, std::uint8_t* mask) {
        return for_each_block<Arch>(a.count, [=](const auto& block) {
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

    static std::size_t contact(circles_cview a, circles_cview b, contacts_view out) {
        return for_each_block<Arch>(a.count, [=](const auto& block) {
            const contact_result k =
                contact_of(block.load(a.x), block.load(a.y), block.load(a.radius), block.load(b.x),
                           block.load(b.y), block.load(b.radius));
            store_contact<Arch>(block, out, k);
            return k.hit;
        });
    }

    static std::size_t separate(particles_view a, particles_view b, separation_weighting mode) {
        return for_each_block<Arch>(a.count, [=](const auto& block) {
            const F ax = block.load(a.x);
            const F ay = block.load(a.y);
            const F bx = block.load(b.x);
            const F by = block.load(b.y);
            const separation_result s =
                separation_of(mode, ax, ay, block.load(a.radius), block.load(a.inverse_mass), bx,
                              by, block.load(b.radius), block.load(b.inverse_mass));
            block.store(a.x, pick<Arch>(s.moves_a, ax + s.a_dx, ax));
            block.store(a.y, pick<Arch>(s.moves_a, ay + s.a_dy, ay));
            block.store(b.x, pick<Arch>(s.moves_b, bx + s.b_dx, bx));
            block.store(b.y, pick<Arch>(s.moves_b, by + s.b_dy, by));
            return either<Arch>(s.moves_a, s.moves_b);
        });
    }

    // One field of W circles picked by index: built from scalars in registers. (Writing
    // them to a stack array and loading that as a vector stalls on store forwarding.)
    template <std::size_t... J>
    static F gather(const float* field, const std::uint32_t (&index)[width],
                    std::index_sequence<J...> /*lanes*/) {
        // xsimd 8.1 has no public constructor from W scalars; its own constructors use
        // kernel::set, which lowers to the instruction set's set/insert sequence.
        return xsimd::kernel::set<Arch>(F{}, Arch{}, field[index[J]]...);
    }
    static F gather(const float* field, const std::uint32_t (&index)[width]) {
        return gather(field, index, std::make_index_sequence<width>{});
    }

    // Pair list: W pairs' fields gathered, their corrections computed as vectors, then added
    // to the sums in pair order, a before b, as the reference does. The last block repeats
    // its first pair in the unused lanes, whose results are dropped.
    static void pair_corrections(particles_view c, const circle_pair* pairs, std::size_t pair_count,
                                 separation_weighting mode, const detail::pair_corrections& sums) {
        for (std::size_t first = 0; first < pair_count; first += width) {
            const std::size_t n = pair_count - first < width ? pair_count - first : width;
            std::uint32_t ia[width];
            std::uint32_t ib[width];
            for (std::size_t j = 0; j < width; ++j) {
                const circle_pair p = pairs[first + (j < n ? j : 0)];
                ia[j] = p.a;
                ib[j] = p.b;
            }
            const separation_result s =
                separation_of(mode, gather(c.x, ia), gather(c.y, ia), gather(c.radius, ia),
                              gather(c.inverse_mass, ia), gather(c.x, ib), gather(c.y, ib),
                              gather(c.radius, ib), gather(c.inverse_mass, ib));
            alignas(64) float move[4][width];
            s.a_dx.store_aligned(move[0]);
            s.a_dy.store_aligned(move[1]);
            s.b_dx.store_aligned(move[2]);
            s.b_dy.store_aligned(move[3]);
            const std::uint32_t moves_a = lane_bits<Arch>(s.moves_a);
            const std::uint32_t moves_b = lane_bits<Arch>(s.moves_b);
            for (std::size_t j = 0; j < n; ++j) {
                sums.add(ia[j], ((moves_a >> j) & 1U) != 0, move[0][j], move[1][j]);
                sums.add(ib[j], ((moves_b >> j) & 1U) != 0, move[2][j], move[3][j]);
            }
        }
    }
};

} // namespace simdcollide::simd
