// Threads (README, "Threads"): the kernels keep no state between calls, so calls made at
// once on several threads, each writing arrays no other call touches, give the bits one
// thread gives; a static_box_grid, once built, is only read and may be shared; a world,
// a pair_finder and a separation_workspace belong to one thread at a time, and worlds on
// threads of their own step as they would on one. Before its threads start, each test
// forgets the instruction set chosen (reset_isa), so that their first calls also race to
// choose it again. A kernel that kept scratch in a static would mix the threads' data here.
#include "test_support.hpp"

#include <simdcollide/simdcollide.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace simdcollide::testing {
namespace {

constexpr std::size_t thread_count = 4;
// How often each thread repeats its calls. A race shows only when calls overlap: with a
// workspace made static on purpose, the kernel test below failed in every run of six
// (pair-list contact's scratch) and of three (pair-list separation's sums), the world test
// in every run.
constexpr int repeats = 50;

// One thread's work: circles against boxes pair by pair, circles against each other
// through a broad phase, and against a box grid that every thread shares.
struct work {
    circle_set circles;
    aabb_set boxes;
    std::vector<float> inverse_mass;

    explicit work(std::uint32_t seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> mass(0.0F, 2.0F);
        for (std::size_t i = 0; i < 3001; ++i) { // not a multiple of any lane count
            circle c{};
            aabb b{};
            random_pair(rng, c, b);
            // The circles are packed into a 60 x 60 square, so that the broad phase finds
            // each in several pairs; radii of 2 and more become 0.6, so that none reaches
            // across the square. The boxes stay where random_pair put them.
            c.x = static_cast<float>(i % 55) * 1.1F;
            c.y = static_cast<float>(i / 55) * 1.1F;
            c.radius = c.radius < 2.0F ? c.radius : 0.6F;
            circles.push_back(c);
            boxes.push_back(b);
            inverse_mass.push_back(i % 7 == 0 ? 0.0F : mass(rng)); // some static
        }
    }
};

// Every result of `w`'s kernels, in one array of floats, for comparing bit for bit.
std::vector<float> results_of(const work& w, const static_box_grid& shared) {
    const std::size_t n = w.circles.size();
    std::vector<float> out;
    const auto keep = [&out](const aligned_floats& field) {
        out.insert(out.end(), field.data(), field.data() + field.size());
    };

    contact_set contacts(n);
    out.push_back(static_cast<float>(contact(w.circles.view(), w.boxes.view(), contacts.view())));
    for (const aligned_floats* field : {&contacts.normal_x, &contacts.normal_y, &contacts.depth,
                                        &contacts.point_x, &contacts.point_y}) {
        keep(*field);
    }

    circle_set pushed = w.circles;
    out.push_back(static_cast<float>(push_out(pushed.view(), w.boxes.view(), 0.125F)));
    keep(pushed.x);
    keep(pushed.y);

    circle_set separated = w.circles;
    aligned_floats vx(n);
    aligned_floats vy(n);
    pair_finder finder;
    const std::span<const circle_pair> pairs = finder.find(separated.view());
    separation_workspace workspace;
    contact_set pair_contacts(pairs.size());
    out.push_back(
        static_cast<float>(contact(separated.view(), pairs, pair_contacts.view(), workspace)));
    for (const aligned_floats* field :
         {&pair_contacts.normal_x, &pair_contacts.normal_y, &pair_contacts.depth}) {
        keep(*field);
    }
    const particles_view p(separated.x.data(), separated.y.data(), separated.radius.data(),
                           w.inverse_mass.data(), vx.data(), vy.data(), n);
    for (int round = 0; round < 3; ++round) {
        out.push_back(
            static_cast<float>(separate(p, pairs, separation_weighting::inverse_mass, workspace)));
    }
    keep(separated.x);
    keep(separated.y);

    circle_set against_grid = w.circles;
    out.push_back(static_cast<float>(push_out_all(against_grid.view(), shared)));
    keep(against_grid.x);
    keep(against_grid.y);
    return out;
}

bool same_bits(const std::vector<float>& got, const std::vector<float>& want) {
    return got.size() == want.size() &&
           std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0;
}

void expect_same_results(const std::vector<float>& got, const std::vector<float>& want,
                         std::size_t thread) {
    expect_same_floats(got, want, "thread " + std::to_string(thread));
}

TEST(threads, kernels_called_at_once_give_one_threads_bits) {
    // The shared grid: boxes spread over the circles' square, more than the brute force's
    // threshold, so that push_out_all goes through the grid.
    aabb_set grid_boxes;
    for (int i = 0; i < 200; ++i) {
        const float x = static_cast<float>(i % 20) * 3.0F;
        const float y = static_cast<float>(i / 20) * 6.0F;
        grid_boxes.push_back(aabb::from_min_max(x, y, x + 1.5F, y + 0.75F));
    }
    const static_box_grid shared(grid_boxes.view());

    std::vector<work> works;
    for (std::uint32_t t = 0; t < thread_count; ++t) {
        works.emplace_back(100 + t);
    }
    std::vector<std::vector<float>> want;
    for (const work& w : works) {
        want.push_back(results_of(w, shared));
    }
    ASSERT_GT(want[0][0], 0.0F); // some circle-box pairs are in contact

    // The threads' first calls resolve the instruction set (SIMDCOLLIDE_ISA, or the best),
    // as the serial calls above did.
    reset_isa();
    std::vector<std::vector<float>> got(thread_count);
    std::vector<std::thread> threads;
    std::vector<int> repeats_that_differ(thread_count, 0);
    for (std::size_t t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] {
            // Many times over, so that the threads' calls overlap. Kept: the first result
            // that differs from one thread's, else the last.
            for (int repeat = 0; repeat < repeats; ++repeat) {
                std::vector<float> result = results_of(works[t], shared);
                const bool differs = !same_bits(result, want[t]);
                if (repeats_that_differ[t] == 0) {
                    got[t] = std::move(result);
                }
                repeats_that_differ[t] += differs ? 1 : 0;
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (std::size_t t = 0; t < thread_count; ++t) {
        EXPECT_EQ(repeats_that_differ[t], 0) << "thread " << t << ", of " << repeats << " repeats";
        expect_same_results(got[t], want[t], t);
    }
}

// A world of 600 circles dropped into a container with a few obstacles, its state after
// `steps` steps.
std::vector<float> stepped_world(std::uint32_t seed, int steps) {
    particle_world world;
    aabb_set boxes = open_container(30, 60);
    boxes.push_back(aabb::from_min_max(8, 10, 10, 11));
    boxes.push_back(aabb::from_min_max(18, 14, 21, 15));
    world.set_boxes(boxes.view());
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> radius(0.25F, 0.45F);
    for (std::size_t i = 0; i < 600; ++i) {
        world.add_circle(
            {0.5F + static_cast<float>(i % 29), 2.0F + static_cast<float>(i / 29), radius(rng)},
            i % 50 == 0 ? 0.0F : 1.0F);
    }
    for (int s = 0; s < steps; ++s) {
        world.step(1.0F / 60.0F);
    }
    return motion_of(world);
}

TEST(threads, worlds_on_threads_of_their_own_step_as_on_one) {
    constexpr int steps = 90;
    std::vector<std::vector<float>> want;
    for (std::uint32_t t = 0; t < thread_count; ++t) {
        want.push_back(stepped_world(7 + t, steps));
    }
    ASSERT_NE(want[0], want[1]); // the seeds make different worlds
    reset_isa();
    std::vector<std::vector<float>> got(thread_count);
    std::vector<std::thread> threads;
    for (std::uint32_t t = 0; t < thread_count; ++t) {
        threads.emplace_back([&, t] { got[t] = stepped_world(7 + t, steps); });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (std::size_t t = 0; t < thread_count; ++t) {
        expect_same_results(got[t], want[t], t);
    }
}

} // namespace
} // namespace simdcollide::testing
