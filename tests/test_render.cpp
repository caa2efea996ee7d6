// The demo's renderer (tools/demo/render.hpp): a small world drawn into a small image has
// its circles and boxes where they are, in their colours, and the background elsewhere.
#include "demo/render.hpp"

#include <gtest/gtest.h>

#include <simdcollide/containers.hpp>
#include <simdcollide/world.hpp>

#include <utility>

namespace simdcollide::testing {
namespace {

using demo::rgb;

// A 10 x 10 world drawn into 100 x 100 pixels: a pixel is a tenth of a unit, and pixel
// (px, py) has its centre at x = (px + 0.5) / 10, y = 10 - (py + 0.5) / 10.
struct drawn {
    particle_world world;
    demo::image picture{100, 100};
    drawn() {
        aabb_set boxes;
        boxes.push_back(aabb::from_min_max(1.0F, 1.0F, 3.0F, 2.0F)); // x 10-29, rows 80-89
        world.set_boxes(boxes.view());
        world.add_circle({6.0F, 5.0F, 1.0F}, 1.0F);             // at rest
        world.add_circle({2.0F, 2.0F, 0.5F}, 0.0F, 3.0F, 4.0F); // over the box, speed 5
        demo::draw(world, {0.0F, 0.0F, 10.0F, 10.0F}, 10.0F, picture);
    }
};

TEST(render, shapes_where_they_are_and_background_elsewhere) {
    const drawn d;
    const rgb at_rest = demo::speed_colour(0.0F, 10.0F);
    const rgb moving = demo::speed_colour(5.0F, 10.0F);
    EXPECT_NE(at_rest, moving);
    // The circle at (6, 5) of radius 1: its centre is pixel (60, 50); pixels (60, 41)
    // (y = 5.85) and (69, 50) (x = 6.95) are inside, (60, 39) (y = 6.05) and (71, 50) outside.
    EXPECT_EQ(d.picture.at(60, 50), at_rest);
    EXPECT_EQ(d.picture.at(59, 49), at_rest);
    EXPECT_EQ(d.picture.at(60, 41), at_rest);
    EXPECT_EQ(d.picture.at(69, 50), at_rest);
    EXPECT_EQ(d.picture.at(60, 39), demo::background);
    EXPECT_EQ(d.picture.at(71, 50), demo::background);
    EXPECT_EQ(d.picture.at(68, 42), demo::background); // the square's corner, not the disc's
    // The box from (1, 1) to (3, 2): columns 10 to 29, rows 80 to 89.
    EXPECT_EQ(d.picture.at(10, 89), demo::box_colour);
    EXPECT_EQ(d.picture.at(29, 80), demo::box_colour);
    EXPECT_EQ(d.picture.at(9, 85), demo::background);
    EXPECT_EQ(d.picture.at(30, 85), demo::background);
    EXPECT_EQ(d.picture.at(11, 79), demo::background);
    EXPECT_EQ(d.picture.at(15, 90), demo::background);
    // The moving circle at (2, 2), drawn over the box's top edge.
    EXPECT_EQ(d.picture.at(20, 80), moving);
    EXPECT_EQ(d.picture.at(20, 77), moving);
    EXPECT_EQ(d.picture.at(12, 81), demo::box_colour);
    // Everything else is background: count the pixels of each colour.
    std::size_t circle_pixels = 0, background_pixels = 0;
    for (std::size_t y = 0; y < 100; ++y) {
        for (std::size_t x = 0; x < 100; ++x) {
            circle_pixels += d.picture.at(x, y) == at_rest ? 1 : 0;
            background_pixels += d.picture.at(x, y) == demo::background ? 1 : 0;
        }
    }
    EXPECT_NEAR(static_cast<double>(circle_pixels), 314.0, 12.0); // pi r^2, r = 10 pixels
    EXPECT_GT(background_pixels, 100U * 100U - 314U - 200U - 79U - 20U);
}

TEST(render, a_wider_window_is_centred_with_its_aspect_kept) {
    particle_world world;
    world.add_circle({0.0F, 0.0F, 1.0F}, 1.0F);
    demo::image picture(200, 100);
    // A window 4 x 4 around the circle into 200 x 100: 25 pixels a unit, centred.
    demo::draw(world, {-2.0F, -2.0F, 2.0F, 2.0F}, 1.0F, picture);
    const rgb circle = demo::speed_colour(0.0F, 1.0F);
    EXPECT_EQ(picture.at(100, 50), circle);
    EXPECT_EQ(picture.at(123, 50), circle);
    EXPECT_EQ(picture.at(126, 50), demo::background);
    EXPECT_EQ(picture.at(100, 27), circle);
    EXPECT_EQ(picture.at(100, 24), demo::background);
}

TEST(render, kinematic_boxes_as_boxes_and_crates_with_a_rim) {
    particle_world world;
    world.add_kinematic_box(aabb::from_min_max(1.0F, 1.0F, 2.0F, 2.0F));     // x 10-19, rows 80-89
    world.add_dynamic_box(aabb::from_min_max(5.0F, 5.0F, 7.0F, 6.0F), 1.0F); // x 50-69, rows 40-49
    demo::image picture(100, 100);
    demo::draw(world, {0.0F, 0.0F, 10.0F, 10.0F}, 10.0F, picture);
    EXPECT_EQ(picture.at(10, 80), demo::box_colour);
    EXPECT_EQ(picture.at(15, 85), demo::box_colour);
    EXPECT_EQ(picture.at(20, 85), demo::background);
    EXPECT_EQ(picture.at(60, 45), demo::crate_colour);
    EXPECT_EQ(picture.at(51, 41), demo::crate_colour);
    for (const auto& [x, y] : {std::pair{50, 45}, std::pair{69, 45}, std::pair{60, 40},
                               std::pair{60, 49}, std::pair{50, 40}}) {
        EXPECT_EQ(picture.at(x, y), demo::crate_rim_colour) << x << ", " << y;
    }
    EXPECT_EQ(picture.at(70, 45), demo::background);
    EXPECT_EQ(picture.at(60, 39), demo::background);
}

TEST(render, speed_colours_run_from_blue_to_red_and_clamp) {
    const rgb slow = demo::speed_colour(0.0F, 10.0F);
    const rgb fast = demo::speed_colour(10.0F, 10.0F);
    EXPECT_GT(slow.b, slow.r);
    EXPECT_GT(fast.r, fast.b);
    EXPECT_EQ(demo::speed_colour(50.0F, 10.0F), fast);
    EXPECT_EQ(demo::speed_colour(-1.0F, 10.0F), slow);
}

} // namespace
} // namespace simdcollide::testing
