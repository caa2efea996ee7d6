// The batch entry points on workers (workers.hpp), at 1, 2 and each count up to the
// machine's cores (a pool of the library's own, started before the timing):
//   batch/pair_finder/<n>/workers:<k>   pair_finder::find on n circles at about unit
//                                       density (radius 0.25 to 0.45)
//   batch/push_out_all/<n>/workers:<k>  n such circles against n / 10 small boxes scattered
//                                       over them, through a static_box_grid
//   batch/contact/<n>/workers:<k>       the circle-box contact kernel over n pairs
//   batch/separate_in_order/<n>/workers:<k>
//                                       one round of separation in order over a packed
//                                       field of n circles in rows of 300, its pairs cut
//                                       into blocks by default (pair_blocks)
// Items are circles (pairs for contact).
#include "bench_support.hpp"

#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/pair_finder.hpp>
#include <simdcollide/pair_groups.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/workers.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <thread>

namespace simdcollide::bench {
namespace {

aabb_set small_boxes(std::size_t count, float side) {
    std::mt19937 rng(static_cast<std::uint32_t>(count));
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    aabb_set set;
    for (std::size_t k = 0; k < count; ++k) {
        const float w = 0.05F + 0.5F * unit(rng);
        set.push_back(aabb::from_origin_size(unit(rng) * side, unit(rng) * side, w, w));
    }
    return set;
}

void find_on(benchmark::State& state, std::size_t n, int count) {
    const circle_set c = scattered_circles(n);
    const workers w(count);
    pair_finder finder;
    std::size_t pairs = 0;
    for (auto _ : state) {
        pairs = finder.find(c.view(), 0.0F, w).size();
        benchmark::DoNotOptimize(pairs);
    }
    state.counters["pairs"] = static_cast<double>(pairs);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void push_out_all_on(benchmark::State& state, std::size_t n, int count) {
    circle_set c = scattered_circles(n);
    const aligned_floats x = c.x;
    const aligned_floats y = c.y;
    const static_box_grid grid(small_boxes(n / 10, std::sqrt(static_cast<float>(n))).view());
    const workers w(count);
    for (auto _ : state) {
        state.PauseTiming();
        std::copy_n(x.data(), n, c.x.data());
        std::copy_n(y.data(), n, c.y.data());
        state.ResumeTiming();
        benchmark::DoNotOptimize(push_out_all(c.view(), grid, 0.0F, w));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void contact_on(benchmark::State& state, std::size_t n, int count) {
    const circle_set c = scattered_circles(n);
    const aabb_set boxes = small_boxes(n, std::sqrt(static_cast<float>(n)));
    aligned_floats nx(n), ny(n), depth(n), px(n), py(n);
    const contacts_view out(nx.data(), ny.data(), depth.data(), px.data(), py.data(), n);
    const workers w(count);
    for (auto _ : state) {
        benchmark::DoNotOptimize(contact(c.view(), boxes.view(), out, 0.0F, w));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void separate_in_order_on(benchmark::State& state, std::size_t n, int count) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    aligned_floats x(n), y(n), radius(n), inverse_mass(n), vx(n), vy(n);
    for (std::size_t i = 0; i < n; ++i) { // rows of 300, overlapping their neighbours a little
        x[i] = 0.9F * static_cast<float>(i % 300) + 0.1F * unit(rng);
        y[i] = 0.9F * static_cast<float>(i / 300) + 0.1F * unit(rng);
        radius[i] = 0.45F + 0.1F * unit(rng);
        inverse_mass[i] = 0.5F + unit(rng);
    }
    const aligned_floats x0 = x;
    const aligned_floats y0 = y;
    pair_finder finder;
    pair_blocks blocks;
    blocks.cut(finder.find(circles_cview(x.data(), y.data(), radius.data(), n)), n);
    const particles_view p(x.data(), y.data(), radius.data(), inverse_mass.data(), vx.data(),
                           vy.data(), n);
    separation_workspace workspace;
    const workers w(count);
    for (auto _ : state) {
        state.PauseTiming();
        std::copy_n(x0.data(), n, x.data());
        std::copy_n(y0.data(), n, y.data());
        state.ResumeTiming();
        separate_in_order(p, blocks, separation_weighting::inverse_mass, 1, workspace, w);
    }
    state.counters["blocks"] = static_cast<double>(blocks.blocks());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// "batch/<what>/<n>/workers:<k>", built with append: GCC 12 reports a false -Wrestrict on
// some std::string concatenations (its bug 105329), which -Werror would turn fatal.
std::string name_of(const char* what, std::size_t n, int k) {
    std::string out("batch/");
    out.append(what).append("/").append(std::to_string(n)).append("/workers:");
    return out.append(std::to_string(k));
}

bool register_all() {
    const int cores = static_cast<int>(std::max(2U, std::thread::hardware_concurrency()));
    for (const std::size_t n : {std::size_t{100000}, std::size_t{1000000}}) {
        for (int k = 1; k <= cores; ++k) {
            benchmark::RegisterBenchmark(name_of("pair_finder", n, k).c_str(), find_on, n, k)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
            benchmark::RegisterBenchmark(name_of("push_out_all", n, k).c_str(), push_out_all_on, n,
                                         k)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
            benchmark::RegisterBenchmark(name_of("contact", n, k).c_str(), contact_on, n, k)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
            benchmark::RegisterBenchmark(name_of("separate_in_order", n, k).c_str(),
                                         separate_in_order_on, n, k)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
