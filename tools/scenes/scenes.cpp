// The standard scenes and their measures (scenes.hpp).
#include "scenes.hpp"

#include <simdcollide/circle_aabb.hpp>
#include <simdcollide/pair_finder.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace simdcollide::scenes {

void add_container(float width, float height, aabb_set& boxes) {
    boxes.push_back(aabb::from_min_max(-1.0F, -1.0F, width + 1.0F, 0.0F));
    boxes.push_back(aabb::from_min_max(-1.0F, 0.0F, 0.0F, height));
    boxes.push_back(aabb::from_min_max(width, 0.0F, width + 1.0F, height));
}

namespace {

scene box_scene(std::size_t n, const world_options& options) {
    scene s{kind::box, std::make_unique<particle_world>(options)};
    const float width = 1.2F * std::sqrt(static_cast<float>(n));
    const auto columns = static_cast<std::size_t>(width) - 1;
    const float rows = static_cast<float>(n) / static_cast<float>(columns);
    std::mt19937 rng(static_cast<std::uint32_t>(n));
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    aabb_set boxes;
    add_container(width, rows * 2 + 10, boxes);
    for (std::size_t k = 0; k < n / 100; ++k) {
        const float w = 0.5F + 2.0F * unit(rng);
        const float h = 0.5F + 2.0F * unit(rng);
        boxes.push_back(aabb::from_origin_size(unit(rng) * (width - w), unit(rng) * rows, w, h));
    }
    s.world->set_boxes(boxes.view());
    for (std::size_t i = 0; i < n; ++i) {
        s.world->add_circle({0.5F + static_cast<float>(i % columns) + 0.05F * unit(rng),
                             1.0F + rows + static_cast<float>(i / columns),
                             0.25F + 0.2F * unit(rng)},
                            1.0F);
    }
    s.right = width;
    return s;
}

scene column_scene(kind what, std::size_t n, const world_options& options) {
    scene s{what, std::make_unique<particle_world>(options)};
    constexpr float width = 20.0F;
    constexpr std::size_t per_row = 19;
    const float lowest = what == kind::column_high ? 510.0F : 0.5F;
    const float rows = static_cast<float>((n + per_row - 1) / per_row);
    aabb_set boxes;
    add_container(width, lowest + rows + 100.0F, boxes);
    s.world->set_boxes(boxes.view());
    std::mt19937 rng(static_cast<std::uint32_t>(n) + 1);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < n; ++i) {
        s.world->add_circle({0.55F + static_cast<float>(i % per_row) + 0.02F * unit(rng),
                             lowest + static_cast<float>(i / per_row), 0.25F + 0.2F * unit(rng)},
                            1.0F);
    }
    s.right = width;
    return s;
}

} // namespace

std::string name_of(kind k) {
    switch (k) {
    case kind::box:
        return "box";
    case kind::column_high:
        return "column-high";
    case kind::column_floor:
        return "column-floor";
    }
    return "?";
}

kind kind_named(const std::string& name) {
    for (const kind k : all_kinds()) {
        if (name_of(k) == name) {
            return k;
        }
    }
    throw std::invalid_argument("unknown scene \"" + name +
                                "\" (the scenes: box, column-high, column-floor)");
}

std::vector<kind> all_kinds() {
    return {kind::box, kind::column_high, kind::column_floor};
}

scene make(kind what, std::size_t n, const world_options& options) {
    return what == kind::box ? box_scene(n, options) : column_scene(what, n, options);
}

quality measure(const scene& s) {
    return measure(*s.world, s.left, s.right, s.floor);
}

quality measure(particle_world& world, float left, float right, float floor) {
    const particles_view p = world.particles();
    const std::size_t n = p.count;
    quality q;
    std::vector<std::uint8_t> touching(n, 0);
    double height = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const bool finite = std::isfinite(p.x[i]) && std::isfinite(p.y[i]) &&
                            std::isfinite(p.vx[i]) && std::isfinite(p.vy[i]);
        q.not_finite += finite ? 0 : 1;
        if (!finite || p.x[i] < left || p.x[i] > right || p.y[i] < floor) {
            ++q.escaped;
        }
        const double v2 =
            static_cast<double>(p.vx[i]) * p.vx[i] + static_cast<double>(p.vy[i]) * p.vy[i];
        q.mean_v2 += v2;
        q.max_speed = std::max(q.max_speed, std::sqrt(v2));
        height += p.y[i] - floor;
    }
    // Pairs within 0.02 of touching: their overlaps, and who touches something.
    constexpr float near = 0.02F;
    pair_finder finder;
    std::size_t overlapping = 0;
    for (const circle_pair pair : finder.find(p, near)) {
        touching[pair.a] = touching[pair.b] = 1;
        const float dx = p.x[pair.b] - p.x[pair.a];
        const float dy = p.y[pair.b] - p.y[pair.a];
        const double depth = static_cast<double>(p.radius[pair.a]) + p.radius[pair.b] -
                             std::sqrt(static_cast<double>(dx) * dx + static_cast<double>(dy) * dy);
        if (depth > 0.0) {
            const double share = depth / std::min(p.radius[pair.a], p.radius[pair.b]);
            ++overlapping;
            q.overlap_mean += share;
            q.overlap_max = std::max(q.overlap_max, share);
            q.deep_pairs += share > 0.1 ? 1 : 0;
        }
    }
    const static_box_grid& grid = world.boxes();
    const aabbs_view boxes = grid.boxes();
    std::vector<std::uint32_t> candidates;
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(p.x[i]) || !std::isfinite(p.y[i])) {
            continue;
        }
        grid.candidates(p.x[i], p.y[i], p.radius[i], near, candidates);
        for (const std::uint32_t k : candidates) {
            const float sx = std::clamp(p.x[i], boxes.min_x[k], boxes.max_x[k]);
            const float sy = std::clamp(p.y[i], boxes.min_y[k], boxes.max_y[k]);
            const double dx = p.x[i] - sx;
            const double dy = p.y[i] - sy;
            const double d = std::sqrt(dx * dx + dy * dy);
            if (d <= p.radius[i] + near) {
                touching[i] = 1;
            }
            // Inside the box: as deep as the nearest face plus the radius.
            const double inside =
                d > 0.0 ? 0.0
                        : std::min({p.x[i] - boxes.min_x[k], boxes.max_x[k] - p.x[i],
                                    p.y[i] - boxes.min_y[k], boxes.max_y[k] - p.y[i]});
            const double depth = d > 0.0 ? p.radius[i] - d : inside + p.radius[i];
            if (depth > 0.0 && p.radius[i] > 0.0F) {
                q.penetration_max = std::max(q.penetration_max, depth / p.radius[i]);
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        q.airborne += touching[i] == 0 ? 1 : 0;
    }
    if (n > 0) {
        q.mean_v2 /= static_cast<double>(n);
        q.mean_height = height / static_cast<double>(n);
    }
    if (overlapping > 0) {
        q.overlap_mean /= static_cast<double>(overlapping);
    }
    return q;
}

} // namespace simdcollide::scenes
