// Ray casts, W rays at a time against one shape after another: the reference
// (kernels/pairwise/reference/rays.inl) line for line, each `if` computed both ways and picked
// per lane. Every lane keeps its own earliest hit, shapes coming in ascending index as in
// the reference, so a lane's result is its ray's in the reference, bit for bit.
#pragma once

#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/swept.hpp"

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct rays {
    using F = floats<Arch>;
    using M = lanes<Arch>;
    using S = swept<Arch>;

    // A shape's index as the bits of a float lane: moved by picks and stores only, never
    // computed with. (The builtin, not std::bit_cast: see block_loop.hpp on weak symbols.)
    static F index_bits(std::uint32_t index) { return F(__builtin_bit_cast(float, index)); }

    struct ray_entry {
        M hit;
        F time;
        M inside;
    };

    // reference ray_circle_entry. Blocks with no lane that approaches the circle's line skip
    // the square root and the division: none of their lanes hits.
    static ray_entry ray_circle_entry(const F& mx, const F& my, const F& dx, const F& dy,
                                      const F& r) {
        const F cc = (mx * mx + my * my) - r * r;
        const M inside = cc <= F(0.0F);
        const F a = dx * dx + dy * dy;
        const F b = mx * dx + my * dy;
        const F cross = mx * dy - my * dx;
        const F disc = a * (r * r) - cross * cross;
        const M approaches = both<Arch>(b < F(0.0F), disc >= F(0.0F));
        ray_entry e{inside, F(0.0F), inside};
        if (lane_bits<Arch>(approaches) != 0) {
            const F time = max_ps<Arch>(divide<Arch>(cc, square_root<Arch>(disc) - b), F(0.0F));
            e.hit = either<Arch>(inside, both<Arch>(approaches, time <= F(1.0F)));
            e.time = zero_where<Arch>(inside, time);
        }
        return e;
    }

    // reference ray_slab: the divisions were made once for the ray.
    static typename S::slab_times ray_slab(const F& c, const F& d, const F& inverse_d, const F& lo,
                                           const F& hi) {
        const F inf(__builtin_inff());
        const M still = d == F(0.0F);
        const M within = both<Arch>(lo <= c, c <= hi);
        const F t0 = (lo - c) * inverse_d;
        const F t1 = (hi - c) * inverse_d;
        return {pick<Arch>(still, pick<Arch>(within, negate<Arch>(inf), inf), min_ps<Arch>(t0, t1)),
                pick<Arch>(still, inf, max_ps<Arch>(t0, t1))};
    }

    // reference store_ray_hit, for a block of rays: misses (found false) at time 1.
    template <class Block>
    static M store_hits(const Block& block, const rays_cview& r, const ray_hits_view& out,
                        const M& found, const F& best, const F& normal_x, const F& normal_y,
                        const F& shape) {
        const F time = pick<Arch>(found, best, F(1.0F));
        block.store(out.fraction, time);
        block.store(out.point_x, block.load(r.x) + time * block.load(r.dx));
        block.store(out.point_y, block.load(r.y) + time * block.load(r.dy));
        block.store(out.normal_x, zero_unless<Arch>(found, normal_x));
        block.store(out.normal_y, zero_unless<Arch>(found, normal_y));
        block.store(reinterpret_cast<float*>(out.shape),
                    pick<Arch>(found, shape, index_bits(no_shape)));
        return found;
    }

    // The loops, one per kernel table entry (kernel_table.hpp).

    static std::size_t ray_circles(rays_cview r, circles_cview c, ray_hits_view out) {
        return for_each_block_storing<Arch>(out.fraction, r.count, [=](const auto& block) {
            const F ox = block.load(r.x);
            const F oy = block.load(r.y);
            const F dx = block.load(r.dx);
            const F dy = block.load(r.dy);
            F best(__builtin_inff());
            F shape = index_bits(no_shape);
            M inside(false);
            F best_mx(0.0F);
            F best_my(0.0F);
            for (std::size_t k = 0; k < c.count; ++k) {
                const F mx = ox - F(c.x[k]);
                const F my = oy - F(c.y[k]);
                const ray_entry e = ray_circle_entry(mx, my, dx, dy, F(c.radius[k]));
                const M better = both<Arch>(e.hit, e.time < best);
                best = pick<Arch>(better, e.time, best);
                shape = pick<Arch>(better, index_bits(static_cast<std::uint32_t>(k)), shape);
                inside = pick<Arch>(better, e.inside, inside);
                best_mx = pick<Arch>(better, mx, best_mx);
                best_my = pick<Arch>(better, my, best_my);
            }
            const M found = best < F(__builtin_inff());
            const F px = best_mx + best * dx;
            const F py = best_my + best * dy;
            F nx;
            F ny;
            S::unit_or_against(px, py, px * px + py * py, dx, dy, dx * dx + dy * dy, nx, ny);
            return store_hits(block, r, out, found, best, zero_where<Arch>(inside, nx),
                              zero_where<Arch>(inside, ny), shape);
        });
    }

    // reference ray_circle_run_loop: W circles at a time, the lanes that hit compared with
    // the best one by one, in lane order (the order does not matter: the earliest time and
    // then the lowest index win whatever the order).
    static void ray_circle_run(float ox, float oy, float dx, float dy, const float* x,
                               const float* y, const float* radius, const std::uint32_t* index,
                               std::size_t count, detail::ray_best& best) {
        constexpr std::size_t width = F::size;
        const F OX(ox);
        const F OY(oy);
        const F DX(dx);
        const F DY(dy);
        for (std::size_t k = 0; k < count; k += width) {
            const std::size_t n = count - k < width ? count - k : width;
            F cx, cy, cr;
            if (n == width) {
                cx = F::load_unaligned(x + k);
                cy = F::load_unaligned(y + k);
                cr = F::load_unaligned(radius + k);
            } else {
                const tail_block<Arch> tail{k, n};
                cx = tail.load(x);
                cy = tail.load(y);
                cr = tail.load(radius);
            }
            const F mx = OX - cx;
            const F my = OY - cy;
            const ray_entry e = ray_circle_entry(mx, my, DX, DY, cr);
            std::uint32_t hits = lane_bits<Arch>(e.hit);
            if (n < width) {
                hits &= (1U << n) - 1U;
            }
            if (hits == 0) {
                continue;
            }
            alignas(64) float time[width];
            alignas(64) float lane_mx[width];
            alignas(64) float lane_my[width];
            e.time.store_aligned(time);
            mx.store_aligned(lane_mx);
            my.store_aligned(lane_my);
            const std::uint32_t inside = lane_bits<Arch>(e.inside);
            for (; hits != 0; hits &= hits - 1U) {
                const auto j = static_cast<std::size_t>(__builtin_ctz(hits));
                const std::uint32_t shape = index[k + j];
                if (time[j] < best.time || (time[j] == best.time && shape < best.shape)) {
                    best = {time[j], shape, ((inside >> j) & 1U) != 0, lane_mx[j], lane_my[j]};
                }
            }
        }
    }

    static std::size_t ray_boxes(rays_cview r, aabbs_view b, ray_hits_view out) {
        return for_each_block_storing<Arch>(out.fraction, r.count, [=](const auto& block) {
            const F ox = block.load(r.x);
            const F oy = block.load(r.y);
            const F dx = block.load(r.dx);
            const F dy = block.load(r.dy);
            const F inverse_dx = divide<Arch>(F(1.0F), dx);
            const F inverse_dy = divide<Arch>(F(1.0F), dy);
            F best(__builtin_inff());
            F shape = index_bits(no_shape);
            M inside(false);
            M x_face(false);
            for (std::size_t k = 0; k < b.count; ++k) {
                const F min_x(b.min_x[k]);
                const F min_y(b.min_y[k]);
                const F max_x(b.max_x[k]);
                const F max_y(b.max_y[k]);
                const M in = both<Arch>(both<Arch>(min_x <= ox, ox <= max_x),
                                        both<Arch>(min_y <= oy, oy <= max_y));
                const auto sx = ray_slab(ox, dx, inverse_dx, min_x, max_x);
                const auto sy = ray_slab(oy, dy, inverse_dy, min_y, max_y);
                const F enter = max_ps<Arch>(sx.enter, sy.enter);
                const F leave = min_ps<Arch>(sx.leave, sy.leave);
                const M crosses =
                    both<Arch>(both<Arch>(enter <= leave, enter <= F(1.0F)), leave >= F(0.0F));
                const M hit = either<Arch>(in, crosses);
                const F time = zero_where<Arch>(in, enter);
                const M better = both<Arch>(hit, time < best);
                best = pick<Arch>(better, time, best);
                shape = pick<Arch>(better, index_bits(static_cast<std::uint32_t>(k)), shape);
                inside = pick<Arch>(better, in, inside);
                x_face = pick<Arch>(better, pick<Arch>(in, M(false), sx.enter > sy.enter), x_face);
            }
            const M found = best < F(__builtin_inff());
            const F against_x = pick<Arch>(dx < F(0.0F), F(1.0F), F(-1.0F));
            const F against_y = pick<Arch>(dy < F(0.0F), F(1.0F), F(-1.0F));
            const F nx = zero_where<Arch>(inside, zero_unless<Arch>(x_face, against_x));
            const F ny = zero_where<Arch>(either<Arch>(inside, x_face), against_y);
            return store_hits(block, r, out, found, best, nx, ny, shape);
        });
    }
};

} // namespace simdcollide::simd
