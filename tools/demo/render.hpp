// Drawing a world: its boxes and circles rasterised into an RGB image, for the demo's
// frames and the README's picture. No image library here; png.hpp writes the result.
#pragma once

#include <simdcollide/world.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::demo {

struct rgb {
    std::uint8_t r, g, b;
    friend bool operator==(const rgb&, const rgb&) = default;
};

inline constexpr rgb background{246, 244, 238};
inline constexpr rgb box_colour{72, 76, 84};
/// A dynamic box (a crate): filled, with a darker rim one pixel wide so that stacked crates
/// stay apart in the picture.
inline constexpr rgb crate_colour{184, 132, 74};
inline constexpr rgb crate_rim_colour{112, 74, 36};

/// An image of width x height pixels, row 0 at the top, 3 bytes a pixel.
struct image {
    std::size_t width = 0;
    std::size_t height = 0;
    std::vector<std::uint8_t> pixels; // r, g, b, row by row from the top

    image(std::size_t w, std::size_t h) : width(w), height(h), pixels(w * h * 3) {}
    [[nodiscard]] rgb at(std::size_t x, std::size_t y) const {
        const std::size_t k = (y * width + x) * 3;
        return {pixels[k], pixels[k + 1], pixels[k + 2]};
    }
    void set(std::size_t x, std::size_t y, rgb c) {
        const std::size_t k = (y * width + x) * 3;
        pixels[k] = c.r;
        pixels[k + 1] = c.g;
        pixels[k + 2] = c.b;
    }
};

/// The part of the world an image shows: x from left to right, y from bottom to top, in
/// world units, fitted into the image with its aspect kept and centred.
struct window {
    float left, bottom, right, top;
};

/// A circle's colour for its speed: blue at rest through green to red at `fast` and above.
rgb speed_colour(float speed, float fast);

/// Draws the background, then every static and kinematic box, then every dynamic box, then
/// every circle (coloured by speed against `fast`, length / time) of `world` into `out`. A
/// pixel is a shape's where its centre lies inside the shape; what lies outside the window
/// is not drawn.
void draw(particle_world& world, const window& view, float fast, image& out);

} // namespace simdcollide::demo
