#include "bench_support.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <random>

namespace simdcollide::bench {

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

std::vector<implementation> circle_aabb_implementations() {
    std::vector<implementation> out;
    for (isa which : compiled_isas()) {
        if (isa_supported(which)) {
            out.push_back(
                {std::string(isa_name(which)), &detail::compiled_table(which)->circle_aabb});
        }
    }
    out.push_back({"dispatch", &detail::active_table().circle_aabb});
    out.push_back({"autovec", &autovec_circle_aabb()});
    return out;
}

} // namespace simdcollide::bench
