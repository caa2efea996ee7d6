// The world's stages alone, on the settled pile's circles in the order a step keeps them in
// (pile_in_slots below; world_pile.hpp):
//   world/find_pairs/dispatch/<n>          the circle-circle broad phase alone
//   world/separate/<impl>/<n>              separate_in_order (the batch kernel): one round
//                                          over the pile's pairs, grouped
//   world/group_pairs/dispatch/<n>         grouping those pairs (pair_grouper); items are pairs
//   world/solve/<impl>/<n>                 one solve pass of the soft step over the pile's
//                                          circle-pair contacts; items are contacts
//   world/static_boxes/grid/<n>            the accelerated static-box phase
//   world/static_boxes/brute_force/<n>     every box against every circle, SIMD (one-box kernel)
//   static_boxes/<grid|brute_force>/<boxes> 10 000 circles against 10 .. 10 000 boxes
// <impl> is reference (set_isa(isa::reference)) or dispatch. Items are circles unless said.
#include "bench_support.hpp"
#include "broad_phase/circle_grid.hpp"
#include "world/solver/solver_table.hpp"
#include "world/world_state.hpp"
#include "world_pile.hpp"

#include <simdcollide/world.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>

namespace simdcollide::bench {
namespace {

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

// One solve pass of the soft step (solver_table.hpp, solve_pairs) over the settled pile's
// circle-pair contacts as its world last made and prepared them, colour by colour, the
// impulses and velocities put back before each run; items are contacts.
void solve_pile(benchmark::State& state, bool reference, std::size_t n) {
    particle_world& world = settled(n);
    world.step(scene_dt); // contacts made and prepared from the pile as it is
    const detail::world_state& ws = detail::state_of(world);
    detail::pair_contacts contacts = ws.pair_contacts_in_slots();
    const particles_view p = world.particles();
    aligned_floats bodies(4 * n);
    for (std::size_t s = 0; s < n; ++s) {
        const std::uint32_t i = ws.circle_of_slot(s);
        bodies[4 * s] = p.vx[i];
        bodies[4 * s + 1] = p.vy[i];
    }
    const aligned_floats start = bodies;
    const aligned_floats normal = contacts.normal;
    const aligned_floats tangent = contacts.tangent;
    const detail::solver_kernels& table =
        reference ? detail::solver_reference() : detail::solver_table(detail::active_table().id);
    detail::solve_parameters parameters;
    const float h = scene_dt / static_cast<float>(world.options().substeps);
    parameters.inverse_h = 1.0F / h;
    parameters.max_push = world.options().max_push_speed;
    parameters.moving = {10.0F, 0.9F, 0.1F};
    parameters.fixed = {20.0F, 0.95F, 0.05F};
    const detail::solver_bodies v{bodies.data()};
    for (auto _ : state) {
        std::copy(start.data(), start.data() + 4 * n, bodies.data());
        contacts.normal = normal;
        contacts.tangent = tangent;
        const detail::pair_contacts_view view = contacts.view();
        state.SetIterationTime(seconds_of([&] {
            for (std::size_t c = 0; c < contacts.colours(); ++c) {
                table.solve_pairs(v, view, contacts.colour_start[c], contacts.colour_start[c + 1],
                                  parameters);
            }
        }));
    }
    state.counters["contacts"] = static_cast<double>(contacts.size());
    state.counters["colours"] = static_cast<double>(contacts.colours());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * contacts.size()));
}

// separate_in_order, one round, over the pile's pairs as grouped by pair_grouper; items are
// circles.
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

// Grouping the pile's pairs (pair_grouper) from scratch, as when a list changes everywhere (a
// grouper that has seen the list copies every chunk; a fresh one each time colours them all); items
// are pairs.
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
    const auto name = benchmark_name;
    for (const std::size_t n : {std::size_t{10000}, std::size_t{100000}, std::size_t{1000000}}) {
        const std::string size = name({"/", std::to_string(n)});
        for (const bool reference : {true, false}) {
            const std::string impl = reference ? "reference" : "dispatch";
            benchmark::RegisterBenchmark(name({"world/separate/", impl, size}).c_str(),
                                         separate_pile, reference, n)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(name({"world/solve/", impl, size}).c_str(), solve_pile,
                                         reference, n)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
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
