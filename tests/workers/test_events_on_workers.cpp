// Contact events on workers (kernels/world/world_events.cpp): a world large enough that its
// circle pairs are tested in several blocks, on several workers, reports the same touches,
// began, ended and hits as on one.
#include <simdcollide/world.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simdcollide::testing {
namespace {

// 12 000 circles of radius 0.3 packed 0.58 apart in rows of 120 on a floor, every fifth
// moving sideways, with contact events on: some 24 000 pairs touch from the first step.
particle_world packed_rows(int workers) {
    world_options options;
    options.workers = workers;
    options.contact_events = true;
    options.hit_speed = 0.5F;
    particle_world world(options);
    aabb_set floor;
    floor.push_back(aabb::from_min_max(-1.0F, -1.0F, 71.0F, 0.0F));
    world.set_boxes(floor.view());
    for (std::size_t i = 0; i < 12000; ++i) {
        world.add_circle({0.3F + 0.58F * static_cast<float>(i % 120),
                          0.3F + 0.58F * static_cast<float>(i / 120), 0.3F},
                         1.0F, i % 5 == 0 ? 1.5F : 0.0F, 0.0F);
    }
    return world;
}

// Each step's touches, changes and hits, as numbers.
std::vector<std::uint32_t> events_of(int workers, std::size_t& touching) {
    particle_world world = packed_rows(workers);
    std::vector<std::uint32_t> record;
    const auto add = [&](const shape_pair& p) {
        record.insert(record.end(), {static_cast<std::uint32_t>(p.a.kind), p.a.index,
                                     static_cast<std::uint32_t>(p.b.kind), p.b.index});
    };
    for (int s = 0; s < 6; ++s) {
        world.step(1.0F / 60.0F);
        const contact_events& e = world.last_contact_events();
        for (const auto* list : {&e.began, &e.ended}) {
            record.push_back(static_cast<std::uint32_t>(list->size()));
            for (const shape_pair& p : *list) {
                add(p);
            }
        }
        for (const contact_hit& h : e.hits) {
            add(h.shapes);
        }
    }
    const std::vector<shape_pair> now = world.touching();
    touching = now.size();
    for (const shape_pair& p : now) {
        add(p);
    }
    return record;
}

TEST(events_on_workers, report_the_touches_and_changes_of_one_worker) {
    std::size_t touching = 0;
    const std::vector<std::uint32_t> want = events_of(1, touching);
    EXPECT_GT(touching, 20000U); // several blocks of pairs
    for (const int workers : {2, 3, 4, 7, 16}) {
        std::size_t got_touching = 0;
        EXPECT_EQ(events_of(workers, got_touching), want) << workers << " workers";
        EXPECT_EQ(got_touching, touching);
    }
}

} // namespace
} // namespace simdcollide::testing
