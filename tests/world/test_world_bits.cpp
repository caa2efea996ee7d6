// The particle world steps to the same bits on every instruction set: with shock
// propagation, in bands of any size, in a ring of bands, with overlapping substeps.
#include "test_support.hpp"
#include "world/world_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace simdcollide::testing {
namespace {

// A scene with every kind of contact: a container, obstacles, mixed radii, static circles
// (one inside a box), circles dropped onto each other.
particle_world mixed_scene(world_options options = {}) {
    particle_world world(options);
    aabb_set boxes;
    boxes.push_back(aabb::from_min_max(-1, -1, 21, 0));
    boxes.push_back(aabb::from_min_max(-1, 0, 0, 40));
    boxes.push_back(aabb::from_min_max(20, 0, 21, 40));
    boxes.push_back(aabb::from_origin_size(4, 3, 2, 1));
    boxes.push_back(aabb::from_origin_size(12, 5, 1.5F, 2.5F));
    world.set_boxes(boxes.view());
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    world.add_circle({4.5F, 3.5F, 0.4F}, 0.0F); // static, inside a box
    world.add_circle({10.0F, 2.0F, 0.5F}, 0.0F);
    for (std::size_t i = 0; i < 300; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % 19) + 0.2F * unit(rng),
                          1.0F + static_cast<float>(i / 19) * 0.8F, 0.2F + 0.3F * unit(rng)},
                         0.5F + unit(rng), unit(rng) - 0.5F, 0.0F);
    }
    return world;
}

// The world's state after `steps` steps of dt on the instruction set `which`: x, y, vx, vy
// in the caller's indexing.
std::vector<float> stepped_state(isa which, particle_world world, int steps) {
    set_isa(which);
    for (int s = 0; s < steps; ++s) {
        world.step(1.0F / 60.0F);
    }
    reset_isa();
    return motion_of(world);
}

// Every instruction set this CPU runs (the reference too where asked) steps `world` to the
// bits of `want`.
void expect_every_isa_steps_to(const std::vector<float>& want, const particle_world& world,
                               int steps, bool reference_too) {
    for (const isa which : compiled_isas()) {
        if ((which == isa::reference && !reference_too) || !isa_supported(which)) {
            continue;
        }
        SCOPED_TRACE(isa_name(which));
        const std::vector<float> got = stepped_state(which, world, steps);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t k = 0; k < want.size(); ++k) {
            EXPECT_SAME_BITS(got[k], want[k], isa_name(which), k);
        }
    }
}

// Every instruction set this CPU runs steps `world` to the reference's bits.
void expect_every_isa_steps_alike(const particle_world& world, int steps) {
    expect_every_isa_steps_to(stepped_state(isa::reference, world, steps), world, steps, false);
}

// The world's whole step, every phase included, gives the same bits on every instruction
// set as on the reference, with shock propagation off (the default) and on; static circles
// never move.
TEST(particle_world, every_instruction_set_steps_to_the_same_bits) {
    for (const float shock : {0.0F, 0.5F}) {
        SCOPED_TRACE(shock);
        const particle_world world = mixed_scene({.shock_propagation = shock});
        const std::vector<float> want = stepped_state(isa::reference, world, 120);
        EXPECT_EQ(want[0], 4.5F); // x of the static circle inside a box
        EXPECT_EQ(want[1], 10.0F);
        EXPECT_EQ(want[want.size() / 4], 3.5F); // its y
        expect_every_isa_steps_alike(world, 120);
    }
}

// The same in bands of 16 to 256 circles (bands.hpp: the mixed scene's 302 circles in 2 to
// 19 bands, each band's pairs reaching one to several bands on), with restitution (the
// recording round with the velocities), with velocities past its bound (the same, without
// restitution), with several separation rounds or velocity passes (no bands), and with a
// large static circle among the others, whose pairs reach across every band (then each band's
// touches have room of their own rather than a ring's).
TEST(particle_world, every_instruction_set_steps_bands_to_the_same_bits) {
    for (const std::size_t band : {16, 64, 256}) {
        for (int variant = 0; variant < 5; ++variant) {
            SCOPED_TRACE(::testing::Message() << "band " << band << ", variant " << variant);
            world_options options{.shock_propagation = 0.5F, .circles_per_band = band};
            if (variant == 1) {
                options.restitution = 0.6F;
            } else if (variant == 3) {
                options.separation_iterations = 2;
                options.velocity_iterations = 2;
            }
            particle_world world = mixed_scene(options);
            if (variant == 2) {
                const particles_view p = world.particles();
                p.vx[7] = 0x1p121F; // approach speeds past 2^120: the velocities are read
            }
            if (variant == 4) {
                world.add_circle({10.0F, 9.0F, 4.0F}, 0.0F);
            }
            expect_every_isa_steps_alike(world, 40);
        }
    }
}

// `count` circles without boxes, `columns` a row 0.7 apart, moving every way (every 37th
// static), stepped in bands of `band` circles.
particle_world free_scene(std::size_t count, std::size_t columns, std::uint32_t seed,
                          std::size_t band) {
    particle_world world({.circles_per_band = band});
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < count; ++i) {
        world.add_circle({static_cast<float>(i % columns) * 0.7F + 0.1F * unit(rng),
                          static_cast<float>(i / columns) * 0.7F, 0.3F + 0.2F * unit(rng)},
                         i % 37 == 0 ? 0.0F : 0.5F + unit(rng), 2.0F * unit(rng) - 1.0F,
                         2.0F * unit(rng) - 1.0F);
    }
    return world;
}

// Without boxes, phase 6 takes the pair touches group by group in the grouper's order
// whatever the bands, and every other phase acts circle by circle: so every band size
// gives the same bits as one band. Catches a schedule that runs a phase before what it
// reads is ready, or a ring of touches that a later band overwrites before they are used
// (bands of 16 circles go round a ring; one band does not).
TEST(particle_world, without_boxes_every_band_size_steps_to_the_same_bits) {
    const auto free_circles = [](std::size_t band) { return free_scene(400, 20, 5, band); };
    const std::vector<float> want = stepped_state(isa::reference, free_circles(4096), 30);
    for (const std::size_t band : {16, 48, 128}) {
        SCOPED_TRACE(::testing::Message() << "band " << band);
        expect_every_isa_steps_to(want, free_circles(band), 30, true);
    }
}

// What a substep in bands keeps per circle while its band is in flight goes round a ring of
// a few bands (band_plan::ring_slot) when it is smaller than the circles: 8 000 circles
// without boxes in bands of 1 024 go round it several times a substep, and must step to the
// bits of one band of 8 192, where each circle has an entry of its own. Catches a ring too
// small for the bands in flight (an entry written over before it is read), on the reference
// and on every instruction set.
TEST(particle_world, the_bands_ring_steps_to_the_bits_of_one_band) {
    const auto free_circles = [](std::size_t band) { return free_scene(8000, 80, 8, band); };
    particle_world ringed = free_circles(1024);
    ringed.step(1.0F / 60.0F);
    ASSERT_GT(detail::state_of(ringed).band_ring_entries(), 0U);
    ASSERT_LE(detail::state_of(ringed).band_ring_entries() * 2, ringed.size())
        << "the ring is not gone round";
    particle_world whole = free_circles(8192);
    whole.step(1.0F / 60.0F);
    ASSERT_EQ(detail::state_of(whole).band_ring_entries(), whole.size());
    expect_every_isa_steps_to(stepped_state(isa::reference, whole, 20), ringed, 20, true);
}

// 6 000 circles in a 60-wide container with two obstacles, in bands of 1 024 (6 bands, whose
// per-circle entries and pair touches go round rings), stepped with `options` otherwise.
particle_world ringed_scene(world_options options) {
    options.shock_propagation = 0.5F;
    options.circles_per_band = 1024;
    particle_world world(options);
    aabb_set boxes = open_container(60, 80);
    boxes.push_back(aabb::from_origin_size(10, 20, 3, 1));
    boxes.push_back(aabb::from_origin_size(35, 40, 1.5F, 2.5F));
    world.set_boxes(boxes.view());
    std::mt19937 rng(12);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (std::size_t i = 0; i < 6000; ++i) {
        world.add_circle({0.5F + static_cast<float>(i % 59) + 0.2F * unit(rng),
                          0.5F + static_cast<float>(i / 59) * 0.75F, 0.25F + 0.2F * unit(rng)},
                         0.5F + unit(rng), unit(rng) - 0.5F, 0.0F);
    }
    return world;
}

// With boxes, the bits depend on the bands; in a ring they are still the reference's on
// every instruction set, with restitution 0 (the recording round without the velocities)
// and 0.6 (the velocities packed into the ring too).
TEST(particle_world, every_instruction_set_steps_bands_in_a_ring_to_the_same_bits) {
    for (const float restitution : {0.0F, 0.6F}) {
        SCOPED_TRACE(restitution);
        const particle_world world = ringed_scene({.restitution = restitution});
        particle_world probe = world;
        probe.step(1.0F / 60.0F);
        ASSERT_LE(detail::state_of(probe).band_ring_entries() * 2, probe.size())
            << "the ring is not gone round";
        ASSERT_EQ(detail::state_of(probe).band_substeps_in_flight(), 1U);
        expect_every_isa_steps_alike(world, 20);
    }
}

// Substeps in bands that overlap (world_options::overlap_substeps_from, here from 0
// circles) give the bits of one after another, which is how the reference runs them: on
// every instruction set, with restitution 0 and 0.6, and with 4 substeps (one wave) and 6
// (a wave of 4, then one of 2). Catches a substep that fronts a band before the one before
// it has responded that band, substeps in flight that share a ring or their touches, and
// a wave that starts from the last one's state.
TEST(particle_world, overlapping_substeps_step_to_the_bits_of_one_after_another) {
    for (const float restitution : {0.0F, 0.6F}) {
        for (const int substeps : {4, 6}) {
            SCOPED_TRACE(::testing::Message()
                         << "restitution " << restitution << ", substeps " << substeps);
            world_options options;
            options.substeps = substeps;
            options.restitution = restitution;
            const std::vector<float> want =
                stepped_state(isa::reference, ringed_scene(options), 20);
            options.overlap_substeps_from = 0;
            const particle_world overlapping = ringed_scene(options);
            particle_world probe = overlapping;
            probe.step(1.0F / 60.0F);
            ASSERT_EQ(detail::state_of(probe).band_substeps_in_flight(), 4U);
            expect_every_isa_steps_to(want, overlapping, 20, true);
        }
    }
}

// Bands only change the order of phase 6, never what the step does: a pile settles with
// any band size, and a static circle stays where it is.
TEST(particle_world, bands_of_any_size_step_a_pile_alike_in_physics) {
    for (const std::size_t band : {16, 1024}) {
        SCOPED_TRACE(band);
        particle_world world = mixed_scene({.circles_per_band = band});
        for (int s = 0; s < 300; ++s) {
            world.step(1.0F / 60.0F);
        }
        const particles_view p = world.particles();
        EXPECT_EQ(p.x[0], 4.5F);
        EXPECT_EQ(p.y[0], 3.5F);
        double v2 = 0.0;
        for (std::size_t i = 0; i < p.count; ++i) {
            ASSERT_TRUE(p.x[i] > -0.5F && p.x[i] < 20.5F && p.y[i] > -0.5F) << i;
            v2 += double{p.vx[i]} * p.vx[i] + double{p.vy[i]} * p.vy[i];
        }
        EXPECT_LT(v2 / static_cast<double>(p.count), 0.05);
    }
}

} // namespace
} // namespace simdcollide::testing
