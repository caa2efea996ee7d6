// The world benchmarks' scene, a settled pile: tools/scenes' "box", n circles of radius 0.25 to
// 0.45 dropped into a container of static boxes (a floor and two walls, 1.2 sqrt(n) wide) with
// n/100 random obstacle boxes 0.5 to 2.5 on a side inside, stepped with world_options' defaults (dt
// = 1/60, 4 substeps; scene_options in world_pile.cpp), run until settled (long enough for the top
// row to fall to the floor, plus a second, then until the mean squared speed is below 1e-6, at
// rest, for at most a simulated minute) before timing. Settling 10 000 circles takes seconds,
// 100 000 a minute or two; the 1 000 000-circle pile, some 600 rows deep, needs more than the cap
// (SIMDCOLLIDE_BENCH_SETTLE_MINUTES=4). The larger sizes run only when a filter asks for them.
// SIMDCOLLIDE_BENCH_SCENES=<directory> keeps settled piles there (pile-<n>-rest.bin), so that
// each size settles once; they are
// saved every simulated ten seconds while they settle. SIMDCOLLIDE_BENCH_SETTLE_MINUTES=<m>
// sets the cap to m simulated minutes, and when set, a saved pile that has not settled
// settles on from where it was saved, for up to m more (settled()).
// SIMDCOLLIDE_BENCH_SETTLE_WORKERS=<k> settles them on k workers: the same pile, sooner.
// A saved pile holds no contact impulses, nor does one rebuilt with other options: its first
// steps sag it and set it moving again (the 100 000-circle pile to a mean squared speed of
// 0.36), so such a pile steps on until it rests again before it is timed (at_rest_again).
#pragma once

#include "world/world_state.hpp"

#include <simdcollide/dispatch.hpp>
#include <simdcollide/world.hpp>

#include <cstddef>

namespace simdcollide::bench {

// The scene's time step (one benchmark iteration of world/step is one step of it).
constexpr float scene_dt = 1.0F / 60.0F;

// The circles' mean squared speed: a settled pile's is below 1e-6.
double mean_speed2(particle_world& world);

// The width of the scene's container for n circles: 1.2 sqrt(n).
float scene_width(std::size_t n);

// A pile's circles and boxes in a world of its own made with `options`.
particle_world rebuilt(particle_world& pile, const world_options& options);

// The mean squared speed below which a pile is at rest.
constexpr double rest_mean_v2 = 1e-6;

// Steps a pile that has lost its contacts' impulses (loaded, or rebuilt) until it rests
// again: at least 64 steps, then on while its mean squared speed is rest_mean_v2 or more, for
// at most 600 steps (10 simulated seconds; 64 from 1 000 000 circles, a pile that does not
// settle within the benchmarks' cap anyway).
void at_rest_again(particle_world& world);

// The settled pile of n circles, made on first use and kept for the benchmarks that follow.
particle_world& settled(std::size_t n);

// The settled pile of n circles in a world made with `options` (rebuilt), at rest again;
// made on first use for each count of workers and sweep_from, and kept.
particle_world& settled_with(std::size_t n, const world_options& options);

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

} // namespace simdcollide::bench
