// box_box/<kernel>/<impl>/<n>: every box-box kernel, every implementation, every size.
// Items are pairs, so the rates read in pairs per second.
#include "bench_support.hpp"

#include <algorithm>

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

void restore(aabb_set& boxes, const aabb_set& start) {
    std::copy_n(start.min_x.data(), boxes.size(), boxes.min_x.data());
    std::copy_n(start.min_y.data(), boxes.size(), boxes.min_y.data());
    std::copy_n(start.max_x.data(), boxes.size(), boxes.max_x.data());
    std::copy_n(start.max_y.data(), boxes.size(), boxes.max_y.data());
}

box_bodies_view bodies(aabb_set& boxes, const aligned_floats& inverse_mass) {
    return {boxes.min_x.data(), boxes.min_y.data(),  boxes.max_x.data(),
            boxes.max_y.data(), inverse_mass.data(), boxes.size()};
}

// Separation moves the boxes: each call starts from the scene as made, restored outside the
// timed region.
void separate(benchmark::State& state, const kernels* k, std::size_t n) {
    box_pair_scene& s = box_scene_for(n);
    std::size_t moved = 0;
    for (auto _ : state) {
        restore(s.first, s.start_first);
        restore(s.second, s.start_second);
        state.SetIterationTime(seconds_of([&] {
            moved = k->separate(bodies(s.first, s.first_inverse_mass),
                                bodies(s.second, s.second_inverse_mass),
                                separation_weighting::inverse_mass);
            benchmark::ClobberMemory();
        }));
    }
    state.counters["hit_fraction"] = static_cast<double>(moved) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// Every box of the first set out of one static box in the middle of the scene.
void separate_box(benchmark::State& state, const kernels* k, std::size_t n) {
    box_pair_scene& s = box_scene_for(n);
    const aabb wall{30.0F, 30.0F, 70.0F, 70.0F};
    std::size_t moved = 0;
    for (auto _ : state) {
        restore(s.first, s.start_first);
        state.SetIterationTime(seconds_of([&] {
            moved = k->separate_box(bodies(s.first, s.first_inverse_mass), wall);
            benchmark::ClobberMemory();
        }));
    }
    state.counters["hit_fraction"] = static_cast<double>(moved) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

using kernel_benchmark = void (*)(benchmark::State&, const kernels*, std::size_t);

bool register_all() {
    struct entry {
        const char* kernel;
        kernel_benchmark run;
        bool manual_time;
    };
    const entry all[] = {
        {"overlap", overlap, false},
        {"contact", contact, false},
        {"separate", separate, true},
        {"separate_box", separate_box, true},
    };
    for (const entry& e : all) {
        for (const implementation& impl : implementations()) {
            for (std::size_t n : sizes) {
                auto* b = benchmark::RegisterBenchmark(
                    benchmark_name({"box_box/", e.kernel, "/", impl.name, "/", std::to_string(n)})
                        .c_str(),
                    e.run, impl.box_box, n);
                if (e.manual_time) {
                    b->UseManualTime();
                }
            }
        }
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
