// swept/<kernel>/<impl>/<n>: the swept kernels (box, one_box, circle) on the reference, every
// instruction set this CPU runs and the active one; and swept/sweep_all/<boxes>: moves against
// a box set through the grid and by brute force. Items are moves.
#include "bench_support.hpp"

#include <simdcollide/static_boxes.hpp>
#include <simdcollide/swept.hpp>

#include <map>
#include <memory>
#include <random>

namespace simdcollide::bench {
namespace {

using kernels = detail::swept_kernels_table;

// The pair scene's circles (about half in contact with their boxes) with moves of up to 3
// on each axis, as long as the boxes: about three in four moves hit, a third of those at 0.
struct move_scene {
    aligned_floats dx, dy, time, normal_x, normal_y;
    displacements_cview moves() const { return {dx.data(), dy.data(), dx.size()}; }
    impacts_view impacts() { return {time.data(), normal_x.data(), normal_y.data(), time.size()}; }
};

move_scene& moves_for(std::size_t n) {
    static std::map<std::size_t, std::unique_ptr<move_scene>> scenes;
    std::unique_ptr<move_scene>& scene = scenes[n];
    if (!scene) {
        scene = std::make_unique<move_scene>();
        std::mt19937 rng(static_cast<std::uint32_t>(n) + 7);
        std::uniform_real_distribution<float> move(-3.0F, 3.0F);
        for (aligned_floats* f :
             {&scene->dx, &scene->dy, &scene->time, &scene->normal_x, &scene->normal_y}) {
            f->resize(n);
        }
        for (std::size_t i = 0; i < n; ++i) {
            scene->dx[i] = move(rng);
            scene->dy[i] = move(rng);
        }
    }
    return *scene;
}

void count_hits(benchmark::State& state, std::size_t hits, std::size_t n) {
    state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void box(benchmark::State& state, const kernels* k, std::size_t n) {
    pair_scene& s = scene_for(n);
    move_scene& m = moves_for(n);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->box(s.circles.view(), m.moves(), s.boxes.view(), m.impacts());
        benchmark::ClobberMemory();
    }
    count_hits(state, hits, n);
}

void one_box(benchmark::State& state, const kernels* k, std::size_t n) {
    pair_scene& s = scene_for(n);
    move_scene& m = moves_for(n);
    const aabb floor = aabb::from_min_max(0, 40, 100, 60); // across the middle of the scene
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->one_box(s.circles.view(), m.moves(), floor, m.impacts());
        benchmark::ClobberMemory();
    }
    count_hits(state, hits, n);
}

// Circle a against circle b of the circle scene, a moving.
void circle(benchmark::State& state, const kernels* k, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    move_scene& m = moves_for(n);
    const circles_cview a{s.ax.data(), s.ay.data(), s.ar.data(), n};
    const circles_cview b{s.bx.data(), s.by.data(), s.br.data(), n};
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->circle(a, m.moves(), b, m.impacts());
        benchmark::ClobberMemory();
    }
    count_hits(state, hits, n);
}

// 10 000 moves of up to 3 on each axis among `boxes` boxes 0.5 to 3 wide over 100 x 100:
// through the grid (grid) and every move against every box (brute force, the reference).
void sweep_all_boxes(benchmark::State& state, std::size_t boxes, bool grid) {
    constexpr std::size_t n = 10000;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    aabb_set set;
    for (std::size_t k = 0; k < boxes; ++k) {
        set.push_back(aabb::from_origin_size(100 * unit(rng), 100 * unit(rng),
                                             0.5F + 2.5F * unit(rng), 0.5F + 2.5F * unit(rng)));
    }
    const static_box_grid built(set.view());
    pair_scene& s = scene_for(n);
    move_scene& m = moves_for(n);
    std::vector<std::uint32_t> hit_box(n);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = grid ? sweep_all(s.circles.view(), m.moves(), built, m.impacts(), hit_box)
                    : reference::sweep_all(s.circles.view(), m.moves(), set.view(), m.impacts(),
                                           hit_box);
        benchmark::ClobberMemory();
    }
    count_hits(state, hits, n);
}

using kernel_benchmark = void (*)(benchmark::State&, const kernels*, std::size_t);

bool register_all() {
    std::vector<std::pair<std::string, const kernels*>> impls{
        {"reference", &detail::reference_table().swept}};
    for (isa which : compiled_isas()) {
        if (which != isa::reference && isa_supported(which)) {
            impls.emplace_back(isa_name(which), &detail::compiled_table(which)->swept);
        }
    }
    impls.emplace_back("dispatch", &detail::active_table().swept);
    const std::pair<const char*, kernel_benchmark> all[] = {
        {"box", box},
        {"one_box", one_box},
        {"circle", circle},
    };
    for (const auto& [kernel, run] : all) {
        for (const auto& [impl, table] : impls) {
            for (std::size_t n : {std::size_t{64}, std::size_t{4096}, std::size_t{65536}}) {
                const std::string name =
                    std::string("swept/") + kernel + "/" + impl + "/" + std::to_string(n);
                benchmark::RegisterBenchmark(name.c_str(), run, table, n);
            }
        }
    }
    for (std::size_t boxes : {std::size_t{100}, std::size_t{1000}}) {
        for (const bool grid : {true, false}) {
            const std::string name = std::string("swept/sweep_all/") +
                                     (grid ? "grid" : "brute_force") + "/" + std::to_string(boxes);
            benchmark::RegisterBenchmark(name.c_str(), sweep_all_boxes, boxes, grid);
        }
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
