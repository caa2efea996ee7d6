// Determinism across builds: a fixed scene (a pile falling onto obstacles, restitution and
// friction on) stepped 500 steps, its state hashed and compared with a value written here.
// Every instruction set of every build runs it: GCC and clang on x86-64, and the aarch64
// build under qemu, so a change of compiler, instruction set or platform that changes one
// bit of a step fails it. A change to the step's math changes the value on purpose: write
// the new one here, from any build, and check that every build agrees.
#include "test_support.hpp"

#include <cmath>
#include <cstdint>

namespace simdcollide::testing {
namespace {

// A small linear congruential generator: the same numbers from every standard library.
class lcg {
public:
    explicit lcg(std::uint32_t seed) : state_(seed) {}
    // A float in [0, 1) with 24 random bits.
    float next() {
        state_ = state_ * 1664525U + 1013904223U;
        return static_cast<float>(state_ >> 8U) * 0x1p-24F;
    }

private:
    std::uint32_t state_;
};

// 300 circles of radius 0.2 to 0.5 with velocities of up to 2, and 3 inverse masses, above
// a floor between two walls with 6 obstacle boxes; restitution 0.3, friction 0.5.
particle_world fixed_scene() {
    particle_world world({.substeps = 4, .restitution = 0.3F, .friction = 0.5F});
    lcg random(2026);
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(-1, -1, 21, 0));
    boxes.push_back(aabb::from_min_max(-1, 0, 0, 40));
    boxes.push_back(aabb::from_min_max(20, 0, 21, 40));
    for (int k = 0; k < 6; ++k) {
        const float x = 1.0F + 16.0F * random.next();
        const float y = 1.0F + 8.0F * random.next();
        boxes.push_back(aabb::from_origin_size(x, y, 0.5F + 2.0F * random.next(), 0.5F));
    }
    world.set_boxes(boxes.view());
    for (int i = 0; i < 300; ++i) {
        const float x = 0.6F + static_cast<float>(i % 18) * 1.05F + 0.05F * random.next();
        const float y = 12.0F + static_cast<float>(i / 18) * 1.05F;
        const float radius = 0.2F + 0.3F * random.next();
        const float inverse_mass = i % 3 == 0 ? 0.5F : (i % 3 == 1 ? 1.0F : 2.0F);
        const float vx = 2.0F * random.next() - 1.0F; // drawn in order: a call's arguments
        const float vy = 2.0F * random.next() - 1.0F; // are not evaluated in one order
        world.add_circle({x, y, radius}, inverse_mass, vx, vy);
    }
    return world;
}

// FNV-1a over the bits of every circle's x, y, vx and vy, NaN as one pattern.
std::uint64_t state_hash(particle_world& world) {
    const particles_view p = world.particles();
    std::uint64_t h = 1469598103934665603ULL;
    for (std::size_t i = 0; i < p.count; ++i) {
        for (const float v : {p.x[i], p.y[i], p.vx[i], p.vy[i]}) {
            const std::uint32_t b = v != v ? 0x7FC00000U : bits(v);
            for (int byte = 0; byte < 4; ++byte) {
                h = (h ^ ((b >> (8 * byte)) & 0xFFU)) * 1099511628211ULL;
            }
        }
    }
    return h;
}

using determinism = on_each_isa;

TEST_P(determinism, a_fixed_scene_steps_to_the_same_bits_in_every_build) {
    particle_world world = fixed_scene();
    for (int s = 0; s < 500; ++s) {
        world.step(1.0F / 60.0F);
    }
    // It fell and is still whole: every circle finite, inside the container.
    const particles_view p = world.particles();
    for (std::size_t i = 0; i < p.count; ++i) {
        ASSERT_TRUE(std::isfinite(p.x[i]) && std::isfinite(p.y[i])) << i;
        EXPECT_TRUE(p.x[i] > 0.0F && p.x[i] < 20.0F && p.y[i] > 0.0F && p.y[i] < 40.0F) << i;
    }
    EXPECT_EQ(state_hash(world), 0x58f3edcf9892440aULL)
        << std::hex << "this build steps to 0x" << state_hash(world);
}

INSTANTIATE_TEST_SUITE_P(every_isa, determinism, ::testing::ValuesIn(compiled_isas()),
                         isa_test_name);

} // namespace
} // namespace simdcollide::testing
