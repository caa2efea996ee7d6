// circle_aabb/contact/box2d/<n>, circle_circle/contact/box2d/<n> and box_box/contact/box2d/<n>:
// Box2D 2.4.1's narrow phase for the same pairs and the same question (normal, depth, point
// in world space): b2CollidePolygonAndCircle, b2CollideCircles or b2CollidePolygons, then
// b2WorldManifold for world-space results, as Box2D's own contact solver does. For two
// boxes Box2D's manifold has up to two points (the clipped face); the first is reported.
#include "bench_support.hpp"

#include <box2d/box2d.h>

#include <vector>

namespace simdcollide::bench {
namespace {

struct box2d_scene {
    std::vector<b2PolygonShape> boxes;
    std::vector<b2CircleShape> circles;
};

box2d_scene make_box2d_scene(std::size_t n) {
    pair_scene& s = scene_for(n);
    box2d_scene out;
    out.boxes.resize(n);
    out.circles.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float hw = 0.5F * (s.boxes.max_x[i] - s.boxes.min_x[i]);
        const float hh = 0.5F * (s.boxes.max_y[i] - s.boxes.min_y[i]);
        out.boxes[i].SetAsBox(hw, hh, b2Vec2(s.boxes.min_x[i] + hw, s.boxes.min_y[i] + hh), 0.0F);
        out.circles[i].m_p.Set(s.circles.x[i], s.circles.y[i]);
        out.circles[i].m_radius = s.circles.radius[i];
    }
    return out;
}

void box2d_contact(benchmark::State& state, std::size_t n) {
    const box2d_scene scene = make_box2d_scene(n);
    pair_scene& s = scene_for(n);
    b2Transform identity;
    identity.SetIdentity();
    for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i) {
            b2Manifold manifold;
            b2CollidePolygonAndCircle(&manifold, &scene.boxes[i], identity, &scene.circles[i],
                                      identity);
            b2WorldManifold world;
            world.Initialize(&manifold, identity, scene.boxes[i].m_radius, identity,
                             scene.circles[i].m_radius);
            const bool hit = manifold.pointCount > 0;
            s.contacts.normal_x[i] = hit ? world.normal.x : 0.0F;
            s.contacts.normal_y[i] = hit ? world.normal.y : 0.0F;
            s.contacts.depth[i] = hit ? -world.separations[0] : 0.0F;
            s.contacts.point_x[i] = hit ? world.points[0].x : 0.0F;
            s.contacts.point_y[i] = hit ? world.points[0].y : 0.0F;
        }
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void box2d_circle_contact(benchmark::State& state, std::size_t n) {
    circle_scene& s = circle_scene_for(n);
    std::vector<b2CircleShape> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i].m_p.Set(s.ax[i], s.ay[i]);
        a[i].m_radius = s.ar[i];
        b[i].m_p.Set(s.bx[i], s.by[i]);
        b[i].m_radius = s.br[i];
    }
    b2Transform identity;
    identity.SetIdentity();
    contact_set out(n);
    for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i) {
            b2Manifold manifold;
            b2CollideCircles(&manifold, &a[i], identity, &b[i], identity);
            b2WorldManifold world;
            world.Initialize(&manifold, identity, a[i].m_radius, identity, b[i].m_radius);
            const bool hit = manifold.pointCount > 0;
            out.normal_x[i] = hit ? world.normal.x : 0.0F;
            out.normal_y[i] = hit ? world.normal.y : 0.0F;
            out.depth[i] = hit ? -world.separations[0] : 0.0F;
            out.point_x[i] = hit ? world.points[0].x : 0.0F;
            out.point_y[i] = hit ? world.points[0].y : 0.0F;
        }
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

// Box2D's normal runs from its first shape to its second; the kernels' runs from the second
// box towards the first, so Box2D is given the second box first, as our normal asks.
void box2d_box_contact(benchmark::State& state, std::size_t n) {
    box_pair_scene& s = box_scene_for(n);
    const auto polygon = [](const aabb_set& b, std::size_t i) {
        b2PolygonShape p;
        const float hw = 0.5F * (b.max_x[i] - b.min_x[i]);
        const float hh = 0.5F * (b.max_y[i] - b.min_y[i]);
        p.SetAsBox(hw, hh, b2Vec2(b.min_x[i] + hw, b.min_y[i] + hh), 0.0F);
        return p;
    };
    std::vector<b2PolygonShape> first(n), second(n);
    for (std::size_t i = 0; i < n; ++i) {
        first[i] = polygon(s.first, i);
        second[i] = polygon(s.second, i);
    }
    b2Transform identity;
    identity.SetIdentity();
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = 0;
        for (std::size_t i = 0; i < n; ++i) {
            b2Manifold manifold;
            b2CollidePolygons(&manifold, &second[i], identity, &first[i], identity);
            b2WorldManifold world;
            world.Initialize(&manifold, identity, second[i].m_radius, identity, first[i].m_radius);
            const bool hit = manifold.pointCount > 0;
            hits += hit ? 1 : 0;
            s.contacts.normal_x[i] = hit ? world.normal.x : 0.0F;
            s.contacts.normal_y[i] = hit ? world.normal.y : 0.0F;
            s.contacts.depth[i] = hit ? -world.separations[0] : 0.0F;
            s.contacts.point_x[i] = hit ? world.points[0].x : 0.0F;
            s.contacts.point_y[i] = hit ? world.points[0].y : 0.0F;
        }
        benchmark::ClobberMemory();
    }
    state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(n);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

bool register_all() {
    for (std::size_t n : sizes) {
        benchmark::RegisterBenchmark(("circle_aabb/contact/box2d/" + std::to_string(n)).c_str(),
                                     box2d_contact, n);
        benchmark::RegisterBenchmark(("circle_circle/contact/box2d/" + std::to_string(n)).c_str(),
                                     box2d_circle_contact, n);
        benchmark::RegisterBenchmark(("box_box/contact/box2d/" + std::to_string(n)).c_str(),
                                     box2d_box_contact, n);
    }
    return true;
}

const bool registered = register_all();

} // namespace
} // namespace simdcollide::bench
