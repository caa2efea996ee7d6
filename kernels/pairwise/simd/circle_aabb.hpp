// Circle against AABB, W pairs at a time: the reference
// (kernels/pairwise/reference/circle_aabb.inl) line for line, with each `if` turned into computing
// both sides and selecting per lane. Same operations in the same order on the same operands, so the
// same bits.
#pragma once

#include "pairwise/simd/block_loop.hpp"

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct circle_aabb {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    struct closest_point_result {
        F x;
        F y;
    };

    // behaviour.md 1: s.x = max(b.min_x, min(c.x, b.max_x)), and the same for y.
    static closest_point_result closest_point_of(const F& cx, const F& cy, const F& min_x,
                                                 const F& min_y, const F& max_x, const F& max_y) {
        return {max_ps(min_x, min_ps(cx, max_x)), max_ps(min_y, min_ps(cy, max_y))};
    }

    // behaviour.md 2: d2 = (c.x - s.x)^2 + (c.y - s.y)^2.
    static F distance_squared_of(const F& cx, const F& cy, const F& min_x, const F& min_y,
                                 const F& max_x, const F& max_y) {
        const closest_point_result s = closest_point_of(cx, cy, min_x, min_y, max_x, max_y);
        const F dx = cx - s.x;
        const F dy = cy - s.y;
        return dx * dx + dy * dy;
    }

    struct contact_result {
        M hit;
        F normal_x;
        F normal_y;
        F depth;
        F point_x;
        F point_y;
    };

    // behaviour.md 3, 4 and 7, both cases computed, each lane keeping the one its d2 selects. The
    // values are those of the contact the lane would have; lanes without one (hit false)
    // are zeroed by contact() and left alone by push_out(), as in the reference. Ordered so that
    // few values are live at once (GCC does not reorder for register pressure on x86): first which
    // case and whether it is a contact, then each output.
    static contact_result contact_of(const F& cx, const F& cy, const F& r, const F& min_x,
                                     const F& min_y, const F& max_x, const F& max_y,
                                     const F& margin) {
        const closest_point_result s = closest_point_of(cx, cy, min_x, min_y, max_x, max_y);
        const F dx = cx - s.x;
        const F dy = cy - s.y;
        const F d2 = dx * dx + dy * dy;
        const M outside = d2 > F(0.0F);

        // Centre outside: a contact iff d2 < (r + margin)^2.
        const F reach = r + margin;
        const M outside_hit = d2 < reach * reach;

        // Centre inside or on the boundary: leave through the nearest face.
        const F to_min_x = cx - min_x;
        const F to_max_x = max_x - cx;
        const F to_min_y = cy - min_y;
        const F to_max_y = max_y - cy;
        const M leave_min_x = to_min_x < to_max_x; // a tie leaves through max_x
        const M leave_min_y = to_min_y < to_max_y; // a tie leaves through max_y
        // min_ps(a, b) is a < b ? a : b exactly, the reference's picks here, in one
        // instruction, where a blend is three micro-ops on some x86 cores.
        const F face_x = min_ps(to_min_x, to_max_x);
        const F face_y = min_ps(to_min_y, to_max_y);
        const M x_face = face_x < face_y; // a tie leaves through the y face
        const F inside_depth = min_ps(face_x, face_y) + r;
        const M inside_hit = inside_depth > negate<Arch>(margin);

        const M hit = pick<Arch>(outside, outside_hit, inside_hit);

        // Outside, the normal runs from the closest point to the centre. Inside lanes have
        // dist 0 and a normal of 0 * inf = NaN here; pick discards them.
        const F dist = square_root<Arch>(d2);
        const F sign_x = minus_one_where<Arch>(leave_min_x);
        const F sign_y = minus_one_where<Arch>(leave_min_y);
        contact_result k;
        k.hit = hit;
        k.depth = pick<Arch>(outside, r - dist, inside_depth);
        const F inverse_dist = divide<Arch>(F(1.0F), dist);
        k.normal_x = pick<Arch>(outside, dx * inverse_dist, zero_unless<Arch>(x_face, sign_x));
        k.normal_y = pick<Arch>(outside, dy * inverse_dist, zero_where<Arch>(x_face, sign_y));
        k.point_x =
            pick<Arch>(outside, s.x, pick<Arch>(x_face, pick<Arch>(leave_min_x, min_x, max_x), cx));
        k.point_y =
            pick<Arch>(outside, s.y, pick<Arch>(x_face, cy, pick<Arch>(leave_min_y, min_y, max_y)));
        return k;
    }

    // contact_of(...).hit without the normal, depth and point: the same comparisons on the
    // same values. Inside, the chosen face distance is the smaller of the four with the
    // reference's tie order, which is exactly min_ps applied twice.
    static M overlap_of(const F& cx, const F& cy, const F& r, const F& min_x, const F& min_y,
                        const F& max_x, const F& max_y, const F& margin) {
        const F d2 = distance_squared_of(cx, cy, min_x, min_y, max_x, max_y);
        const M outside = d2 > F(0.0F);
        const F reach = r + margin;
        const M outside_hit = d2 < reach * reach;
        const F face_x = min_ps(cx - min_x, max_x - cx);
        const F face_y = min_ps(cy - min_y, max_y - cy);
        const M inside_hit = min_ps(face_x, face_y) + r > negate<Arch>(margin);
        return pick<Arch>(outside, outside_hit, inside_hit);
    }

    // The loops over pairs, one per kernel table entry (kernel_table.hpp).

    // Six loads, four min/max and two stores a block: bound by the stores' lines, which it
    // prefetches (prefetch_for_stores).
    static void closest_point(circles_cview c, aabbs_view b, points_view out) {
        for_each_block_storing<Arch>(out.x, c.count, [=](const auto& block) {
            prefetch_for_stores<Arch>(block.first, c.count, out.x, out.y);
            prefetch_near<Arch>(block.first, c.count, c.x, c.y, b.min_x, b.min_y, b.max_x, b.max_y);
            const closest_point_result s =
                closest_point_of(block.load(c.x), block.load(c.y), block.load(b.min_x),
                                 block.load(b.min_y), block.load(b.max_x), block.load(b.max_y));
            block.store(out.x, s.x);
            block.store(out.y, s.y);
        });
    }

    static void distance_squared(circles_cview c, aabbs_view b, float* out) {
        for_each_block_storing<Arch>(out, c.count, [=](const auto& block) {
            block.store(out, distance_squared_of(block.load(c.x), block.load(c.y),
                                                 block.load(b.min_x), block.load(b.min_y),
                                                 block.load(b.max_x), block.load(b.max_y)));
        });
    }

    static std::size_t overlap(circles_cview c, aabbs_view b, std::uint8_t* mask, float margin) {
        const F m(margin);
        return for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const M hit = overlap_of(block.load(c.x), block.load(c.y), block.load(c.radius),
                                     block.load(b.min_x), block.load(b.min_y), block.load(b.max_x),
                                     block.load(b.max_y), m);
            if (mask != nullptr) {
                block.store_mask(mask, hit);
            }
            return hit;
        });
    }

    static std::size_t contact(circles_cview c, aabbs_view b, contacts_view out, float margin) {
        const F m(margin);
        const auto touch = [=](const auto& block) {
            const contact_result k = contact_of(
                block.load(c.x), block.load(c.y), block.load(c.radius), block.load(b.min_x),
                block.load(b.min_y), block.load(b.max_x), block.load(b.max_y), m);
            store_contact<Arch>(block, out, k);
            return k.hit;
        };
        if (c.count < streams_from) {
            return for_each_block_storing<Arch>(out.normal_x, c.count, touch);
        }
        return for_each_block_storing<Arch>(out.normal_x, c.count, [=](const auto& block) {
            prefetch_ahead<Arch>(block.first, c.count, c.x, c.y, c.radius, b.min_x, b.min_y,
                                 b.max_x, b.max_y);
            prefetch_ahead_for_stores<Arch>(block.first, c.count, out.normal_x, out.normal_y,
                                            out.depth, out.point_x, out.point_y);
            return touch(block);
        });
    }

    // behaviour.md 5 and 7: c += n * depth for each contact, never by a negative depth. A lane that
    // does not move stores its own bits back unchanged.
    static std::size_t push_out(circles_view c, aabbs_view b, float margin) {
        const F m(margin);
        const auto push = [=](const auto& block) {
            const F cx = block.load(c.x);
            const F cy = block.load(c.y);
            const contact_result k =
                contact_of(cx, cy, block.load(c.radius), block.load(b.min_x), block.load(b.min_y),
                           block.load(b.max_x), block.load(b.max_y), m);
            const M moved = both<Arch>(k.hit, k.depth > F(0.0F));
            block.store(c.x, pick<Arch>(moved, cx + k.normal_x * k.depth, cx));
            block.store(c.y, pick<Arch>(moved, cy + k.normal_y * k.depth, cy));
            return moved;
        };
        if (c.count < streams_from) {
            return for_each_block_storing<Arch>(c.x, c.count, push);
        }
        return for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            prefetch_ahead<Arch>(block.first, c.count, c.x, c.y, c.radius, b.min_x, b.min_y,
                                 b.max_x, b.max_y);
            return push(block);
        });
    }

    // Every circle against one box (a floor, a wall): the kernels above with the box's
    // fields broadcast, the same operations on the same values as with the box repeated.
    struct one_box {
        F min_x, min_y, max_x, max_y;
        explicit one_box(const aabb& b)
            : min_x(b.min_x), min_y(b.min_y), max_x(b.max_x), max_y(b.max_y) {}
    };

    static void closest_point_box(circles_cview c, aabb box, points_view out) {
        const one_box b(box);
        for_each_block_storing<Arch>(out.x, c.count, [=](const auto& block) {
            const closest_point_result s = closest_point_of(block.load(c.x), block.load(c.y),
                                                            b.min_x, b.min_y, b.max_x, b.max_y);
            block.store(out.x, s.x);
            block.store(out.y, s.y);
        });
    }

    static void distance_squared_box(circles_cview c, aabb box, float* out) {
        const one_box b(box);
        for_each_block_storing<Arch>(out, c.count, [=](const auto& block) {
            block.store(out, distance_squared_of(block.load(c.x), block.load(c.y), b.min_x, b.min_y,
                                                 b.max_x, b.max_y));
        });
    }

    static std::size_t overlap_box(circles_cview c, aabb box, std::uint8_t* mask, float margin) {
        const one_box b(box);
        const F m(margin);
        return for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const M hit = overlap_of(block.load(c.x), block.load(c.y), block.load(c.radius),
                                     b.min_x, b.min_y, b.max_x, b.max_y, m);
            if (mask != nullptr) {
                block.store_mask(mask, hit);
            }
            return hit;
        });
    }

    static std::size_t contact_box(circles_cview c, aabb box, contacts_view out, float margin) {
        const one_box b(box);
        const F m(margin);
        return for_each_block_storing<Arch>(out.normal_x, c.count, [=](const auto& block) {
            const contact_result k =
                contact_of(block.load(c.x), block.load(c.y), block.load(c.radius), b.min_x, b.min_y,
                           b.max_x, b.max_y, m);
            store_contact<Arch>(block, out, k);
            return k.hit;
        });
    }

    // Every circle against one box: push_out with the box's fields broadcast.
    static std::size_t push_out_box(circles_view c, aabb box, float margin) {
        const F m(margin);
        const F min_x(box.min_x);
        const F min_y(box.min_y);
        const F max_x(box.max_x);
        const F max_y(box.max_y);
        return for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const F cx = block.load(c.x);
            const F cy = block.load(c.y);
            const contact_result k =
                contact_of(cx, cy, block.load(c.radius), min_x, min_y, max_x, max_y, m);
            const M moved = both<Arch>(k.hit, k.depth > F(0.0F));
            block.store(c.x, pick<Arch>(moved, cx + k.normal_x * k.depth, cx));
            block.store(c.y, pick<Arch>(moved, cy + k.normal_y * k.depth, cy));
            return moved;
        });
    }
};

} // namespace simdcollide::simd
