// The soft step's kernels (kernels/world/solver/) on every instruction set against the
// scalar reference, bit for bit: the per-circle stages, prepare over pairs of circles, and
// warm start, solve, relax and restitution over colours of random contacts (no moving
// circle twice in a colour), the overflow taken in order, every length around the lane
// counts; with static circles, contacts apart (speculative) and overlapping, pushes past
// the speed cap, impulses at the friction bound, and approaches on either side of the
// restitution threshold.
#include "runtime/tasks.hpp"
#include "test_support.hpp"
#include "world/solver/colours.hpp"
#include "world/solver/solver_table.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

namespace simdcollide::testing {
namespace {

class solver_kernels_simd : public ::testing::TestWithParam<isa> {};

// n circles' solver state (velocity, move) and random pairs among them, coloured as the
// world colours them, with prepared-looking fields: unit normals, separations from -0.5 to
// 0.5 (a tenth exactly 0), shares of the velocity change (a fifth of the circles static),
// and impulses, some at the friction bound.
struct scene {
    std::vector<float> inverse_mass;
    aligned_floats bodies;
    detail::pair_contacts pairs;
    detail::box_contacts boxes;

    scene(std::size_t n, std::size_t pair_count, std::uint32_t seed) : bodies(4 * n) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
        std::uniform_int_distribution<std::uint32_t> any(0, static_cast<std::uint32_t>(n - 1));
        // Materials of every body and of six boxes: frictions 0 to 0.6 (a few equal, whose
        // combination is theirs), restitutions 0 to 1.
        std::vector<float> friction, restitution, box_friction, box_restitution;
        for (std::size_t i = 0; i < n; ++i) {
            friction.push_back(i % 3 == 0 ? 0.3F : 0.3F + 0.3F * unit(rng));
            restitution.push_back(0.5F + 0.5F * unit(rng));
        }
        for (std::size_t b = 0; b < 6; ++b) {
            box_friction.push_back(0.3F + 0.3F * unit(rng));
            box_restitution.push_back(b % 2 == 0 ? 0.0F : 0.5F + 0.5F * unit(rng));
        }
        const detail::material_arrays materials{friction, restitution};
        for (std::size_t i = 0; i < n; ++i) {
            inverse_mass.push_back(i % 5 == 0 ? 0.0F : 1.0F + unit(rng) * 0.5F);
            for (std::size_t f = 0; f < 4; ++f) {
                bodies[4 * i + f] = unit(rng) * (f < 2 ? 3.0F : 0.2F);
            }
        }
        std::vector<circle_pair> list;
        for (std::size_t k = 0; k < pair_count; ++k) {
            const std::uint32_t a = any(rng);
            const std::uint32_t b = any(rng);
            if (a != b) {
                list.push_back({std::min(a, b), std::max(a, b)});
            }
        }
        std::sort(list.begin(), list.end(),
                  [](circle_pair l, circle_pair r) { return l.a != r.a ? l.a < r.a : l.b < r.b; });
        list.erase(
            std::unique(list.begin(), list.end(),
                        [](circle_pair l, circle_pair r) { return l.a == r.a && l.b == r.b; }),
            list.end());
        std::vector<std::uint32_t> marks;
        detail::colour_pairs(list, inverse_mass, materials, {}, pairs, marks,
                             detail::task_runner{});
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const float angle = unit(rng) * 3.14159265F;
            pairs.normal_x[k] = std::cos(angle);
            pairs.normal_y[k] = std::sin(angle);
            pairs.base[k] = k % 10 == 0 ? 0.0F : unit(rng) * 0.5F;
            const float wa = inverse_mass[pairs.a[k]];
            const float wb = inverse_mass[pairs.b[k]];
            const float w = wa + wb;
            pairs.wa[k] = w > 0.0F ? wa / w : 0.0F;
            pairs.wb[k] = w > 0.0F ? wb / w : 0.0F;
            pairs.approach[k] = unit(rng) * 3.0F;
            pairs.normal[k] = k % 7 == 0 ? 0.0F : (unit(rng) + 1.0F) * 0.1F;
            pairs.tangent[k] = k % 3 == 0 ? 0.2F * pairs.normal[k] : unit(rng) * 0.01F;
            pairs.max_normal[k] = k % 11 == 0 ? 0.0F : pairs.normal[k];
        }
        // Box contacts: each moving circle with up to six boxes (past box_colours: the
        // overflow), by circle then box.
        std::vector<circle_pair> entries;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (inverse_mass[i] > 0.0F) {
                const std::uint32_t count = i % 7;
                for (std::uint32_t b = 0; b < count; ++b) {
                    entries.push_back({i, b});
                }
            }
        }
        detail::colour_boxes(entries, materials, {box_friction, box_restitution}, {}, boxes);
        for (std::size_t k = 0; k < boxes.size(); ++k) {
            const float angle = unit(rng) * 3.14159265F;
            boxes.normal_x[k] = std::cos(angle);
            boxes.normal_y[k] = std::sin(angle);
            boxes.base[k] = k % 10 == 0 ? 0.0F : unit(rng) * 0.5F;
            boxes.box_normal[k] = k % 4 == 0 ? unit(rng) : 0.0F;
            boxes.box_tangent[k] = k % 4 == 0 ? unit(rng) : 0.0F;
            boxes.approach[k] = unit(rng) * 3.0F;
            boxes.normal[k] = k % 7 == 0 ? 0.0F : (unit(rng) + 1.0F) * 0.1F;
            boxes.tangent[k] = unit(rng) * 0.01F;
            boxes.max_normal[k] = k % 11 == 0 ? 0.0F : boxes.normal[k];
        }
    }
};

void expect_same_state(const scene& got, const scene& want) {
    expect_same_floats(got.bodies.span(), want.bodies.span(), "bodies");
    expect_same_floats(got.pairs.normal.span(), want.pairs.normal.span(), "pair normal");
    expect_same_floats(got.pairs.tangent.span(), want.pairs.tangent.span(), "pair tangent");
    expect_same_floats(got.pairs.max_normal.span(), want.pairs.max_normal.span(), "pair max");
    expect_same_floats(got.boxes.normal.span(), want.boxes.normal.span(), "box normal");
    expect_same_floats(got.boxes.tangent.span(), want.boxes.tangent.span(), "box tangent");
    expect_same_floats(got.boxes.max_normal.span(), want.boxes.max_normal.span(), "box max");
}

// Every stage of a substep and restitution over every colour, as the world runs them; the
// largest normal impulse kept or not (as without restitution).
void run_passes(const detail::solver_kernels& k, scene& s, bool keep_max_normal) {
    const detail::solver_bodies v{s.bodies.data()};
    detail::solve_parameters p;
    p.inverse_h = 240.0F;
    p.max_push = 3.0F;
    p.elapsed = 0.25F / 60.0F;
    p.moving = {9.0F, 0.94F, 0.06F};
    p.fixed = {17.0F, 0.97F, 0.03F};
    p.keep_max_normal = keep_max_normal;
    const detail::pair_contacts_view pairs = s.pairs.view();
    const detail::box_contacts_view boxes = s.boxes.view();
    const auto each_colour = [](const auto& c, auto&& body) {
        for (std::size_t colour = 0; colour < c.colours(); ++colour) {
            body(c.colour_start[colour], c.colour_start[colour + 1]);
        }
    };
    each_colour(s.pairs, [&](std::size_t b, std::size_t e) { k.warm_start_pairs(v, pairs, b, e); });
    each_colour(s.boxes, [&](std::size_t b, std::size_t e) { k.warm_start_boxes(v, boxes, b, e); });
    for (const bool bias : {true, false}) {
        p.use_bias = bias;
        each_colour(s.pairs,
                    [&](std::size_t b, std::size_t e) { k.solve_pairs(v, pairs, b, e, p); });
        each_colour(s.boxes,
                    [&](std::size_t b, std::size_t e) { k.solve_boxes(v, boxes, b, e, p); });
    }
    const detail::restitution_parameters bounce{1.0F};
    each_colour(s.pairs,
                [&](std::size_t b, std::size_t e) { k.restitution_pairs(v, pairs, b, e, bounce); });
    each_colour(s.boxes,
                [&](std::size_t b, std::size_t e) { k.restitution_boxes(v, boxes, b, e, bounce); });
}

TEST_P(solver_kernels_simd, contact_passes_match_the_reference) {
    if (!isa_supported(GetParam())) {
        GTEST_SKIP() << "this CPU cannot run " << isa_name(GetParam());
    }
    const detail::solver_kernels& simd = detail::solver_table(GetParam());
    const detail::solver_kernels& ref = detail::solver_reference();
    ASSERT_NE(&simd, &ref);
    std::size_t overflowed = 0;
    for (const auto& [n, pairs] : {std::pair{std::size_t{2}, std::size_t{1}},
                                   {std::size_t{9}, std::size_t{13}},
                                   {std::size_t{40}, std::size_t{70}},
                                   {std::size_t{300}, std::size_t{3000}}, // dense: an overflow
                                   {std::size_t{2000}, std::size_t{5000}}}) {
        for (std::uint32_t seed = 1; seed <= 3; ++seed) {
            SCOPED_TRACE(std::to_string(n) + " circles, seed " + std::to_string(seed));
            scene want(n, pairs, seed);
            scene got(n, pairs, seed);
            overflowed += want.pairs.size() - want.pairs.colour_start[want.pairs.colours() - 1];
            for (int round = 0; round < 3; ++round) {
                run_passes(ref, want, round != 1);
                run_passes(simd, got, round != 1);
            }
            expect_same_state(got, want);
        }
    }
    EXPECT_GT(overflowed, 0U) << "no scene reached the overflow colour";
}

TEST_P(solver_kernels_simd, per_circle_stages_match_the_reference) {
    if (!isa_supported(GetParam())) {
        GTEST_SKIP() << "this CPU cannot run " << isa_name(GetParam());
    }
    const detail::solver_kernels& simd = detail::solver_table(GetParam());
    const detail::solver_kernels& ref = detail::solver_reference();
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{33}}) {
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
        std::vector<float> x(n), y(n), r(n, 0.5F), w(n), vx(n), vy(n), x0(n), y0(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = unit(rng) * 10.0F;
            y[i] = unit(rng) * 10.0F;
            x0[i] = x[i] - unit(rng);
            y0[i] = y[i] - unit(rng);
            w[i] = i % 3 == 0 ? 0.0F : 1.0F;
            vx[i] = unit(rng);
            vy[i] = i == 0 ? -0.0F : unit(rng);
        }
        std::vector<float> gx = x, gy = y, gvx = vx, gvy = vy;
        aligned_floats want(4 * n), got(4 * n), want_shapes(4 * n), got_shapes(4 * n);
        const particles_view a{x.data(), y.data(), r.data(), w.data(), vx.data(), vy.data(), n};
        const particles_view b{gx.data(), gy.data(), r.data(), w.data(), gvx.data(), gvy.data(), n};
        ref.bodies_in(a, want.data(), want_shapes.data());
        simd.bodies_in(b, got.data(), got_shapes.data());
        expect_same_floats(got_shapes.span(), want_shapes.span(), "shapes");
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_EQ(want_shapes[4 * i], x[i]);
            EXPECT_EQ(want_shapes[4 * i + 3], w[i]);
        }
        ref.integrate_velocities(a, want.data(), 0.1F, -9.81F / 240.0F);
        simd.integrate_velocities(b, got.data(), 0.1F, -9.81F / 240.0F);
        ref.integrate_positions(a, want.data(), 1.0F / 240.0F, x0.data(), y0.data());
        simd.integrate_positions(b, got.data(), 1.0F / 240.0F, x0.data(), y0.data());
        ref.velocities_out(a, want.data());
        simd.velocities_out(b, got.data());
        expect_same_floats(got.span(), want.span(), "state");
        expect_same_floats(gx, x, "x");
        expect_same_floats(gy, y, "y");
        expect_same_floats(gvx, vx, "vx");
        expect_same_floats(gvy, vy, "vy");
        if (n > 0) {
            EXPECT_TRUE(std::signbit(vy[0])) << "a static circle keeps its velocity's sign";
        }
    }
}

// Prepare over random pairs of circles, every length around the lane counts, each contact
// apart, touching or overlapping; with centres that coincide, static circles, the largest
// inverse masses (whose sum overflows) and subnormal ones; impulses scaled.
TEST_P(solver_kernels_simd, prepare_matches_the_reference) {
    if (!isa_supported(GetParam())) {
        GTEST_SKIP() << "this CPU cannot run " << isa_name(GetParam());
    }
    const detail::solver_kernels& simd = detail::solver_table(GetParam());
    const detail::solver_kernels& ref = detail::solver_reference();
    std::size_t coincide = 0;
    std::size_t overlap = 0;
    for (const std::size_t pairs :
         {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{17}, std::size_t{500}}) {
        SCOPED_TRACE(std::to_string(pairs) + " pairs");
        const std::size_t n = pairs + 5;
        std::mt19937 rng(static_cast<std::uint32_t>(pairs));
        std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
        std::uniform_int_distribution<std::uint32_t> any(0, static_cast<std::uint32_t>(n - 1));
        aligned_floats state(4 * n), shapes(4 * n);
        constexpr float huge = std::numeric_limits<float>::max();
        constexpr float tiny = std::numeric_limits<float>::denorm_min();
        for (std::size_t i = 0; i < n; ++i) {
            shapes[4 * i] = unit(rng) * 3.0F;
            shapes[4 * i + 1] = i % 9 == 1 ? shapes[4 * i - 4 + 1] : unit(rng) * 3.0F;
            shapes[4 * i + 2] = 0.5F + 0.4F * unit(rng);
            shapes[4 * i + 3] = i % 5 == 0 ? 0.0F : i % 7 == 0 ? huge : i % 11 == 0 ? tiny : 1.0F;
            state[4 * i] = unit(rng);
            state[4 * i + 1] = unit(rng);
        }
        std::vector<std::uint32_t> a(pairs), b(pairs);
        for (std::size_t k = 0; k < pairs; ++k) {
            a[k] = any(rng);
            b[k] = k % 6 == 0 ? (a[k] + 1) % static_cast<std::uint32_t>(n) : any(rng);
            if (k % 10 == 3) {
                shapes[4 * b[k]] = shapes[4 * a[k]]; // centres that coincide
                shapes[4 * b[k] + 1] = shapes[4 * a[k] + 1];
            }
        }
        detail::pair_contacts want;
        want.a = a;
        want.b = b;
        want.resize(pairs);
        for (std::size_t k = 0; k < pairs; ++k) {
            want.normal[k] = k % 4 == 0 ? 0.0F : unit(rng) + 1.0F;
            want.tangent[k] = unit(rng);
            want.max_normal[k] = 1.0F;
        }
        detail::pair_contacts got = want;
        // cut unevenly, as workers would
        for (const auto& [begin, end] :
             {std::pair{std::size_t{0}, pairs / 3}, std::pair{pairs / 3, pairs}}) {
            ref.prepare_pairs(state.data(), shapes.data(), want.prepare_view(), begin, end, 0.8F);
            simd.prepare_pairs(state.data(), shapes.data(), got.prepare_view(), begin, end, 0.8F);
        }
        for (const auto& [g, w, what] : {std::tuple{&got.normal_x, &want.normal_x, "normal x"},
                                         {&got.normal_y, &want.normal_y, "normal y"},
                                         {&got.base, &want.base, "base"},
                                         {&got.wa, &want.wa, "wa"},
                                         {&got.wb, &want.wb, "wb"},
                                         {&got.approach, &want.approach, "approach"},
                                         {&got.normal, &want.normal, "normal"},
                                         {&got.tangent, &want.tangent, "tangent"},
                                         {&got.max_normal, &want.max_normal, "max normal"}}) {
            expect_same_floats(g->span(), w->span(), what);
        }
        for (std::size_t k = 0; k < pairs; ++k) {
            EXPECT_TRUE(std::isfinite(want.wa[k]) && std::isfinite(want.wb[k])) << k;
            EXPECT_EQ(want.max_normal[k], 0.0F);
            coincide += want.normal_x[k] == 1.0F && want.base[k] < -0.1F ? 1 : 0;
            overlap += want.base[k] < 0.0F ? 1 : 0;
        }
    }
    EXPECT_GT(coincide, 0U) << "no pair had centres that coincide";
    EXPECT_GT(overlap, 0U);
}

INSTANTIATE_TEST_SUITE_P(every_isa, solver_kernels_simd, ::testing::ValuesIn(simd_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
