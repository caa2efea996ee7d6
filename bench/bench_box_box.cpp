// box_box/<kernel>/<impl>/<n>: every box-box kernel, every implementation, every size.
// Items are pairs, so the rates read in pairs per second.
#include "bench_support.hpp"

namespace simdcollide::bench {
namespace {

using kernels = detail::box_box_kernels_table;

void overlap(benchmark::State& state, const kernels* k, std::size_t n) {
    box_pair_scene& s = box_scene_for(n);
    std::vector<std::uint8_t> mask(n);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->overlap(s.first.view(), s.second.view(), mask.data(), 0.0F);
        benchmark::DoNotOptimize(hits);
        benchmark::ClobberMemory();
    }
    state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void contact(benchmark::State& state, const kernels* k, std::size_t n) {
    box_pair_scene& s = box_scene_for(n);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->contact(s.first.view(), s.second.view(), s.contacts.view(), 0.0F);
        benchmark::DoNotOptimize(hits);
        benchmark::ClobberMemory();
    }
    state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

using kernel_benchmark = void (*)(benchmark::State&, const kernels*, std::size_t);

bool register_all() {
    const std::pair<const char*, kernel_benchmark> all[] = {
        {"overlap", overlap},
        {"contact", contact},
    };
    for (const auto& [kernel, run] : all) {
        for (const implementation& impl : implementations()) {
            for (std::size_t n : sizes) {
                benchmark::RegisterBenchmark(
                    benchmark_name({"box_box/", kernel, "/", impl.name, "/", std::to_string(n)})
                        .c_str(),
                    run, impl.box_box, n);
            }
        }
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
