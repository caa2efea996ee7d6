// Fuzzing the many-against-many layer (docs/behaviour.md "Many against many") and its bad input:
//   - pair_finder::find gives exactly reference::find_pairs (the brute force), whatever the
//     centres and radii, NaN and infinities included;
//   - a static_box_grid's push_out_all gives exactly the brute-force box order;
//   - a particle_world refuses invalid circles, boxes and time steps and keeps its state,
//     and steps to the same bits on the reference and on every instruction set this CPU
//     runs, on scenes of up to 48 circles and 12 boxes with skewed radii, circles inside
//     boxes, coincident centres and static circles.
// A difference aborts with what differed; libFuzzer's memory limit (-rss_limit_mb, 2 GB by
// default) catches a grid that grows with skewed input.
#include "fuzz_reader.hpp"

#include <simdcollide/simdcollide.hpp>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace simdcollide::fuzz {
namespace {

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "simdcollide fuzz: %s\n", what.c_str());
    std::abort();
}

std::uint32_t bits(float v) {
    return std::bit_cast<std::uint32_t>(v);
}

// n circles read from the input, element by element.
struct circle_arrays {
    std::vector<float> x, y, radius;
};
circle_arrays read_circles(reader& r, std::size_t n) {
    circle_arrays c{std::vector<float>(n), std::vector<float>(n), std::vector<float>(n)};
    for (std::size_t i = 0; i < n; ++i) {
        c.x[i] = r.value();
        c.y[i] = r.value();
        c.radius[i] = r.value();
    }
    return c;
}

void check_pair_finder(reader& r) {
    // Up to 160 circles: from 64 on, the grid covers only the bulk of the centres when a few
    // lie far away (raw float bits put some anywhere in the float range).
    const std::size_t n = r.byte() % 161U;
    const circle_arrays circles = read_circles(r, n);
    const float margin = r.fraction_of(2.0F);
    const circles_cview c(circles.x.data(), circles.y.data(), circles.radius.data(), n);
    pair_finder finder;
    const std::span<const circle_pair> got = finder.find(c, margin);
    const std::vector<circle_pair> want = reference::find_pairs(c, margin);
    if (got.size() != want.size()) {
        fail("pair_finder found " + std::to_string(got.size()) + " pairs, the brute force " +
             std::to_string(want.size()));
    }
    for (std::size_t k = 0; k < want.size(); ++k) {
        if (got[k].a != want[k].a || got[k].b != want[k].b) {
            fail("pair_finder's pair " + std::to_string(k) + " differs from the brute force's");
        }
    }
    // The memory bound documented in pair_finder.hpp.
    if (finder.cell_count() > 2 * n + 64) {
        fail("pair_finder made " + std::to_string(finder.cell_count()) + " cells for " +
             std::to_string(n) + " circles");
    }
}

void check_static_boxes(reader& r) {
    // Below and above brute_force_below, and from 64 on, grids over the bulk of the boxes.
    const std::size_t box_count = r.byte() % 129U;
    aabb_set boxes;
    for (std::size_t k = 0; k < box_count; ++k) {
        const float x = r.value();
        const float y = r.value();
        // Mostly small boxes; now and then one of any size (a negative or NaN one is invalid).
        const auto side = [&] {
            return r.byte() % 8U == 0 ? std::fabs(r.value()) : r.fraction_of(8.0F);
        };
        const float w = side();
        boxes.push_back(aabb::from_origin_size(x, y, w, side()));
    }
    std::unique_ptr<static_box_grid> grid;
    try {
        grid = std::make_unique<static_box_grid>(boxes.view());
    } catch (const std::invalid_argument&) {
        return; // an invalid box (a non-finite corner): refused, as documented
    }
    // The memory bound documented in static_boxes.hpp.
    if (grid->cell_count() > static_box_grid::cell_bound(box_count) ||
        grid->listing_count() > static_box_grid::listing_bound(box_count)) {
        fail("static_box_grid made " + std::to_string(grid->cell_count()) + " cells and " +
             std::to_string(grid->listing_count()) + " listings for " + std::to_string(box_count) +
             " boxes");
    }
    const std::size_t n = r.byte() % 33U;
    auto [x, y, radius] = read_circles(r, n);
    std::vector<float> bx = x, by = y;
    const float margin = r.fraction_of(1.0F);
    const std::size_t got = push_out_all({x.data(), y.data(), radius.data(), n}, *grid, margin);
    const std::size_t want =
        reference::push_out_all({bx.data(), by.data(), radius.data(), n}, boxes.view(), margin);
    if (got != want) {
        fail("static_box_grid pushed " + std::to_string(got) + " times, the brute force " +
             std::to_string(want));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const bool both_nan = x[i] != x[i] && bx[i] != bx[i] && y[i] != y[i] && by[i] != by[i];
        if (!both_nan && (bits(x[i]) != bits(bx[i]) || bits(y[i]) != bits(by[i]))) {
            fail("static_box_grid moved circle " + std::to_string(i) + " elsewhere");
        }
    }
}

// A world built and stepped from the input; its particles' bits, folded.
std::uint64_t world_bits(const std::uint8_t* data, std::size_t size) {
    reader r(data, size);
    world_options o;
    o.substeps = 1 + r.byte() % 4U;
    o.relax_iterations = 1 + r.byte() % 3U;
    o.restitution = r.fraction_of(1.0F);
    o.friction = r.fraction_of(2.0F);
    o.contact_damping_ratio = static_cast<float>(r.byte() % 40U);
    o.max_push_speed = 0.5F + r.fraction_of(10.0F);
    o.pair_margin = r.fraction_of(0.5F);
    o.contact_hertz = 1.0F + static_cast<float>(r.byte() % 4U) * 60.0F;
    particle_world world(o);

    aabb_set boxes;
    const std::size_t box_count = r.byte() % 13U;
    for (std::size_t k = 0; k < box_count; ++k) {
        boxes.push_back(aabb{r.value(), r.value(), r.value(), r.value()}); // in order, as braced
    }
    try {
        world.set_boxes(boxes.view());
    } catch (const std::invalid_argument&) {
        if (world.boxes().boxes().count != 0) {
            fail("a refused set_boxes changed the world's boxes");
        }
    }
    const std::size_t n = r.byte() % 49U;
    for (std::size_t i = 0; i < n; ++i) {
        // Radii skewed: most small, a few up to the thousands (or raw, when the byte says).
        const std::uint8_t kind = r.byte();
        const float radius =
            kind % 8U == 0 ? r.value() : r.fraction_of(kind % 5U == 0 ? 4000.0F : 1.0F);
        const circle c{r.value(), r.value(), radius};
        // Inverse masses: static, small, or now and then any float (the whole range of
        // valid weights, subnormal to the largest; a negative or non-finite one is refused).
        const float inverse_mass = kind % 7U == 0   ? 0.0F
                                   : kind % 3U == 0 ? r.value()
                                                    : r.fraction_of(2.0F);
        const std::size_t before = world.size();
        try {
            const float vx = r.value(); // read in order: a call's arguments are not
            world.add_circle(c, inverse_mass, vx, r.value());
        } catch (const std::invalid_argument&) {
            if (world.size() != before) {
                fail("a refused add_circle changed the world's size");
            }
        }
    }
    const int steps = 1 + r.byte() % 6U;
    for (int s = 0; s < steps; ++s) {
        const float dt = r.byte() % 16U == 0 ? r.value() : 1.0F / (10.0F + r.fraction_of(230.0F));
        // What world.hpp says step() accepts.
        const bool acceptable = dt > 0.0F && dt <= particle_world::max_time_step &&
                                dt / static_cast<float>(o.substeps) >= particle_world::min_substep;
        try {
            world.step(dt);
            if (!acceptable) {
                fail("step accepted dt = " + std::to_string(dt));
            }
        } catch (const std::invalid_argument&) {
            if (acceptable) {
                fail("step refused dt = " + std::to_string(dt));
            }
        }
    }
    const particles_view p = world.particles();
    std::uint64_t h = 1469598103934665603ULL;
    for (std::size_t i = 0; i < p.count; ++i) {
        for (const float v : {p.x[i], p.y[i], p.vx[i], p.vy[i]}) {
            h = (h ^ canonical_bits(v)) * 1099511628211ULL;
        }
    }
    return h;
}

void check_world(const std::uint8_t* data, std::size_t size) {
    set_isa(isa::reference);
    const std::uint64_t want = world_bits(data, size);
    for (const isa which : compiled_isas()) {
        if (which == isa::reference || !isa_supported(which)) {
            continue;
        }
        set_isa(which);
        if (world_bits(data, size) != want) {
            reset_isa();
            fail("a world stepped on " + std::string(isa_name(which)) +
                 " differs from the same world on the reference");
        }
    }
    reset_isa();
}

} // namespace
} // namespace simdcollide::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace simdcollide;
    fuzz::reader r(data, size);
    switch (r.byte() % 3U) {
    case 0:
        fuzz::check_pair_finder(r);
        break;
    case 1:
        fuzz::check_static_boxes(r);
        break;
    default:
        fuzz::check_world(size == 0 ? data : data + 1, size == 0 ? 0 : size - 1);
        break;
    }
    return 0;
}
