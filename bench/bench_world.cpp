// The particle world and its phases on the "particles in a box" scene:
//   world/step/<impl>/<n>                  one step (4 substeps) of a settled pile, timed
//                                          over whole sort periods after one untimed step
//   world/find_pairs/dispatch/<n>          the circle-circle broad phase alone
//   world/separate/<impl>/<n>              phase 3: one round of separation in order over
//                                          the pile's pairs, grouped
//   world/group_pairs/dispatch/<n>         grouping those pairs (pair_grouper); items are pairs
//   world/separate_recording/<impl>/<n>    the same round as a step runs it, recording the
//                                          pairs in contact for phase 6
//   world/respond/<impl>/<n>               phase 6 for the circle pairs that round records;
//                                          items are those pairs
//   world/static_boxes/grid/<n>            the accelerated static-box phase
//   world/static_boxes/brute_force/<n>     every box against every circle, SIMD (one-box kernel)
//   static_boxes/<grid|brute_force>/<boxes> 10 000 circles against 10 .. 10 000 boxes
// <impl> is reference (set_isa(isa::reference)) or dispatch. Items are circles. world/step
// also reports the scene's mean squared speed before its first step (start_mean_v2,
// below 0.01 for a settled pile), the share of timed steps that listed everything or some
// (full_listings, partial_listings), the listed pairs, ns_per_circle, and what the pile
// looks like after the timed steps (tools/scenes): end_mean_v2, overlap_mean and
// overlap_max (fractions of the smaller radius of a pair) and the circles escaped from the
// container. The phases alone (find_pairs, separate, separate_recording, respond) run on
// the pile's circles in the order a step keeps them in (pile_in_slots below).
//
// The scene: tools/scenes' "box", n circles of radius 0.25 to 0.45 dropped into a container
// of static boxes (a floor and two walls, 1.2 sqrt(n) wide) with n/100 random obstacle
// boxes 0.5 to 2.5 on a side inside, stepped with world_options' defaults (dt = 1/60, 4
// substeps; scene_options, below), run until settled (long enough for the top row to fall
// to the floor, plus a second, then until the mean squared speed is below 0.01, for at most
// a simulated minute) before timing. Settling 10 000 circles takes seconds, 100 000 a minute
// or two; the 1 000 000-circle pile, some 600 rows deep, needs shock propagation
// (SIMDCOLLIDE_BENCH_SHOCK=0.5) and more than the cap (SIMDCOLLIDE_BENCH_SETTLE_MINUTES=4:
// about an hour). The larger sizes run only when a filter asks for them.
// SIMDCOLLIDE_BENCH_SCENES=<directory> keeps settled piles there (pile-<n>.bin, or
// pile-<n>-shock<s>.bin with shock propagation), so that each size settles once; they are
// saved every simulated ten seconds while they settle. SIMDCOLLIDE_BENCH_SETTLE_MINUTES=<m>
// sets the cap to m simulated minutes, and when set, a saved pile that has not settled
// settles on from where it was saved, for up to m more (settled(), below).
// SIMDCOLLIDE_BENCH_SETTLE_WORKERS=<k> settles them on k workers: the same pile, sooner.
// SIMDCOLLIDE_BENCH_STAGES=1 adds each stage's time a step to world/step (timed_steps);
// SIMDCOLLIDE_BENCH_BLOCK=<circles> sets the schedule's blocks (scene_options).
#include "bench_support.hpp"
#include "broad_phase/circle_grid.hpp"
#include "broad_phase/pair_schedule.hpp"
#include "scenes/scenes.hpp"
#include "world/world_state.hpp"

#include <simdcollide/world.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace simdcollide::bench {
namespace {

// The circles' mean squared speed: a settled pile's is below 0.01.
double mean_speed2(particle_world& world) {
    const particles_view p = world.particles();
    double sum = 0.0;
    for (std::size_t i = 0; i < p.count; ++i) {
        sum += static_cast<double>(p.vx[i]) * p.vx[i] + static_cast<double>(p.vy[i]) * p.vy[i];
    }
    return p.count == 0 ? 0.0 : sum / static_cast<double>(p.count);
}

// The scene's time step (one benchmark iteration of world/step is one step of it).
constexpr float scene_dt = 1.0F / 60.0F;

// The scene's container is 1.2 sqrt(n) wide; its circles start in `columns` columns and
// `rows` rows above it.
float scene_width(std::size_t n) {
    return 1.2F * std::sqrt(static_cast<float>(n));
}
std::size_t scene_columns(std::size_t n) {
    return static_cast<std::size_t>(scene_width(n)) - 1;
}
float scene_rows(std::size_t n) {
    return static_cast<float>(n) / static_cast<float>(scene_columns(n));
}

// The world options of the scene: world_options' defaults, what a user gets, unless
// SIMDCOLLIDE_BENCH_SHOCK=<s> sets shock propagation, SIMDCOLLIDE_BENCH_BANDS=<circles>
// sets bands (world.hpp, "Bands": they let a step at 1 000 000 circles keep its data in
// cache) or SIMDCOLLIDE_BENCH_BLOCK=<circles> the schedule's blocks (circles_per_block). A
// pile is settled with the same options, but a saved one serves any band or block size
// (bands change no list; a pile settled in other blocks is as calm, not the same bits).
world_options scene_options() {
    world_options options;
    if (const char* block = std::getenv("SIMDCOLLIDE_BENCH_BLOCK");
        block != nullptr && *block != '\0') {
        char* end = nullptr;
        const unsigned long long circles = std::strtoull(block, &end, 10);
        if (*end != '\0' || !detail::block_size_allowed(circles)) {
            throw std::invalid_argument(std::string("SIMDCOLLIDE_BENCH_BLOCK is \"") + block +
                                        "\", must be 0 or a power of two from 1024 to 2^20");
        }
        options.circles_per_block = static_cast<std::size_t>(circles);
    }
    if (const char* bands = std::getenv("SIMDCOLLIDE_BENCH_BANDS");
        bands != nullptr && *bands != '\0') {
        char* end = nullptr;
        const unsigned long long circles = std::strtoull(bands, &end, 10);
        if (*end != '\0' || circles % 16 != 0 || circles > (1ULL << 30)) {
            throw std::invalid_argument(std::string("SIMDCOLLIDE_BENCH_BANDS is \"") + bands +
                                        "\", must be 0 or a multiple of 16 up to 2^30");
        }
        options.circles_per_band = static_cast<std::size_t>(circles);
    }
    const char* text = std::getenv("SIMDCOLLIDE_BENCH_SHOCK");
    if (text != nullptr && *text != '\0') {
        char* end = nullptr;
        const float shock = std::strtof(text, &end);
        if (*end != '\0' || !(shock >= 0.0F && shock <= 1.0F)) {
            throw std::invalid_argument(std::string("SIMDCOLLIDE_BENCH_SHOCK is \"") + text +
                                        "\", must be a number from 0 to 1");
        }
        options.shock_propagation = shock;
    }
    return options;
}

// What a substep of the scene's world records its touches with (the world's own touch
// parameters): the phase benchmarks time phase 3's recording and phase 6 as a step runs
// them, shock propagation included.
detail::touch_parameters touch_parameters_of(const particle_world& world) {
    return detail::state_of(world).touch_parameters_for(
        scene_dt / static_cast<float>(world.options().substeps));
}

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
    // A pile settled with other options is another scene.
    if (const float shock = scene_options().shock_propagation; shock != 0.0F) {
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, "-shock%g", static_cast<double>(shock));
        path.append(suffix);
    }
    path.append(".bin");
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

// A pile's circles and boxes in a world of its own made with `options`.
particle_world rebuilt(particle_world& pile, const world_options& options) {
    particle_world world(options);
    world.set_boxes(pile.boxes().boxes());
    const particles_view p = pile.particles();
    world.add_circles({p.x, p.y, p.radius, p.count}, {p.inverse_mass, p.count}, {p.vx, p.count},
                      {p.vy, p.count});
    return world;
}

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
// 0.01 or more, `at_most` steps in all. With a path, the pile is saved there every
// simulated ten seconds (a stopped run loses at most that) and at the end, and each save
// is reported on standard error, so that a long settle can be watched.
void settle_as_made(particle_world& world, long at_least, long at_most, const std::string& path) {
    constexpr long checkpoint_steps = 600;
    long s = 0;
    for (; s < at_most && (s < at_least || mean_speed2(world) >= 0.01); ++s) {
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
}

// The settled pile of n circles, made on first use (dropped, then settled: the top row
// falls 2 * rows in sqrt(2 h / g) seconds; then on until the mean squared speed is below
// 0.01, for at most settle_minutes simulated minutes). With SIMDCOLLIDE_BENCH_SCENES set to
// a directory, read from there when saved before, and saved there as it settles.
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
        if (!w) {
            w = drop_scene(n);
            const double fall = std::sqrt(2.0 * 2.0 * scene_rows(n) / 9.81) + 1.0;
            const auto fall_steps = static_cast<long>(fall * 60.0);
            settle(*w, fall_steps, fall_steps + settle_steps, path);
        }
    }
    return *w;
}

// Runs the benchmark body on one implementation and restores automatic choice after.
struct using_isa {
    explicit using_isa(bool reference) {
        if (reference) {
            set_isa(isa::reference);
        }
    }
    ~using_isa() { reset_isa(); }
    using_isa(const using_isa&) = delete;
    using_isa& operator=(const using_isa&) = delete;
};

// SIMDCOLLIDE_BENCH_STAGES=1: the timed steps also report each stage's milliseconds a step
// (stage_<name>, from the clock a world keeps when asked: world_profile.hpp), those that
// took none left out; summed, they come to about the step's time.
bool stages_asked() {
    const char* text = std::getenv("SIMDCOLLIDE_BENCH_STAGES");
    return text != nullptr && *text != '\0' && std::string_view(text) != "0";
}

void report_stages(benchmark::State& state, const detail::step_profile& before,
                   const detail::step_profile& after) {
    const auto steps = static_cast<double>(after.steps - before.steps);
    for (std::size_t k = 0; k < detail::step_stage_count; ++k) {
        const double seconds = after.seconds[k] - before.seconds[k];
        if (seconds > 0.0 && steps > 0.0) {
            state.counters[std::string("stage_") + detail::step_stage_names[k]] =
                seconds * 1e3 / steps;
        }
    }
}

// Steps the world in whole sort periods (sort_every steps) while the benchmark runs; returns
// the wall time they took, in nanoseconds.
double timed_steps(benchmark::State& state, particle_world& world) {
    const bool stages = stages_asked();
    detail::state_of(world).keep_profile(stages);
    const detail::step_profile before = detail::state_of(world).profile();
    const auto start = std::chrono::steady_clock::now();
    while (state.KeepRunningBatch(particle_world::sort_every)) {
        for (std::size_t k = 0; k < particle_world::sort_every; ++k) {
            world.step(scene_dt);
        }
    }
    const double elapsed =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    if (stages) {
        report_stages(state, before, detail::state_of(world).profile());
    }
    return elapsed;
}

void step(benchmark::State& state, bool reference, std::size_t n) {
    particle_world world = settled(n); // a copy: every implementation starts from one state
    // Whether the scene is the settled pile it is meant to be (below 0.01): the settle
    // loop stops at a cap, which the 1 000 000-circle pile passes only with
    // SIMDCOLLIDE_BENCH_SETTLE_MINUTES set above 1.
    state.counters["start_mean_v2"] = mean_speed2(world);
    const using_isa choice(reference);
    // One step untimed: a copied world's first step sorts its circles into slots, lists
    // every pair and makes its lists' storage. Then whole sort periods (sort_every steps),
    // so that the timed steps hold the periodic full listings in the share a long run has,
    // one in sort_every: timed from the copy, the 1 000 000-circle step runs about 50 steps
    // holding two.
    world.step(scene_dt);
    const particle_world::listing_counts before = world.listings();
    const double elapsed = timed_steps(state, world);
    // The share of timed steps that listed every circle, and that listed only a few.
    const auto share = [&](std::size_t listings) {
        return static_cast<double>(listings) / static_cast<double>(state.iterations());
    };
    state.counters["full_listings"] = share(world.listings().full - before.full);
    state.counters["partial_listings"] = share(world.listings().partial - before.partial);
    state.counters["pairs"] = static_cast<double>(world.last_pair_count());
    // What a user watching the pile would see after the timed steps (tools/scenes):
    // overlaps as fractions of the smaller radius of a pair.
    const scenes::quality q = scenes::measure(world, 0.0F, scene_width(n), 0.0F);
    state.counters["end_mean_v2"] = q.mean_v2;
    state.counters["overlap_mean"] = q.overlap_mean;
    state.counters["overlap_max"] = q.overlap_max;
    state.counters["escaped"] = static_cast<double>(q.escaped);
    // Wall time per step and circle, as a plain number (an inverted rate counter would
    // print it with a unit of seconds).
    state.counters["ns_per_circle"] =
        elapsed / static_cast<double>(state.iterations()) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// The step as `step` times it, on the settled pile rebuilt with `options`.
double timed_rebuilt(benchmark::State& state, std::size_t n, const world_options& options) {
    particle_world world = rebuilt(settled(n), options);
    world.step(scene_dt);
    const particle_world::listing_counts before = world.listings();
    const double elapsed = timed_steps(state, world);
    state.counters["full_listings"] = static_cast<double>(world.listings().full - before.full) /
                                      static_cast<double>(state.iterations());
    state.counters["ns_per_circle"] =
        elapsed / static_cast<double>(state.iterations()) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    return elapsed;
}

// The same step on `workers` workers (world_options::workers, the world's own pool).
void step_on_workers(benchmark::State& state, std::size_t n, int workers) {
    world_options options = settled(n).options();
    options.workers = workers;
    timed_rebuilt(state, n, options);
    state.counters["workers"] = workers;
}

// The same step with continuous collision on (the default) or off: the settled pile has no
// fast circle, so this is what looking for them costs.
void step_sweeping(benchmark::State& state, std::size_t n, bool sweep) {
    world_options options = settled(n).options();
    options.sweep_from =
        sweep ? world_options{}.sweep_from : std::numeric_limits<float>::infinity();
    timed_rebuilt(state, n, options);
}

// What looking for fast circles costs a step of the settled pile (none are): step 1b's
// floor and its look in each substep, alone.
void look_for_fast(benchmark::State& state, std::size_t n) {
    particle_world world = rebuilt(settled(n), settled(n).options());
    world.step(scene_dt);
    std::size_t found = 0;
    for (auto _ : state) {
        found = detail::state_of(world).look_for_fast_circles(scene_dt);
        benchmark::DoNotOptimize(found);
    }
    state.counters["fast"] = static_cast<double>(found);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// A burst: the settled pile with every tenth circle shot at 20 to 40 m/s in any direction
// (fast: further than half its radius a substep), continuous collision on or off. Each
// iteration starts from the burst's first step (untimed: it lists everything) and times the
// four after it.
void burst(benchmark::State& state, std::size_t n, bool sweep) {
    world_options options = settled(n).options();
    options.sweep_from =
        sweep ? world_options{}.sweep_from : std::numeric_limits<float>::infinity();
    particle_world start = rebuilt(settled(n), options);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const particles_view p = start.particles();
    for (std::size_t i = 0; i < p.count; i += 10) {
        const float angle = unit(rng) * 6.2831853F;
        const float speed = 20.0F + 20.0F * unit(rng);
        p.vx[i] = speed * std::cos(angle);
        p.vy[i] = speed * std::sin(angle);
    }
    start.step(scene_dt);
    for (auto _ : state) {
        particle_world world = start;
        state.SetIterationTime(seconds_of([&] {
                                   for (int s = 0; s < 4; ++s) {
                                       world.step(scene_dt);
                                   }
                               }) /
                               4.0);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// The settled pile with every tenth circle replaced by a box 0.3 on a side at its centre: 1 000
// boxes at 10 000 circles, among the circles. Static (`moving` false), the boxes join the
// container's in set_boxes; moving, they are kinematic boxes that go 0.05 m/s one way in one
// step and back the next (so the scene stays the same), their velocities set before each step.
// Each world steps sort_every times untimed, then as `step` times it.
void with_boxes(benchmark::State& state, std::size_t n, bool moving) {
    particle_world& pile = settled(n);
    particle_world world(pile.options());
    const particles_view p = pile.particles();
    aabb_set boxes;
    const aabbs_view container = pile.boxes().boxes();
    for (std::size_t k = 0; k < container.count; ++k) {
        boxes.push_back(aabb::from_min_max(container.min_x[k], container.min_y[k],
                                           container.max_x[k], container.max_y[k]));
    }
    std::vector<aabb> inside;
    for (std::size_t i = 0; i < p.count; ++i) {
        if (i % 10 == 5) {
            inside.push_back(
                aabb::from_min_max(p.x[i] - 0.15F, p.y[i] - 0.15F, p.x[i] + 0.15F, p.y[i] + 0.15F));
        } else {
            world.add_circle({p.x[i], p.y[i], p.radius[i]}, p.inverse_mass[i], p.vx[i], p.vy[i]);
        }
    }
    for (const aabb& b : inside) {
        if (moving) {
            world.add_kinematic_box(b);
        } else {
            boxes.push_back(b);
        }
    }
    world.set_boxes(boxes.view());
    std::size_t steps = 0;
    const auto one_step = [&] {
        const float v = steps % 2 == 0 ? 0.05F : -0.05F;
        for (std::size_t k = 0; k < world.kinematic_box_count(); ++k) {
            world.set_kinematic_velocity(k, v, 0.0F);
        }
        world.step(scene_dt);
        ++steps;
    };
    for (std::size_t k = 0; k < particle_world::sort_every; ++k) {
        one_step();
    }
    const auto start = std::chrono::steady_clock::now();
    while (state.KeepRunningBatch(particle_world::sort_every)) {
        for (std::size_t k = 0; k < particle_world::sort_every; ++k) {
            one_step();
        }
    }
    const double elapsed =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    state.counters["boxes"] = static_cast<double>(inside.size());
    state.counters["kinematic_entries"] =
        static_cast<double>(detail::state_of(world).kinematic_entry_count());
    state.counters["ns_per_circle"] =
        elapsed / static_cast<double>(state.iterations()) / static_cast<double>(world.size());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * world.size()));
}

// The settled pile as a step sees it: its circles in the order of the world's slots
// (world.hpp: sorted by the cell of a grid over their centres, as circle_grid.hpp sorts
// them), and its overlapping pairs in that order. The phase benchmarks below run on it.
struct pile_in_slots {
    aligned_floats x, y, radius, inverse_mass, vx, vy;
    std::vector<circle_pair> pairs;
    particles_view view() {
        return {x.data(),  y.data(),  radius.data(), inverse_mass.data(),
                vx.data(), vy.data(), x.size()};
    }
};

pile_in_slots& pile_of(std::size_t n) {
    static std::map<std::size_t, std::unique_ptr<pile_in_slots>> piles;
    std::unique_ptr<pile_in_slots>& pile = piles[n];
    if (!pile) {
        const particles_view p = settled(n).particles();
        detail::circle_cells cells;
        cells.grid = detail::circle_grid_for(p, 0.0F);
        detail::sort_into_cells(p, cells);
        pile = std::make_unique<pile_in_slots>();
        for (const std::uint32_t i : cells.order) { // a settled pile has no non-finite circle
            pile->x.push_back(p.x[i]);
            pile->y.push_back(p.y[i]);
            pile->radius.push_back(p.radius[i]);
            pile->inverse_mass.push_back(p.inverse_mass[i]);
            pile->vx.push_back(p.vx[i]);
            pile->vy.push_back(p.vy[i]);
        }
        pair_finder finder;
        const std::span<const circle_pair> found = finder.find(pile->view());
        pile->pairs.assign(found.begin(), found.end());
    }
    return *pile;
}

void find_pairs(benchmark::State& state, std::size_t n) {
    pile_in_slots& pile = pile_of(n);
    pair_finder finder;
    std::size_t pairs = 0;
    for (auto _ : state) {
        pairs = finder.find(pile.view()).size();
        benchmark::DoNotOptimize(pairs);
    }
    state.counters["pairs"] = static_cast<double>(pairs);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// The world's phase 3 with its record (kernel_table.hpp, world.separate_in_order), one
// round over the pile's pairs grouped by pair_grouper, as a substep runs it: separation in
// order, the pairs in contact recorded for phase 6; items are circles, as in
// world/separate (which times the same round without the record).
void separate_recording_pile(benchmark::State& state, bool reference, std::size_t n) {
    particle_world& world = settled(n);
    pile_in_slots& pile = pile_of(n);
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(pile.pairs, n);
    const particles_view p = pile.view();
    const detail::kernel_table& table =
        reference ? detail::reference_table() : detail::active_table();
    std::vector<detail::world_touch> touches(groups.pairs().size());
    const detail::touch_recording record{touch_parameters_of(world), touches.data()};
    aligned_floats scratch(8 * n);
    const std::vector<float> x(p.x, p.x + n), y(p.y, p.y + n);
    std::size_t count = 0;
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), p.x);
        std::copy(y.begin(), y.end(), p.y);
        state.SetIterationTime(seconds_of([&] {
            count = table.world.separate_in_order(
                p, groups.pairs().data(), groups.ends().data(), groups.ends().size(),
                separation_weighting::inverse_mass, 1, &record, nullptr, scratch.data());
        }));
    }
    // Left as found: the other benchmarks share the pile.
    std::copy(x.begin(), x.end(), p.x);
    std::copy(y.begin(), y.end(), p.y);
    state.counters["pairs"] = static_cast<double>(pile.pairs.size());
    state.counters["in_contact"] = static_cast<double>(count);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// The touches a substep's phase 3 records in the pile (one round over its pairs, grouped),
// the pile's positions left as they were.
std::vector<detail::world_touch> recorded_touches(pile_in_slots& pile,
                                                  const detail::touch_parameters& parameters) {
    const particles_view p = pile.view();
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(pile.pairs, p.count);
    std::vector<detail::world_touch> touches(groups.pairs().size());
    const detail::touch_recording record{parameters, touches.data()};
    aligned_floats scratch(8 * p.count);
    const std::vector<float> x(p.x, p.x + p.count), y(p.y, p.y + p.count);
    touches.resize(detail::active_table().world.separate_in_order(
        p, groups.pairs().data(), groups.ends().data(), groups.ends().size(),
        separation_weighting::inverse_mass, 1, &record, nullptr, scratch.data()));
    std::copy(x.begin(), x.end(), p.x);
    std::copy(y.begin(), y.end(), p.y);
    return touches;
}

// The world's phase 6 for circle pairs (kernel_table.hpp, world.respond_pairs) on the touches
// phase 3 records in the pile (recorded_touches), the velocities put back before each run;
// items are touches. The kernel packs and unpacks the velocities itself; the step runs the
// same impulse loop inside gain_and_respond, on the records the gain packed, so this times
// a little more than the step spends on the pairs.
void respond_pile(benchmark::State& state, bool reference, std::size_t n) {
    particle_world& world = settled(n);
    pile_in_slots& pile = pile_of(n);
    const particles_view p = pile.view();
    const detail::kernel_table& table =
        reference ? detail::reference_table() : detail::active_table();
    const std::vector<detail::world_touch> touches =
        recorded_touches(pile, touch_parameters_of(world));
    aligned_floats scratch(4 * n);
    const std::vector<float> vx(p.vx, p.vx + n), vy(p.vy, p.vy + n);
    for (auto _ : state) {
        std::copy(vx.begin(), vx.end(), p.vx);
        std::copy(vy.begin(), vy.end(), p.vy);
        state.SetIterationTime(seconds_of([&] {
            table.world.respond_pairs(p, touches.data(), touches.size(), world.options().friction,
                                      scratch.data());
        }));
    }
    // Left as found: the other benchmarks share the pile.
    std::copy(vx.begin(), vx.end(), p.vx);
    std::copy(vy.begin(), vy.end(), p.vy);
    state.counters["touches"] = static_cast<double>(touches.size());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * touches.size()));
}

// The world's phase 3, one round (separate_in_order) over the pile's pairs as grouped by
// pair_grouper; items are circles.
void separate_pile(benchmark::State& state, bool reference, std::size_t n) {
    pile_in_slots& pile = pile_of(n);
    pair_grouper grouper;
    const pair_groups& groups = grouper.group(pile.pairs, n);
    const particles_view p = pile.view();
    const std::vector<float> x(p.x, p.x + n), y(p.y, p.y + n);
    separation_workspace workspace;
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), p.x);
        std::copy(y.begin(), y.end(), p.y);
        state.SetIterationTime(seconds_of([&] {
            if (reference) {
                reference::separate_in_order(p, groups, separation_weighting::inverse_mass, 1,
                                             workspace);
            } else {
                separate_in_order(p, groups, separation_weighting::inverse_mass, 1, workspace);
            }
        }));
    }
    // Left as found: the other benchmarks share the pile.
    std::copy(x.begin(), x.end(), p.x);
    std::copy(y.begin(), y.end(), p.y);
    state.counters["pairs"] = static_cast<double>(pile.pairs.size());
    state.counters["groups"] = static_cast<double>(groups.ends().size());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// Grouping the pile's pairs for phase 3 (pair_grouper) from scratch, as a step does when
// its lists change everywhere (a grouper that has seen the list copies every chunk; a fresh
// one each time colours them all); items are pairs.
void group_pile(benchmark::State& state, std::size_t n) {
    pile_in_slots& pile = pile_of(n);
    for (auto _ : state) {
        pair_grouper grouper;
        benchmark::DoNotOptimize(grouper.group(pile.pairs, n).ends().data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pile.pairs.size()));
}

// The static-box phase, accelerated or brute force (each box in ascending order against
// every circle with the SIMD one-box kernel: the same result, as circles are independent).
void static_boxes_phase(benchmark::State& state, particle_world& world, const static_box_grid& grid,
                        bool brute_force) {
    const particles_view p = world.particles();
    const std::size_t n = p.count;
    const std::vector<float> x(p.x, p.x + n), y(p.y, p.y + n);
    for (auto _ : state) {
        std::copy(x.begin(), x.end(), p.x);
        std::copy(y.begin(), y.end(), p.y);
        state.SetIterationTime(seconds_of([&] {
            if (brute_force) {
                const aabbs_view b = grid.boxes();
                for (std::size_t k = 0; k < b.count; ++k) {
                    push_out(p, aabb::from_min_max(b.min_x[k], b.min_y[k], b.max_x[k], b.max_y[k]));
                }
            } else {
                push_out_all(p, grid);
            }
        }));
    }
    // Left as found: the other benchmarks share the settled world.
    std::copy(x.begin(), x.end(), p.x);
    std::copy(y.begin(), y.end(), p.y);
    state.counters["boxes"] = static_cast<double>(grid.size());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// 10 000 settled circles against `boxes` boxes scattered over the pile (the world's own
// container among them), to find where the grid starts to pay.
void static_boxes_by_count(benchmark::State& state, std::size_t boxes, bool brute_force) {
    particle_world& world = settled(10000);
    static std::map<std::size_t, std::unique_ptr<static_box_grid>> grids;
    std::unique_ptr<static_box_grid>& grid = grids[boxes];
    if (!grid) {
        const aabbs_view own = world.boxes().boxes();
        aabb_set set;
        for (std::size_t k = 0; k < own.count && set.size() < boxes; ++k) {
            set.push_back(
                aabb::from_min_max(own.min_x[k], own.min_y[k], own.max_x[k], own.max_y[k]));
        }
        std::mt19937 rng(static_cast<std::uint32_t>(boxes));
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        while (set.size() < boxes) {
            const float w = 0.5F + 2.0F * unit(rng);
            set.push_back(aabb::from_origin_size(unit(rng) * 118.0F, unit(rng) * 40.0F, w, w));
        }
        grid = std::make_unique<static_box_grid>(set.view());
    }
    static_boxes_phase(state, world, *grid, brute_force);
}

bool register_all() {
    // Names are built with append, not operator+: GCC 12 reports a false -Wrestrict on
    // some std::string concatenations (its bug 105329), which -Werror would turn fatal.
    const auto name = [](std::initializer_list<std::string_view> parts) {
        std::string out;
        for (const std::string_view part : parts) {
            out.append(part);
        }
        return out;
    };
    // The step alone at more sizes: tools/run-main.sh plots its time per circle against n.
    for (const std::size_t n : {std::size_t{1000}, std::size_t{3000}, std::size_t{30000}}) {
        benchmark::RegisterBenchmark(name({"world/step/dispatch/", std::to_string(n)}).c_str(),
                                     step, false, n)
            ->Unit(benchmark::kMillisecond);
    }
    for (const std::size_t n : {std::size_t{10000}, std::size_t{100000}, std::size_t{1000000}}) {
        const std::string size = name({"/", std::to_string(n)});
        for (const bool reference : {true, false}) {
            const std::string impl = reference ? "reference" : "dispatch";
            benchmark::RegisterBenchmark(name({"world/step/", impl, size}).c_str(), step, reference,
                                         n)
                ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(name({"world/separate/", impl, size}).c_str(),
                                         separate_pile, reference, n)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(name({"world/separate_recording/", impl, size}).c_str(),
                                         separate_recording_pile, reference, n)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(name({"world/respond/", impl, size}).c_str(), respond_pile,
                                         reference, n)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
        }
        // 1, 2 and each count up to the machine's cores.
        const int cores = static_cast<int>(std::max(2U, std::thread::hardware_concurrency()));
        for (int workers = 1; workers <= cores; ++workers) {
            benchmark::RegisterBenchmark(
                name({"world/step/dispatch", size, "/workers:", std::to_string(workers)}).c_str(),
                step_on_workers, n, workers)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
        benchmark::RegisterBenchmark(name({"world/look_for_fast/dispatch", size}).c_str(),
                                     look_for_fast, n)
            ->Unit(benchmark::kMicrosecond);
        for (const bool sweep : {false, true}) {
            const std::string on = sweep ? "on" : "off";
            benchmark::RegisterBenchmark(name({"world/step/dispatch", size, "/sweep:", on}).c_str(),
                                         step_sweeping, n, sweep)
                ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(
                name({"world/burst/dispatch", size, "/sweep:", on}).c_str(), burst, n, sweep)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        }
        for (const bool moving : {false, true}) {
            benchmark::RegisterBenchmark(
                name({"world/boxes/dispatch", size, moving ? "/kinematic" : "/static"}).c_str(),
                with_boxes, n, moving)
                ->Unit(benchmark::kMillisecond);
        }
        benchmark::RegisterBenchmark(name({"world/find_pairs/dispatch", size}).c_str(), find_pairs,
                                     n)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(name({"world/group_pairs/dispatch", size}).c_str(), group_pile,
                                     n)
            ->Unit(benchmark::kMicrosecond);
        for (const bool brute : {false, true}) {
            benchmark::RegisterBenchmark(
                name({"world/static_boxes/", brute ? "brute_force" : "grid", size}).c_str(),
                [brute, n](benchmark::State& state) {
                    particle_world& world = settled(n);
                    static_boxes_phase(state, world, world.boxes(), brute);
                })
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
        }
    }
    for (const std::size_t boxes :
         {std::size_t{10}, std::size_t{100}, std::size_t{1000}, std::size_t{10000}}) {
        for (const bool brute : {false, true}) {
            benchmark::RegisterBenchmark(
                name({"static_boxes/", brute ? "brute_force" : "grid", "/", std::to_string(boxes)})
                    .c_str(),
                static_boxes_by_count, boxes, brute)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
        }
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
