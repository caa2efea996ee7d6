// queries/<kernel>/<impl>/<shapes>: the ray casts (rays against every circle, or every box)
// and the region queries on the reference, every instruction set this CPU runs and the
// active one. Rays: 1 024 rays over 100 x 100, up to 30 long, against that many shapes (a
// third to a half of the rays hit); items are ray-shape tests. Regions: a 10 x 10 region
// over shapes spread on 100 x 100; items are shapes.
#include "bench_support.hpp"

#include <simdcollide/queries.hpp>
#include <simdcollide/world.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <map>
#include <memory>
#include <random>
#include <utility>

namespace simdcollide::bench {
namespace {

using kernels = detail::query_kernels_table;

struct query_scene {
    explicit query_scene(std::size_t shapes) {
        std::mt19937 rng(static_cast<std::uint32_t>(shapes) + 11);
        std::uniform_real_distribution<float> coord(0.0F, 100.0F);
        std::uniform_real_distribution<float> size(0.05F, 0.5F);
        std::uniform_real_distribution<float> move(-30.0F, 30.0F);
        for (std::size_t k = 0; k < shapes; ++k) {
            circles.push_back({coord(rng), coord(rng), size(rng)});
            boxes.push_back(aabb::from_origin_size(coord(rng), coord(rng), size(rng), size(rng)));
        }
        for (aligned_floats* f :
             {&x, &y, &dx, &dy, &fraction, &point_x, &point_y, &normal_x, &normal_y}) {
            f->resize(rays);
        }
        shape.resize(rays);
        mask.resize(shapes);
        for (std::size_t i = 0; i < rays; ++i) {
            x[i] = coord(rng);
            y[i] = coord(rng);
            dx[i] = move(rng);
            dy[i] = move(rng);
        }
    }
    static constexpr std::size_t rays = 1024;
    circle_set circles;
    aabb_set boxes;
    aligned_floats x, y, dx, dy, fraction, point_x, point_y, normal_x, normal_y;
    std::vector<std::uint32_t> shape;
    std::vector<std::uint8_t> mask;
    rays_cview ray_view() const { return {x.data(), y.data(), dx.data(), dy.data(), rays}; }
    ray_hits_view hits() {
        return {fraction.data(),
                point_x.data(),
                point_y.data(),
                normal_x.data(),
                normal_y.data(),
                shape.data(),
                rays};
    }
};

query_scene& scene_of(std::size_t shapes) {
    static std::map<std::size_t, std::unique_ptr<query_scene>> scenes;
    std::unique_ptr<query_scene>& s = scenes[shapes];
    if (!s) {
        s = std::make_unique<query_scene>(shapes);
    }
    return *s;
}

void rays_and_circles(benchmark::State& state, const kernels* k, std::size_t shapes) {
    query_scene& s = scene_of(shapes);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->ray_circles(s.ray_view(), std::as_const(s.circles).view(), s.hits());
        benchmark::ClobberMemory();
    }
    state.counters["hit_fraction"] = static_cast<double>(hits) / query_scene::rays;
    state.SetItemsProcessed(
        static_cast<std::int64_t>(state.iterations() * query_scene::rays * shapes));
}

void rays_and_boxes(benchmark::State& state, const kernels* k, std::size_t shapes) {
    query_scene& s = scene_of(shapes);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = k->ray_boxes(s.ray_view(), s.boxes.view(), s.hits());
        benchmark::ClobberMemory();
    }
    state.counters["hit_fraction"] = static_cast<double>(hits) / query_scene::rays;
    state.SetItemsProcessed(
        static_cast<std::int64_t>(state.iterations() * query_scene::rays * shapes));
}

void circles_in_region(benchmark::State& state, const kernels* k, std::size_t shapes) {
    query_scene& s = scene_of(shapes);
    const aabb region = aabb::from_min_max(45.0F, 45.0F, 55.0F, 55.0F);
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            k->circles_in_region(std::as_const(s.circles).view(), region, s.mask.data()));
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * shapes));
}

using kernel_benchmark = void (*)(benchmark::State&, const kernels*, std::size_t);

bool register_all() {
    std::vector<std::pair<std::string, const kernels*>> impls{
        {"reference", &detail::reference_table().queries}};
    for (isa which : compiled_isas()) {
        if (which != isa::reference && isa_supported(which)) {
            impls.emplace_back(isa_name(which), &detail::compiled_table(which)->queries);
        }
    }
    impls.emplace_back("dispatch", &detail::active_table().queries);
    const std::pair<const char*, kernel_benchmark> all[] = {
        {"ray_circles", rays_and_circles},
        {"ray_boxes", rays_and_boxes},
        {"circles_in_region", circles_in_region},
    };
    for (const auto& [kernel, run] : all) {
        for (const auto& [impl, table] : impls) {
            for (std::size_t n : {std::size_t{1000}, std::size_t{10000}}) {
                const std::string name =
                    std::string("queries/") + kernel + "/" + impl + "/" + std::to_string(n);
                benchmark::RegisterBenchmark(name.c_str(), run, table, n);
            }
        }
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench

namespace simdcollide::bench {
namespace {

// world/cast_rays/<impl>/<n>: 100 000 rays into a world of n circles of radius 0.1 to 0.2 on
// a jittered lattice (as packed as a pile), with a floor and walls; each ray starts anywhere
// over the circles' bounds and runs a quarter of their width in any direction. Items are
// rays. <impl>: the reference or the dispatched kernels (set_isa).
struct world_ray_scene {
    explicit world_ray_scene(std::size_t n) {
        const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
        const float width = 0.4F * static_cast<float>(side);
        aabb_set walls;
        walls.push_back(aabb::from_min_max(-1.0F, -1.0F, width + 1.0F, 0.0F));
        walls.push_back(aabb::from_min_max(-1.0F, 0.0F, 0.0F, width));
        walls.push_back(aabb::from_min_max(width, 0.0F, width + 1.0F, width));
        world.set_boxes(walls.view());
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_real_distribution<float> jitter(-0.05F, 0.05F);
        std::uniform_real_distribution<float> radius(0.1F, 0.2F);
        for (std::size_t i = 0; i < n; ++i) {
            world.add_circle({0.2F + 0.4F * static_cast<float>(i % side) + jitter(rng),
                              0.2F + 0.4F * static_cast<float>(i / side) + jitter(rng),
                              radius(rng)},
                             1.0F);
        }
        std::uniform_real_distribution<float> coord(0.0F, width);
        std::uniform_real_distribution<float> angle(0.0F, 6.2831853F);
        for (std::size_t i = 0; i < rays; ++i) {
            const float a = angle(rng);
            x.push_back(coord(rng));
            y.push_back(coord(rng));
            dx.push_back(0.25F * width * std::cos(a));
            dy.push_back(0.25F * width * std::sin(a));
        }
        for (std::vector<float>* f : {&fraction, &point_x, &point_y, &normal_x, &normal_y}) {
            f->resize(rays);
        }
        shape.resize(rays);
        kind.resize(rays);
    }
    static constexpr std::size_t rays = 100000;
    particle_world world;
    std::vector<float> x, y, dx, dy, fraction, point_x, point_y, normal_x, normal_y;
    std::vector<std::uint32_t> shape;
    std::vector<shape_kind> kind;
};

void world_rays(benchmark::State& state, isa which, std::size_t n) {
    static std::map<std::size_t, std::unique_ptr<world_ray_scene>> scenes;
    std::unique_ptr<world_ray_scene>& s = scenes[n];
    if (!s) {
        s = std::make_unique<world_ray_scene>(n);
    }
    set_isa(which);
    const rays_cview rays(s->x, s->y, s->dx, s->dy);
    const ray_hits_view hits(
        {s->fraction, s->point_x, s->point_y, s->normal_x, s->normal_y, s->shape});
    std::size_t hit = 0;
    for (auto _ : state) {
        hit = s->world.cast_rays(rays, hits, s->kind);
        benchmark::ClobberMemory();
    }
    reset_isa();
    state.counters["hit_fraction"] =
        static_cast<double>(hit) / static_cast<double>(world_ray_scene::rays);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * world_ray_scene::rays));
}

bool register_world() {
    for (const std::size_t n : {std::size_t{10000}, std::size_t{100000}}) {
        for (const isa which : {isa::reference, best_isa()}) {
            const std::string name = std::string("world/cast_rays/") +
                                     (which == isa::reference ? "reference" : "dispatch") + "/" +
                                     std::to_string(n);
            benchmark::RegisterBenchmark(name.c_str(), world_rays, which, n);
        }
    }
    return true;
}

const bool world_registered = register_world();

} // namespace
} // namespace simdcollide::bench
