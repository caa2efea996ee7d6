// Shared by the tests: scenes of circle-box pairs (random and adversarial), bitwise
// comparison, and the list of instruction sets to run every SIMD test on.
#pragma once

#include "pairwise/kernel_table.hpp"
#include "scenes/scenes.hpp"

#include <simdcollide/simdcollide.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace simdcollide::testing {

/// Every SIMD instruction set this build contains. Each parameterised test runs on all of
/// them and skips (never passes) the ones this CPU cannot run.
inline std::vector<isa> simd_isas() {
    std::vector<isa> out;
    for (isa which : compiled_isas()) {
        if (which != isa::reference) {
            out.push_back(which);
        }
    }
    return out;
}

inline std::string isa_test_name(const ::testing::TestParamInfo<isa>& info) {
    return std::string(isa_name(info.param));
}

/// The kernel table of `which`, or a skipped test if this CPU cannot run it.
#define SIMDCOLLIDE_TABLE_OR_SKIP(which)                                                           \
    if (!::simdcollide::isa_supported(which)) {                                                    \
        GTEST_SKIP() << "this CPU cannot run " << ::simdcollide::isa_name(which);                  \
    }                                                                                              \
    const ::simdcollide::detail::kernel_table& table = *::simdcollide::detail::compiled_table(which)

/// A test parameterised by instruction set that runs its body with the dispatched kernels
/// (and so the world) set to that one, the reference included, skipped where this CPU
/// cannot run it; automatic choice is restored after.
class on_each_isa : public ::testing::TestWithParam<isa> {
protected:
    void SetUp() override {
        if (!isa_supported(GetParam())) {
            GTEST_SKIP() << "this CPU cannot run " << isa_name(GetParam());
        }
        set_isa(GetParam());
    }
    void TearDown() override { reset_isa(); }
};

inline std::uint32_t bits(float value) {
    return std::bit_cast<std::uint32_t>(value);
}

/// Arrays padded with a sentinel on both sides, viewed from an offset set by `shift`, so
/// a test sees unaligned views and catches any write outside [0, n).
class guarded_floats {
public:
    static constexpr std::size_t guard = 32;
    static constexpr float sentinel = -12345.678F;

    /// data() lies `shift` mod 16 floats past a 64-byte boundary: every place a vector of
    /// up to 16 floats can start from. The SIMD kernels start their whole blocks where the
    /// field they store to reaches a vector boundary (block_loop.hpp), so the fields of one
    /// test are put at different shifts (staggered) to cover loads misaligned to that.
    guarded_floats(std::size_t n, std::size_t shift)
        : storage_(n + 2 * guard + 2 * floats_per_line, sentinel),
          first_(guard + to_line_start(storage_.data() + guard) + shift % floats_per_line), n_(n) {}
    // A copy's storage lies elsewhere in its line, so it would keep the offset from its start
    // but not the place past a line; a move keeps the storage.
    guarded_floats(const guarded_floats&) = delete;
    guarded_floats& operator=(const guarded_floats&) = delete;
    guarded_floats(guarded_floats&&) noexcept = default;
    guarded_floats& operator=(guarded_floats&&) noexcept = default;
    ~guarded_floats() = default;
    float* data() { return storage_.data() + first_; }
    const float* data() const { return storage_.data() + first_; }
    float& operator[](std::size_t i) { return data()[i]; }
    float operator[](std::size_t i) const { return data()[i]; }
    std::size_t size() const { return n_; }
    /// True when nothing outside [0, n) changed.
    bool guards_intact() const {
        for (std::size_t i = 0; i < storage_.size(); ++i) {
            if ((i < first_ || i >= first_ + n_) && bits(storage_[i]) != bits(sentinel)) {
                return false;
            }
        }
        return true;
    }

private:
    static constexpr std::size_t floats_per_line = 16;
    static std::size_t to_line_start(const float* p) {
        const auto address = reinterpret_cast<std::uintptr_t>(p);
        return ((64 - address % 64) % 64) / sizeof(float);
    }

    std::vector<float> storage_;
    std::size_t first_;
    std::size_t n_;
};

/// The shift of a test's k-th field: 5 floats further along for each field, so that the
/// fields of one call start at different places in their 64-byte lines.
constexpr std::size_t staggered(std::size_t shift, std::size_t k) {
    return shift + 5 * k;
}

/// The five outputs of a contact kernel in guarded arrays.
struct guarded_contacts {
    // Outputs 3 floats further along than inputs made with the same shift, so that the
    // field a kernel stores to first is not where its loads start.
    guarded_contacts(std::size_t n, std::size_t shift)
        : field{{n, staggered(shift + 3, 0)},
                {n, staggered(shift + 3, 1)},
                {n, staggered(shift + 3, 2)},
                {n, staggered(shift + 3, 3)},
                {n, staggered(shift + 3, 4)}} {}
    guarded_floats field[5]; // normal_x, normal_y, depth, point_x, point_y
    contacts_view view() {
        return {field[0].data(), field[1].data(), field[2].data(),
                field[3].data(), field[4].data(), field[0].size()};
    }
};

/// Every output bit for bit, and nothing written outside [0, n).
inline void expect_same_contacts(const guarded_contacts& got, const guarded_contacts& want) {
    const char* names[5] = {"normal_x", "normal_y", "depth", "point_x", "point_y"};
    for (int f = 0; f < 5; ++f) {
        for (std::size_t i = 0; i < want.field[f].size(); ++i) {
            EXPECT_EQ(bits(got.field[f][i]), bits(want.field[f][i]))
                << names[f] << "[" << i << "]: " << got.field[f][i] << " vs " << want.field[f][i];
        }
        EXPECT_TRUE(got.field[f].guards_intact()) << names[f];
    }
}

/// n circle-box pairs in guarded, possibly unaligned arrays.
struct pair_scene {
    pair_scene(std::size_t n, std::size_t shift)
        : x(n, staggered(shift, 0)), y(n, staggered(shift, 1)), radius(n, staggered(shift, 2)),
          min_x(n, staggered(shift, 3)), min_y(n, staggered(shift, 4)),
          max_x(n, staggered(shift, 5)), max_y(n, staggered(shift, 6)) {}
    guarded_floats x, y, radius, min_x, min_y, max_x, max_y;

    std::size_t size() const { return x.size(); }
    circles_view circles() { return {x.data(), y.data(), radius.data(), size()}; }
    circles_cview circles() const { return {x.data(), y.data(), radius.data(), size()}; }
    aabbs_view boxes() const {
        return {min_x.data(), min_y.data(), max_x.data(), max_y.data(), size()};
    }
    void set(std::size_t i, circle c, aabb b) {
        x[i] = c.x;
        y[i] = c.y;
        radius[i] = c.radius;
        min_x[i] = b.min_x;
        min_y[i] = b.min_y;
        max_x[i] = b.max_x;
        max_y[i] = b.max_y;
    }
};

/// A world's circles' x, y, vx and vy, one field after the other, in the caller's indexing:
/// what the world's tests compare bit for bit.
inline std::vector<float> motion_of(particle_world& world) {
    const particles_view p = world.particles();
    std::vector<float> state;
    for (const float* field : {p.x, p.y, p.vx, p.vy}) {
        state.insert(state.end(), field, field + p.count);
    }
    return state;
}

/// record(isa, workers), floats a run gives, on every instruction set this build and CPU
/// have and on 1, 2, 3, 4, 7 and 16 workers (the reference on one), each bit for bit the
/// reference's on one worker. record sets the instruction set (set_isa) and resets it.
template <class Record>
void expect_same_bits_everywhere(Record record) {
    const std::vector<float> want = record(isa::reference, 1);
    for (const isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        for (const int workers : {1, 2, 3, 4, 7, 16}) {
            if (which == isa::reference && workers > 1) {
                continue;
            }
            const std::vector<float> got = record(which, workers);
            ASSERT_EQ(got.size(), want.size()) << isa_name(which) << ", " << workers << " workers";
            std::size_t differ = 0;
            for (std::size_t k = 0; k < want.size(); ++k) {
                differ += bits(got[k]) != bits(want[k]) ? 1 : 0;
            }
            EXPECT_EQ(differ, 0U) << isa_name(which) << ", " << workers << " workers";
        }
    }
}

/// The distance from (x, y) to box b (0 inside).
inline float distance_to(float x, float y, const aabb& b) {
    const float dx = std::max({b.min_x - x, 0.0F, x - b.max_x});
    const float dy = std::max({b.min_y - y, 0.0F, y - b.max_y});
    return std::hypot(dx, dy);
}

/// A container for a particle world's tests (scenes::add_container's): a floor 1 thick under
/// [-1, width + 1] and two walls 1 thick from it up to `height`, inside faces at x = 0 and
/// x = width.
inline aabb_set open_container(float width, float height) {
    aabb_set walls;
    scenes::add_container(width, height, walls);
    return walls;
}

/// A world that relists a few thousand circles a step, on `workers` workers: 40 000 circles
/// of radius 0.3 at rest in rows of 200, 0.7 apart, in open_container(140, 200), without
/// gravity, listed with a margin of 0.2; one in 13 moves right at 2, fast enough to leave
/// its margin every few steps and to meet its neighbour.
inline particle_world rows_with_movers(int workers) {
    world_options options;
    options.gravity_y = 0.0F;
    options.pair_margin = 0.2F;
    options.workers = workers;
    particle_world world(options);
    world.set_boxes(open_container(140, 200).view());
    for (std::size_t i = 0; i < 40000; ++i) {
        world.add_circle({0.5F + 0.7F * static_cast<float>(i % 200),
                          0.5F + 0.7F * static_cast<float>(i / 200), 0.3F},
                         1.0F, i % 13 == 0 ? 2.0F : 0.0F, 0.0F);
    }
    return world;
}

/// One random pair, drawn from a mix that covers every branch and tie of the contract:
/// centres outside, inside, on faces, on corners, at the box centre; exact touching; radius
/// 0; zero-size boxes; huge and tiny coordinates.
inline void random_pair(std::mt19937& rng, circle& c, aabb& b) {
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    std::uniform_real_distribution<float> coord(-20.0F, 20.0F);
    std::uniform_int_distribution<int> pick(0, 15);
    // Small dyadic values: sums and differences are exact, so "touching" really touches.
    std::uniform_int_distribution<int> grid(-32, 32);
    const auto dyadic = [&] { return static_cast<float>(grid(rng)) * 0.25F; };

    const float w = pick(rng) == 0 ? 0.0F : unit(rng) * 6.0F;
    const float h = pick(rng) == 0 ? 0.0F : unit(rng) * 6.0F;
    b = aabb::from_origin_size(coord(rng), coord(rng), w, h);
    c.radius = pick(rng) == 0 ? 0.0F : unit(rng) * 4.0F;

    switch (pick(rng)) {
    case 0: // centre inside, anywhere
    case 1:
        c.x = b.min_x + unit(rng) * (b.max_x - b.min_x);
        c.y = b.min_y + unit(rng) * (b.max_y - b.min_y);
        break;
    case 2: // on a vertical face
        c.x = pick(rng) < 8 ? b.min_x : b.max_x;
        c.y = b.min_y + unit(rng) * (b.max_y - b.min_y);
        break;
    case 3: // on a horizontal face
        c.x = b.min_x + unit(rng) * (b.max_x - b.min_x);
        c.y = pick(rng) < 8 ? b.min_y : b.max_y;
        break;
    case 4: // on a corner
        c.x = pick(rng) < 8 ? b.min_x : b.max_x;
        c.y = pick(rng) < 8 ? b.min_y : b.max_y;
        break;
    case 5: // at the box centre: every face tie at once when the box is square
        b = aabb::from_min_max(dyadic(), dyadic(), 0, 0);
        b.max_x = b.min_x + 2.0F;
        b.max_y = b.min_y + (pick(rng) < 8 ? 2.0F : 3.0F);
        c.x = b.min_x + 1.0F;
        c.y = b.min_y + 1.0F;
        break;
    case 6: { // exactly touching a face from outside (dyadic, so exact)
        b = aabb::from_min_max(dyadic(), dyadic(), 0, 0);
        b.max_x = b.min_x + 2.0F;
        b.max_y = b.min_y + 2.0F;
        c.radius = 0.5F * static_cast<float>(1 + pick(rng) % 4);
        c.x = b.max_x + c.radius;
        c.y = b.min_y + 1.0F;
        break;
    }
    case 7: // exactly touching a corner: a 3-4-5 triangle
        b = aabb::from_min_max(dyadic(), dyadic(), 0, 0);
        b.max_x = b.min_x + 1.0F;
        b.max_y = b.min_y + 1.0F;
        c.radius = 5.0F;
        c.x = b.max_x + 3.0F;
        c.y = b.max_y + 4.0F;
        break;
    case 8: // huge coordinates (d2 may overflow to infinity)
        b = aabb::from_origin_size(1e18F * coord(rng), 1e18F * coord(rng), 1e18F * w, 1e18F * h);
        c.x = 1e18F * coord(rng);
        c.y = 1e18F * coord(rng);
        c.radius = 1e19F * unit(rng);
        break;
    case 9: // tiny coordinates (squares underflow to subnormals or 0)
        b = aabb::from_origin_size(1e-20F * coord(rng), 1e-20F * coord(rng), 1e-20F * w,
                                   1e-20F * h);
        c.x = 1e-20F * coord(rng);
        c.y = 1e-20F * coord(rng);
        c.radius = 1e-20F * unit(rng);
        break;
    default: // near the box, inside or out
        c.x = b.min_x - 4.0F + unit(rng) * (b.max_x - b.min_x + 8.0F);
        c.y = b.min_y - 4.0F + unit(rng) * (b.max_y - b.min_y + 8.0F);
        break;
    }
}

inline void fill_random(pair_scene& scene, std::uint32_t seed) {
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < scene.size(); ++i) {
        circle c;
        aabb b;
        random_pair(rng, c, b);
        scene.set(i, c, b);
    }
}

/// Lengths around every lane count: 0, 1, W-1, W, W+1 for W in 4, 8, 16, and longer ones.
inline std::vector<std::size_t> edge_lengths() {
    return {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000};
}

/// One randomised run of a SIMD-against-reference test: length, misalignment, seed.
struct run_case {
    std::size_t n;
    std::size_t shift;
    std::uint32_t seed;
};

/// Every edge length at every misalignment of 0 to 15 floats past a 64-byte boundary (its
/// fields staggered from there), then one long run.
inline std::vector<run_case> run_cases(std::uint32_t first_seed, run_case long_run) {
    std::vector<run_case> out;
    std::uint32_t seed = first_seed;
    for (std::size_t n : edge_lengths()) {
        for (std::size_t shift = 0; shift < 16; ++shift) {
            out.push_back({n, shift, seed++});
        }
    }
    out.push_back(long_run);
    return out;
}

/// Arrays of floats bit for bit: how many values differ, and the first, in one failure
/// (where EXPECT_SAME_BITS on each would report every one).
inline void expect_same_floats(std::span<const float> got, std::span<const float> want,
                               const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    std::size_t differ = 0;
    std::size_t first = 0; // the lowest index that differs
    for (std::size_t k = want.size(); k-- > 0;) {
        if (bits(got[k]) != bits(want[k])) {
            ++differ;
            first = k;
        }
    }
    EXPECT_EQ(differ, 0U) << what << ": first at " << first << ", " << got[first] << " against "
                          << want[first];
}

/// A contact kernel over n pairs (long: one failure a field, naming the first element that
/// differs) against the reference: `reference(out)` and `simd(out)` fill guarded outputs
/// and return their counts, which must be equal and more than a tenth of n (the scene does
/// touch), and every output bit must match.
template <class Reference, class Simd>
void expect_long_contacts_match(std::size_t n, Reference reference, Simd simd) {
    guarded_contacts want(n, 1), got(n, 1);
    const std::size_t want_count = reference(want.view());
    EXPECT_EQ(simd(got.view()), want_count);
    EXPECT_GT(want_count, n / 10);
    const char* names[5] = {"normal_x", "normal_y", "depth", "point_x", "point_y"};
    for (int f = 0; f < 5; ++f) {
        expect_same_floats({got.field[f].data(), n}, {want.field[f].data(), n}, names[f]);
        EXPECT_TRUE(got.field[f].guards_intact()) << names[f];
    }
}

#define EXPECT_SAME_BITS(a, b, what, i)                                                            \
    EXPECT_EQ(::simdcollide::testing::bits(a), ::simdcollide::testing::bits(b))                    \
        << what << "[" << (i) << "]: " << (a) << " vs " << (b)

// The same pairs in the same order, and the same group ends.
inline void expect_same_grouping(const pair_groups& got, std::span<const circle_pair> want_pairs,
                                 std::span<const std::uint32_t> want_ends) {
    ASSERT_EQ(got.pairs().size(), want_pairs.size());
    for (std::size_t k = 0; k < want_pairs.size(); ++k) {
        EXPECT_EQ(got.pairs()[k].a, want_pairs[k].a) << k;
        EXPECT_EQ(got.pairs()[k].b, want_pairs[k].b) << k;
    }
    EXPECT_TRUE(
        std::equal(got.ends().begin(), got.ends().end(), want_ends.begin(), want_ends.end()));
}

inline void expect_same_groups(const pair_groups& got, const pair_groups& want) {
    expect_same_grouping(got, want.pairs(), want.ends());
}

} // namespace simdcollide::testing
