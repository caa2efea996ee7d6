// Contact events and sensors (docs/behaviour.md, "Contact events" and "Sensors"): a circle
// dropped on a floor begins one touch, hits once and ends none while it rests; what touches
// after each step equals a brute force over every shape, and the events are the changes;
// removing shapes renumbers them; a sensor holds exactly the shapes in it; the same events on
// every instruction set and worker count; bad calls refused.
#include "test_support.hpp"

#include <simdcollide/queries.hpp>
#include <simdcollide/world.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace simdcollide::testing {
namespace {

constexpr float dt = 1.0F / 60.0F;

auto order_of(const shape_ref& r) {
    return std::tuple{static_cast<int>(r.kind), r.index};
}

shape_pair ordered(shape_ref a, shape_ref b) {
    return order_of(b) < order_of(a) ? shape_pair{b, a} : shape_pair{a, b};
}

bool pair_less(const shape_pair& l, const shape_pair& r) {
    return std::tuple{order_of(l.a), order_of(l.b)} < std::tuple{order_of(r.a), order_of(r.b)};
}

particle_world floor_world(world_options options) {
    particle_world world(options);
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-50.0F, -1.0F, 50.0F, 0.0F));
    world.set_boxes(floor.view());
    return world;
}

// The shapes of a world as boxes and circles, to test by brute force.
struct shape_of {
    bool is_circle = false;
    circle c{};
    aabb b{};
    bool moves = false; // a circle with mass, or a dynamic box
};

shape_of shape(particle_world& world, shape_ref r) {
    shape_of s;
    switch (r.kind) {
    case shape_kind::circle: {
        const particles_view p = world.particles();
        s.is_circle = true;
        s.c = {p.x[r.index], p.y[r.index], p.radius[r.index]};
        s.moves = p.inverse_mass[r.index] > 0.0F;
        break;
    }
    case shape_kind::static_box: {
        const aabbs_view v = world.boxes().boxes();
        s.b = aabb::from_min_max(v.min_x[r.index], v.min_y[r.index], v.max_x[r.index],
                                 v.max_y[r.index]);
        break;
    }
    case shape_kind::kinematic_box:
        s.b = world.kinematic_box_at(r.index).box;
        break;
    case shape_kind::dynamic_box:
        s.b = world.dynamic_box_at(r.index).box;
        s.moves = true;
        break;
    case shape_kind::none:
        break;
    }
    return s;
}

bool touch(const shape_of& l, const shape_of& r) {
    if (l.is_circle && r.is_circle) {
        const double dx = static_cast<double>(r.c.x) - l.c.x;
        const double dy = static_cast<double>(r.c.y) - l.c.y;
        const double d = static_cast<double>(l.c.radius) + r.c.radius;
        return dx * dx + dy * dy <= d * d;
    }
    if (l.is_circle || r.is_circle) {
        const circle& c = l.is_circle ? l.c : r.c;
        const aabb& b = l.is_circle ? r.b : l.b;
        const double dx = c.x - std::clamp<double>(c.x, b.min_x, b.max_x);
        const double dy = c.y - std::clamp<double>(c.y, b.min_y, b.max_y);
        return dx * dx + dy * dy <= static_cast<double>(c.radius) * c.radius;
    }
    return l.b.min_x <= r.b.max_x && r.b.min_x <= l.b.max_x && l.b.min_y <= r.b.max_y &&
           r.b.min_y <= l.b.max_y;
}

std::vector<shape_ref> every_shape(const particle_world& world) {
    std::vector<shape_ref> all;
    const std::size_t counts[] = {world.size(), world.boxes().boxes().count,
                                  world.kinematic_box_count(), world.dynamic_box_count()};
    for (int kind = 0; kind < 4; ++kind) {
        for (std::size_t i = 0; i < counts[kind]; ++i) {
            all.push_back({static_cast<shape_kind>(kind), static_cast<std::uint32_t>(i)});
        }
    }
    return all;
}

bool collide(const particle_world& world, shape_ref a, shape_ref b) {
    const collision_filter fa = world.filter_of(a.kind, a.index);
    const collision_filter fb = world.filter_of(b.kind, b.index);
    return (fa.category & fb.mask) != 0 && (fb.category & fa.mask) != 0;
}

// Every pair of shapes that touch, of which one moves and which their filters let collide.
std::vector<shape_pair> brute_touching(particle_world& world) {
    const std::vector<shape_ref> all = every_shape(world);
    std::vector<shape_of> shapes;
    for (const shape_ref r : all) {
        shapes.push_back(shape(world, r));
    }
    std::vector<shape_pair> out;
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (std::size_t j = i + 1; j < all.size(); ++j) {
            if ((shapes[i].moves || shapes[j].moves) && collide(world, all[i], all[j]) &&
                touch(shapes[i], shapes[j])) {
                out.push_back(ordered(all[i], all[j]));
            }
        }
    }
    std::sort(out.begin(), out.end(), pair_less);
    return out;
}

// A walled pile of circles (some static, some filtered apart), dynamic boxes and a
// kinematic box pushing through it, with contact events on.
particle_world mixed_pile(int workers, std::size_t circles = 400) {
    world_options options;
    options.workers = workers;
    options.contact_events = true;
    options.restitution = 0.3F;
    options.hit_speed = 0.5F;
    particle_world world(options);
    world.set_boxes(open_container(12.0F, 30.0F).view());
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < circles; ++i) {
        world.add_circle(
            {0.5F + 11.0F * unit(rng), 0.5F + 14.0F * unit(rng), 0.12F + 0.1F * unit(rng)},
            i % 89 == 0 ? 0.0F : 1.0F, 2.0F * unit(rng) - 1.0F, -3.0F * unit(rng));
        if (i % 7 == 0) {
            world.set_filter(shape_kind::circle, i, {2, 1});
        }
    }
    world.add_dynamic_box(aabb::from_min_max(3.0F, 16.0F, 4.5F, 17.0F), 0.5F);
    world.add_dynamic_box(aabb::from_min_max(7.0F, 18.0F, 8.0F, 19.5F), 1.0F);
    world.add_dynamic_box(aabb::from_min_max(10.0F, 0.1F, 11.9F, 0.9F), 1.0F); // on the floor
    world.add_kinematic_box(aabb::from_min_max(1.0F, 4.0F, 2.0F, 5.0F), 1.5F, 0.0F);
    return world;
}

TEST(world_events, a_circle_dropped_on_a_floor_begins_one_touch_hits_once_and_ends_none) {
    particle_world world = floor_world({.contact_events = true});
    world.add_circle({0.0F, 2.0F, 0.25F}, 1.0F);
    const shape_pair on_floor{{shape_kind::circle, 0}, {shape_kind::static_box, 0}};
    std::size_t began = 0;
    std::size_t ended = 0;
    std::vector<contact_hit> hits;
    for (int s = 0; s < 600; ++s) {
        world.step(dt);
        const contact_events& e = world.last_contact_events();
        for (const shape_pair& p : e.began) {
            EXPECT_EQ(p, on_floor);
            ++began;
        }
        ended += e.ended.size();
        hits.insert(hits.end(), e.hits.begin(), e.hits.end());
    }
    EXPECT_EQ(began, 1U);
    EXPECT_EQ(ended, 0U);
    ASSERT_EQ(world.touching().size(), 1U);
    EXPECT_EQ(world.touching()[0], on_floor);
    // It falls 1.75 before it meets the floor, at about sqrt(2 g 1.75) = 5.9.
    ASSERT_EQ(hits.size(), 1U);
    EXPECT_EQ(hits[0].shapes, on_floor);
    EXPECT_NEAR(hits[0].speed, 5.86F, 0.2F);
    EXPECT_EQ(hits[0].normal_x, 0.0F);
    EXPECT_EQ(hits[0].normal_y, -1.0F); // from the circle to the floor
    EXPECT_NEAR(hits[0].point_x, 0.0F, 1e-6F);
    EXPECT_NEAR(hits[0].point_y, 0.0F, 0.01F);
}

TEST(world_events, a_circle_swept_onto_the_floor_at_speed_begins_one_touch_and_hits_once) {
    particle_world world = floor_world({.contact_events = true});
    world.add_circle({0.0F, 5.0F, 0.1F}, 1.0F, 0.0F, -300.0F); // 5 a step: swept
    std::size_t began = 0;
    std::vector<contact_hit> hits;
    for (int s = 0; s < 60; ++s) {
        world.step(dt);
        began += world.last_contact_events().began.size();
        EXPECT_TRUE(world.last_contact_events().ended.empty()) << s;
        const std::vector<contact_hit>& h = world.last_contact_events().hits;
        hits.insert(hits.end(), h.begin(), h.end());
    }
    EXPECT_NEAR(world.particles().y[0], 0.1F, 0.01F);
    EXPECT_EQ(began, 1U);
    ASSERT_EQ(hits.size(), 1U);
    EXPECT_NEAR(hits[0].speed, 300.0F, 1.0F);
}

TEST(world_events, without_contact_events_or_above_the_hit_speed_a_step_reports_none) {
    particle_world quiet = floor_world({});
    particle_world no_hits =
        floor_world({.contact_events = true, .hit_speed = std::numeric_limits<float>::infinity()});
    for (particle_world* world : {&quiet, &no_hits}) {
        world->add_circle({0.0F, 2.0F, 0.25F}, 1.0F);
        for (int s = 0; s < 120; ++s) {
            world->step(dt);
            EXPECT_TRUE(world->last_contact_events().hits.empty());
        }
    }
    EXPECT_TRUE(quiet.touching().empty());
    EXPECT_EQ(no_hits.touching().size(), 1U);
}

TEST(world_events, what_touches_after_each_step_is_a_brute_forces_and_the_events_its_changes) {
    particle_world world = mixed_pile(1);
    std::vector<shape_pair> was;
    std::size_t began = 0;
    std::size_t ended = 0;
    std::size_t hits = 0;
    std::size_t box_box = 0;
    for (int s = 0; s < 120; ++s) {
        world.step(dt);
        const std::vector<shape_pair> want = brute_touching(world);
        const std::vector<shape_pair> got = world.touching();
        ASSERT_EQ(got, want) << "step " << s;
        const contact_events& e = world.last_contact_events();
        std::vector<shape_pair> want_began, want_ended;
        std::set_difference(got.begin(), got.end(), was.begin(), was.end(),
                            std::back_inserter(want_began), pair_less);
        std::set_difference(was.begin(), was.end(), got.begin(), got.end(),
                            std::back_inserter(want_ended), pair_less);
        ASSERT_EQ(e.began, want_began) << "step " << s;
        ASSERT_EQ(e.ended, want_ended) << "step " << s;
        for (const contact_hit& h : e.hits) {
            EXPECT_GT(h.speed, 0.5F);
            EXPECT_TRUE(pair_less(h.shapes, {h.shapes.b, h.shapes.a}) || h.shapes.a == h.shapes.b);
            EXPECT_NEAR(std::hypot(h.normal_x, h.normal_y), 1.0F, 1e-5F);
        }
        EXPECT_TRUE(std::is_sorted(e.hits.begin(), e.hits.end(),
                                   [](const contact_hit& l, const contact_hit& r) {
                                       return pair_less(l.shapes, r.shapes);
                                   }));
        for (const shape_pair& p : got) {
            box_box += p.a.kind != shape_kind::circle ? 1 : 0;
        }
        began += e.began.size();
        ended += e.ended.size();
        hits += e.hits.size();
        was = got;
    }
    // The scene exercises every kind of event.
    EXPECT_GT(began, 500U);
    EXPECT_GT(ended, 50U);
    EXPECT_GT(hits, 50U);
    EXPECT_GT(box_box, 0U);
}

TEST(world_events, a_removed_shape_ends_its_touches_silently_and_the_others_are_renumbered) {
    particle_world world = mixed_pile(1, 300);
    for (int s = 0; s < 60; ++s) {
        world.step(dt);
    }
    world.remove_circles_if([](std::size_t i) { return i % 3 == 0; });
    world.remove_dynamic_box(0);
    world.remove_kinematic_box(0);
    // What touches is renumbered at once: every pair still names shapes that touch, or
    // touched as the last step left them.
    for (const shape_pair& p : world.touching()) {
        EXPECT_TRUE(p.a.kind != shape_kind::kinematic_box && p.b.kind != shape_kind::kinematic_box);
        EXPECT_LT(p.b.kind == shape_kind::dynamic_box ? p.b.index : 0U, world.dynamic_box_count());
        EXPECT_TRUE(touch(shape(world, p.a), shape(world, p.b)));
    }
    world.step(dt);
    // No event names a shape that went; the survivors' touches carry on.
    const std::vector<shape_pair> want = brute_touching(world);
    EXPECT_EQ(world.touching(), want);
    EXPECT_LT(world.last_contact_events().began.size(), want.size() / 4);
    aabb_set none;
    world.set_boxes(none.view());
    for (const shape_pair& p : world.touching()) {
        EXPECT_NE(p.b.kind, shape_kind::static_box);
    }
}

TEST(world_events, the_same_events_on_every_instruction_set_and_worker_count) {
    const auto events_of = [](isa which, int workers) {
        set_isa(which);
        particle_world world = mixed_pile(workers, 250);
        world.add_sensor(aabb::from_min_max(2.0F, 0.0F, 6.0F, 3.0F));
        world.add_sensor(aabb::from_min_max(5.0F, 2.0F, 11.0F, 9.0F), {1, 2});
        std::vector<float> record;
        for (int s = 0; s < 60; ++s) {
            world.step(dt);
            const contact_events& e = world.last_contact_events();
            for (const auto* list : {&e.began, &e.ended}) {
                record.push_back(static_cast<float>(list->size()));
                for (const shape_pair& p : *list) {
                    record.insert(record.end(),
                                  {static_cast<float>(p.a.kind), static_cast<float>(p.a.index),
                                   static_cast<float>(p.b.kind), static_cast<float>(p.b.index)});
                }
            }
            for (const contact_hit& h : e.hits) {
                record.insert(record.end(), {static_cast<float>(h.shapes.a.index),
                                             static_cast<float>(h.shapes.b.index), h.point_x,
                                             h.point_y, h.normal_x, h.normal_y, h.speed});
            }
            const sensor_events& se = world.last_sensor_events();
            for (const auto* list : {&se.began, &se.ended}) {
                record.push_back(static_cast<float>(list->size()));
                for (const sensor_event& v : *list) {
                    record.insert(record.end(),
                                  {static_cast<float>(v.sensor), static_cast<float>(v.shape.kind),
                                   static_cast<float>(v.shape.index)});
                }
            }
        }
        reset_isa();
        return record;
    };
    EXPECT_GT(events_of(isa::reference, 1).size(), 2000U);
    expect_same_bits_everywhere(events_of);
}

// What sensor s of `world` should hold: the circles and dynamic boxes reaching into it that
// its filter collides with.
std::vector<shape_ref> brute_contents(particle_world& world, const aabb& box,
                                      const collision_filter& f) {
    std::vector<shape_ref> out;
    for (const shape_ref r : every_shape(world)) {
        if (r.kind != shape_kind::circle && r.kind != shape_kind::dynamic_box) {
            continue;
        }
        const collision_filter g = world.filter_of(r.kind, r.index);
        shape_of sensor;
        sensor.b = box;
        if ((f.category & g.mask) != 0 && (g.category & f.mask) != 0 &&
            touch(shape(world, r), sensor)) {
            out.push_back(r);
        }
    }
    return out;
}

// Many sensors, of every size, one over everything, one far from everything, and some whose
// edges touch a resting circle exactly: each holds the circles that the region query over
// every circle finds (the same test, circle by circle) that its filter collides with.
TEST(world_sensors, many_sensors_hold_what_a_region_query_over_every_circle_finds) {
    particle_world world = mixed_pile(1, 1500);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> at(-1.0F, 13.0F);
    std::uniform_real_distribution<float> size(0.0F, 3.0F);
    for (int k = 0; k < 60; ++k) {
        const float x = at(rng);
        const float y = at(rng);
        world.add_sensor(aabb::from_min_max(x, y, x + size(rng), y + size(rng)),
                         k % 3 == 0 ? collision_filter{1, 2} : collision_filter{});
    }
    world.add_sensor(aabb::from_min_max(-5.0F, -5.0F, 20.0F, 40.0F));
    world.add_sensor(aabb::from_min_max(100.0F, 100.0F, 101.0F, 101.0F));
    // Against the static circles (inverse mass 0: every 89th), touching each from a side.
    std::size_t touching = 0;
    for (std::size_t i = 0; i < world.size(); i += 89) {
        const particles_view p = world.particles();
        const float x = p.x[i];
        const float y = p.y[i];
        const float r = p.radius[i];
        world.add_sensor(aabb::from_min_max(x + r, y - 0.1F, x + r + 1.0F, y + 0.1F));
        world.add_sensor(aabb::from_min_max(x - 0.1F, y - r - 1.0F, x + 0.1F, y - r));
        touching += 2;
    }
    std::size_t held = 0;
    for (int s = 0; s < 40; ++s) {
        world.step(dt);
        const particles_view p = world.particles();
        const circles_cview circles{p.x, p.y, p.radius, p.count};
        for (std::size_t k = 0; k < world.sensor_count(); ++k) {
            const collision_filter f =
                k < 60 && k % 3 == 0 ? collision_filter{1, 2} : collision_filter{};
            std::vector<std::uint32_t> found;
            circles_in_region(circles, world.sensor_at(k), found);
            std::vector<shape_ref> want;
            for (const std::uint32_t i : found) {
                const collision_filter g = world.filter_of(shape_kind::circle, i);
                if ((f.category & g.mask) != 0 && (g.category & f.mask) != 0) {
                    want.push_back({shape_kind::circle, i});
                }
            }
            std::vector<shape_ref> got;
            for (const shape_ref r : world.sensor_contents(k)) {
                if (r.kind == shape_kind::circle) {
                    got.push_back(r);
                }
            }
            ASSERT_EQ(got, want) << "sensor " << k << ", step " << s;
            held += got.size();
        }
    }
    EXPECT_GT(held, 40U * 1500U); // the sensor over everything, and more
    EXPECT_GT(touching, 30U);
}

TEST(world_sensors, a_sensor_holds_exactly_the_shapes_in_it_and_reports_what_comes_and_goes) {
    particle_world world = mixed_pile(1);
    const aabb low = aabb::from_min_max(2.0F, 0.0F, 6.0F, 3.0F);
    const aabb high = aabb::from_min_max(5.0F, 2.0F, 11.0F, 9.0F);
    const collision_filter sees_filtered{1, 2}; // only the circles in category 2
    EXPECT_EQ(world.add_sensor(low), 0U);
    EXPECT_EQ(world.add_sensor(high, sees_filtered), 1U);
    EXPECT_EQ(world.sensor_count(), 2U);
    EXPECT_TRUE(world.sensor_contents(0).empty()); // until a step
    std::vector<std::vector<shape_ref>> was(2);
    std::size_t came = 0;
    std::size_t went = 0;
    std::size_t boxes = 0;
    for (int s = 0; s < 150; ++s) {
        if (s == 100) {
            world.move_sensor(0, aabb::from_min_max(2.0F, 1.0F, 6.0F, 30.0F));
        }
        world.step(dt);
        std::vector<sensor_event> want_began, want_ended;
        for (std::uint32_t k = 0; k < 2; ++k) {
            const std::vector<shape_ref> want = brute_contents(
                world, world.sensor_at(k), k == 0 ? collision_filter{} : sees_filtered);
            const std::vector<shape_ref> got(world.sensor_contents(k).begin(),
                                             world.sensor_contents(k).end());
            ASSERT_EQ(got, want) << "sensor " << k << ", step " << s;
            for (const shape_ref r : got) {
                if (std::find(was[k].begin(), was[k].end(), r) == was[k].end()) {
                    want_began.push_back({k, r});
                }
                boxes += r.kind == shape_kind::dynamic_box ? 1 : 0;
                EXPECT_TRUE(k == 0 || world.filter_of(r.kind, r.index).category == 2);
            }
            for (const shape_ref r : was[k]) {
                if (std::find(got.begin(), got.end(), r) == got.end()) {
                    want_ended.push_back({k, r});
                }
            }
            was[k] = got;
        }
        EXPECT_EQ(world.last_sensor_events().began, want_began) << "step " << s;
        EXPECT_EQ(world.last_sensor_events().ended, want_ended) << "step " << s;
        came += want_began.size();
        went += want_ended.size();
    }
    EXPECT_GT(came, 100U);
    EXPECT_GT(went, 10U);
    EXPECT_GT(boxes, 0U);
    // A sensor collides with nothing: the pile steps as it would without it.
    particle_world plain = mixed_pile(1);
    particle_world sensed = mixed_pile(1);
    sensed.add_sensor(low);
    for (int s = 0; s < 30; ++s) {
        plain.step(dt);
        sensed.step(dt);
    }
    EXPECT_EQ(motion_of(plain), motion_of(sensed));
    // Removing circles and boxes renumbers what the sensors hold; removing a sensor, the
    // sensors after it.
    world.remove_circles_if([](std::size_t i) { return i % 2 == 0; });
    for (const shape_ref r : world.sensor_contents(0)) {
        EXPECT_TRUE(touch(shape(world, r), shape_of{false, {}, world.sensor_at(0), false}));
    }
    world.remove_sensor(0);
    EXPECT_EQ(world.sensor_count(), 1U);
    EXPECT_EQ(world.sensor_at(0).max_x, high.max_x);
}

TEST(world_events, bad_options_and_calls_are_refused_with_nothing_changed) {
    EXPECT_THROW(particle_world({.hit_speed = -1.0F}), std::invalid_argument);
    EXPECT_THROW(particle_world({.hit_speed = std::numeric_limits<float>::quiet_NaN()}),
                 std::invalid_argument);
    particle_world world = floor_world({});
    try {
        world.add_sensor(aabb::from_min_max(0.0F, 0.0F, std::nanf(""), 1.0F));
        ADD_FAILURE() << "a sensor with a NaN bound was added";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("sensor 0: max_x"), std::string::npos) << e.what();
    }
    EXPECT_THROW(world.add_sensor(aabb::from_min_max(1.0F, 0.0F, 0.0F, 1.0F)),
                 std::invalid_argument);
    EXPECT_EQ(world.sensor_count(), 0U);
    world.add_sensor(aabb::from_min_max(0.0F, 0.0F, 1.0F, 1.0F));
    EXPECT_THROW(world.move_sensor(0, aabb::from_min_max(0.0F, 2.0F, 1.0F, 1.0F)),
                 std::invalid_argument);
    EXPECT_EQ(world.sensor_at(0).max_y, 1.0F);
    EXPECT_THROW(world.move_sensor(1, aabb::from_min_max(0.0F, 0.0F, 1.0F, 1.0F)),
                 std::out_of_range);
    EXPECT_THROW(world.remove_sensor(1), std::out_of_range);
    EXPECT_THROW((void)world.sensor_at(1), std::out_of_range);
    EXPECT_THROW((void)world.sensor_contents(1), std::out_of_range);
}

} // namespace
} // namespace simdcollide::testing
