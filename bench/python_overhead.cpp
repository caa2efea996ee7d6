// python_overhead/<kernel>/cpp/<n>: the kernels that python_overhead.py also calls from
// Python, on the very scenes it writes, so that the two timings differ only by the call.
//
//   simdcollide_bench_python SCENE... [benchmark flags]
//
// A scene file: the count n (uint64), then float32 arrays x, y, radius, min_x, min_y, max_x,
// max_y (n each).
#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/containers.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <deque>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

struct scene {
    simdcollide::circle_set circles;
    simdcollide::aabb_set boxes;
    simdcollide::contact_set contacts;
    simdcollide::aligned_floats distances; // 64-byte aligned, as every array here
};

bool read_scene(const char* path, scene& s) {
    std::ifstream in(path, std::ios::binary);
    std::uint64_t n = 0;
    in.read(reinterpret_cast<char*>(&n), sizeof n);
    s.circles.resize(n);
    s.boxes.resize(n);
    for (float* field :
         {s.circles.x.data(), s.circles.y.data(), s.circles.radius.data(), s.boxes.min_x.data(),
          s.boxes.min_y.data(), s.boxes.max_x.data(), s.boxes.max_y.data()}) {
        in.read(reinterpret_cast<char*>(field), static_cast<std::streamsize>(n * sizeof(float)));
    }
    s.contacts = simdcollide::contact_set(n);
    s.distances.resize(n);
    return static_cast<bool>(in);
}

void distance_squared(benchmark::State& state, scene* s) {
    for (auto _ : state) {
        simdcollide::distance_squared(s->circles.view(), s->boxes.view(), s->distances.span());
        benchmark::ClobberMemory();
    }
}

void contact(benchmark::State& state, scene* s) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            simdcollide::contact(s->circles.view(), s->boxes.view(), s->contacts.view()));
        benchmark::ClobberMemory();
    }
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    std::deque<scene> scenes;
    for (int a = 1; a < argc; ++a) {
        scene& s = scenes.emplace_back();
        if (!read_scene(argv[a], s)) {
            std::cerr << "simdcollide_bench_python: cannot read a scene from " << argv[a] << "\n";
            return 2;
        }
        const std::string n = std::to_string(s.circles.size());
        benchmark::RegisterBenchmark(("python_overhead/distance_squared/cpp/" + n).c_str(),
                                     distance_squared, &s);
        benchmark::RegisterBenchmark(("python_overhead/contact/cpp/" + n).c_str(), contact, &s);
    }
    if (scenes.empty()) {
        std::cerr << "usage: simdcollide_bench_python SCENE... [benchmark flags]\n";
        return 2;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
