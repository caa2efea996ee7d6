// layout/<kernel>/<impl>/<n>/<stagger>: the contact kernels on the scenes of
// circle_aabb/contact and circle_circle/contact, with every array copied into one pool, each
// `stagger` bytes further into a 4 KiB page than the one before (0: all at the same offset,
// as glibc places every allocation of 128 KiB or more; 16: as it places a run of
// std::vector<float> of 4096 elements). Where inputs and outputs start at the same address
// modulo 4 KiB, or less than a 64-byte line from it, the CPU delays loads behind stores it
// cannot tell apart: this measures what that costs, and so what the containers' placement
// (containers.hpp) avoids.
#include "bench_support.hpp"

#include <algorithm>
#include <memory>
#include <new>

namespace simdcollide::bench {
namespace {

constexpr std::size_t page = 4096;

// `fields` arrays of n floats, array k at k * (n + 3 pages + stagger / 4) floats from a page
// boundary. The three pages keep the arrays apart in the caches indexed by address bits
// above the page offset (L2), so that only the offset within a page differs between columns.
class staggered_pool {
public:
    staggered_pool(std::size_t fields, std::size_t n, std::size_t stagger)
        : stride_(n + 3 * page / sizeof(float) + stagger / sizeof(float)),
          memory_(static_cast<float*>(
              ::operator new[](fields* stride_ * sizeof(float), std::align_val_t{page}))) {}
    float* field(std::size_t k) { return memory_.get() + k * stride_; }

private:
    struct free_page_aligned {
        void operator()(float* p) const noexcept { ::operator delete[](p, std::align_val_t{page}); }
    };
    std::size_t stride_;
    std::unique_ptr<float[], free_page_aligned> memory_;
};

float* copied(staggered_pool& pool, std::size_t k, const float* from, std::size_t n) {
    return std::copy_n(from, n, pool.field(k)) - n;
}

contacts_view contacts_in(staggered_pool& pool, std::size_t first, std::size_t n) {
    return {pool.field(first),     pool.field(first + 1), pool.field(first + 2),
            pool.field(first + 3), pool.field(first + 4), n};
}

void circle_aabb_contact(benchmark::State& state, const implementation* impl, std::size_t n,
                         std::size_t stagger) {
    const pair_scene& s = scene_for(n);
    staggered_pool pool(12, n, stagger);
    const circles_cview circles(copied(pool, 0, s.circles.x.data(), n),
                                copied(pool, 1, s.circles.y.data(), n),
                                copied(pool, 2, s.circles.radius.data(), n), n);
    const aabbs_view boxes(
        copied(pool, 3, s.boxes.min_x.data(), n), copied(pool, 4, s.boxes.min_y.data(), n),
        copied(pool, 5, s.boxes.max_x.data(), n), copied(pool, 6, s.boxes.max_y.data(), n), n);
    const contacts_view out = contacts_in(pool, 7, n);
    for (auto _ : state) {
        benchmark::DoNotOptimize(impl->circle_aabb->contact(circles, boxes, out, 0.0F));
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void circle_circle_contact(benchmark::State& state, const implementation* impl, std::size_t n,
                           std::size_t stagger) {
    const circle_scene& s = circle_scene_for(n);
    staggered_pool pool(11, n, stagger);
    const circles_cview a(copied(pool, 0, s.ax.data(), n), copied(pool, 1, s.ay.data(), n),
                          copied(pool, 2, s.ar.data(), n), n);
    const circles_cview b(copied(pool, 3, s.bx.data(), n), copied(pool, 4, s.by.data(), n),
                          copied(pool, 5, s.br.data(), n), n);
    const contacts_view out = contacts_in(pool, 6, n);
    for (auto _ : state) {
        benchmark::DoNotOptimize(impl->circle_circle->contact(a, b, out));
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

bool register_all() {
    using run = void (*)(benchmark::State&, const implementation*, std::size_t, std::size_t);
    const std::pair<const char*, run> all[] = {
        {"circle_aabb/contact", circle_aabb_contact},
        {"circle_circle/contact", circle_circle_contact},
    };
    // The implementations live as long as the process: the benchmarks keep pointers to them.
    static const std::vector<implementation> impls = implementations();
    for (const auto& [kernel, body] : all) {
        for (const implementation& impl : impls) {
            if (impl.name != "reference" && impl.name != "dispatch") {
                continue;
            }
            for (const std::size_t n : {std::size_t{4096}, std::size_t{65536}}) {
                for (const std::size_t stagger : {0, 16, 64, 320}) {
                    const std::string name = std::string("layout/") + kernel + "/" + impl.name +
                                             "/" + std::to_string(n) + "/" +
                                             std::to_string(stagger);
                    benchmark::RegisterBenchmark(name.c_str(), body, &impl, n, stagger);
                }
            }
        }
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
