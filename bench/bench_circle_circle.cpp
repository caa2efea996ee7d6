// circle_circle/<kernel>/<impl>/<n> and response/<kind>/<impl>/<n>. Items are pairs (or
// contacts), so the rates read in pairs per second. Kernels that move their input restore it
// outside the timed region every iteration (manual time).
#include "bench_support.hpp"

#include <algorithm>

namespace simdcollide::bench {
namespace {

void count_items(benchmark::State& state, std::size_t n) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void distance_squared(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    for (auto _ : state) {
        impl->circle_circle->distance_squared(s.a(), s.b(), s.contacts.depth.data());
        benchmark::ClobberMemory();
    }
    count_items(state, n);
}

void overlap(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    std::vector<std::uint8_t> mask(n);
    for (auto _ : state) {
        benchmark::DoNotOptimize(impl->circle_circle->overlap(s.a(), s.b(), mask.data()));
        benchmark::ClobberMemory();
    }
    count_items(state, n);
}

void contact(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    contact_set out(n);
    for (auto _ : state) {
        benchmark::DoNotOptimize(impl->circle_circle->contact(s.a(), s.b(), out.view()));
        benchmark::ClobberMemory();
    }
    count_items(state, n);
}

void separate(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    for (auto _ : state) {
        std::copy_n(s.start_ax.data(), n, s.ax.data());
        std::copy_n(s.start_ay.data(), n, s.ay.data());
        std::copy_n(s.start_bx.data(), n, s.bx.data());
        std::copy_n(s.start_by.data(), n, s.by.data());
        state.SetIterationTime(seconds_of([&] {
            impl->circle_circle->separate(s.a(), s.b(), separation_weighting::inverse_mass);
            benchmark::ClobberMemory();
        }));
    }
    count_items(state, n);
}

// The whole pair-list call as the public function runs it: zero the sums, add every pair's
// correction, apply the means. Items are pairs.
void separate_pairs(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    separation_workspace workspace;
    for (auto _ : state) {
        std::copy_n(s.pile_start_x.data(), n, s.pile_x.data());
        std::copy_n(s.pile_start_y.data(), n, s.pile_y.data());
        state.SetIterationTime(seconds_of([&] {
            const detail::pair_corrections sums = detail::begin_pair_corrections(workspace, n);
            impl->circle_circle->pair_corrections(s.pile(), s.pile_pairs.data(),
                                                  s.pile_pairs.size(),
                                                  separation_weighting::inverse_mass, sums);
            impl->circle_circle->apply_corrections(sums, s.pile());
            benchmark::ClobberMemory();
        }));
    }
    state.counters["pairs_per_circle"] =
        2.0 * static_cast<double>(s.pile_pairs.size()) / static_cast<double>(n);
    count_items(state, s.pile_pairs.size());
}

// The same pile and pair list separated the other way circle_circle.hpp's pair-list
// separation names, in order over a colouring (pair_groups.hpp): one round, the kernel's
// own pack of the circles and unpack of their positions included, as the public
// separate_in_order runs it. The grouping is made once, outside the timed region: a
// simulation groups a list once for all its rounds and steps while the list holds (the
// world regroups only the chunks that changed); group_pairs_of_pile times it alone.
// Items are pairs.
void separate_in_order_pairs(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(s.pile_pairs, n);
    aligned_floats scratch(4 * n);
    for (auto _ : state) {
        std::copy_n(s.pile_start_x.data(), n, s.pile_x.data());
        std::copy_n(s.pile_start_y.data(), n, s.pile_y.data());
        state.SetIterationTime(seconds_of([&] {
            impl->world->separate_in_order(s.pile(), groups.pairs().data(), groups.ends().data(),
                                           groups.ends().size(), separation_weighting::inverse_mass,
                                           1, scratch.data());
            benchmark::ClobberMemory();
        }));
    }
    state.counters["groups"] = static_cast<double>(groups.ends().size());
    count_items(state, s.pile_pairs.size());
}

// Grouping the pile's pair list for separate_in_order_pairs, from scratch each time (a new
// grouper, so no chunk is copied from a last call). One implementation: grouping depends on
// the list alone. Items are pairs.
void group_pairs_of_pile(benchmark::State& state, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    for (auto _ : state) {
        pair_grouper grouper;
        benchmark::DoNotOptimize(grouper.group(s.pile_pairs, n).ends().data());
        benchmark::ClobberMemory();
    }
    count_items(state, s.pile_pairs.size());
}

// The share of the contacts that responded (approached), from the last iteration.
void count_responded(benchmark::State& state, std::size_t responded, std::size_t n) {
    state.counters["responded_fraction"] =
        static_cast<double>(responded) / static_cast<double>(n == 0 ? 1 : n);
}

// Response on the scene's touching contacts (circle_scene::touching).
void respond_circle_aabb(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    std::size_t responded = 0;
    for (auto _ : state) {
        std::copy_n(s.start_bvx.data(), n, s.bvx.data());
        std::copy_n(s.start_bvy.data(), n, s.bvy.data());
        state.SetIterationTime(seconds_of([&] {
            responded = impl->response->circle_aabb(s.b(), s.touching.view(), {0.5F, 0.3F});
            benchmark::ClobberMemory();
        }));
    }
    count_items(state, n);
    count_responded(state, responded, n);
}

void respond_circle_circle(benchmark::State& state, const implementation* impl, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    std::size_t responded = 0;
    for (auto _ : state) {
        std::copy_n(s.start_avx.data(), n, s.avx.data());
        std::copy_n(s.start_avy.data(), n, s.avy.data());
        std::copy_n(s.start_bvx.data(), n, s.bvx.data());
        std::copy_n(s.start_bvy.data(), n, s.bvy.data());
        state.SetIterationTime(seconds_of([&] {
            responded =
                impl->response->circle_circle(s.a(), s.b(), s.touching.view(), {0.5F, 0.3F});
            benchmark::ClobberMemory();
        }));
    }
    count_items(state, n);
    count_responded(state, responded, n);
}

using runner = void (*)(benchmark::State&, const implementation*, std::size_t);

bool register_all() {
    struct entry {
        const char* name;
        runner run;
        bool manual_time;
    };
    const entry all[] = {
        {"circle_circle/distance_squared", distance_squared, false},
        {"circle_circle/overlap", overlap, false},
        {"circle_circle/contact", contact, false},
        {"circle_circle/separate", separate, true},
        {"circle_circle/separate_pairs", separate_pairs, true},
        {"circle_circle/separate_in_order", separate_in_order_pairs, true},
        {"response/circle_aabb", respond_circle_aabb, true},
        {"response/circle_circle", respond_circle_circle, true},
    };
    // Implementations live as long as the program: the benchmarks keep pointers to them.
    static const std::vector<implementation> impls = implementations();
    for (const entry& e : all) {
        for (const implementation& impl : impls) {
            if (e.run == separate_in_order_pairs && impl.world == nullptr) {
                continue; // autovec: no world kernels
            }
            for (std::size_t n : sizes) {
                const std::string name =
                    std::string(e.name) + "/" + impl.name + "/" + std::to_string(n);
                auto* b = benchmark::RegisterBenchmark(name.c_str(), e.run, &impl, n);
                if (e.manual_time) {
                    b->UseManualTime();
                }
            }
        }
    }
    for (std::size_t n : sizes) {
        const std::string name = "circle_circle/group_pairs/dispatch/" + std::to_string(n);
        benchmark::RegisterBenchmark(name.c_str(), group_pairs_of_pile, n);
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
