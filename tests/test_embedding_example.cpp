// The README's embedding example, compiled and checked: a particle loop that keeps its own
// arrays and calls contact and push_out on them in place. tests/check_readme_example.cmake fails if
// the README's copy of the lines between the markers drifts from this one.
#include <gtest/gtest.h>

// [readme-example]
#include <simdcollide/simdcollide.hpp>

#include <vector>

// The simulation's own particle arrays: simdcollide reads and writes them in place.
struct particles {
    std::vector<float> x, y, vx, vy, radius;
};

// One step: gravity, then push every particle out of the floor and stop it moving into
// it. Every kernel also has a pairwise form, circle i against box i, for the boxes a broad
// phase pairs each particle with.
void step(particles& p, const simdcollide::aabb& floor, simdcollide::contact_set& contacts,
          float dt) {
    for (std::size_t i = 0; i < p.x.size(); ++i) {
        p.vy[i] -= 9.81F * dt;
        p.x[i] += p.vx[i] * dt;
        p.y[i] += p.vy[i] * dt;
    }
    const simdcollide::circles_view view(p.x, p.y, p.radius); // no copy
    simdcollide::contact(view, floor, contacts.view());
    simdcollide::push_out(view, floor); // in place, on the widest instruction set
    for (std::size_t i = 0; i < p.x.size(); ++i) {
        // Remove the velocity into the floor (no bounce, no friction).
        const float vn = p.vx[i] * contacts.normal_x[i] + p.vy[i] * contacts.normal_y[i];
        if (contacts.depth[i] > 0.0F && vn < 0.0F) {
            p.vx[i] -= vn * contacts.normal_x[i];
            p.vy[i] -= vn * contacts.normal_y[i];
        }
    }
}
// [readme-example]

// [readme-world-example]
// Or let a particle_world own the circles and boxes and step them.
simdcollide::particle_world make_world() {
    simdcollide::particle_world world({.gravity_y = -9.81F, .substeps = 4, .restitution = 0.1F});
    simdcollide::aabb_set container;
    container.push_back(simdcollide::aabb::from_min_max(-1, -1, 21, 0)); // floor
    container.push_back(simdcollide::aabb::from_min_max(-1, 0, 0, 40));  // walls
    container.push_back(simdcollide::aabb::from_min_max(20, 0, 21, 40));
    world.set_boxes(container.view());
    for (int i = 0; i < 200; ++i) {
        world.add_circle(
            {0.5F + static_cast<float>(i % 19), 1.0F + static_cast<float>(i / 19), 0.4F},
            /*inverse_mass=*/1.0F);
    }
    return world;
}
// [readme-world-example]

TEST(embedding_example, a_world_of_200_circles_stays_in_its_container) {
    simdcollide::particle_world world = make_world();
    for (int s = 0; s < 120; ++s) {
        world.step(1.0F / 60.0F);
    }
    const simdcollide::particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        EXPECT_GT(p.x[i], 0.0F);
        EXPECT_LT(p.x[i], 20.0F);
        EXPECT_GT(p.y[i], 0.0F);
    }
}

// [readme-workers-example]
// A world that steps on four threads: this one and three of its own.
simdcollide::particle_world make_world_on_workers() {
    simdcollide::world_options options;
    options.workers = 4;
    return simdcollide::particle_world(options);
}
// [readme-workers-example]

// docs/threads.md's world example: the same circles on four workers step to the same bits.
TEST(embedding_example, a_world_on_workers_steps_as_on_one) {
    simdcollide::particle_world world = make_world_on_workers();
    simdcollide::particle_world alone; // one worker
    simdcollide::particle_world one = make_world();
    const simdcollide::particles_view p = one.particles();
    for (simdcollide::particle_world* w : {&world, &alone}) {
        w->set_boxes(one.boxes().boxes());
        w->add_circles({p.x, p.y, p.radius, p.count}, {p.inverse_mass, p.count});
    }
    for (int s = 0; s < 60; ++s) {
        world.step(1.0F / 60.0F);
        alone.step(1.0F / 60.0F);
    }
    const simdcollide::particles_view a = alone.particles();
    const simdcollide::particles_view w = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        EXPECT_EQ(a.x[i], w.x[i]) << i;
        EXPECT_EQ(a.y[i], w.y[i]) << i;
    }
}

// [readme-batch-workers-example]
// A simulation's own arrays, pushed out of a field of boxes on four threads: the same bits
// as on one. Keep the workers from call to call; their threads start once.
std::size_t push_out_on_workers(simdcollide::circles_view circles,
                                const simdcollide::static_box_grid& boxes) {
    static const simdcollide::workers four(4);
    return simdcollide::push_out_all(circles, boxes, 0.0F, four);
}
// [readme-batch-workers-example]

// docs/threads.md's batch example: the same pushes and the same bits as without workers.
TEST(embedding_example, a_batch_call_on_workers_gives_one_threads_bits) {
    simdcollide::circle_set circles;
    simdcollide::aabb_set boxes;
    for (int i = 0; i < 20000; ++i) {
        circles.push_back(
            {static_cast<float>(i % 200) * 0.5F, static_cast<float>(i / 200) * 0.5F, 0.3F});
    }
    for (int k = 0; k < 100; ++k) {
        boxes.push_back(simdcollide::aabb::from_origin_size(
            static_cast<float>(k % 10) * 10.0F, static_cast<float>(k / 10) * 5.0F, 1.3F, 0.7F));
    }
    const simdcollide::static_box_grid grid(boxes.view());
    simdcollide::circle_set alone = circles;
    const std::size_t pushes = push_out_on_workers(circles.view(), grid);
    EXPECT_GT(pushes, 100U);
    EXPECT_EQ(pushes, simdcollide::push_out_all(alone.view(), grid));
    for (std::size_t i = 0; i < circles.size(); ++i) {
        EXPECT_EQ(circles.x[i], alone.x[i]) << i;
        EXPECT_EQ(circles.y[i], alone.y[i]) << i;
    }
}

TEST(embedding_example, particles_rest_on_the_floor) {
    particles p;
    const std::size_t n = 1000;
    const simdcollide::aabb floor = simdcollide::aabb::from_origin_size(-100, -1, 200, 1);
    simdcollide::contact_set contacts(n); // top at y = 0
    for (std::size_t i = 0; i < n; ++i) {
        p.x.push_back(static_cast<float>(i) * 0.01F);
        p.y.push_back(1.0F + static_cast<float>(i % 7) * 0.1F);
        p.vx.push_back(0.0F);
        p.vy.push_back(0.0F);
        p.radius.push_back(0.05F);
    }
    for (int s = 0; s < 300; ++s) {
        step(p, floor, contacts, 1.0F / 60.0F);
    }
    for (std::size_t i = 0; i < n; ++i) {
        // Pushed out every step: resting on the floor, the centre one radius above it.
        EXPECT_NEAR(p.y[i], 0.05F, 1e-5F) << i;
    }
}
