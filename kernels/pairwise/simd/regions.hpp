// Region and point queries, W shapes at a time: the reference
// (kernels/pairwise/reference/regions.inl) lane by lane, one mask byte a shape.
#pragma once

#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/circle_aabb.hpp"

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct regions {
    using F = floats<Arch>;
    using M = lanes<Arch>;

    static std::size_t circles_in_region(circles_cview c, aabb region, std::uint8_t* mask) {
        const F min_x(region.min_x);
        const F min_y(region.min_y);
        const F max_x(region.max_x);
        const F max_y(region.max_y);
        return for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const F d2 = circle_aabb<Arch>::distance_squared_of(block.load(c.x), block.load(c.y),
                                                                min_x, min_y, max_x, max_y);
            const F r = block.load(c.radius);
            const M in = d2 <= r * r;
            block.store_mask(mask, in);
            return in;
        });
    }

    static std::size_t circles_near_point(circles_cview c, float px, float py, float distance,
                                          std::uint8_t* mask) {
        const F x(px);
        const F y(py);
        const F s(distance);
        return for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const F dx = block.load(c.x) - x;
            const F dy = block.load(c.y) - y;
            const F reach = block.load(c.radius) + s;
            const M in = dx * dx + dy * dy <= reach * reach;
            block.store_mask(mask, in);
            return in;
        });
    }

    static std::size_t boxes_in_region(aabbs_view b, aabb region, std::uint8_t* mask) {
        const F min_x(region.min_x);
        const F min_y(region.min_y);
        const F max_x(region.max_x);
        const F max_y(region.max_y);
        return for_each_block_storing<Arch>(b.min_x, b.count, [=](const auto& block) {
            const M in =
                both<Arch>(both<Arch>(min_x <= block.load(b.max_x), block.load(b.min_x) <= max_x),
                           both<Arch>(min_y <= block.load(b.max_y), block.load(b.min_y) <= max_y));
            block.store_mask(mask, in);
            return in;
        });
    }

    static std::size_t boxes_near_point(aabbs_view b, float px, float py, float distance,
                                        std::uint8_t* mask) {
        const F x(px);
        const F y(py);
        const F s2(distance * distance);
        return for_each_block_storing<Arch>(b.min_x, b.count, [=](const auto& block) {
            const F d2 = circle_aabb<Arch>::distance_squared_of(
                x, y, block.load(b.min_x), block.load(b.min_y), block.load(b.max_x),
                block.load(b.max_y));
            const M in = d2 <= s2;
            block.store_mask(mask, in);
            return in;
        });
    }
};

} // namespace simdcollide::simd
