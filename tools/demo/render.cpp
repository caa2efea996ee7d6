// Rasterising a world (render.hpp): each shape fills the pixels whose centres it covers.
#include "demo/render.hpp"

#include <algorithm>
#include <cmath>

namespace simdcollide::demo {
namespace {

// World to pixel coordinates: a uniform scale and an offset that centres the window.
struct mapping {
    float scale, x0, y0;
    std::size_t width, height;

    mapping(const window& v, std::size_t w, std::size_t h) : width(w), height(h) {
        const float sx = static_cast<float>(w) / (v.right - v.left);
        const float sy = static_cast<float>(h) / (v.top - v.bottom);
        scale = std::min(sx, sy);
        x0 = 0.5F * (static_cast<float>(w) - scale * (v.right - v.left)) - scale * v.left;
        y0 = 0.5F * (static_cast<float>(h) - scale * (v.top - v.bottom)) + scale * v.top;
    }
    // The world point at the centre of pixel (px, py).
    [[nodiscard]] float world_x(std::size_t px) const {
        return (static_cast<float>(px) + 0.5F - x0) / scale;
    }
    [[nodiscard]] float world_y(std::size_t py) const {
        return (y0 - static_cast<float>(py) - 0.5F) / scale;
    }
    // The pixel columns (or rows) whose centres can lie in [lo, hi], clipped to the image.
    [[nodiscard]] std::pair<std::size_t, std::size_t> columns(float lo, float hi) const {
        return clip(x0 + lo * scale - 0.5F, x0 + hi * scale - 0.5F, width);
    }
    [[nodiscard]] std::pair<std::size_t, std::size_t> rows(float lo, float hi) const {
        return clip(y0 - hi * scale - 0.5F, y0 - lo * scale - 0.5F, height);
    }
    static std::pair<std::size_t, std::size_t> clip(float from, float to, std::size_t size) {
        if (!(to >= 0.0F) || !(from < static_cast<float>(size))) {
            return {0, 0};
        }
        const auto first = static_cast<std::size_t>(std::max(std::ceil(from), 0.0F));
        const auto last =
            static_cast<std::size_t>(std::min(std::floor(to), static_cast<float>(size) - 1.0F));
        return {first, last + 1};
    }
};

} // namespace

rgb speed_colour(float speed, float fast) {
    const float t = std::clamp(fast > 0.0F ? speed / fast : 0.0F, 0.0F, 1.0F);
    const auto mix = [t](float a, float b, float c) {
        const float v = t < 0.5F ? a + (b - a) * (2.0F * t) : b + (c - b) * (2.0F * t - 1.0F);
        return static_cast<std::uint8_t>(std::lround(v));
    };
    return {mix(52, 80, 214), mix(110, 170, 64), mix(196, 92, 48)};
}

void draw(particle_world& world, const window& view, float fast, image& out) {
    for (std::size_t k = 0; k + 2 < out.pixels.size(); k += 3) {
        out.pixels[k] = background.r;
        out.pixels[k + 1] = background.g;
        out.pixels[k + 2] = background.b;
    }
    const mapping m(view, out.width, out.height);
    // rim: the colour of the pixels on the box's outer ring, or the fill's for none.
    const auto fill = [&](const aabb& b, rgb colour, rgb rim) {
        const auto [x_from, x_to] = m.columns(b.min_x, b.max_x);
        const auto [y_from, y_to] = m.rows(b.min_y, b.max_y);
        for (std::size_t py = y_from; py < y_to; ++py) {
            for (std::size_t px = x_from; px < x_to; ++px) {
                const bool edge = px == x_from || px + 1 == x_to || py == y_from || py + 1 == y_to;
                out.set(px, py, edge ? rim : colour);
            }
        }
    };
    const aabbs_view boxes = world.boxes().boxes();
    for (std::size_t i = 0; i < boxes.count; ++i) {
        fill(aabb::from_min_max(boxes.min_x[i], boxes.min_y[i], boxes.max_x[i], boxes.max_y[i]),
             box_colour, box_colour);
    }
    for (std::size_t i = 0; i < world.kinematic_box_count(); ++i) {
        fill(world.kinematic_box_at(i).box, box_colour, box_colour);
    }
    for (std::size_t i = 0; i < world.dynamic_box_count(); ++i) {
        fill(world.dynamic_box_at(i).box, crate_colour, crate_rim_colour);
    }
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        const float r = p.radius[i];
        const rgb colour = speed_colour(std::sqrt(p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i]), fast);
        const auto [x_from, x_to] = m.columns(p.x[i] - r, p.x[i] + r);
        const auto [y_from, y_to] = m.rows(p.y[i] - r, p.y[i] + r);
        for (std::size_t py = y_from; py < y_to; ++py) {
            const float dy = m.world_y(py) - p.y[i];
            for (std::size_t px = x_from; px < x_to; ++px) {
                const float dx = m.world_x(px) - p.x[i];
                if (dx * dx + dy * dy <= r * r) {
                    out.set(px, py, colour);
                }
            }
        }
    }
}

} // namespace simdcollide::demo
