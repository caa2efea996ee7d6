// The soft step's kernels, W contacts (or circles) at a time: the reference
// (solver/reference.cpp) operation for operation, each `if` computed both ways and picked per
// lane. Within a colour no moving circle appears twice, so a block's lanes gather and scatter
// distinct circles; the overflow colour is taken one contact at a time, in order. Included
// only by solver/isa/*.cpp, each instantiating solver_simd for its own instruction set.
#pragma once

#include "pairwise/simd/block_loop.hpp"
#include "pairwise/simd/lanes.hpp"
#include "pairwise/simd/world_pair_arch.hpp"
#include "world/solver/simd/runs.hpp"
#include "world/solver/solver_table.hpp"

#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace simdcollide::simd {

template <class Arch>
struct solver_simd {
    using F = floats<Arch>;
    using M = lanes<Arch>;
    using contacts = detail::pair_contacts_view;
    using box_contacts = detail::box_contacts_view;
    using bodies = detail::solver_bodies;
    static constexpr std::size_t width = F::size;

    using bodies_of_run = run_bodies<Arch>;
    using run = contact_run<Arch>;

    // body(run) for runs of W contacts over [begin, end) within a colour, or, for a range in
    // the overflow (from overflow_start on), for each contact alone, in order.
    template <class Body>
    [[gnu::always_inline]] static void for_each_run(std::size_t begin, std::size_t end,
                                                    std::size_t overflow_start, Body body) {
        const std::size_t step = begin >= overflow_start ? 1 : width;
        for (std::size_t k = begin; k < end; k += step) {
            body(run{k, end - k < step ? end - k : step});
        }
    }

    // The per-circle stages: the reference's loops, compiled for this instruction set.
    static void bodies_in(particles_view c, float* state, float* shapes) {
        for (std::size_t i = 0; i < c.count; ++i) {
            state[4 * i] = c.vx[i];
            state[4 * i + 1] = c.vy[i];
            state[4 * i + 2] = 0.0F;
            state[4 * i + 3] = 0.0F;
            shapes[4 * i] = c.x[i];
            shapes[4 * i + 1] = c.y[i];
            shapes[4 * i + 2] = c.radius[i];
            shapes[4 * i + 3] = c.inverse_mass[i];
        }
    }

    // W circles' shapes (contacts.hpp), gathered as their state is.
    struct shapes_of_run {
        F x, y, radius, inverse_mass;
    };
    [[gnu::always_inline]] static shapes_of_run gather_shapes(const run& r, const float* shapes,
                                                              const std::uint32_t* index) {
        const bodies_of_run g = r.gather(shapes, index);
        return {g.vx, g.vy, g.dx, g.dy};
    }

    // Reference prepare_pairs for a run: every contact is written alone, so the overflow
    // colour runs W at a time too.
    static void prepare_pairs(const float* state, const float* shapes,
                              const detail::pair_prepare_view& c, std::size_t begin,
                              std::size_t end, float impulse_ratio) {
        for_each_run(
            begin, end, end, [&](const run& r) __attribute__((always_inline)) {
                const shapes_of_run sa = gather_shapes(r, shapes, c.a);
                const shapes_of_run sb = gather_shapes(r, shapes, c.b);
                const F dx = sb.x - sa.x;
                const F dy = sb.y - sa.y;
                const F distance = square_root<Arch>(dx * dx + dy * dy);
                const M apart = distance > F(0.0F);
                const F nx = pick<Arch>(apart, divide<Arch>(dx, distance), F(1.0F));
                const F ny = pick<Arch>(apart, divide<Arch>(dy, distance), F(0.0F));
                r.store(c.normal_x, nx);
                r.store(c.normal_y, ny);
                const F base = distance - (sa.radius + sb.radius);
                r.store(c.base, base);
                // the sum overflows: halve (FLT_MAX: numeric_limits' max() is, at -O0, a
                // function every object would share)
                const M fits = (sa.inverse_mass + sb.inverse_mass) <= F(FLT_MAX);
                const F wa = pick<Arch>(fits, sa.inverse_mass, sa.inverse_mass * F(0.5F));
                const F wb = pick<Arch>(fits, sb.inverse_mass, sb.inverse_mass * F(0.5F));
                const F w = wa + wb;
                const M moves = w > F(0.0F);
                r.store(c.wa, pick<Arch>(moves, divide<Arch>(wa, w), F(0.0F)));
                r.store(c.wb, pick<Arch>(moves, divide<Arch>(wb, w), F(0.0F)));
                const bodies_of_run va = r.gather(state, c.a);
                const bodies_of_run vb = r.gather(state, c.b);
                const F approach = (vb.vx - va.vx) * nx + (vb.vy - va.vy) * ny;
                r.store(c.approach, pick<Arch>(base >= F(0.0F), approach, F(0.0F)));
                r.store(c.max_normal, F(0.0F));
                r.store(c.normal, r.load(c.normal) * F(impulse_ratio));
                r.store(c.tangent, r.load(c.tangent) * F(impulse_ratio));
            });
    }

    static void velocities_out(particles_view c, const float* state) {
        for (std::size_t i = 0; i < c.count; ++i) {
            c.vx[i] = state[4 * i];
            c.vy[i] = state[4 * i + 1];
        }
    }

    static void integrate_velocities(particles_view c, float* state, float gx_h, float gy_h) {
        for (std::size_t i = 0; i < c.count; ++i) {
            const bool moves = c.inverse_mass[i] > 0.0F;
            state[4 * i] = moves ? state[4 * i] + gx_h : state[4 * i];
            state[4 * i + 1] = moves ? state[4 * i + 1] + gy_h : state[4 * i + 1];
        }
    }

    static void integrate_positions(particles_view c, float* state, float h, const float* x0,
                                    const float* y0) {
        for (std::size_t i = 0; i < c.count; ++i) {
            const bool moves = c.inverse_mass[i] > 0.0F;
            c.x[i] = moves ? c.x[i] + state[4 * i] * h : c.x[i];
            c.y[i] = moves ? c.y[i] + state[4 * i + 1] * h : c.y[i];
            state[4 * i + 2] = c.x[i] - x0[i];
            state[4 * i + 3] = c.y[i] - y0[i];
        }
    }

    // Reference apply_pair for a run: (px, py) on b, its opposite on a, moving circles only.
    [[gnu::always_inline]] static void apply_pair(const F& wa, const F& wb, const F& px,
                                                  const F& py, F& vax, F& vay, F& vbx, F& vby) {
        const M a_moves = wa > F(0.0F);
        const M b_moves = wb > F(0.0F);
        vax = pick<Arch>(a_moves, vax - wa * px, vax);
        vay = pick<Arch>(a_moves, vay - wa * py, vay);
        vbx = pick<Arch>(b_moves, vbx + wb * px, vbx);
        vby = pick<Arch>(b_moves, vby + wb * py, vby);
    }

    [[gnu::always_inline]] static void scatter_pair(const bodies& v, const contacts& c,
                                                    const run& r, const F& wa, const F& wb,
                                                    const F& vax, const F& vay, const F& vbx,
                                                    const F& vby) {
        const M a_moves = wa > F(0.0F);
        const M b_moves = wb > F(0.0F);
        r.scatter(v.state, c.a, vax, vay, a_moves);
        r.scatter(v.state, c.b, vbx, vby, b_moves);
    }

    // A contact's accumulated impulses as one, the friction impulse along (-ny, nx).
    struct impulse {
        F x, y;
    };
    template <class View>
    [[gnu::always_inline]] static impulse accumulated_impulse(const run& r, const View& c) {
        const F nx = r.load(c.normal_x);
        const F ny = r.load(c.normal_y);
        const F normal = r.load(c.normal);
        const F tangent = r.load(c.tangent);
        return {normal * nx - tangent * ny, normal * ny + tangent * nx};
    }

    static void warm_start_pairs(const bodies& v, const contacts& c, std::size_t begin,
                                 std::size_t end) {
        for_each_run(
            begin, end, c.overflow_start, [&](const run& r) __attribute__((always_inline)) {
                const auto [px, py] = accumulated_impulse(r, c);
                const F wa = r.load(c.wa);
                const F wb = r.load(c.wb);
                const bodies_of_run ba = r.gather(v.state, c.a);
                const bodies_of_run bb = r.gather(v.state, c.b);
                F vax = ba.vx;
                F vay = ba.vy;
                F vbx = bb.vx;
                F vby = bb.vy;
                apply_pair(wa, wb, px, py, vax, vay, vbx, vby);
                scatter_pair(v, c, r, wa, wb, vax, vay, vbx, vby);
            });
    }

    static void warm_start_boxes(const bodies& v, const box_contacts& c, std::size_t begin,
                                 std::size_t end) {
        for_each_run(
            begin, end, c.overflow_start, [&](const run& r) __attribute__((always_inline)) {
                const auto [px, py] = accumulated_impulse(r, c);
                const M all = F(0.0F) == F(0.0F);
                const bodies_of_run bi = r.gather(v.state, c.circle);
                r.scatter(v.state, c.circle, bi.vx + px, bi.vy + py, all);
            });
    }

    // Reference normal_change, lane by lane.
    [[gnu::always_inline]] static F normal_change(const F& s, const F& vn, const F& total,
                                                  const F& bias_rate, const F& soft_mass,
                                                  const F& soft_impulse,
                                                  const detail::solve_parameters& p) {
        const M apart = s > F(0.0F);
        F bias(0.0F);
        F mass_scale(1.0F);
        F impulse_scale(0.0F);
        if (p.use_bias) {
            bias = max_ps<Arch>(bias_rate * s, F(-p.max_push));
            mass_scale = soft_mass;
            impulse_scale = soft_impulse;
        }
        bias = pick<Arch>(apart, s * F(p.inverse_h), bias);
        mass_scale = pick<Arch>(apart, F(1.0F), mass_scale);
        impulse_scale = pick<Arch>(apart, F(0.0F), impulse_scale);
        return negate<Arch>(mass_scale) * (vn + bias) - impulse_scale * total;
    }

    static void solve_pairs(const bodies& v, const contacts& c, std::size_t begin, std::size_t end,
                            const detail::solve_parameters& p) {
        for_each_run(
            begin, end, c.overflow_start, [&](const run& r) __attribute__((always_inline)) {
                const std::uint32_t* a = c.a;
                const std::uint32_t* b = c.b;
                const F nx = r.load(c.normal_x);
                const F ny = r.load(c.normal_y);
                const F wa = r.load(c.wa);
                const F wb = r.load(c.wb);
                const bodies_of_run ba = r.gather(v.state, a);
                const bodies_of_run bb = r.gather(v.state, b);
                const F s = r.load(c.base) + ((bb.dx - ba.dx) * nx + (bb.dy - ba.dy) * ny);
                F vax = ba.vx;
                F vay = ba.vy;
                F vbx = bb.vx;
                F vby = bb.vy;
                const F vn = (vbx - vax) * nx + (vby - vay) * ny;
                const M fixed = (wa == F(0.0F)) | (wb == F(0.0F));
                const F rate = pick<Arch>(fixed, F(p.fixed.bias_rate), F(p.moving.bias_rate));
                const F soft_mass =
                    pick<Arch>(fixed, F(p.fixed.mass_scale), F(p.moving.mass_scale));
                const F soft_impulse =
                    pick<Arch>(fixed, F(p.fixed.impulse_scale), F(p.moving.impulse_scale));
                const F total = r.load(c.normal);
                const F normal = max_ps<Arch>(
                    total + normal_change(s, vn, total, rate, soft_mass, soft_impulse, p), F(0.0F));
                r.store(c.normal, normal);
                if (p.keep_max_normal) {
                    r.store(c.max_normal, max_ps<Arch>(r.load(c.max_normal), normal));
                }
                const F dn = normal - total;
                apply_pair(wa, wb, dn * nx, dn * ny, vax, vay, vbx, vby);
                const F vt = (vbx - vax) * negate<Arch>(ny) + (vby - vay) * nx;
                const F limit = r.load(c.friction) * normal;
                const F old_tangent = r.load(c.tangent);
                const F tangent =
                    max_ps<Arch>(negate<Arch>(limit), min_ps<Arch>(old_tangent - vt, limit));
                const F dt = tangent - old_tangent;
                r.store(c.tangent, tangent);
                apply_pair(wa, wb, dt * negate<Arch>(ny), dt * nx, vax, vay, vbx, vby);
                scatter_pair(v, c, r, wa, wb, vax, vay, vbx, vby);
            });
    }

    static void solve_boxes(const bodies& v, const box_contacts& c, std::size_t begin,
                            std::size_t end, const detail::solve_parameters& p) {
        for_each_run(
            begin, end, c.overflow_start, [&](const run& r) __attribute__((always_inline)) {
                const std::uint32_t* i = c.circle;
                const F nx = r.load(c.normal_x);
                const F ny = r.load(c.normal_y);
                const F box_normal = r.load(c.box_normal);
                const bodies_of_run bi = r.gather(v.state, i);
                const F s = r.load(c.base) + (bi.dx * nx + bi.dy * ny) - F(p.elapsed) * box_normal;
                F vx = bi.vx;
                F vy = bi.vy;
                const F vn = (vx * nx + vy * ny) - box_normal;
                const F total = r.load(c.normal);
                const F normal = max_ps<Arch>(
                    total + normal_change(s, vn, total, F(p.fixed.bias_rate), F(p.fixed.mass_scale),
                                          F(p.fixed.impulse_scale), p),
                    F(0.0F));
                r.store(c.normal, normal);
                if (p.keep_max_normal) {
                    r.store(c.max_normal, max_ps<Arch>(r.load(c.max_normal), normal));
                }
                const F dn = normal - total;
                vx = vx + dn * nx;
                vy = vy + dn * ny;
                const F vt = (vx * negate<Arch>(ny) + vy * nx) - r.load(c.box_tangent);
                const F limit = r.load(c.friction) * normal;
                const F old_tangent = r.load(c.tangent);
                const F tangent =
                    max_ps<Arch>(negate<Arch>(limit), min_ps<Arch>(old_tangent - vt, limit));
                const F dt = tangent - old_tangent;
                r.store(c.tangent, tangent);
                vx = vx + dt * negate<Arch>(ny);
                vy = vy + dt * nx;
                const M all = F(0.0F) == F(0.0F);
                r.scatter(v.state, i, vx, vy, all);
            });
    }

    // Reference restitution_pairs' test: which lanes bounce.
    [[gnu::always_inline]] static M bounces(const run& r, const F& approach,
                                            const float* max_normal,
                                            const detail::restitution_parameters& p) {
        const M quiet = (approach > F(-p.threshold)) | (r.load(max_normal) == F(0.0F));
        // Not as xor with all lanes: xsimd's operator! compares as integers, which on AVX2
        // goes through SSE4.2 helpers that an SSE2 object could then share.
        const M all = F(0.0F) == F(0.0F);
        return quiet ^ all;
    }

    // Reference restitution's normal impulse where a lane bounces (leaving at restitution
    // times its approach speed), stored; returns its change.
    template <class View>
    [[gnu::always_inline]] static F bounce_change(const run& r, const View& c, const F& vn,
                                                  const F& approach, const M& bounce) {
        const F total = r.load(c.normal);
        const F normal = pick<Arch>(
            bounce, max_ps<Arch>(total - (vn + r.load(c.restitution) * approach), F(0.0F)), total);
        r.store(c.normal, normal);
        return normal - total;
    }

    static void restitution_pairs(const bodies& v, const contacts& c, std::size_t begin,
                                  std::size_t end, const detail::restitution_parameters& p) {
        for_each_run(
            begin, end, c.overflow_start, [&](const run& r) __attribute__((always_inline)) {
                const std::uint32_t* a = c.a;
                const std::uint32_t* b = c.b;
                const F approach = r.load(c.approach);
                const M bounce = bounces(r, approach, c.max_normal, p);
                if (!xsimd::any(bounce)) {
                    return;
                }
                const F nx = r.load(c.normal_x);
                const F ny = r.load(c.normal_y);
                const F wa = r.load(c.wa);
                const F wb = r.load(c.wb);
                const bodies_of_run ba = r.gather(v.state, a);
                const bodies_of_run bb = r.gather(v.state, b);
                F vax = ba.vx;
                F vay = ba.vy;
                F vbx = bb.vx;
                F vby = bb.vy;
                const F vn = (vbx - vax) * nx + (vby - vay) * ny;
                const F dn = bounce_change(r, c, vn, approach, bounce);
                apply_pair(wa, wb, dn * nx, dn * ny, vax, vay, vbx, vby);
                const M a_moves = (wa > F(0.0F)) & bounce;
                const M b_moves = (wb > F(0.0F)) & bounce;
                r.scatter(v.state, a, vax, vay, a_moves);
                r.scatter(v.state, b, vbx, vby, b_moves);
            });
    }

    static void restitution_boxes(const bodies& v, const box_contacts& c, std::size_t begin,
                                  std::size_t end, const detail::restitution_parameters& p) {
        for_each_run(
            begin, end, c.overflow_start, [&](const run& r) __attribute__((always_inline)) {
                const std::uint32_t* i = c.circle;
                const F approach = r.load(c.approach);
                const M bounce = bounces(r, approach, c.max_normal, p);
                if (!xsimd::any(bounce)) {
                    return;
                }
                const F nx = r.load(c.normal_x);
                const F ny = r.load(c.normal_y);
                const bodies_of_run bi = r.gather(v.state, i);
                const F vx = bi.vx;
                const F vy = bi.vy;
                const F vn = (vx * nx + vy * ny) - r.load(c.box_normal);
                const F dn = bounce_change(r, c, vn, approach, bounce);
                r.scatter(v.state, i, vx + dn * nx, vy + dn * ny, bounce);
            });
    }
};

} // namespace simdcollide::simd

namespace simdcollide::detail {

template <class Arch>
const solver_kernels& simd_solver_table() noexcept {
    // On AVX-512, the AVX2 code, as for the world's other pair kernels (world_pair_arch.hpp).
    using S = simd::solver_simd<simd::world_pair_arch<Arch>>;
    // constexpr: constant-initialised, so no object has a dynamic initialiser that could run
    // on a CPU without its instruction set.
    static constexpr solver_kernels table{
        &S::bodies_in,           &S::prepare_pairs,
        &S::velocities_out,      &S::integrate_velocities,
        &S::integrate_positions, &S::warm_start_pairs,
        &S::warm_start_boxes,    &S::solve_pairs,
        &S::solve_boxes,         &S::restitution_pairs,
        &S::restitution_boxes,
    };
    return table;
}

} // namespace simdcollide::detail
