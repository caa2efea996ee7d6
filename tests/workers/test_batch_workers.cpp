// The batch entry points on workers (workers.hpp): every kernel over arrays, push_out_all,
// sweep_all and pair_finder::find give the bits of the call without workers, on every
// instruction set, on pools of 1 to 16 workers and on host callbacks however they run the
// ranges; bad workers are refused, and bad arguments are refused before anything is written.
#include "host_tasks.hpp"
#include "kernels/box_pair_scenes.hpp"
#include "test_support.hpp"

#include <simdcollide/simdcollide.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace simdcollide::testing {
namespace {

// A call's outputs as bits (its count last): run(nullptr) calls the entry point without
// workers, run(&w) with them.
using outputs = std::vector<std::uint32_t>;

void add_bits(outputs& out, const float* values, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back(bits(values[i]));
    }
}

template <class Run>
void expect_same_on_workers(const char* what, Run run) {
    const outputs want = run(nullptr);
    ASSERT_FALSE(want.empty()) << what;
    for (const worker_setup& setup : worker_setups()) {
        const workers w = setup.make();
        const outputs got = run(&w);
        ASSERT_EQ(got.size(), want.size()) << what << ", " << setup.name;
        for (std::size_t k = 0; k < want.size(); ++k) {
            ASSERT_EQ(got[k], want[k]) << what << ", " << setup.name << ", output " << k;
        }
    }
}

// Three blocks of items and a few more: every worker count takes a share, and the last
// block is short.
constexpr std::size_t items = 2 * 16384 + 7000 + 5;

class batch_workers : public on_each_isa {};

TEST_P(batch_workers, box_box_kernels_give_the_bits_without_workers) {
    box_pair_scene scene(items, 3);
    fill_random(scene, 12);
    const aabb box = aabb::from_min_max(-3.0F, -2.0F, 4.0F, 1.5F);
    const float margin = 0.25F;
    expect_same_on_workers("box_box", [&](const workers* w) {
        std::vector<float> f(10 * items);
        const contacts_view out(f.data(), f.data() + items, f.data() + 2 * items,
                                f.data() + 3 * items, f.data() + 4 * items, items);
        const contacts_view one(f.data() + 5 * items, f.data() + 6 * items, f.data() + 7 * items,
                                f.data() + 8 * items, f.data() + 9 * items, items);
        std::vector<std::uint8_t> mask(items), one_mask(items);
        std::vector<std::size_t> counts;
        if (w != nullptr) {
            counts = {contact(scene.first(), scene.second(), out, margin, *w),
                      contact(scene.first(), box, one, margin, *w),
                      overlap(scene.first(), scene.second(), mask, margin, *w),
                      overlap(scene.first(), box, one_mask, margin, *w),
                      count_overlaps(scene.first(), scene.second(), margin, *w),
                      count_overlaps(scene.first(), box, margin, *w)};
        } else {
            counts = {contact(scene.first(), scene.second(), out, margin),
                      contact(scene.first(), box, one, margin),
                      overlap(scene.first(), scene.second(), mask, margin),
                      overlap(scene.first(), box, one_mask, margin),
                      count_overlaps(scene.first(), scene.second(), margin),
                      count_overlaps(scene.first(), box, margin)};
        }
        outputs o;
        add_bits(o, f.data(), f.size());
        o.insert(o.end(), mask.begin(), mask.end());
        o.insert(o.end(), one_mask.begin(), one_mask.end());
        o.insert(o.end(), counts.begin(), counts.end());
        return o;
    });
    for (const separation_weighting mode :
         {separation_weighting::inverse_mass, separation_weighting::equal,
          separation_weighting::by_radius}) {
        expect_same_on_workers("box_box separate", [&](const workers* w) {
            box_pair_scene moved(items, 5);
            fill_random(moved, 13);
            box_pair_scene pushed(items, 6);
            fill_random(pushed, 14);
            const std::size_t counts[2] = {
                w != nullptr ? separate(moved.first_bodies(), moved.second_bodies(), mode, *w)
                             : separate(moved.first_bodies(), moved.second_bodies(), mode),
                w != nullptr ? separate(pushed.first_bodies(), box, *w)
                             : separate(pushed.first_bodies(), box)};
            outputs o;
            for (const box_pair_scene* scene : {&moved, &pushed}) {
                for (const guarded_floats* field :
                     {&scene->a_min_x, &scene->a_min_y, &scene->a_max_x, &scene->a_max_y,
                      &scene->b_min_x, &scene->b_min_y, &scene->b_max_x, &scene->b_max_y}) {
                    add_bits(o, field->data(), items);
                }
            }
            o.insert(o.end(), std::begin(counts), std::end(counts));
            return o;
        });
    }
}

TEST_P(batch_workers, circle_box_kernels_give_the_bits_without_workers) {
    pair_scene scene(items, 3);
    fill_random(scene, 11);
    const aabb box = aabb::from_min_max(-3.0F, -2.0F, 4.0F, 1.5F);
    const circles_cview c = scene.circles();
    const aabbs_view b = scene.boxes();
    const float margin = 0.25F;

    expect_same_on_workers("closest_point", [&](const workers* w) {
        std::vector<float> x(items), y(items), bx(items), by(items);
        const points_view out(x, y), one(bx, by);
        if (w != nullptr) {
            closest_point(c, b, out, *w);
            closest_point(c, box, one, *w);
        } else {
            closest_point(c, b, out);
            closest_point(c, box, one);
        }
        outputs o;
        for (const auto* v : {&x, &y, &bx, &by}) {
            add_bits(o, v->data(), items);
        }
        return o;
    });
    expect_same_on_workers("distance_squared", [&](const workers* w) {
        std::vector<float> d(items), one(items);
        if (w != nullptr) {
            distance_squared(c, b, d, *w);
            distance_squared(c, box, one, *w);
        } else {
            distance_squared(c, b, d);
            distance_squared(c, box, one);
        }
        outputs o;
        add_bits(o, d.data(), items);
        add_bits(o, one.data(), items);
        return o;
    });
    expect_same_on_workers("overlap and count_overlaps", [&](const workers* w) {
        std::vector<std::uint8_t> mask(items), one(items);
        const std::size_t counts[4] = {
            w != nullptr ? overlap(c, b, mask, margin, *w) : overlap(c, b, mask, margin),
            w != nullptr ? overlap(c, box, one, margin, *w) : overlap(c, box, one, margin),
            w != nullptr ? count_overlaps(c, b, margin, *w) : count_overlaps(c, b, margin),
            w != nullptr ? count_overlaps(c, box, margin, *w) : count_overlaps(c, box, margin)};
        outputs o(mask.begin(), mask.end());
        o.insert(o.end(), one.begin(), one.end());
        for (const std::size_t n : counts) {
            o.push_back(static_cast<std::uint32_t>(n));
        }
        return o;
    });
    expect_same_on_workers("contact", [&](const workers* w) {
        guarded_contacts out(items, 1);
        guarded_contacts one(items, 2);
        const std::size_t n = w != nullptr ? contact(c, b, out.view(), margin, *w)
                                           : contact(c, b, out.view(), margin);
        const std::size_t n_one = w != nullptr ? contact(c, box, one.view(), margin, *w)
                                               : contact(c, box, one.view(), margin);
        EXPECT_TRUE(out.field[2].guards_intact() && one.field[2].guards_intact());
        outputs o;
        for (const guarded_contacts* k : {&out, &one}) {
            for (const guarded_floats& f : k->field) {
                add_bits(o, f.data(), items);
            }
        }
        o.push_back(static_cast<std::uint32_t>(n));
        o.push_back(static_cast<std::uint32_t>(n_one));
        return o;
    });
    expect_same_on_workers("push_out", [&](const workers* w) {
        std::vector<float> x(scene.x.data(), scene.x.data() + items);
        std::vector<float> y(scene.y.data(), scene.y.data() + items);
        std::vector<float> x1 = x, y1 = y;
        const circles_view moved(x.data(), y.data(), c.radius, items);
        const circles_view moved_one(x1.data(), y1.data(), c.radius, items);
        const std::size_t n =
            w != nullptr ? push_out(moved, b, margin, *w) : push_out(moved, b, margin);
        const std::size_t n_one =
            w != nullptr ? push_out(moved_one, box, margin, *w) : push_out(moved_one, box, margin);
        outputs o;
        for (const auto* v : {&x, &y, &x1, &y1}) {
            add_bits(o, v->data(), items);
        }
        o.push_back(static_cast<std::uint32_t>(n));
        o.push_back(static_cast<std::uint32_t>(n_one));
        return o;
    });
}

// Particles for the kernels that move circles or change velocities: the scene's circles
// with masses (some static) and velocities.
struct particle_arrays {
    std::vector<float> x, y, radius, inverse_mass, vx, vy;
    particle_arrays(circles_cview c, std::uint32_t seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        x.assign(c.x, c.x + c.count);
        y.assign(c.y, c.y + c.count);
        radius.assign(c.radius, c.radius + c.count);
        for (std::size_t i = 0; i < c.count; ++i) {
            inverse_mass.push_back(i % 9 == 0 ? 0.0F : 0.2F + unit(rng));
            vx.push_back(4.0F * unit(rng) - 2.0F);
            vy.push_back(4.0F * unit(rng) - 2.0F);
        }
    }
    particles_view view() { return particles_view(x, y, radius, inverse_mass, vx, vy); }
    void add_to(outputs& o) const {
        for (const auto* v : {&x, &y, &vx, &vy}) {
            add_bits(o, v->data(), v->size());
        }
    }
};

TEST_P(batch_workers, circle_circle_sweep_and_response_kernels_give_the_bits_without_workers) {
    pair_scene first(items, 0);
    pair_scene second(items, 6);
    fill_random(first, 21);
    fill_random(second, 22);
    const circles_cview a = first.circles();
    const circles_cview b = second.circles();
    const auto count = [](std::size_t n) { return static_cast<std::uint32_t>(n); };

    expect_same_on_workers("circle-circle distance, overlap, contact", [&](const workers* w) {
        std::vector<float> d(items);
        std::vector<std::uint8_t> mask(items);
        guarded_contacts out(items, 4);
        outputs o;
        if (w != nullptr) {
            distance_squared(a, b, d, *w);
            o.push_back(count(overlap(a, b, mask, *w)));
            o.push_back(count(count_overlaps(a, b, *w)));
            o.push_back(count(contact(a, b, out.view(), *w)));
        } else {
            distance_squared(a, b, d);
            o.push_back(count(overlap(a, b, mask)));
            o.push_back(count(count_overlaps(a, b)));
            o.push_back(count(contact(a, b, out.view())));
        }
        add_bits(o, d.data(), items);
        o.insert(o.end(), mask.begin(), mask.end());
        for (const guarded_floats& f : out.field) {
            add_bits(o, f.data(), items);
        }
        return o;
    });
    expect_same_on_workers("circle-circle separate", [&](const workers* w) {
        particle_arrays pa(a, 1);
        particle_arrays pb(b, 2);
        const std::size_t n = w != nullptr
                                  ? separate(pa.view(), pb.view(), separation_weighting::equal, *w)
                                  : separate(pa.view(), pb.view(), separation_weighting::equal);
        outputs o{count(n)};
        pa.add_to(o);
        pb.add_to(o);
        return o;
    });
    expect_same_on_workers("respond", [&](const workers* w) {
        guarded_contacts box_contacts(items, 0);
        guarded_contacts pair_contacts(items, 1);
        contact(a, first.boxes(), box_contacts.view());
        contact(a, b, pair_contacts.view());
        particle_arrays pa(a, 3);
        particle_arrays pb(b, 4);
        const response_parameters p{0.4F, 0.3F};
        outputs o;
        if (w != nullptr) {
            o.push_back(count(respond(pa.view(), box_contacts.view(), p, *w)));
            o.push_back(count(respond(pa.view(), pb.view(), pair_contacts.view(), p, *w)));
        } else {
            o.push_back(count(respond(pa.view(), box_contacts.view(), p)));
            o.push_back(count(respond(pa.view(), pb.view(), pair_contacts.view(), p)));
        }
        pa.add_to(o);
        pb.add_to(o);
        return o;
    });
    expect_same_on_workers("sweep", [&](const workers* w) {
        std::vector<float> dx(items), dy(items);
        for (std::size_t i = 0; i < items; ++i) { // moves from the second scene's centres
            dx[i] = b.x[i] - a.x[i];
            dy[i] = b.y[i] - a.y[i];
        }
        const displacements_cview moves(dx, dy);
        const aabb box = aabb::from_min_max(-1.0F, -5.0F, 2.0F, 3.0F);
        outputs o;
        for (int form = 0; form < 3; ++form) {
            std::vector<float> t(items), nx(items), ny(items);
            const impacts_view out(t, nx, ny);
            std::size_t n = 0;
            if (form == 0) {
                n = w != nullptr ? sweep(a, moves, first.boxes(), out, *w)
                                 : sweep(a, moves, first.boxes(), out);
            } else if (form == 1) {
                n = w != nullptr ? sweep(a, moves, box, out, *w) : sweep(a, moves, box, out);
            } else {
                n = w != nullptr ? sweep(a, moves, b, out, *w) : sweep(a, moves, b, out);
            }
            o.push_back(count(n));
            for (const auto* v : {&t, &nx, &ny}) {
                add_bits(o, v->data(), items);
            }
        }
        return o;
    });
}

// Circles over a field of boxes, many against many: push_out_all and sweep_all through the
// grid and (with few boxes) past it.
TEST_P(batch_workers, push_out_all_and_sweep_all_give_the_bits_without_workers) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const std::size_t n = 9000;
    circle_set circles;
    std::vector<float> dx, dy;
    for (std::size_t i = 0; i < n; ++i) {
        circles.push_back({100.0F * unit(rng), 100.0F * unit(rng), 0.05F + 0.5F * unit(rng)});
        dx.push_back(20.0F * unit(rng) - 10.0F);
        dy.push_back(20.0F * unit(rng) - 10.0F);
    }
    for (const std::size_t box_count : {std::size_t{20}, std::size_t{400}}) {
        aabb_set boxes;
        for (std::size_t k = 0; k < box_count; ++k) {
            boxes.push_back(aabb::from_origin_size(100.0F * unit(rng), 100.0F * unit(rng),
                                                   0.2F + 4.0F * unit(rng),
                                                   0.2F + 4.0F * unit(rng)));
        }
        const static_box_grid grid(boxes.view());
        const std::string what = std::to_string(box_count) + " boxes";
        expect_same_on_workers(("push_out_all, " + what).c_str(), [&](const workers* w) {
            circle_set moved = circles;
            const std::size_t pushes = w != nullptr ? push_out_all(moved.view(), grid, 0.1F, *w)
                                                    : push_out_all(moved.view(), grid, 0.1F);
            outputs o{static_cast<std::uint32_t>(pushes)};
            add_bits(o, moved.x.data(), n);
            add_bits(o, moved.y.data(), n);
            return o;
        });
        expect_same_on_workers(("sweep_all, " + what).c_str(), [&](const workers* w) {
            std::vector<float> t(n), nx(n), ny(n);
            std::vector<std::uint32_t> hit(n);
            const displacements_cview moves(dx, dy);
            const std::size_t hits =
                w != nullptr
                    ? sweep_all(circles.view(), moves, grid, impacts_view(t, nx, ny), hit, *w)
                    : sweep_all(circles.view(), moves, grid, impacts_view(t, nx, ny), hit);
            outputs o(hit.begin(), hit.end());
            o.push_back(static_cast<std::uint32_t>(hits));
            for (const auto* v : {&t, &nx, &ny}) {
                add_bits(o, v->data(), n);
            }
            return o;
        });
    }
}

// Rays over circles and boxes: each worker takes blocks of rays.
TEST_P(batch_workers, ray_casts_give_the_bits_without_workers) {
    std::mt19937 rng(8);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const std::size_t n = 3000; // a dozen blocks of rays
    circle_set circles;
    aabb_set boxes;
    for (std::size_t k = 0; k < 300; ++k) {
        circles.push_back({50.0F * unit(rng), 50.0F * unit(rng), 0.1F + unit(rng)});
        boxes.push_back(aabb::from_origin_size(50.0F * unit(rng), 50.0F * unit(rng),
                                               0.2F + 2.0F * unit(rng), 0.2F + 2.0F * unit(rng)));
    }
    std::vector<float> x, y, dx, dy;
    for (std::size_t i = 0; i < n; ++i) {
        x.push_back(50.0F * unit(rng));
        y.push_back(50.0F * unit(rng));
        dx.push_back(40.0F * unit(rng) - 20.0F);
        dy.push_back(40.0F * unit(rng) - 20.0F);
    }
    const rays_cview rays(x, y, dx, dy);
    for (const bool against_boxes : {false, true}) {
        expect_same_on_workers(
            against_boxes ? "cast_rays, boxes" : "cast_rays, circles", [&](const workers* w) {
                std::vector<float> f(n), px(n), py(n), nx(n), ny(n);
                std::vector<std::uint32_t> shape(n);
                const ray_hits_view hits({f, px, py, nx, ny, shape});
                std::size_t hit = 0;
                if (against_boxes) {
                    hit = w != nullptr ? cast_rays(rays, boxes.view(), hits, *w)
                                       : cast_rays(rays, boxes.view(), hits);
                } else {
                    hit = w != nullptr ? cast_rays(rays, circles.view(), hits, *w)
                                       : cast_rays(rays, circles.view(), hits);
                }
                outputs o(shape.begin(), shape.end());
                o.push_back(static_cast<std::uint32_t>(hit));
                for (const auto* v : {&f, &px, &py, &nx, &ny}) {
                    add_bits(o, v->data(), n);
                }
                return o;
            });
    }
}

INSTANTIATE_TEST_SUITE_P(every_isa, batch_workers, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

// The pair finder's list on workers is the list without them: random radii spread 10x (so
// that many circles are large and search apart, and the large ones among themselves), a
// packed field, circles far away, invalid circles, and a margin.
TEST(pair_finder_workers, finds_the_list_without_workers) {
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::vector<circle_set> scenes(4);
    for (std::size_t i = 0; i < 40000; ++i) { // more than two blocks of the sort into cells
        scenes[0].push_back({1000.0F * unit(rng), 1000.0F * unit(rng),
                             0.3F * std::pow(10.0F, unit(rng) * unit(rng))});
        scenes[1].push_back({static_cast<float>(i % 200) * 0.9F, static_cast<float>(i / 200) * 0.9F,
                             0.45F + 0.05F * unit(rng)});
    }
    scenes[2] = scenes[1];
    scenes[2].x[17] = 1e30F;
    scenes[2].y[400] = -1e30F;
    scenes[2].x[5] = std::numeric_limits<float>::quiet_NaN();
    scenes[2].radius[6] = -1.0F;
    scenes[2].radius[7] = std::numeric_limits<float>::infinity();
    scenes[3] = scenes[0];
    for (std::size_t i = 0; i < scenes[3].size(); ++i) { // radii in tiers: a deep recursion
        scenes[3].radius[i] *= static_cast<float>(1U << (2 * (i % 4))) * 0.2F;
    }
    for (std::size_t s = 0; s < scenes.size(); ++s) {
        for (const float margin : {0.0F, 0.3F}) {
            const std::string what =
                "scene " + std::to_string(s) + ", margin " + std::to_string(margin);
            pair_finder finder; // kept across the calls: its scratch from the last call
            expect_same_on_workers(what.c_str(), [&](const workers* w) {
                const std::span<const circle_pair> pairs =
                    w != nullptr ? finder.find(scenes[s].view(), margin, *w)
                                 : finder.find(scenes[s].view(), margin);
                outputs o;
                for (const circle_pair q : pairs) {
                    o.push_back(q.a);
                    o.push_back(q.b);
                }
                o.push_back(static_cast<std::uint32_t>(pairs.size()));
                return o;
            });
        }
    }
}

TEST(batch_workers_input, bad_workers_are_refused) {
    for (const int count : {0, -1, max_workers + 1}) {
        EXPECT_THROW(workers{count}, std::invalid_argument) << count;
        EXPECT_THROW(workers(count, {&run_inline, &never_called, nullptr}), std::invalid_argument)
            << count;
    }
    EXPECT_THROW(workers(2, {&run_inline, nullptr, nullptr}), std::invalid_argument);
    EXPECT_THROW(workers(2, {nullptr, &join_thread, nullptr}), std::invalid_argument);
    try {
        workers(2, {});
        ADD_FAILURE() << "no callbacks accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("neither enqueue nor finish"), std::string::npos)
            << e.what();
    }
    try {
        workers{0};
        ADD_FAILURE() << "0 workers accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("count is 0"), std::string::npos) << e.what();
    }
    const workers none;
    EXPECT_EQ(none.count(), 1);
    EXPECT_EQ(none.callbacks().enqueue, nullptr);
    workers moved(3);
    workers taken = std::move(moved);
    EXPECT_EQ(taken.count(), 3);
    EXPECT_EQ(moved.count(), 1); // NOLINT(bugprone-use-after-move): its documented state
    EXPECT_EQ(moved.callbacks().enqueue, nullptr);
    taken = workers(2);
    EXPECT_EQ(taken.count(), 2);
    std::vector<float> d(items);
    pair_scene scene(items, 0);
    fill_random(scene, 2);
    distance_squared(scene.circles(), scene.boxes(), d, taken); // the new pool runs it
    distance_squared(scene.circles(), scene.boxes(), d, moved);
}

// Arguments are checked over the whole arrays before any worker writes: nothing changes.
TEST(batch_workers_input, bad_arguments_write_nothing) {
    const workers four(4);
    pair_scene scene(items, 0);
    fill_random(scene, 3);
    std::vector<float> x(scene.x.data(), scene.x.data() + items);
    std::vector<float> y = x;
    std::vector<float> r(items, 1.0F);
    r[items - 1] = 2.0F;
    const std::vector<float> x0 = x;
    const circles_view c(x.data(), y.data(), r.data(), items);
    EXPECT_THROW(push_out(c, scene.boxes(), -1.0F, four), std::invalid_argument);
    EXPECT_THROW(push_out(c, aabb::from_min_max(0, 0, 1, 1), std::nanf(""), four),
                 std::invalid_argument);
    const circles_view aliased(x.data(), x.data(), r.data(), items); // x and y the same array
    EXPECT_THROW(push_out(aliased, scene.boxes(), 0.0F, four), std::invalid_argument);
    const static_box_grid grid(scene.boxes());
    EXPECT_THROW(push_out_all(aliased, grid, 0.0F, four), std::invalid_argument);
    EXPECT_EQ(x, x0);
    std::vector<float> short_out(items - 1);
    EXPECT_THROW(distance_squared(scene.circles(), scene.boxes(), short_out, four),
                 std::invalid_argument);
    pair_finder finder;
    EXPECT_THROW(finder.find(scene.circles(), -0.5F, four), std::invalid_argument);
}

// A host whose enqueue throws (as when it cannot allocate a task): the exception reaches
// the caller, and the workers can be used again.
void* enqueue_fails(task_function* /*task*/, std::size_t /*items*/, std::size_t /*min_range*/,
                    void* /*context*/, void* /*user*/) {
    throw std::bad_alloc();
}

TEST(batch_workers_input, a_host_that_fails_reaches_the_caller) {
    const workers failing(2, {&enqueue_fails, &never_called, nullptr});
    pair_scene scene(items, 0);
    fill_random(scene, 4);
    std::vector<float> d(items);
    EXPECT_THROW(distance_squared(scene.circles(), scene.boxes(), d, failing), std::bad_alloc);
    pair_finder finder;
    circle_set packed;
    for (std::size_t i = 0; i < 20000; ++i) { // enough circles to search on the workers
        packed.push_back({static_cast<float>(i % 100), static_cast<float>(i / 100), 0.6F});
    }
    EXPECT_THROW(finder.find(packed.view(), 0.0F, failing), std::bad_alloc);
    const std::size_t pairs = finder.find(packed.view(), 0.0F, workers(2)).size();
    pair_finder fresh;
    EXPECT_EQ(pairs, fresh.find(packed.view()).size());
    EXPECT_GT(pairs, 39000U); // each circle touches the next in its row and column
}

} // namespace
} // namespace simdcollide::testing
