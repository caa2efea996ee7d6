// Box against box, W pairs at a time: the reference (kernels/pairwise/reference/box_box.inl)
// line for line, each `if` computed both ways and picked per lane. Same operations in the
// same order on the same operands, so the same bits.
#pragma once

#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/separation_weights.hpp"

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct box_box {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    // W boxes, a field a register: loaded from a view, or one box broadcast.
    struct boxes {
        F min_x, min_y, max_x, max_y;
    };
    template <class Block>
    [[gnu::always_inline]] static boxes load(const Block& block, const aabbs_view& b) {
        return {block.load(b.min_x), block.load(b.min_y), block.load(b.max_x), block.load(b.max_y)};
    }
    // Field by field, not through the view's conversion to aabbs_view: an inline function
    // outside the ISA's namespace, which an unoptimised build emits in every ISA's object.
    template <class Block>
    [[gnu::always_inline]] static boxes load(const Block& block, const box_bodies_view& b) {
        return {block.load(b.min_x), block.load(b.min_y), block.load(b.max_x), block.load(b.max_y)};
    }
    static boxes broadcast(const aabb& b) {
        return {F(b.min_x), F(b.min_y), F(b.max_x), F(b.max_y)};
    }

    // How far A leaves B on each axis (the reference's depth_x, depth_y) and which way.
    struct moves {
        F depth_x, depth_y;
        M minus_x, minus_y;
    };
    [[gnu::always_inline]] static moves moves_of(const boxes& a, const boxes& b) {
        const F to_plus_x = b.max_x - a.min_x;
        const F to_minus_x = a.max_x - b.min_x;
        const F to_plus_y = b.max_y - a.min_y;
        const F to_minus_y = a.max_y - b.min_y;
        return {min_ps<Arch>(to_minus_x, to_plus_x), min_ps<Arch>(to_minus_y, to_plus_y),
                to_minus_x < to_plus_x, to_minus_y < to_plus_y};
    }
    [[gnu::always_inline]] static M hit_of(const moves& m, const F& margin) {
        const F least = negate<Arch>(margin);
        return both<Arch>(m.depth_x > least, m.depth_y > least);
    }

    struct contact_result {
        M hit;
        F normal_x, normal_y, depth, point_x, point_y;
    };
    [[gnu::always_inline]] static contact_result contact_of(const boxes& a, const boxes& b,
                                                            const F& margin) {
        const moves m = moves_of(a, b);
        const M x_axis = m.depth_x < m.depth_y; // a tie leaves along y
        const F half(0.5F);
        const F mid_x =
            half * max_ps<Arch>(a.min_x, b.min_x) + half * min_ps<Arch>(a.max_x, b.max_x);
        const F mid_y =
            half * max_ps<Arch>(a.min_y, b.min_y) + half * min_ps<Arch>(a.max_y, b.max_y);
        contact_result k;
        k.hit = hit_of(m, margin);
        k.depth = min_ps<Arch>(m.depth_x, m.depth_y);
        k.normal_x = zero_unless<Arch>(x_axis, minus_one_where<Arch>(m.minus_x));
        k.normal_y = zero_where<Arch>(x_axis, minus_one_where<Arch>(m.minus_y));
        k.point_x = pick<Arch>(x_axis, pick<Arch>(m.minus_x, b.min_x, b.max_x), mid_x);
        k.point_y = pick<Arch>(x_axis, mid_y, pick<Arch>(m.minus_y, b.min_y, b.max_y));
        return k;
    }

    // The loops, one per kernel table entry (kernel_table.hpp); `Second` is a view of boxes
    // or one box broadcast.
    template <class Second>
    static std::size_t overlap_loop(aabbs_view a, const Second& second, std::uint8_t* mask,
                                    float margin) {
        const F m(margin);
        return for_each_block_storing<Arch>(a.min_x, a.count, [=](const auto& block) {
            const M hit = hit_of(moves_of(load(block, a), second_of(block, second)), m);
            if (mask != nullptr) {
                block.store_mask(mask, hit);
            }
            return hit;
        });
    }
    template <class Second>
    static std::size_t contact_loop(aabbs_view a, const Second& second, contacts_view out,
                                    float margin) {
        const F m(margin);
        return for_each_block_storing<Arch>(out.normal_x, a.count, [=](const auto& block) {
            const contact_result k = contact_of(load(block, a), second_of(block, second), m);
            store_contact<Arch>(block, out, k);
            return k.hit;
        });
    }
    template <class Block>
    [[gnu::always_inline]] static boxes second_of(const Block& block, const aabbs_view& b) {
        return load(block, b);
    }
    template <class Block>
    [[gnu::always_inline]] static boxes second_of(const Block& /*block*/, const boxes& b) {
        return b;
    }

    // The reference's box_separation_of: the shifts of A and B along the contact's axis.
    struct separation_result {
        M moves_a, moves_b, x_axis;
        F a_shift, b_shift;
    };
    template <separation_weighting mode>
    [[gnu::always_inline]] static separation_result separation_of(const boxes& a, const F& aw,
                                                                  const boxes& b, const F& bw) {
        const contact_result c = contact_of(a, b, F(0.0F));
        const F zero(0.0F);
        const F half(0.5F);
        const M x_axis = c.normal_x != zero;
        const F a_half =
            pick<Arch>(x_axis, half * a.max_x - half * a.min_x, half * a.max_y - half * a.min_y);
        const F b_half =
            pick<Arch>(x_axis, half * b.max_x - half * b.min_x, half * b.max_y - half * b.min_y);
        const separation_weights<Arch> w =
            separation_weights_of<Arch, mode>(a_half, aw, b_half, bw);
        F wa = w.a;
        F wb = w.b;
        scale_weights<Arch>(wa, wb);
        const F total = wa + wb;
        const M moved = both<Arch>(c.hit, total > zero);
        const F share = divide<Arch>(c.depth, total);
        const F normal = pick<Arch>(x_axis, c.normal_x, c.normal_y);
        return {both<Arch>(moved, w.a > zero), both<Arch>(moved, w.b > zero), x_axis,
                normal * (share * wa), negate<Arch>(normal * (share * wb))};
    }

    // A block of boxes' bounds with `shift` added on the axis where `moves`, kept elsewhere.
    template <class Block>
    [[gnu::always_inline]] static void store_shifted(const Block& block, const box_bodies_view& v,
                                                     const boxes& k, const M& moves,
                                                     const M& x_axis, const F& shift) {
        const M on_x = both<Arch>(moves, x_axis);
        // moves and not x_axis, without xsimd's !, a compare that AVX2 forwards to SSE code
        // which an unoptimised build then shares with the SSE2 object
        const M on_y = pick<Arch>(x_axis, M(false), moves);
        block.store(v.min_x, pick<Arch>(on_x, k.min_x + shift, k.min_x));
        block.store(v.max_x, pick<Arch>(on_x, k.max_x + shift, k.max_x));
        block.store(v.min_y, pick<Arch>(on_y, k.min_y + shift, k.min_y));
        block.store(v.max_y, pick<Arch>(on_y, k.max_y + shift, k.max_y));
    }

    static std::size_t separate(box_bodies_view a, box_bodies_view b, separation_weighting mode) {
        return with_weighting(mode, [=](auto weighting) {
            return for_each_block_storing<Arch>(a.min_x, a.count, [=](const auto& block) {
                const boxes ka = load(block, a);
                const boxes kb = load(block, b);
                const separation_result s = separation_of<weighting()>(
                    ka, block.load(a.inverse_mass), kb, block.load(b.inverse_mass));
                store_shifted(block, a, ka, s.moves_a, s.x_axis, s.a_shift);
                store_shifted(block, b, kb, s.moves_b, s.x_axis, s.b_shift);
                return either<Arch>(s.moves_a, s.moves_b);
            });
        });
    }
    static std::size_t separate_box(box_bodies_view a, aabb b) {
        const boxes kb = broadcast(b);
        return for_each_block_storing<Arch>(a.min_x, a.count, [=](const auto& block) {
            const boxes ka = load(block, a);
            const separation_result s = separation_of<separation_weighting::equal>(
                ka, block.load(a.inverse_mass), kb, F(0.0F));
            store_shifted(block, a, ka, s.moves_a, s.x_axis, s.a_shift);
            return s.moves_a;
        });
    }

    static std::size_t overlap(aabbs_view a, aabbs_view b, std::uint8_t* mask, float margin) {
        return overlap_loop(a, b, mask, margin);
    }
    static std::size_t contact(aabbs_view a, aabbs_view b, contacts_view out, float margin) {
        return contact_loop(a, b, out, margin);
    }
    static std::size_t overlap_box(aabbs_view a, aabb b, std::uint8_t* mask, float margin) {
        return overlap_loop(a, broadcast(b), mask, margin);
    }
    static std::size_t contact_box(aabbs_view a, aabb b, contacts_view out, float margin) {
        return contact_loop(a, broadcast(b), out, margin);
    }
};

} // namespace simdcollide::simd
