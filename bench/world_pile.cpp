// The settled piles the world benchmarks step (world_pile.hpp): dropped, settled, saved
// and loaded.
#include "world_pile.hpp"

#include "scenes/scenes.hpp"
#include "world/world_state.hpp"

#include <simdcollide/world.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>

namespace simdcollide::bench {

// The circles' mean squared speed: a settled pile's is below rest_mean_v2.
double mean_speed2(particle_world& world) {
    const particles_view p = world.particles();
    double sum = 0.0;
    for (std::size_t i = 0; i < p.count; ++i) {
        sum += static_cast<double>(p.vx[i]) * p.vx[i] + static_cast<double>(p.vy[i]) * p.vy[i];
    }
    return p.count == 0 ? 0.0 : sum / static_cast<double>(p.count);
}

// The scene's container is 1.2 sqrt(n) wide
// `rows` rows above it.
float scene_width(std::size_t n) {
    return 1.2F * std::sqrt(static_cast<float>(n));
}

namespace {

// Its circles start in scene_columns(n) columns and scene_rows(n) rows above it.
std::size_t scene_columns(std::size_t n) {
    return static_cast<std::size_t>(scene_width(n)) - 1;
}
float scene_rows(std::size_t n) {
    return static_cast<float>(n) / static_cast<float>(scene_columns(n));
}

// The world options of the scene: world_options' defaults, what a user gets.
world_options scene_options() {
    return {};
}

} // namespace

namespace {

// The scene before it settles: its boxes, and its circles at rest above the floor
// (tools/scenes, "box").
std::unique_ptr<particle_world> drop_scene(std::size_t n) {
    return std::move(scenes::make(scenes::kind::box, n, scene_options()).world);
}

// A settled pile on disk: its circles (x, y, radius, inverse mass, vx, vy) and boxes as
// raw floats after a header, so that a long settle (100 000 circles: minutes; 1 000 000:
// over an hour, above) is paid once. The listing state is not kept: the first step lists
// everything.
constexpr std::string_view scene_magic = "simdcollide pile v1\n";

std::string scene_path(std::size_t n) {
    const char* dir = std::getenv("SIMDCOLLIDE_BENCH_SCENES");
    if (dir == nullptr || *dir == '\0') {
        return {};
    }
    std::string path(dir);
    path.append("/pile-").append(std::to_string(n));
    // A pile settled by another solver, or to another speed, is another scene.
    path.append("-rest.bin");
    return path;
}

void save_scene(particle_world& world, const std::string& path) {
    std::ofstream out(path + ".part", std::ios::binary);
    const auto put = [&](const void* data, std::size_t bytes) {
        out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    };
    const particles_view p = world.particles();
    const aabbs_view b = world.boxes().boxes();
    const std::uint64_t counts[2] = {p.count, b.count};
    put(scene_magic.data(), scene_magic.size());
    put(counts, sizeof counts);
    for (const float* field :
         std::initializer_list<const float*>{p.x, p.y, p.radius, p.inverse_mass, p.vx, p.vy}) {
        put(field, p.count * sizeof(float));
    }
    for (const float* field :
         std::initializer_list<const float*>{b.min_x, b.min_y, b.max_x, b.max_y}) {
        put(field, b.count * sizeof(float));
    }
    out.close();
    if (!out || std::rename((path + ".part").c_str(), path.c_str()) != 0) {
        throw std::runtime_error("cannot write the settled scene " + path);
    }
}

// The scene saved at path, or null when there is none, or it is not a pile of n circles.
std::unique_ptr<particle_world> load_scene(const std::string& path, std::size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string magic(scene_magic.size(), '\0');
    std::uint64_t counts[2] = {0, 0};
    in.read(magic.data(), static_cast<std::streamsize>(magic.size()));
    in.read(reinterpret_cast<char*>(counts), sizeof counts);
    if (!in || magic != scene_magic || counts[0] != n || counts[1] > n) {
        return nullptr;
    }
    const auto read = [&](std::size_t count) {
        std::vector<float> field(count);
        in.read(reinterpret_cast<char*>(field.data()),
                static_cast<std::streamsize>(count * sizeof(float)));
        return field;
    };
    std::vector<float> c[6];
    for (std::vector<float>& field : c) {
        field = read(n);
    }
    std::vector<float> b[4];
    for (std::vector<float>& field : b) {
        field = read(counts[1]);
    }
    if (!in) {
        return nullptr;
    }
    auto world = std::make_unique<particle_world>(scene_options());
    world->set_boxes({b[0].data(), b[1].data(), b[2].data(), b[3].data(), counts[1]});
    for (std::size_t i = 0; i < n; ++i) {
        world->add_circle({c[0][i], c[1][i], c[2][i]}, c[3][i], c[4][i], c[5][i]);
    }
    return world;
}

// How long the settle loop may run, in simulated minutes after the fall:
// SIMDCOLLIDE_BENCH_SETTLE_MINUTES, 1 unless set. When it is set, a saved pile that is not
// settled yet settles on for that long too (the 1 000 000-circle pile needs more than the
// hour of wall clock a simulated minute takes; this way it settles over several runs).
double settle_minutes(bool& given) {
    const char* text = std::getenv("SIMDCOLLIDE_BENCH_SETTLE_MINUTES");
    given = text != nullptr && *text != '\0';
    if (!given) {
        return 1.0;
    }
    char* end = nullptr;
    const double minutes = std::strtod(text, &end);
    if (*end != '\0' || !(minutes >= 0.0 && minutes <= 1e4)) {
        throw std::invalid_argument(std::string("SIMDCOLLIDE_BENCH_SETTLE_MINUTES is \"") + text +
                                    "\", must be a number of minutes from 0 to 10000");
    }
    return minutes;
}

} // namespace

// A pile's circles and boxes in a world of its own made with `options`.
particle_world rebuilt(particle_world& pile, const world_options& options) {
    particle_world world(options);
    world.set_boxes(pile.boxes().boxes());
    const particles_view p = pile.particles();
    world.add_circles({p.x, p.y, p.radius, p.count}, {p.inverse_mass, p.count}, {p.vx, p.count},
                      {p.vy, p.count});
    return world;
}

namespace {

// SIMDCOLLIDE_BENCH_SETTLE_WORKERS=<k>: piles settle on k workers (the world's own pool).
// A step gives the same bits on any number of workers, so the pile is the one a single
// worker settles, sooner; it is timed as each benchmark asks.
int settle_workers() {
    const char* text = std::getenv("SIMDCOLLIDE_BENCH_SETTLE_WORKERS");
    if (text == nullptr || *text == '\0') {
        return 1;
    }
    char* end = nullptr;
    const long workers = std::strtol(text, &end, 10);
    if (*end != '\0' || workers < 1 || workers > max_workers) {
        throw std::invalid_argument(std::string("SIMDCOLLIDE_BENCH_SETTLE_WORKERS is \"") + text +
                                    "\", must be a count of workers from 1 to " +
                                    std::to_string(max_workers));
    }
    return static_cast<int>(workers);
}

// Steps the world (dt = 1/60) `at_least` times, then on while its mean squared speed is
// rest_mean_v2 or more, `at_most` steps in all. With a path, the pile is saved there every
// simulated ten seconds (a stopped run loses at most that) and at the end, and each save
// is reported on standard error, so that a long settle can be watched.
void settle_as_made(particle_world& world, long at_least, long at_most, const std::string& path) {
    constexpr long checkpoint_steps = 600;
    long s = 0;
    for (; s < at_most && (s < at_least || mean_speed2(world) >= rest_mean_v2); ++s) {
        world.step(scene_dt);
        if (!path.empty() && (s + 1) % checkpoint_steps == 0) {
            save_scene(world, path);
            std::fprintf(stderr, "%s: %ld steps settled this run, mean squared speed %.4g\n",
                         path.c_str(), s + 1, mean_speed2(world));
        }
    }
    if (!path.empty() && s > 0) {
        save_scene(world, path);
    }
}

// settle_as_made, on SIMDCOLLIDE_BENCH_SETTLE_WORKERS workers where more than one.
void settle(particle_world& world, long at_least, long at_most, const std::string& path) {
    const int workers = settle_workers();
    if (workers == 1) {
        settle_as_made(world, at_least, at_most, path);
        return;
    }
    world_options options = world.options();
    options.workers = workers;
    particle_world on_workers = rebuilt(world, options);
    settle_as_made(on_workers, at_least, at_most, path);
    world = rebuilt(on_workers, world.options());
    at_rest_again(world); // rebuilt: without the impulses
}

} // namespace

// The settled pile of n circles, made on first use (dropped, then settled: the top row
// falls 2 * rows in sqrt(2 h / g) seconds; then on until the mean squared speed is below
// rest_mean_v2, for at most settle_minutes simulated minutes). With SIMDCOLLIDE_BENCH_SCENES
// set to a directory, read from there when saved before (and stepped until it rests again:
// a saved pile holds no impulses), and saved there as it settles.
particle_world& settled(std::size_t n) {
    static std::map<std::size_t, std::unique_ptr<particle_world>> scenes;
    std::unique_ptr<particle_world>& w = scenes[n];
    if (!w) {
        bool minutes_given = false;
        const long settle_steps = std::lround(settle_minutes(minutes_given) * 3600.0);
        const std::string path = scene_path(n);
        if (!path.empty()) {
            w = load_scene(path, n);
        }
        if (w && minutes_given) {
            settle(*w, 0, settle_steps, path); // on from where the saved pile was
        }
        if (w) {
            at_rest_again(*w);
        }
        if (!w) {
            w = drop_scene(n);
            const double fall = std::sqrt(2.0 * 2.0 * scene_rows(n) / 9.81) + 1.0;
            const auto fall_steps = static_cast<long>(fall * 60.0);
            settle(*w, fall_steps, fall_steps + settle_steps, path);
        }
    }
    return *w;
}

void at_rest_again(particle_world& world) {
    constexpr long at_least = 64;
    const long at_most = world.size() >= 1000000 ? at_least : 600;
    for (long s = 0; s < at_most && (s < at_least || mean_speed2(world) >= rest_mean_v2); ++s) {
        world.step(scene_dt);
    }
}

particle_world& settled_with(std::size_t n, const world_options& options) {
    // by what the benchmarks set: the workers, the sweeps, contact events and sleep
    static std::map<std::tuple<std::size_t, int, float, bool, bool>,
                    std::unique_ptr<particle_world>>
        piles;
    std::unique_ptr<particle_world>& w =
        piles[{n, options.workers, options.sweep_from, options.contact_events, options.sleep}];
    if (!w) {
        w = std::make_unique<particle_world>(rebuilt(settled(n), options));
        at_rest_again(*w);
    }
    return *w;
}

} // namespace simdcollide::bench
