// The broad phases with one object far from the rest, beside the same scene without it:
//   broad_phase/<normal|outlier>/pair_finder/<n>   pair_finder::find on n circles at about
//                                                  unit density (radius 0.25 to 0.45)
//   broad_phase/<normal|outlier>/push_out_all/<n>  10 000 such circles against n small
//                                                  boxes scattered over them
//   broad_phase/<normal|outlier>/world_step/<n>    steps of a world of n such circles
//                                                  falling into a container
// "outlier" adds one circle (a static one, in the world) or one box at x = -3e38. The
// grids cover the bulk of the objects, so the two rows of a pair should cost about the
// same. Items are circles.
#include "bench_support.hpp"

#include <simdcollide/pair_finder.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/world.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace simdcollide::bench {
namespace {

constexpr float far_away = -3e38F;

// n circles spread at random over a square of area n (about one per unit area).
circle_set scattered_circles(std::size_t n, bool outlier) {
    circle_set c = bench::scattered_circles(n);
    if (outlier) {
        c.push_back({far_away, 0.0F, 0.35F});
    }
    return c;
}

void find_pairs(benchmark::State& state, std::size_t n, bool outlier) {
    const circle_set c = scattered_circles(n, outlier);
    pair_finder finder;
    std::size_t pairs = 0;
    for (auto _ : state) {
        pairs = finder.find(c.view()).size();
        benchmark::DoNotOptimize(pairs);
    }
    state.counters["pairs"] = static_cast<double>(pairs);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void push_out_all_boxes(benchmark::State& state, std::size_t boxes, bool outlier) {
    constexpr std::size_t circles = 10000;
    circle_set c = scattered_circles(circles, false);
    const aligned_floats x = c.x;
    const aligned_floats y = c.y;
    std::mt19937 rng(static_cast<std::uint32_t>(boxes));
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const float side = std::sqrt(static_cast<float>(circles));
    aabb_set set;
    for (std::size_t k = 0; k < boxes; ++k) {
        const float w = 0.05F + 0.1F * unit(rng);
        set.push_back(aabb::from_origin_size(unit(rng) * side, unit(rng) * side, w, w));
    }
    if (outlier) {
        set.push_back(aabb::from_origin_size(far_away, 0.0F, 1.0F, 1.0F));
    }
    const static_box_grid grid(set.view());
    for (auto _ : state) {
        state.PauseTiming();
        std::copy_n(x.data(), circles, c.x.data());
        std::copy_n(y.data(), circles, c.y.data());
        state.ResumeTiming();
        benchmark::DoNotOptimize(push_out_all(c.view(), grid));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * circles));
}

void world_step(benchmark::State& state, std::size_t n, bool outlier) {
    particle_world world;
    const float side = std::sqrt(static_cast<float>(n));
    aabb_set container;
    container.push_back(aabb::from_min_max(-1.0F, -1.0F, side + 1.0F, 0.0F));
    container.push_back(aabb::from_min_max(-1.0F, 0.0F, 0.0F, 2.0F * side));
    container.push_back(aabb::from_min_max(side, 0.0F, side + 1.0F, 2.0F * side));
    world.set_boxes(container.view());
    const circle_set c = scattered_circles(n, false);
    for (std::size_t i = 0; i < n; ++i) {
        world.add_circle({c.x[i], c.y[i], c.radius[i]}, 1.0F);
    }
    if (outlier) {
        world.add_circle({far_away, 0.0F, 0.35F}, 0.0F);
    }
    for (auto _ : state) {
        world.step(1.0F / 60.0F);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

bool register_all() {
    for (const bool outlier : {false, true}) {
        const std::string kind = outlier ? "outlier" : "normal";
        benchmark::RegisterBenchmark(("broad_phase/" + kind + "/pair_finder/100000").c_str(),
                                     find_pairs, std::size_t{100000}, outlier)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("broad_phase/" + kind + "/push_out_all/100000").c_str(),
                                     push_out_all_boxes, std::size_t{100000}, outlier)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("broad_phase/" + kind + "/world_step/100000").c_str(),
                                     world_step, std::size_t{100000}, outlier)
            ->Unit(benchmark::kMillisecond);
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
