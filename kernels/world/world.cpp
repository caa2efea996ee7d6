// The particle world: its options, and particle_world, the public face of its state
// (world.hpp). The step runs its stages in world_step.cpp.
#include "world/world_state.hpp"

#include "pairwise/kernel_table.hpp"
#include "runtime/tasks.hpp"
#include "runtime/worker_pool.hpp"
#include "world/world_errors.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace simdcollide {

using detail::number;
using detail::refuse;

detail::world_state::world_state(world_options options) : options_(options) {
    materials_.defaults = {options.friction, options.restitution};
    for (const auto& [name, rounds] : {std::pair{"substeps", options.substeps},
                                       std::pair{"relax_iterations", options.relax_iterations}}) {
        if (rounds < 1 || rounds > world_options::max_rounds) {
            refuse(std::string(name) + " is " + std::to_string(rounds) + ", must be from 1 to " +
                   std::to_string(world_options::max_rounds));
        }
    }
    if (!(options.restitution >= 0.0F && options.restitution <= 1.0F)) {
        refuse("restitution is " + std::to_string(options.restitution) + ", must be in [0, 1]");
    }
    if (!std::isfinite(options.friction) || options.friction < 0.0F) {
        refuse("friction is " + std::to_string(options.friction) + ", must be finite and >= 0");
    }
    if (!(options.contact_hertz > 0.0F)) {
        refuse("contact_hertz is " + number(options.contact_hertz) +
               ", must be > 0 (infinity: as stiff as the substep allows)");
    }
    if (!(options.contact_damping_ratio >= 0.0F && std::isfinite(options.contact_damping_ratio))) {
        refuse("contact_damping_ratio is " + number(options.contact_damping_ratio) +
               ", must be finite and >= 0");
    }
    if (!(options.max_push_speed > 0.0F)) {
        refuse("max_push_speed is " + number(options.max_push_speed) +
               ", must be > 0 (infinity: no limit)");
    }
    if (!(options.restitution_threshold >= 0.0F && std::isfinite(options.restitution_threshold))) {
        refuse("restitution_threshold is " + number(options.restitution_threshold) +
               ", must be finite and >= 0");
    }
    if (!std::isfinite(options.pair_margin) || !(options.pair_margin >= 0.0F)) {
        refuse("pair_margin is " + std::to_string(options.pair_margin) +
               ", must be finite and >= 0");
    }
    if (!(options.sweep_from >= 0.0F)) {
        refuse("sweep_from is " + number(options.sweep_from) +
               ", must be >= 0 (infinity: no continuous collision)");
    }
    if (!(options.hit_speed >= 0.0F)) {
        refuse("hit_speed is " + number(options.hit_speed) + ", must be >= 0 (infinity: no hits)");
    }
    for (const auto& [name, value] : {std::pair{"sleep_speed", options.sleep_speed},
                                      std::pair{"sleep_time", options.sleep_time}}) {
        if (!(value >= 0.0F && std::isfinite(value))) {
            refuse(std::string(name) + " is " + number(value) + ", must be finite and >= 0");
        }
    }
    events_.on = options.contact_events;
    events_.hit_speed = options.hit_speed;
    if (options.workers < 1 || options.workers > world_options::max_workers) {
        refuse("workers is " + std::to_string(options.workers) + ", must be from 1 to " +
               std::to_string(world_options::max_workers));
    }
    if ((options.tasks.enqueue == nullptr) != (options.tasks.finish == nullptr)) {
        refuse(
            std::string("tasks has ") +
            (options.tasks.enqueue == nullptr ? "finish but no enqueue" : "enqueue but no finish") +
            ": give both callbacks, or neither");
    }
    for (const auto& [name, g] :
         {std::pair{"gravity_x", options.gravity_x}, std::pair{"gravity_y", options.gravity_y}}) {
        if (!(std::fabs(g) <= world_options::max_gravity)) {
            refuse(std::string(name) + " is " + number(g) + ", must be finite and within " +
                   number(world_options::max_gravity) + " of 0");
        }
    }
    if (options.tasks.enqueue != nullptr) {
        tasks_ = options.tasks;
    } else if (options.workers > 1) {
        pool_ = std::make_shared<detail::worker_pool>(static_cast<std::size_t>(options.workers));
        tasks_ = pool_->callbacks();
    }
}

// A step keeps one worker busy for each circles_per_worker circles: a small world's colours
// are too short to share (docs/world-design.md, "Workers").
detail::task_runner detail::world_state::task_runner() const noexcept {
    const std::size_t busy = std::max<std::size_t>(1, size() / world_options::circles_per_worker);
    return {tasks_, static_cast<std::size_t>(options_.workers), busy};
}

particles_view detail::world_state::particles() noexcept {
    return circles_.view();
}

std::vector<circle_pair> detail::world_state::listed_pairs() const {
    std::vector<circle_pair> out;
    out.reserve(lists_.pairs.size());
    for (const circle_pair q : lists_.pairs) {
        const std::uint32_t i = slots_.circle_of_slot[q.a];
        const std::uint32_t j = slots_.circle_of_slot[q.b];
        out.push_back({std::min(i, j), std::max(i, j)});
    }
    std::sort(out.begin(), out.end(),
              [](circle_pair l, circle_pair r) { return l.a != r.a ? l.a < r.a : l.b < r.b; });
    return out;
}

// particle_world, the public face: each function is the state's.
particle_world::particle_world(world_options options)
    : state_(std::make_unique<detail::world_state>(options)) {}
particle_world::particle_world(const particle_world& other)
    : state_(std::make_unique<detail::world_state>(*other.state_)) {}
particle_world& particle_world::operator=(const particle_world& other) {
    if (this != &other) {
        state_ = std::make_unique<detail::world_state>(*other.state_);
    }
    return *this;
}
particle_world::particle_world(particle_world&& other) noexcept = default;
particle_world& particle_world::operator=(particle_world&& other) noexcept = default;
particle_world::~particle_world() = default;

std::size_t particle_world::add_circle(circle c, float inverse_mass, float vx, float vy) {
    return state_->add_circle(c, inverse_mass, vx, vy);
}
std::size_t particle_world::add_circles(circles_cview circles, std::span<const float> inverse_mass,
                                        std::span<const float> vx, std::span<const float> vy) {
    return state_->add_circles(circles, inverse_mass, vx, vy);
}
void particle_world::remove_circle(std::size_t index) {
    state_->remove_circle(index);
}
std::size_t particle_world::remove_marked(std::span<const std::uint8_t> doomed) {
    return state_->remove_marked(doomed);
}
void particle_world::set_boxes(aabbs_view boxes) {
    state_->set_boxes(boxes);
}
std::size_t particle_world::add_kinematic_box(aabb box, float vx, float vy) {
    return state_->add_kinematic_box(box, vx, vy);
}
void particle_world::set_kinematic_velocity(std::size_t index, float vx, float vy) {
    state_->set_kinematic_velocity(index, vx, vy);
}
void particle_world::move_kinematic_box(std::size_t index, aabb next) {
    state_->move_kinematic_box(index, next);
}
void particle_world::remove_kinematic_box(std::size_t index) {
    state_->remove_kinematic_box(index);
}
std::size_t particle_world::kinematic_box_count() const noexcept {
    return state_->kinematic_box_count();
}
particle_world::kinematic_box particle_world::kinematic_box_at(std::size_t index) const {
    return state_->kinematic_box_at(index);
}
std::size_t particle_world::add_dynamic_box(aabb box, float inverse_mass, float vx, float vy) {
    return state_->add_dynamic_box(box, inverse_mass, vx, vy);
}
void particle_world::remove_dynamic_box(std::size_t index) {
    state_->remove_dynamic_box(index);
}
std::size_t particle_world::dynamic_box_count() const noexcept {
    return state_->dynamic_box_count();
}
particle_world::dynamic_box particle_world::dynamic_box_at(std::size_t index) const {
    return state_->dynamic_box_at(index);
}
dynamic_boxes_view particle_world::dynamic_boxes() noexcept {
    return state_->dynamic_boxes();
}
void particle_world::step(float dt) {
    state_->step(dt);
}
void particle_world::set_material(shape_kind kind, std::size_t index, material m) {
    state_->set_material(kind, index, m);
}
material particle_world::material_of(shape_kind kind, std::size_t index) const {
    return state_->material_of(kind, index);
}
void particle_world::set_circle_materials(std::span<const float> friction,
                                          std::span<const float> restitution) {
    state_->set_circle_materials(friction, restitution);
}
void particle_world::set_filter(shape_kind kind, std::size_t index, collision_filter f) {
    state_->set_filter(kind, index, f);
}
collision_filter particle_world::filter_of(shape_kind kind, std::size_t index) const {
    return state_->filter_of(kind, index);
}
void particle_world::set_circle_filters(std::span<const std::uint64_t> category,
                                        std::span<const std::uint64_t> mask) {
    state_->set_circle_filters(category, mask);
}
std::size_t particle_world::cast_rays(rays_cview rays, ray_hits_view hits,
                                      std::span<shape_kind> kinds, collision_filter filter) const {
    return state_->cast_rays(rays, hits, kinds, filter);
}
std::size_t particle_world::query_region(const aabb& region, std::vector<shape_ref>& out,
                                         collision_filter filter) const {
    return state_->query_region(region, out, filter);
}
std::size_t particle_world::query_point(float x, float y, float distance,
                                        std::vector<shape_ref>& out,
                                        collision_filter filter) const {
    return state_->query_point(x, y, distance, out, filter);
}
const contact_events& particle_world::last_contact_events() const noexcept {
    return state_->last_contact_events();
}
std::vector<shape_pair> particle_world::touching() const {
    return state_->touching();
}
std::size_t particle_world::add_sensor(aabb box, collision_filter filter) {
    return state_->add_sensor(box, filter);
}
void particle_world::move_sensor(std::size_t index, aabb box) {
    state_->move_sensor(index, box);
}
void particle_world::remove_sensor(std::size_t index) {
    state_->remove_sensor(index);
}
std::size_t particle_world::sensor_count() const noexcept {
    return state_->sensor_count();
}
aabb particle_world::sensor_at(std::size_t index) const {
    return state_->sensor_at(index);
}
std::span<const shape_ref> particle_world::sensor_contents(std::size_t index) const {
    return state_->sensor_contents(index);
}
const sensor_events& particle_world::last_sensor_events() const noexcept {
    return state_->last_sensor_events();
}
bool particle_world::sleeping() const noexcept {
    return state_->sleeping();
}
void particle_world::wake() noexcept {
    state_->wake();
}
std::size_t particle_world::size() const noexcept {
    return state_->size();
}
particles_view particle_world::particles() noexcept {
    return state_->particles();
}
const static_box_grid& particle_world::boxes() const noexcept {
    return state_->boxes();
}
const world_options& particle_world::options() const noexcept {
    return state_->options();
}
std::size_t particle_world::last_pair_count() const noexcept {
    return state_->last_pair_count();
}
std::vector<circle_pair> particle_world::listed_pairs() const {
    return state_->listed_pairs();
}
particle_world::listing_counts particle_world::listings() const noexcept {
    return state_->listings();
}

// The one way in from outside the public face (world.hpp befriends it).
struct detail::world_access {
    static world_state& state(particle_world& world) noexcept { return *world.state_; }
    static const world_state& state(const particle_world& world) noexcept { return *world.state_; }
};

detail::world_state& detail::state_of(particle_world& world) noexcept {
    return world_access::state(world);
}
const detail::world_state& detail::state_of(const particle_world& world) noexcept {
    return world_access::state(world);
}

} // namespace simdcollide
