// circle_aabb/<kernel>/<impl>/<n>: every circle-AABB kernel, every implementation, every size.
// Items are pairs, so the rates read in pairs per second.
#include "bench_support.hpp"

#include <algorithm>

namespace simdcollide::bench {
namespace {

using kernels = detail::circle_aabb_kernels_table;

void closest_point(benchmark::State& state, const kernels* k, std::size_t n) {
    pair_scene& s = scene_for(n);
    for (auto _ : state) {
        k->closest_point(s.circles.view(), s.boxes.view(),
                         {s.contacts.point_x.data(), s.contacts.point_y.data(), n});
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void distance_squared(benchmark::State& state, const kernels* k, std::size_t n) {
    pair_scene& s = scene_for(n);
    for (auto _ : state) {
        k->distance_squared(s.circles.view(), s.boxes.view(), s.contacts.depth.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void overlap(benchmark::State& state, const kernels* k, std::size_t n) {
    pair_scene& s = scene_for(n);
    std::vector<std::uint8_t> mask(n);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->overlap(s.circles.view(), s.boxes.view(), mask.data(), 0.0F);
        benchmark::DoNotOptimize(hits);
        benchmark::ClobberMemory();
    }
    state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void contact(benchmark::State& state, const kernels* k, std::size_t n) {
    pair_scene& s = scene_for(n);
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            k->contact(s.circles.view(), s.boxes.view(), s.contacts.view(), 0.0F));
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// Push-out changes its input, so every iteration starts from the same penetrating scene:
// the positions are restored outside the timed region (manual time).
void push_out(benchmark::State& state, const kernels* k, std::size_t n) {
    pair_scene& s = scene_for(n);
    std::size_t moved = 0;
    for (auto _ : state) {
        std::copy_n(s.start_x.data(), n, s.circles.x.data());
        std::copy_n(s.start_y.data(), n, s.circles.y.data());
        state.SetIterationTime(seconds_of([&] {
            moved = k->push_out(s.circles.view(), s.boxes.view(), 0.0F);
            benchmark::ClobberMemory();
        }));
    }
    state.counters["moved_fraction"] = static_cast<double>(moved) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 9 * sizeof(float)));
}

// circle_aabb/push_out/stream: the bandwidth bar for push-out. The same bytes, the same
// restore, next to no arithmetic.
void stream_baseline(benchmark::State& state, std::size_t n) {
    pair_scene& s = scene_for(n);
    for (auto _ : state) {
        std::copy_n(s.start_x.data(), n, s.circles.x.data());
        std::copy_n(s.start_y.data(), n, s.circles.y.data());
        state.SetIterationTime(seconds_of([&] {
            stream_like_push_out(s.circles.view(), s.boxes.view());
            benchmark::ClobberMemory();
        }));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 9 * sizeof(float)));
}

using kernel_benchmark = void (*)(benchmark::State&, const kernels*, std::size_t);

bool register_all() {
    const std::pair<const char*, kernel_benchmark> all[] = {
        {"closest_point", closest_point},
        {"distance_squared", distance_squared},
        {"overlap", overlap},
        {"contact", contact},
        {"push_out", push_out},
    };
    for (const auto& [kernel, run] : all) {
        for (const implementation& impl : implementations()) {
            for (std::size_t n : sizes) {
                const std::string name = std::string("circle_aabb/") + kernel + "/" + impl.name +
                                         "/" + std::to_string(n);
                auto* b = benchmark::RegisterBenchmark(name.c_str(), run, impl.circle_aabb, n);
                if (run == push_out) {
                    b->UseManualTime();
                }
            }
        }
    }
    benchmark::RegisterBenchmark("circle_aabb/push_out/stream/16777216", stream_baseline,
                                 std::size_t{16777216})
        ->UseManualTime();
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
