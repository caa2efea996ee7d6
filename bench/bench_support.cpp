#include "bench_support.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>

namespace simdcollide::bench {

namespace {
// The CPU's model name as the OS gives it ("unknown" where it gives none).
std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
            const std::size_t colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size()) {
                return line.substr(colon + 2);
            }
        }
    }
    return "unknown";
}

// What tools/bench_report.py reads from the results' context: the instruction set that
// `dispatch` runs, the library's version, the sets this CPU runs and its model. Before
// main, as the library allows; a SIMDCOLLIDE_ISA that names no set this CPU runs is
// recorded, not thrown (the benchmarks that dispatch then stop with it).
const bool dispatch_in_context = [] {
    std::string name;
    try {
        name = isa_name(active_isa());
    } catch (const isa_unavailable& e) {
        name = std::string("unavailable: ") + e.what();
    }
    benchmark::AddCustomContext("simdcollide_dispatch", name);
    benchmark::AddCustomContext("simdcollide_version", SIMDCOLLIDE_VERSION_STRING);
    std::string runs;
    for (const isa which : compiled_isas()) {
        if (which != isa::reference && isa_supported(which)) {
            if (!runs.empty()) {
                runs.append(",");
            }
            runs.append(isa_name(which));
        }
    }
    benchmark::AddCustomContext("simdcollide_isas", runs);
    benchmark::AddCustomContext("cpu_model", cpu_model());
    return true;
}();
} // namespace

pair_scene& scene_for(std::size_t n) {
    static std::map<std::size_t, std::unique_ptr<pair_scene>> scenes;
    std::unique_ptr<pair_scene>& scene = scenes[n];
    if (!scene) {
        scene = std::make_unique<pair_scene>();
        std::mt19937 rng(static_cast<std::uint32_t>(n));
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        scene->circles.resize(n);
        scene->boxes.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const float w = 0.5F + 2.5F * unit(rng);
            const float h = 0.5F + 2.5F * unit(rng);
            const float min_x = 100.0F * unit(rng);
            const float min_y = 100.0F * unit(rng);
            const float r = 0.1F + 0.9F * unit(rng);
            scene->boxes.min_x[i] = min_x;
            scene->boxes.min_y[i] = min_y;
            scene->boxes.max_x[i] = min_x + w;
            scene->boxes.max_y[i] = min_y + h;
            scene->circles.radius[i] = r;
            // Centres spread over the box grown by 2r + 0.5 on every side: about half the
            // pairs are in contact, a third of them with the centre inside.
            const float grow = 2 * r + 0.5F;
            scene->circles.x[i] = min_x - grow + (w + 2 * grow) * unit(rng);
            scene->circles.y[i] = min_y - grow + (h + 2 * grow) * unit(rng);
        }
        scene->contacts = contact_set(n);
        scene->start_x = scene->circles.x;
        scene->start_y = scene->circles.y;
    }
    return *scene;
}

box_pair_scene& box_scene_for(std::size_t n) {
    static std::map<std::size_t, std::unique_ptr<box_pair_scene>> scenes;
    std::unique_ptr<box_pair_scene>& scene = scenes[n];
    if (!scene) {
        scene = std::make_unique<box_pair_scene>();
        std::mt19937 rng(static_cast<std::uint32_t>(n) + 7);
        std::uniform_real_distribution<float> unit(0.0F, 1.0F);
        scene->first.resize(n);
        scene->second.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const float w = 0.5F + 2.5F * unit(rng);
            const float h = 0.5F + 2.5F * unit(rng);
            const float x = 100.0F * unit(rng);
            const float y = 100.0F * unit(rng);
            scene->first.min_x[i] = x;
            scene->first.min_y[i] = y;
            scene->first.max_x[i] = x + w;
            scene->first.max_y[i] = y + h;
            const bool same = i % 64 == 0;
            const float bw = same ? w : 0.5F + 2.5F * unit(rng);
            const float bh = same ? h : 0.5F + 2.5F * unit(rng);
            // the second's corner spread over the first grown by the second's size and 0.5
            const float bx = same ? x : x - bw - 0.5F + (w + bw + 1.0F) * unit(rng);
            const float by = same ? y : y - bh - 0.5F + (h + bh + 1.0F) * unit(rng);
            scene->second.min_x[i] = bx;
            scene->second.min_y[i] = by;
            scene->second.max_x[i] = bx + bw;
            scene->second.max_y[i] = by + bh;
        }
        scene->contacts = contact_set(n);
        scene->first_inverse_mass.resize(n);
        scene->second_inverse_mass.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            scene->first_inverse_mass[i] = i % 16 == 3 ? 0.0F : 0.5F + 1.5F * unit(rng);
            scene->second_inverse_mass[i] = i % 16 == 11 ? 0.0F : 0.5F + 1.5F * unit(rng);
        }
        scene->start_first = scene->first;
        scene->start_second = scene->second;
    }
    return *scene;
}

std::vector<implementation> implementations() {
    std::vector<implementation> out;
    const auto from_table = [](std::string name, const detail::kernel_table& t) {
        return implementation{std::move(name), &t.circle_aabb, &t.circle_circle,
                              &t.response,     &t.world,       &t.box_box};
    };
    for (isa which : compiled_isas()) {
        if (isa_supported(which)) {
            out.push_back(from_table(std::string(isa_name(which)), *detail::compiled_table(which)));
        }
    }
    out.push_back(from_table("dispatch", detail::active_table()));
    out.push_back({"autovec", &autovec_circle_aabb(), &autovec_circle_circle(), &autovec_response(),
                   nullptr, &autovec_box_box()});
    return out;
}

circle_scene& circle_scene_for(std::size_t n) {
    static std::map<std::size_t, std::unique_ptr<circle_scene>> scenes;
    std::unique_ptr<circle_scene>& scene = scenes[n];
    if (scene) {
        return *scene;
    }
    scene = std::make_unique<circle_scene>();
    circle_scene& s = *scene;
    std::mt19937 rng(static_cast<std::uint32_t>(n) + 1);
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    for (aligned_floats* f :
         {&s.ax, &s.ay, &s.ar, &s.aw, &s.avx, &s.avy, &s.bx, &s.by, &s.br, &s.bw, &s.bvx, &s.bvy}) {
        f->resize(n);
    }
    for (std::size_t i = 0; i < n; ++i) {
        s.ax[i] = 100.0F * unit(rng);
        s.ay[i] = 100.0F * unit(rng);
        s.ar[i] = 0.1F + 0.9F * unit(rng);
        s.br[i] = 0.1F + 0.9F * unit(rng);
        const bool coincident = i % 64 == 0;
        s.bx[i] = s.ax[i] + (coincident ? 0.0F : 2.5F * (unit(rng) - 0.5F) * 2.0F);
        s.by[i] = s.ay[i] + (coincident ? 0.0F : 2.5F * (unit(rng) - 0.5F) * 2.0F);
        s.aw[i] = i % 16 == 0 ? 0.0F : 0.5F + 1.5F * unit(rng);
        s.bw[i] = 0.5F + 1.5F * unit(rng);
        s.avx[i] = 2.0F * unit(rng) - 1.0F;
        s.avy[i] = 2.0F * unit(rng) - 1.0F;
        s.bvx[i] = 2.0F * unit(rng) - 1.0F;
        s.bvy[i] = 2.0F * unit(rng) - 1.0F;
    }
    s.start_ax = s.ax;
    s.start_ay = s.ay;
    s.start_bx = s.bx;
    s.start_by = s.by;
    s.start_avx = s.avx;
    s.start_avy = s.avy;
    s.start_bvx = s.bvx;
    s.start_bvy = s.bvy;
    s.contacts = contact_set(n);
    detail::reference_table().circle_circle.contact(s.a(), s.b(), s.contacts.view());
    // The touching contacts, from a generator of their own: the pile below is as before.
    std::mt19937 touching_rng(static_cast<std::uint32_t>(n) + 2);
    aligned_floats touching_x(n), touching_y(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float angle = 6.2831853F * unit(touching_rng);
        const float distance = i % 64 == 0 ? 0.0F : (s.ar[i] + s.br[i]) * unit(touching_rng);
        touching_x[i] = s.ax[i] + distance * std::cos(angle);
        touching_y[i] = s.ay[i] + distance * std::sin(angle);
    }
    s.touching = contact_set(n);
    detail::reference_table().circle_circle.contact(
        circles_cview(s.ax.data(), s.ay.data(), s.ar.data(), n),
        circles_cview(touching_x.data(), touching_y.data(), s.br.data(), n), s.touching.view());

    // The pile: a jittered square lattice of spacing 0.85 with radii 0.4 to 0.5, so most
    // neighbours overlap; pairs to the right, up and up-right, so that each circle sits in
    // about six pairs, as in a packed pile.
    const std::size_t side = static_cast<std::size_t>(std::sqrt(static_cast<double>(n))) + 1;
    for (aligned_floats* f : {&s.pile_x, &s.pile_y, &s.pile_r, &s.pile_w}) {
        f->resize(n);
    }
    for (std::size_t i = 0; i < n; ++i) {
        s.pile_x[i] = static_cast<float>(i % side) * 0.85F + 0.05F * unit(rng);
        s.pile_y[i] = static_cast<float>(i / side) * 0.85F + 0.05F * unit(rng);
        s.pile_r[i] = 0.4F + 0.1F * unit(rng);
        s.pile_w[i] = i < side ? 0.0F : 1.0F; // the bottom row rests on the ground
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t col = i % side;
        const std::size_t right = col + 1 < side ? i + 1 : n;
        const std::size_t up_right = col + 1 < side ? i + side + 1 : n;
        for (const std::size_t j : {right, i + side, up_right}) {
            if (j < n) {
                s.pile_pairs.push_back(
                    {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
            }
        }
    }
    s.pile_start_x = s.pile_x;
    s.pile_start_y = s.pile_y;
    return s;
}

circle_set scattered_circles(std::size_t n) {
    std::mt19937 rng(static_cast<std::uint32_t>(n));
    std::uniform_real_distribution<float> unit(0.0F, 1.0F);
    const float side = std::sqrt(static_cast<float>(n));
    circle_set c;
    for (std::size_t i = 0; i < n; ++i) {
        c.push_back({unit(rng) * side, unit(rng) * side, 0.25F + 0.2F * unit(rng)});
    }
    return c;
}

} // namespace simdcollide::bench
