// The standard scenes the quality tool, the benchmarks and the tests step, and what they
// measure of a world's state: how much it moves, how deep its circles overlap, whether any
// left its container.
#pragma once

#include <simdcollide/containers.hpp>
#include <simdcollide/world.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace simdcollide::scenes {

/// The scenes:
/// - box: n circles of radius 0.25 to 0.45 dropped in columns into a container 1.2 sqrt(n)
///   wide (a floor and two walls, static boxes 1 thick) holding n / 100 random obstacle
///   boxes 0.5 to 2.5 on a side: the benchmarks' "particles in a box";
/// - column_high: n such circles in rows of 19 in a container 20 wide, the lowest row 510
///   above the floor, so that it lands at about 100 (length / time);
/// - column_floor: the same column with its lowest row just above the floor.
enum class kind { box, column_high, column_floor };

/// The scene's name as the tools print it (box, column-high, column-floor).
std::string name_of(kind k);
/// The scene named so; throws std::invalid_argument naming the known ones otherwise.
kind kind_named(const std::string& name);
/// Every scene, in the order above.
std::vector<kind> all_kinds();

/// A scene's world and its container's inside: x from left to right, y from floor up.
struct scene {
    kind what;
    std::unique_ptr<particle_world> world;
    float left = 0.0F;
    float right = 0.0F;
    float floor = 0.0F;
};

/// Appends a container to `boxes`: a floor under x from 0 to width and two walls up to
/// height, static boxes 1 thick, its inside x in [0, width], y from 0.
void add_container(float width, float height, aabb_set& boxes);

/// The scene with n circles (deterministic for a given n), stepped with `options`.
scene make(kind what, std::size_t n, const world_options& options = {});

/// A world's state as a user watching it would judge it. Overlaps are fractions of the
/// smaller radius of a pair; box penetration a fraction of the circle's radius.
struct quality {
    double mean_v2 = 0.0;         ///< mean squared speed
    double max_speed = 0.0;       ///< the fastest circle's speed
    double overlap_mean = 0.0;    ///< over the pairs that overlap
    double overlap_max = 0.0;     ///< the deepest pair
    std::size_t deep_pairs = 0;   ///< pairs overlapping more than 10%
    double penetration_max = 0.0; ///< the deepest circle in a box
    std::size_t escaped = 0;      ///< centres outside the container (or not finite)
    std::size_t not_finite = 0;   ///< circles with a NaN or infinite field
    std::size_t airborne = 0;     ///< circles within 0.02 of no circle and no box
    double mean_height = 0.0;     ///< mean centre height above the floor
};

/// Measures a world now, its container's inside being x from left to right and y from
/// floor up (a broad phase over its circles and boxes: allocates).
quality measure(particle_world& world, float left, float right, float floor);
/// Measures the scene's world now.
quality measure(const scene& s);

} // namespace simdcollide::scenes
