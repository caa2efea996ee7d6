// The world's per-circle phases, W circles at a time: the copies into and out of slots
// (permute), phase 1 (integrate), phase 3's hold and phase 5's gain: the reference
// (kernels/pairwise/reference/world.inl) line for line, each `if` computed both ways and picked per
// lane.
#pragma once

#include "pairwise/simd/world_common.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide::simd {

template <class Arch>
struct world_circles {
    using common = world_common<Arch>;
    using F = typename common::F;
    using M = typename common::M;
    static constexpr std::size_t width = common::width;

    // Reference permute_loop. With AVX2 or AVX-512, 4 or 8 floats per gather instruction,
    // with 64-bit indices: the 32-bit ones (vgatherdps) are signed, and an index of 2^31 or
    // more would reach before `from`. One float at a time elsewhere and for the tail. The
    // world moves six fields into slots and four back each step; one circle at a time, the
    // two moves took 7% of a step of the 10 000-circle pile in a sampling profile on an
    // Intel Xeon (CHANGELOG has the step's time before and after).
    //
    // From gathers_prefetched_from circles on, each round also prefetches the lines it will
    // gather gather_prefetch_distance slots later. A pile mixes as it settles: in the
    // benchmark's 1 000 000-circle pile, 256 consecutive slots gather from 228 different
    // lines of each field, so nearly every element is a line from L3 or memory, and the
    // hardware gathers keep too few of them in flight (the prefetches took the step from 85
    // to 74 ms on an AMD EPYC, Zen 5: CHANGELOG).
    static constexpr std::size_t gathers_prefetched_from = std::size_t{1} << 16;
    static constexpr std::size_t gather_prefetch_distance = 256; // slots; 1 024 no different
    static void permute(const float* from, const std::uint32_t* index, std::size_t count,
                        float* to) {
        std::size_t k = 0;
#if defined(__x86_64__)
        if constexpr (is_avx512<Arch> || std::is_base_of_v<xsimd::avx2, Arch>) {
            // W indices per round as one vector (its register type keeps these intrinsics
            // dependent, so that objects without AVX never look them up), widened to 64
            // bits half by half.
            using indices = xsimd::batch<std::uint32_t, Arch>;
            constexpr std::size_t width = indices::size;
            const auto gather_round = [=](std::size_t first) {
                const auto at = indices::load_unaligned(index + first).data;
                if constexpr (is_avx512<Arch>) {
                    const auto lower = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(at));
                    const auto upper = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(at, 1));
                    _mm256_storeu_ps(to + first, _mm512_i64gather_ps(lower, from, 4));
                    _mm256_storeu_ps(to + first + width / 2, _mm512_i64gather_ps(upper, from, 4));
                } else {
                    const auto lower = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(at));
                    const auto upper = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(at, 1));
                    _mm_storeu_ps(to + first, _mm256_i64gather_ps(from, lower, 4));
                    _mm_storeu_ps(to + first + width / 2, _mm256_i64gather_ps(from, upper, 4));
                }
            };
            if (count >= gathers_prefetched_from) {
                for (; k + gather_prefetch_distance + width <= count; k += width) {
                    for (std::size_t j = 0; j < width; ++j) {
                        _mm_prefetch(reinterpret_cast<const char*>(
                                         from + index[k + gather_prefetch_distance + j]),
                                     _MM_HINT_T0);
                    }
                    gather_round(k);
                }
            }
            for (; k + width <= count; k += width) {
                gather_round(k);
            }
        }
#endif
        for (; k < count; ++k) {
            to[k] = from[index[k]];
        }
    }

    // Reference integrate_loop.
    static void integrate(particles_view c, float gravity_h_x, float gravity_h_y, float h,
                          float* moved_x, float* moved_y) {
        const F gx(gravity_h_x);
        const F gy(gravity_h_y);
        const F step(h);
        for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const M moves = block.load(c.inverse_mass) > F(0.0F);
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            const F x = block.load(c.x);
            const F y = block.load(c.y);
            const F new_vx = vx + gx;
            const F new_vy = vy + gy;
            const F new_x = pick<Arch>(moves, x + new_vx * step, x);
            const F new_y = pick<Arch>(moves, y + new_vy * step, y);
            block.store(c.vx, pick<Arch>(moves, new_vx, vx));
            block.store(c.vy, pick<Arch>(moves, new_vy, vy));
            block.store(c.x, new_x);
            block.store(c.y, new_y);
            block.store(moved_x, new_x);
            block.store(moved_y, new_y);
        });
    }

    // Reference fastest_loop: each lane the largest of its circles, then the largest lane
    // (the largest of a set, whatever the order; padding lanes are 0).
    static float fastest(particles_view c) {
        F most(0.0F);
        for_each_block_after<Arch>(0, c.count, [&](const auto& block) {
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            most = max_ps<Arch>(vx * vx + vy * vy, most);
        });
        alignas(64) float lanes_of[F::size];
        most.store_aligned(lanes_of);
        float m = 0.0F;
        for (const float lane : lanes_of) {
            m = lane > m ? lane : m;
        }
        return m;
    }

    // Reference hold_moves_loop: a square root and a division for every lane, where the
    // reference takes them only for the rare long moves. Branch-free as gain_corrections is,
    // by its measurement; not measured against a branch per block here (the kernel is about
    // 1.5% of a step).
    static void hold_moves(particles_view c, const float* moved_x, const float* moved_y,
                           float fraction) {
        const F share(fraction);
        for_each_block_storing<Arch>(c.x, c.count, [=](const auto& block) {
            const auto [x, y] = held(block.load(c.x), block.load(c.y), block.load(c.radius),
                                     block.load(moved_x), block.load(moved_y), share);
            block.store(c.x, x);
            block.store(c.y, y);
        });
    }

    // Reference gain_corrections_loop. The capped lanes are rare, but a square root and a
    // division for every lane cost less than a branch per block.
    static void gain_corrections(particles_view c, const float* moved_x, const float* moved_y,
                                 float inverse_h, float cap) {
        const velocity_gain gain{inverse_h, cap};
        for_each_block_storing<Arch>(c.vx, c.count, [=](const auto& block) {
            const auto [vx, vy] = gain.of(c, moved_x, moved_y, block);
            block.store(c.vx, vx);
            block.store(c.vy, vy);
        });
    }

    // Phase 5's arithmetic (reference gain_corrections_loop) for a block of circles: their
    // velocities after the gain.
    struct velocity_gain {
        F per_time;
        F limit;
        F limit2;
        velocity_gain(float inverse_h, float cap)
            : per_time(inverse_h), limit(cap), limit2(limit * limit) {}
        template <class Block>
        [[gnu::always_inline]] std::pair<F, F> of(const particles_view& c, const float* moved_x,
                                                  const float* moved_y, const Block& block) const {
            const M moves = block.load(c.inverse_mass) > F(0.0F);
            const F x = block.load(c.x);
            const F y = block.load(c.y);
            const F mx = block.load(moved_x);
            const F my = block.load(moved_y);
            F cx = (x - mx) * per_time;
            F cy = (y - my) * per_time;
            const F speed2 = cx * cx + cy * cy;
            F scale = pick<Arch>(speed2 > limit2, divide<Arch>(limit, square_root<Arch>(speed2)),
                                 F(1.0F));
            // A correction too long to square (reference gain_corrections_loop): rare, so the
            // block takes the branch only when one of its lanes has one.
            const M overflows = speed2 == F(__builtin_inff()); // not numeric_limits (swept.hpp)
            if (xsimd::any(overflows)) {
                const F half_x = x * F(0.5F) - mx * F(0.5F);
                const F half_y = y * F(0.5F) - my * F(0.5F);
                const F larger = max_ps<Arch>(xsimd::abs(half_x), xsimd::abs(half_y));
                const F ux = divide<Arch>(half_x, larger);
                const F uy = divide<Arch>(half_y, larger);
                cx = pick<Arch>(overflows, ux, cx);
                cy = pick<Arch>(overflows, uy, cy);
                scale = pick<Arch>(
                    overflows, divide<Arch>(limit, square_root<Arch>(ux * ux + uy * uy)), scale);
            }
            const F vx = block.load(c.vx);
            const F vy = block.load(c.vy);
            return {pick<Arch>(moves, vx + cx * scale, vx), pick<Arch>(moves, vy + cy * scale, vy)};
        }
    };

    // Phase 3's hold (reference hold_moves_loop) for a block of circles at (x, y) with their
    // radii and their positions after phase 1: where each one is after the hold.
    [[gnu::always_inline]] static std::pair<F, F> held(const F& x, const F& y, const F& radius,
                                                       const F& mx, const F& my, const F& share) {
        const F dx = x - mx;
        const F dy = y - my;
        const F reach = share * radius;
        const F move2 = dx * dx + dy * dy;
        const M holds = move2 > reach * reach;
        const F scale = divide<Arch>(reach, square_root<Arch>(move2));
        return {pick<Arch>(holds, mx + dx * scale, x), pick<Arch>(holds, my + dy * scale, y)};
    }
};

} // namespace simdcollide::simd
