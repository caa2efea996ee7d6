// simdcollide-quality: steps the standard scenes (tools/scenes) and prints, every simulated
// second, how much they still move, how deep their circles overlap and whether any left
// their container, with the time a step took.
//
//   simdcollide-quality [--scene box|column-high|column-floor|all] [--circles N]
//                       [--seconds S] [--dt DT] [--every SECONDS] [--fastest K]
//                       [--substeps K] [--relax-iterations K] [--hertz HZ] [--damping Z]
//                       [--push-speed V] [--friction F] [--restitution E]
//                       [--restitution-threshold V] [--pair-margin M] [--workers K]
//
// Options left out keep world_options' defaults. Overlaps are percentages of the smaller
// radius of a pair, box penetration of the circle's radius. --fastest K lists the K fastest
// circles at each report.
#include "scenes/scenes.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace simdcollide;

struct settings {
    std::vector<scenes::kind> kinds = scenes::all_kinds();
    std::size_t circles = 10000;
    double seconds = 30.0;
    float dt = 1.0F / 60.0F;
    double every = 1.0;
    std::size_t fastest = 0;
    world_options options;
};

// Prints why and how to call, and exits with status (0 for --help, 2 for a bad call).
[[noreturn]] void usage(const std::string& why, int status = 2) {
    std::fprintf(
        status == 0 ? stdout : stderr,
        "simdcollide-quality: %s\n"
        "usage: simdcollide-quality [--scene box|column-high|column-floor|all] "
        "[--circles N] [--seconds S] [--dt DT] [--every SECONDS] [--fastest K] [--substeps K] "
        "[--relax-iterations K] [--hertz HZ] [--damping Z] [--push-speed V] "
        "[--friction F] [--restitution E] [--restitution-threshold V] "
        "[--pair-margin M] [--workers K]\n",
        why.c_str());
    std::exit(status);
}

double number(const std::string& flag, const char* text) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0') {
        usage(flag + " takes a number, not \"" + text + "\"");
    }
    return value;
}

settings parse(int argc, char** argv) {
    settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            usage("steps the standard scenes and prints how they move", 0);
        }
        if (i + 1 >= argc) {
            usage(flag + " needs a value");
        }
        const char* value = argv[++i];
        const auto count = [&] { return static_cast<int>(number(flag, value)); };
        const auto real = [&] { return static_cast<float>(number(flag, value)); };
        if (flag == "--scene") {
            if (std::string(value) == "all") {
                s.kinds = scenes::all_kinds();
            } else {
                try {
                    s.kinds = {scenes::kind_named(value)};
                } catch (const std::exception& e) {
                    usage(e.what());
                }
            }
        } else if (flag == "--circles") {
            s.circles = static_cast<std::size_t>(number(flag, value));
        } else if (flag == "--seconds") {
            s.seconds = number(flag, value);
        } else if (flag == "--dt") {
            s.dt = real();
        } else if (flag == "--fastest") {
            s.fastest = static_cast<std::size_t>(number(flag, value));
        } else if (flag == "--every") {
            s.every = number(flag, value);
        } else if (flag == "--substeps") {
            s.options.substeps = count();
        } else if (flag == "--relax-iterations") {
            s.options.relax_iterations = count();
        } else if (flag == "--hertz") {
            s.options.contact_hertz = real();
        } else if (flag == "--damping") {
            s.options.contact_damping_ratio = real();
        } else if (flag == "--push-speed") {
            s.options.max_push_speed = real();
        } else if (flag == "--restitution-threshold") {
            s.options.restitution_threshold = real();
        } else if (flag == "--workers") {
            s.options.workers = count();
        } else if (flag == "--friction") {
            s.options.friction = real();
        } else if (flag == "--restitution") {
            s.options.restitution = real();
        } else if (flag == "--pair-margin") {
            s.options.pair_margin = real();
        } else {
            usage("unknown option " + flag);
        }
    }
    return s;
}

// The k fastest circles: where they are and how they move.
void print_fastest(const scenes::scene& scene, std::size_t k) {
    const particles_view p = scene.world->particles();
    std::vector<std::size_t> order(p.count);
    for (std::size_t i = 0; i < p.count; ++i) {
        order[i] = i;
    }
    const auto speed2 = [&](std::size_t i) { return p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i]; };
    k = std::min(k, p.count);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::size_t a, std::size_t b) { return speed2(a) > speed2(b); });
    for (std::size_t j = 0; j < k; ++j) {
        const std::size_t i = order[j];
        std::printf("        circle %zu at (%.3f, %.3f) r %.3f moving (%.3f, %.3f)\n", i,
                    static_cast<double>(p.x[i]), static_cast<double>(p.y[i]),
                    static_cast<double>(p.radius[i]), static_cast<double>(p.vx[i]),
                    static_cast<double>(p.vy[i]));
    }
}

void run(const settings& s, scenes::kind what) {
    scenes::scene scene = scenes::make(what, s.circles, s.options);
    std::printf("%s, %zu circles, dt %g\n", scenes::name_of(what).c_str(), s.circles,
                static_cast<double>(s.dt));
    std::printf("%7s %10s %9s %8s %8s %7s %8s %7s %6s %8s %9s\n", "time", "mean_v2", "max_speed",
                "ovl_mean", "ovl_max", "deep", "box_pen", "escaped", "nan", "airborne", "step_ms");
    const auto steps = static_cast<long>(s.seconds / s.dt + 0.5);
    const auto report_every = std::max(1L, static_cast<long>(s.every / s.dt + 0.5));
    double busy = 0.0;
    long since = 0;
    for (long k = 1; k <= steps; ++k) {
        const auto start = std::chrono::steady_clock::now();
        scene.world->step(s.dt);
        busy += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
        ++since;
        if (k % report_every == 0 || k == steps) {
            const scenes::quality q = scenes::measure(scene);
            std::printf("%7.2f %10.3g %9.3g %7.2f%% %7.1f%% %7zu %7.1f%% %7zu %6zu %8zu %9.3f  "
                        "height %.1f\n",
                        static_cast<double>(k) * s.dt, q.mean_v2, q.max_speed,
                        100.0 * q.overlap_mean, 100.0 * q.overlap_max, q.deep_pairs,
                        100.0 * q.penetration_max, q.escaped, q.not_finite, q.airborne,
                        busy / static_cast<double>(since), q.mean_height);
            print_fastest(scene, s.fastest);
            std::fflush(stdout);
            busy = 0.0;
            since = 0;
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    const settings s = parse(argc, argv);
    try {
        for (const scenes::kind what : s.kinds) {
            run(s, what);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "simdcollide-quality: %s\n", e.what());
        return 1;
    }
    return 0;
}
