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

    // The lanes of `tie` whose shape so far has a higher index than `index`: a tie in time
    // goes to the lower index (rare: only exact ties reach here).
    static M lower_index(const M& tie, const F& shape, std::uint32_t index) {
        constexpr std::size_t width = F::size;
        alignas(64) std::uint32_t lane_shape[width];
        alignas(64) float lower[width];
        shape.store_aligned(reinterpret_cast<float*>(lane_shape));
        const std::uint32_t bits = lane_bits<Arch>(tie);
        for (std::size_t j = 0; j < width; ++j) {
            lower[j] = ((bits >> j) & 1U) != 0 && index < lane_shape[j] ? 1.0F : 0.0F;
        }
        return F::load_aligned(lower) != F(0.0F);
    }

    // A block of rays, a ray to a lane, and each lane's first hit among the circles met so
    // far: as the reference's best, shape, inside and the origin relative to that centre.
    struct circle_hits {
        F ox, oy, dx, dy;
        F time = F(__builtin_inff());
        F shape = index_bits(no_shape);
        M inside = M(false);
        F mx = F(0.0F);
        F my = F(0.0F);

        template <class Block>
        circle_hits(const Block& block, const rays_cview& r)
            : ox(block.load(r.x)), oy(block.load(r.y)), dx(block.load(r.dx)), dy(block.load(r.dy)) {
        }

        // Circle `index` at (x, y) of radius `radius`. Circles in ascending index need no
        // tie rule (`ties` false): the first one met at a time is the lowest.
        void meet(float x, float y, float radius, std::uint32_t index, bool ties) {
            const F at_mx = ox - F(x);
            const F at_my = oy - F(y);
            const ray_entry e = ray_circle_entry(at_mx, at_my, dx, dy, F(radius));
            M better = both<Arch>(e.hit, e.time < time);
            if (ties) {
                const M tie = both<Arch>(e.hit, e.time == time);
                if (lane_bits<Arch>(tie) != 0) {
                    better = either<Arch>(better, lower_index(tie, shape, index));
                }
            }
            time = pick<Arch>(better, e.time, time);
            shape = pick<Arch>(better, index_bits(index), shape);
            inside = pick<Arch>(better, e.inside, inside);
            mx = pick<Arch>(better, at_mx, mx);
            my = pick<Arch>(better, at_my, my);
        }
    };

    // The loops, one per kernel table entry (kernel_table.hpp).

    static std::size_t ray_circles(rays_cview r, circles_cview c, ray_hits_view out) {
        return for_each_block_storing<Arch>(out.fraction, r.count, [=](const auto& block) {
            circle_hits h(block, r);
            for (std::size_t k = 0; k < c.count; ++k) {
                h.meet(c.x[k], c.y[k], c.radius[k], static_cast<std::uint32_t>(k), false);
            }
            const M found = h.time < F(__builtin_inff());
            const F px = h.mx + h.time * h.dx;
            const F py = h.my + h.time * h.dy;
            F nx;
            F ny;
            S::unit_or_against(px, py, px * px + py * py, h.dx, h.dy, h.dx * h.dx + h.dy * h.dy, nx,
                               ny);
            return store_hits(block, r, out, found, h.time, zero_where<Arch>(h.inside, nx),
                              zero_where<Arch>(h.inside, ny), h.shape);
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

    // reference rays_circle_run_loop: W rays at a time against one circle after another, the
    // circles in any order, so that a tie in time goes to the lower index lane by lane.
    static void rays_circle_run(rays_cview r, const float* x, const float* y, const float* radius,
                                const std::uint32_t* index, std::size_t count,
                                detail::ray_best* out) {
        constexpr std::size_t width = F::size;
        const auto run = [&](const auto& block) {
            circle_hits h(block, r);
            for (std::size_t k = 0; k < count; ++k) {
                h.meet(x[k], y[k], radius[k], index[k], true);
            }
            alignas(64) float lane_time[width];
            alignas(64) std::uint32_t lane_shape[width];
            alignas(64) float lane_mx[width];
            alignas(64) float lane_my[width];
            h.time.store_aligned(lane_time);
            h.shape.store_aligned(reinterpret_cast<float*>(lane_shape));
            h.mx.store_aligned(lane_mx);
            h.my.store_aligned(lane_my);
            const std::uint32_t in = lane_bits<Arch>(h.inside);
            for (std::size_t j = 0; j < lanes_in(block); ++j) {
                out[block.first + j] = {lane_time[j], lane_shape[j], ((in >> j) & 1U) != 0,
                                        lane_mx[j], lane_my[j]};
            }
        };
        std::size_t first = 0;
        for (; first + width <= r.count; first += width) {
            run(full_block<Arch>{first});
        }
        if (first < r.count) {
            run(tail_block<Arch>{first, r.count - first});
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
