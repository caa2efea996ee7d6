// Shared by the benchmark files: the scenes, the implementations to compare, and naming.
#pragma once

#include "native_loops.hpp"
#include "pairwise/kernel_table.hpp"

#include <simdcollide/simdcollide.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace simdcollide::bench {

/// The sizes every kernel is measured at: in L1, in L2, in L3 or beyond, far beyond caches.
inline const std::vector<std::size_t> sizes = {64, 4096, 65536, 16777216};

/// n circle-box pairs as a particle simulation sees them: circles of radius 0.1 to 1 near
/// boxes 0.5 to 3 on a side, about half of them in contact (some centres inside), in
/// 64-byte aligned arrays. Deterministic for a given n. One scene per n, made on first use.
struct pair_scene {
    circle_set circles;
    aabb_set boxes;
    contact_set contacts;
    aligned_floats start_x; ///< the circles' x before any push-out, for restoring
    aligned_floats start_y;
};
pair_scene& scene_for(std::size_t n);

/// n box pairs as a scene of crates sees them: boxes 0.5 to 3 on a side, the second within
/// about a box of the first, about half the pairs in contact (a few coincident or one inside
/// the other), in 64-byte aligned arrays. Deterministic for a given n; made on first use.
struct box_pair_scene {
    aabb_set first;
    aabb_set second;
    contact_set contacts;
    /// Inverse masses 0.5 to 2, one box in 16 static, for separate.
    aligned_floats first_inverse_mass, second_inverse_mass;
    /// The boxes as made, which the separate benchmarks restore before every call.
    aabb_set start_first, start_second;
};
box_pair_scene& box_scene_for(std::size_t n);

/// One implementation of the kernels under a benchmark name.
struct implementation {
    std::string name; ///< reference, sse2, avx2, avx512, neon, dispatch, autovec
    const detail::circle_aabb_kernels_table* circle_aabb;
    const detail::circle_circle_kernels_table* circle_circle;
    const detail::response_kernels_table* response;
    /// The world's kernels (separation in order); null for autovec, which has none.
    const detail::world_kernels_table* world;
    const detail::box_box_kernels_table* box_box;
};

/// reference, every ISA this CPU runs, dispatch (the active table) and autovec.
std::vector<implementation> implementations();

/// n circle pairs (a[i], b[i]) for the circle-circle and response benchmarks: radii 0.1 to
/// 1, centres up to 2.5 apart on each axis (about a sixth in contact, a few coincident),
/// inverse masses 0.5 to 2 with one circle in 16 static, random velocities; their contacts;
/// the contacts the same pairs would have in contact (`touching`, below); and a packed
/// pile of n circles with a pair list in which each circle sits in about six pairs.
struct circle_scene {
    aligned_floats ax, ay, ar, aw, avx, avy, bx, by, br, bw, bvx, bvy;
    aligned_floats start_ax, start_ay, start_bx, start_by;
    /// The velocities as made, which the response benchmarks restore before every call.
    aligned_floats start_avx, start_avy, start_bvx, start_bvy;
    contact_set contacts;
    /// For the response benchmarks: the contact kernel's output for each pair with b's
    /// centre moved to within r_a + r_b of a's (a random direction and fraction of that
    /// reach; coincident every 64th pair), so every pair is in contact, as the contacts a
    /// solver responds to are, and about half approach. (In `contacts` about 82% of the
    /// pairs are apart, with zero normals, and about 9% approach: the scalar reference
    /// skips most of them on a well-predicted branch.)
    contact_set touching;
    aligned_floats pile_x, pile_y, pile_r, pile_w, pile_start_x, pile_start_y;
    std::vector<circle_pair> pile_pairs;

    particles_view a() {
        return {ax.data(), ay.data(), ar.data(), aw.data(), avx.data(), avy.data(), ax.size()};
    }
    particles_view b() {
        return {bx.data(), by.data(), br.data(), bw.data(), bvx.data(), bvy.data(), bx.size()};
    }
    particles_view pile() {
        return {pile_x.data(), pile_y.data(), pile_r.data(), pile_w.data(),
                nullptr,       nullptr,       pile_x.size()};
    }
};
circle_scene& circle_scene_for(std::size_t n);

/// n circles spread at random over a square of area n (about one per unit area), radius
/// 0.25 to 0.45: the broad phases' scene.
circle_set scattered_circles(std::size_t n);

/// Times one call with the wall clock, for benchmarks that must restore their input
/// between iterations (UseManualTime).
template <class F>
double seconds_of(F&& call) {
    const auto start = std::chrono::steady_clock::now();
    call();
    const auto stop = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(stop - start).count();
}

/// A benchmark's name, its parts joined. Built with append, not operator+: GCC 12 reports a
/// false -Wrestrict on some std::string concatenations (its bug 105329), which -Werror
/// would turn fatal.
inline std::string benchmark_name(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (const std::string_view part : parts) {
        out.append(part);
    }
    return out;
}

} // namespace simdcollide::bench
