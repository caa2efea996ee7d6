// The README's embedding example, compiled and checked: a particle loop that keeps its own
// arrays and calls push_out on them in place. tests/check_readme_example.cmake fails if the
// README's copy of the lines between the markers drifts from this one.
#include <gtest/gtest.h>

// [readme-example]
#include <simdcollide/simdcollide.hpp>

#include <vector>

// The simulation's own particle arrays: simdcollide reads and writes them in place.
struct particles {
    std::vector<float> x, y, vx, vy, radius;
};

// One step: gravity, then push every particle out of the box it is paired with and
// stop it moving into that box. Pairwise kernels take circle i against box i; here every
// particle is paired with the floor, so the floor is stored once per particle (a broad
// phase would pair each particle with the boxes near it instead).
void step(particles& p, const simdcollide::aabb_set& floor_per_particle,
          simdcollide::contact_set& contacts, float dt) {
    for (std::size_t i = 0; i < p.x.size(); ++i) {
        p.vy[i] -= 9.81F * dt;
        p.x[i] += p.vx[i] * dt;
        p.y[i] += p.vy[i] * dt;
    }
    const simdcollide::circles_view view(p.x, p.y, p.radius); // no copy
    simdcollide::contact(view, floor_per_particle.view(), contacts.view());
    simdcollide::push_out(view, floor_per_particle.view()); // the best SIMD path
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

TEST(embedding_example, particles_rest_on_the_floor) {
    particles p;
    const std::size_t n = 1000;
    simdcollide::aabb_set floor;
    simdcollide::contact_set contacts(n);
    for (std::size_t i = 0; i < n; ++i) {
        p.x.push_back(static_cast<float>(i) * 0.01F);
        p.y.push_back(1.0F + static_cast<float>(i % 7) * 0.1F);
        p.vx.push_back(0.0F);
        p.vy.push_back(0.0F);
        p.radius.push_back(0.05F);
        floor.push_back(simdcollide::aabb::from_origin_size(-100, -1, 200, 1)); // top at y = 0
    }
    for (int s = 0; s < 300; ++s) {
        step(p, floor, contacts, 1.0F / 60.0F);
    }
    for (std::size_t i = 0; i < n; ++i) {
        // Pushed out every step: resting on the floor, the centre one radius above it.
        EXPECT_NEAR(p.y[i], 0.05F, 1e-5F) << i;
    }
}
