// The world's per-contact kernels (phases 3, 5 and 6) on every instruction set against the
// scalar reference, bit for bit: separation in order with its recorded touches, the
// impulses, and the gain with the impulses in one pass. The per-circle kernels are in
// test_world_circle_kernels_simd.cpp.
#include "circle_pair_scenes.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace simdcollide::testing {
namespace {

class world_kernels_simd : public ::testing::TestWithParam<isa> {};

// The touches the reference's phase 3 records over the pile's pairs (grouped, one round),
// for the phase-6 tests; the pile's positions left as they were. `scratch` holds 8 floats
// per circle.
std::vector<detail::world_touch> reference_touches(pile& scene, const detail::touch_parameters& p,
                                                   float* scratch) {
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(scene.pairs, scene.x.size());
    std::vector<detail::world_touch> touches(groups.pairs().size());
    const detail::touch_recording record{p, touches.data()};
    const std::vector<float> x = scene.x, y = scene.y;
    touches.resize(detail::reference_table().world.separate_in_order(
        scene.view(), groups.pairs().data(), groups.ends().data(), groups.ends().size(),
        separation_weighting::inverse_mass, 1, &record, nullptr, scratch));
    scene.x = x;
    scene.y = y;
    return touches;
}

// The world's phase 3 with its record (kernel_table.hpp, separate_in_order): the same
// touches, field by field, in the same order, and the same positions, over a grouped pair
// list, on piles with static circles, coincident centres, repeated pairs, random velocities,
// and lengths around the lane counts; in each weighting, over no, one and two rounds; for
// restitution and friction zero and not; with shock propagation (full, and partly, under a
// slanted gravity) and without. Velocities are random and small, or at the bound up to
// which the SIMD paths skip them for restitution 0 (+-2^120), or extreme (past it,
// infinite, NaN), where a pair's approach can be -infinity and its target NaN.
TEST_P(world_kernels_simd, world_separation_records_the_reference_touches) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table();
    const float inf = std::numeric_limits<float>::infinity();
    const float extremes[] = {
        3e38F, -3e38F, 0x1p121F, -0x1p121F, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
        1.0F};
    const float at_bound[] = {0x1p120F, -0x1p120F, 1.0F, 0.0F, -0.0F};
    const separation_weighting modes[] = {separation_weighting::inverse_mass,
                                          separation_weighting::equal,
                                          separation_weighting::by_radius};
    std::size_t cases = 0;
    for (const std::size_t n : {std::size_t{2}, std::size_t{5}, std::size_t{9}, std::size_t{17},
                                std::size_t{40}, std::size_t{1000}}) {
        for (const int velocities : {0, 1, 2}) {
            pile scene(n, static_cast<std::uint32_t>(n) + 7);
            std::mt19937 rng(static_cast<std::uint32_t>(n));
            std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
            for (std::size_t i = 0; i < n; ++i) {
                if (velocities == 0) {
                    scene.vx[i] = unit(rng);
                    scene.vy[i] = i % 5 == 0 ? 0.0F : unit(rng);
                } else if (velocities == 1) {
                    scene.vx[i] = at_bound[rng() % std::size(at_bound)];
                    scene.vy[i] = at_bound[rng() % std::size(at_bound)];
                } else {
                    scene.vx[i] = extremes[rng() % std::size(extremes)];
                    scene.vy[i] = i % 3 == 0 ? extremes[rng() % std::size(extremes)] : 0.0F;
                }
            }
            for (const detail::touch_parameters p :
                 {detail::touch_parameters{0.0F, 0.0F, 240.0F},
                  detail::touch_parameters{-0.0F, 0.2F, 240.0F},
                  detail::touch_parameters{0.7F, 0.4F, 60.0F},
                  detail::touch_parameters{0.0F, 0.2F, 240.0F, 0.0F, -1.0F, 1.0F},
                  detail::touch_parameters{0.3F, 0.2F, 240.0F, 0.6F, -0.8F, 0.5F}}) {
                for (std::size_t count = 0; count <= scene.pairs.size();
                     count += count < 20 ? 1 : scene.pairs.size() / 3 + 1) {
                    const separation_weighting mode = modes[cases % std::size(modes)];
                    const int rounds = static_cast<int>(cases % 5 == 0 ? 0 : 1 + cases % 2);
                    ++cases;
                    pair_grouper grouper;
                    const pair_groups& groups =
                        grouper.group(std::span<const circle_pair>(scene.pairs.data(), count), n);
                    const auto run = [&](const detail::kernel_table& t, pile& p_scene,
                                         std::vector<detail::world_touch>& touches) {
                        aligned_floats scratch(8 * n);
                        touches.assign(count, {});
                        const detail::touch_recording record{p, touches.data()};
                        touches.resize(t.world.separate_in_order(
                            p_scene.view(), groups.pairs().data(), groups.ends().data(),
                            groups.ends().size(), mode, rounds, &record, nullptr, scratch.data()));
                    };
                    pile want_scene = scene;
                    pile got_scene = scene;
                    std::vector<detail::world_touch> want, got;
                    run(ref, want_scene, want);
                    run(table, got_scene, got);
                    ASSERT_EQ(got.size(), want.size())
                        << "n=" << n << " count=" << count << " velocities=" << velocities;
                    SCOPED_TRACE("n=" + std::to_string(n) + " count=" + std::to_string(count) +
                                 " velocities=" + std::to_string(velocities));
                    for (std::size_t k = 0; k < want.size(); ++k) {
                        expect_same_touch(got[k], want[k], k);
                    }
                    for (std::size_t i = 0; i < n; ++i) {
                        EXPECT_SAME_BITS(got_scene.x[i], want_scene.x[i], "x", i);
                        EXPECT_SAME_BITS(got_scene.y[i], want_scene.y[i], "y", i);
                    }
                    if (rounds == 0) {
                        EXPECT_TRUE(want.empty());
                    }
                    if (count == scene.pairs.size() && n >= 40 && rounds > 0) {
                        EXPECT_GT(want.size(), count / 4); // the pile does touch
                        EXPECT_LT(want.size(), count);     // and not everywhere
                        // Some approach is -infinity, its target NaN.
                        if (velocities == 2 && p.restitution == 0.0F) {
                            EXPECT_TRUE(std::any_of(
                                want.begin(), want.end(),
                                [](const detail::world_touch& t) { return std::isnan(t.target); }));
                        }
                    }
                }
            }
        }
    }
}

// The world's phase 6 for circle pairs (kernel_table.hpp, respond_pairs): the same
// velocities, bit for bit, as the reference's one-by-one order. The SIMD paths apply a
// block of contacts at once only when they share no circle, so the lists here make every
// kind of block: the pile's touches (runs that end, a repeated pair), contacts with no
// circle in common (every block apart), a star around one circle (no block apart), and
// random pairs in random order (some with a > b); every length up to a few blocks, from an
// odd record too; static circles, one with velocity -0; friction zero and not; shock
// propagation of either sign, and none.
TEST_P(world_kernels_simd, world_respond_pairs_match_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table();
    const auto check = [&](pile& scene, const std::vector<detail::world_touch>& touches,
                           const char* what) {
        const std::vector<float> vx = scene.vx;
        const std::vector<float> vy = scene.vy;
        aligned_floats scratch(8 * scene.x.size());
        for (const float friction : {0.0F, 0.4F}) {
            for (std::size_t first = 0; first < 2 && first < touches.size(); ++first) {
                for (std::size_t count = 0; first + count <= touches.size();
                     count += count < 40 ? 1 : touches.size() / 3 + 1) {
                    scene.vx = vx;
                    scene.vy = vy;
                    ref.world.respond_pairs(scene.view(), touches.data() + first, count, friction,
                                            scratch.data());
                    const std::vector<float> want_vx = scene.vx;
                    const std::vector<float> want_vy = scene.vy;
                    scene.vx = vx;
                    scene.vy = vy;
                    table.world.respond_pairs(scene.view(), touches.data() + first, count, friction,
                                              scratch.data());
                    for (std::size_t i = 0; i < vx.size(); ++i) {
                        EXPECT_SAME_BITS(scene.vx[i], want_vx[i], what, i)
                            << " count=" << count << " first=" << first;
                        EXPECT_SAME_BITS(scene.vy[i], want_vy[i], what, i)
                            << " count=" << count << " first=" << first;
                    }
                }
            }
        }
        scene.vx = vx;
        scene.vy = vy;
    };

    // The pile's touches, as phase 3 records them.
    for (const std::size_t n : {std::size_t{9}, std::size_t{40}, std::size_t{1000}}) {
        pile scene(n, static_cast<std::uint32_t>(n) + 3);
        scene.set_random_velocities(static_cast<std::uint32_t>(n) + 1);
        scene.vx[0] = -0.0F; // static (i % 17 == 0): keeps its sign
        for (const detail::touch_parameters p :
             {detail::touch_parameters{0.5F, 0.4F, 240.0F},
              detail::touch_parameters{0.5F, 0.4F, 240.0F, 0.0F, -1.0F, 1.0F}}) {
            aligned_floats scratch(8 * n);
            const std::vector<detail::world_touch> touches =
                reference_touches(scene, p, scratch.data());
            ASSERT_GT(touches.size(), n / 4);
            check(scene, touches, p.shock_propagation > 0.0F ? "pile, shock" : "pile");
        }
    }

    // Made-up contacts over 200 circles: unit normals, targets and limits >= 0.
    const std::size_t n = 200;
    pile scene(n, 11);
    std::mt19937 rng(12);
    std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
    for (std::size_t i = 0; i < n; ++i) {
        scene.vx[i] = unit(rng);
        scene.vy[i] = unit(rng);
    }
    scene.vy[17] = -0.0F; // static
    const auto touch = [&](std::uint32_t a, std::uint32_t b) {
        const float angle = unit(rng) * 3.14159F;
        // A third with no shock; the others with a shock in [-1, 1].
        const float shock = a % 3 == 0 ? 0.0F : unit(rng);
        const float wa = scene.w[a] * (1.0F + std::min(shock, 0.0F));
        const float wb = scene.w[b] * (1.0F - std::max(shock, 0.0F));
        const float total = wa + wb;
        return detail::world_touch{a,
                                   b,
                                   std::cos(angle),
                                   std::sin(angle),
                                   total > 0.0F ? 1.0F / total : 0.0F,
                                   std::abs(unit(rng)),
                                   0.5F * std::abs(unit(rng)),
                                   shock};
    };
    std::vector<detail::world_touch> apart;
    for (std::uint32_t k = 0; 2 * k + 1 < n; ++k) {
        apart.push_back(touch(2 * k, 2 * k + 1));
    }
    check(scene, apart, "apart");
    std::vector<detail::world_touch> star;
    for (std::uint32_t k = 1; k < n; ++k) {
        star.push_back(touch(k % 3 == 0 ? k : 0, k % 3 == 0 ? 0 : k)); // 0 on either side
    }
    check(scene, star, "star");
    std::vector<detail::world_touch> random;
    std::uniform_int_distribution<std::uint32_t> circle(0, n - 1);
    while (random.size() < 3 * n) {
        const std::uint32_t a = circle(rng);
        const std::uint32_t b = circle(rng);
        if (a != b) {
            random.push_back(touch(a, b));
        }
    }
    check(scene, random, "random");
}

// Past 2^18 contacts the SIMD phase 6 fetches the circles of each run's contacts ahead
// (kernels/pairwise/simd/world_impulses.hpp, prefetch_contacts_from): the same bits, from an odd
// record too.
TEST_P(world_kernels_simd, world_respond_pairs_match_reference_on_a_list_long_enough_to_fetch) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table();
    const std::size_t n = 170000;
    pile scene(n, 21);
    scene.set_random_velocities(22);
    aligned_floats scratch(8 * n);
    const std::vector<detail::world_touch> touches =
        reference_touches(scene, {0.5F, 0.4F, 240.0F}, scratch.data());
    ASSERT_GT(touches.size(), (std::size_t{1} << 18) + 1);
    const std::vector<float> vx = scene.vx;
    const std::vector<float> vy = scene.vy;
    for (const std::size_t first : {std::size_t{0}, std::size_t{1}}) {
        const std::size_t count = touches.size() - first;
        ref.world.respond_pairs(scene.view(), touches.data() + first, count, 0.4F, scratch.data());
        const std::vector<float> want_vx = scene.vx;
        const std::vector<float> want_vy = scene.vy;
        scene.vx = vx;
        scene.vy = vy;
        table.world.respond_pairs(scene.view(), touches.data() + first, count, 0.4F,
                                  scratch.data());
        std::size_t changed = 0;
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_SAME_BITS(scene.vx[i], want_vx[i], "vx", i) << " first=" << first;
            EXPECT_SAME_BITS(scene.vy[i], want_vy[i], "vy", i) << " first=" << first;
            changed += want_vx[i] != vx[i] ? 1 : 0;
        }
        EXPECT_GT(changed, n / 4) << "first=" << first; // the impulses do act
        scene.vx = vx;
        scene.vy = vy;
    }
}

// The world's phases 5 and 6 in one velocity pass (kernel_table.hpp, gain_and_respond):
// the same velocities, bit for bit, as the reference's gain, then its box contacts in
// order, then its circle pairs. The pile's pair touches (shock propagation on); box touches
// on most circles, some twice in a row (a circle in a corner: its second box sees the
// first's impulse), a stretch in descending circle order, and some on static circles
// (inverse mass 0, one with velocity -0); corrections of zero, small, and over the speed
// cap; every length of the box list up to a few blocks and then all, with pair lists of
// lengths around a block and all; friction zero and not; boxes 3 on moving or not (each
// touch with the velocity relative to its box); and the view from its first circle and
// from its second (off its alignment).
TEST_P(world_kernels_simd, world_gain_and_respond_matches_reference) {
    SIMDCOLLIDE_TABLE_OR_SKIP(GetParam());
    const auto& ref = detail::reference_table();
    const std::size_t n = 300;
    pile scene(n, 31);
    scene.set_random_velocities(32);
    scene.vx[17] = -0.0F; // static (i % 17 == 0)
    aligned_floats scratch(8 * n);
    const std::vector<detail::world_touch> pair_touches =
        reference_touches(scene, {0.5F, 0.4F, 240.0F, 0.0F, -1.0F, 0.5F}, scratch.data());
    ASSERT_GT(pair_touches.size(), n / 4);

    // Positions after phase 1: the pile's, less a correction of none, a small one (speed
    // about 2.4 at 1 / h = 240, under the cap of 5) or a large one (over it).
    constexpr float inverse_h = 240.0F;
    constexpr float cap = 5.0F;
    std::mt19937 rng(33);
    std::uniform_real_distribution<float> unit(-1.0F, 1.0F);
    std::vector<float> moved_x(n), moved_y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float size = i % 3 == 0 ? 0.0F : i % 3 == 1 ? 0.01F : 0.5F;
        moved_x[i] = scene.x[i] - size * unit(rng);
        moved_y[i] = scene.y[i] - size * unit(rng);
    }
    const auto box_touch = [&](std::uint32_t box, std::uint32_t circle) {
        const float angle = unit(rng) * 3.14159F;
        const float w = scene.w[circle];
        return detail::world_touch{box,
                                   circle,
                                   std::cos(angle),
                                   std::sin(angle),
                                   w > 0.0F ? 1.0F / w : 0.0F,
                                   std::abs(unit(rng)),
                                   0.5F * std::abs(unit(rng)),
                                   0.0F};
    };
    std::vector<detail::world_touch> box_touches;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (i >= 200 && i < 240) { // descending circles
            box_touches.push_back(box_touch(i, 439 - i));
        } else if (i % 3 != 1) {
            box_touches.push_back(box_touch(i % 7, i));
            if (i % 5 == 0) { // a corner: this circle's second box
                box_touches.push_back(box_touch(i % 7 + 1, i));
            }
        }
    }

    // The velocities of boxes 3 on where they move (for the pair counts that are odd).
    std::vector<float> box_vx(n), box_vy(n);
    for (std::size_t k = 0; k < n; ++k) {
        box_vx[k] = 2.0F * unit(rng);
        box_vy[k] = k % 4 == 0 ? 0.0F : unit(rng);
    }
    const std::vector<float> vx = scene.vx;
    const std::vector<float> vy = scene.vy;
    std::size_t most_changed = 0;
    for (const std::uint32_t offset : {0U, 1U}) {
        // The touches of the view from circle `offset`: circle indices shifted, those of the
        // circles before it left out.
        const auto shifted = [&](const std::vector<detail::world_touch>& touches, bool boxes) {
            std::vector<detail::world_touch> out;
            for (detail::world_touch t : touches) {
                if (t.b >= offset && (boxes || t.a >= offset)) {
                    t.a -= boxes ? 0 : offset;
                    t.b -= offset;
                    out.push_back(t);
                }
            }
            return out;
        };
        const std::vector<detail::world_touch> boxes = shifted(box_touches, true);
        const std::vector<detail::world_touch> pairs = shifted(pair_touches, false);
        std::vector<std::size_t> box_counts(21); // 0 to 20, then all
        std::iota(box_counts.begin(), box_counts.end(), std::size_t{0});
        box_counts.push_back(boxes.size());
        const particles_view view{scene.x.data() + offset,
                                  scene.y.data() + offset,
                                  scene.r.data() + offset,
                                  scene.w.data() + offset,
                                  scene.vx.data() + offset,
                                  scene.vy.data() + offset,
                                  n - offset};
        for (const float friction : {0.0F, 0.4F}) {
            for (const std::size_t box_count : box_counts) {
                for (const std::size_t pair_count :
                     {std::size_t{0}, std::size_t{7}, std::size_t{8}, std::size_t{9},
                      std::size_t{17}, pairs.size()}) {
                    detail::velocity_update u{moved_x.data() + offset,
                                              moved_y.data() + offset,
                                              inverse_h,
                                              cap,
                                              friction,
                                              boxes.data(),
                                              box_count,
                                              pairs.data(),
                                              pair_count};
                    if (pair_count % 2 == 1) { // boxes 3 on moving (kinematic boxes)
                        u.box_vx = box_vx.data();
                        u.box_vy = box_vy.data();
                        u.moving_from = 3;
                    }
                    scene.vx = vx;
                    scene.vy = vy;
                    ref.world.gain_and_respond(view, u, scratch.data());
                    const std::vector<float> want_vx = scene.vx;
                    const std::vector<float> want_vy = scene.vy;
                    scene.vx = vx;
                    scene.vy = vy;
                    table.world.gain_and_respond(view, u, scratch.data());
                    std::size_t changed = 0;
                    for (std::size_t i = 0; i < n; ++i) {
                        EXPECT_SAME_BITS(scene.vx[i], want_vx[i], "vx", i)
                            << " offset=" << offset << " boxes=" << box_count
                            << " pairs=" << pair_count << " friction=" << friction;
                        EXPECT_SAME_BITS(scene.vy[i], want_vy[i], "vy", i)
                            << " offset=" << offset << " boxes=" << box_count
                            << " pairs=" << pair_count << " friction=" << friction;
                        changed += bits(want_vx[i]) != bits(vx[i]) ? 1 : 0;
                    }
                    most_changed = std::max(most_changed, changed);
                    if (offset == 1) {
                        EXPECT_SAME_BITS(scene.vx[0], vx[0], "vx before the view", 0);
                    }
                }
            }
        }
    }
    EXPECT_GT(most_changed, n / 2); // the gain and the impulses do act
}

INSTANTIATE_TEST_SUITE_P(every_isa, world_kernels_simd, ::testing::ValuesIn(simd_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
