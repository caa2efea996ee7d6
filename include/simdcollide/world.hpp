// A particle world: circles that move, static boxes that do not, kinematic boxes that the
// host moves, dynamic boxes that fall and stack as circles do (without rotating), stepped in time
// by a soft contact solver with warm starting, substeps and continuous collision.
// docs/world-design.md tells the step and why; docs/behaviour.md
// ("The world") the rules it keeps and what each option means.
//
// Deterministic: the same world and the same dt give the same bits on every instruction set
// and with any number of workers. A world whose circles were added in another order steps
// to different bits (the same physics).
#pragma once

#include <simdcollide/queries.hpp>
#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/static_boxes.hpp>
#include <simdcollide/workers.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace simdcollide {

namespace detail {
class world_state;
struct world_access;
} // namespace detail

/// How a world steps; the defaults suit particles of radius about 0.1 to 1 in metres.
/// particle_world's constructor refuses an option outside its range.
struct world_options {
    static constexpr int max_rounds = 1024;    ///< the most substeps and relax_iterations
    static constexpr float max_gravity = 1e6F; ///< the largest |gravity_x|, |gravity_y|
    static constexpr int max_workers = simdcollide::max_workers;
    static constexpr std::size_t circles_per_worker = 2048; ///< circles per busy worker

    float gravity_x = 0.0F;   ///< length / time^2, |gravity_x| <= max_gravity
    float gravity_y = -9.81F; ///< length / time^2, |gravity_y| <= max_gravity
    int substeps = 4;         ///< substeps per step, 1 to max_rounds
    /// In [0, 1]: an impact leaves at restitution times its approach speed. Every body's
    /// restitution until set_material gives it its own.
    float restitution = 0.0F;
    float friction = 0.2F; ///< >= 0, Coulomb coefficient: every body's until set_material
    /// > 0, hertz, or infinity: a contact's stiffness, at most 0.45 / h (h = dt / substeps;
    /// a third with one relax pass); twice it against boxes and static circles.
    float contact_hertz = 80.0F;
    float contact_damping_ratio = 30.0F; ///< >= 0 and finite: a contact's damping (1: critical)
    /// > 0, length / time, or infinity: the fastest a contact pushes an overlap apart.
    float max_push_speed = 3.0F;
    /// >= 0 and finite, length / time: contacts that approach slower do not bounce.
    float restitution_threshold = 1.0F;
    int relax_iterations = 2; ///< 1 to max_rounds: passes without push-out a substep
    /// >= 0 or infinity (never): a circle that can move further in a substep than sweep_from
    /// radii is swept along its move against boxes and static circles, and never tunnels.
    float sweep_from = 0.5F;
    /// >= 0, length: how much further than a step's possible move pairs are listed.
    float pair_margin = 0.08F;
    /// Whether each step reports the pairs of shapes that begin and stop touching and the
    /// contacts that hit (particle_world::last_contact_events); off, a step finds none.
    bool contact_events = false;
    /// >= 0 or infinity (no hits), length / time: a contact that closes faster than this in
    /// a step is reported as a hit, where contact_events is on.
    float hit_speed = 1.0F;
    /// Whether the world falls asleep once it rests (docs/behaviour.md, "Sleep"): when every
    /// moving body has been slower than sleep_speed for sleep_time, its velocities are set
    /// to 0 and steps change nothing until an edit, a body the host moves or sets moving, or
    /// a kinematic box that moves wakes it.
    bool sleep = false;
    float sleep_speed = 0.05F; ///< >= 0 and finite, length / time
    float sleep_time = 0.5F;   ///< >= 0 and finite, time
    /// 1 to max_workers: the threads a step runs on, the caller's included; the same bits
    /// with any count. Above 1 and without `tasks`, the world has workers - 1 threads.
    int workers = 1;
    /// The host's task system (workers.hpp) to run the workers on: both callbacks, or neither.
    task_callbacks tasks{};
};

/// A body's material (docs/behaviour.md, "Materials"): its Coulomb friction coefficient
/// (finite, >= 0) and its restitution (in [0, 1]). A contact takes the geometric mean of its
/// two bodies' frictions and the larger of their restitutions.
struct material {
    float friction = 0.2F;
    float restitution = 0.0F;
};

/// Which bodies collide (docs/behaviour.md, "Collision filters"), as in Box2D: two bodies
/// collide when each one's category shares a bit with the other's mask. By default every
/// body is in category 1 and collides with all.
struct collision_filter {
    std::uint64_t category = 1;
    std::uint64_t mask = ~std::uint64_t{0};
};

/// A world's dynamic boxes, in its own arrays (particle_world::dynamic_boxes): box i has its
/// centre at (x[i], y[i]), half-sizes half_width[i] and half_height[i] (>= 0), an inverse
/// mass (>= 0; 0: it never moves) and a velocity, in the world's units.
struct dynamic_boxes_view {
    float* x = nullptr;
    float* y = nullptr;
    const float* half_width = nullptr;
    const float* half_height = nullptr;
    const float* inverse_mass = nullptr;
    float* vx = nullptr;
    float* vy = nullptr;
    std::size_t count = 0;
};

/// The kinds of shape a world holds, in the order its queries list them.
enum class shape_kind : std::uint8_t { circle, static_box, kinematic_box, dynamic_box, none };

/// A shape of a world: its kind and its index among the shapes of that kind (the index that
/// particles(), boxes(), kinematic_box_at and dynamic_box_at take).
struct shape_ref {
    shape_kind kind = shape_kind::none;
    std::uint32_t index = no_shape;
    friend bool operator==(const shape_ref&, const shape_ref&) = default;
};

/// Two shapes, in shape order: a's kind before b's (in the order of shape_kind), or the same
/// kind and a's index below b's.
struct shape_pair {
    shape_ref a;
    shape_ref b;
    friend bool operator==(const shape_pair&, const shape_pair&) = default;
};

/// A contact that closed faster than world_options::hit_speed in a step and pushed: where
/// the two shapes met at the step's end, the unit normal from a to b, and the speed at which
/// they approached along it when the step began (length / time, > hit_speed).
struct contact_hit {
    shape_pair shapes;
    float point_x = 0.0F;
    float point_y = 0.0F;
    float normal_x = 0.0F;
    float normal_y = 0.0F;
    float speed = 0.0F;
};

/// What a step's contacts did (docs/behaviour.md, "Contact events"), each list in shape
/// order (of a, then of b): the pairs that touch at the step's end and did not at its start
/// (`began`), those that did and do not (`ended`), and the hits.
struct contact_events {
    std::vector<shape_pair> began;
    std::vector<shape_pair> ended;
    std::vector<contact_hit> hits;
};

/// A shape that came into, or went out of, sensor `sensor` in a step.
struct sensor_event {
    std::uint32_t sensor = 0;
    shape_ref shape;
    friend bool operator==(const sensor_event&, const sensor_event&) = default;
};

/// What a step did to the sensors (docs/behaviour.md, "Sensors"), by sensor and then shape.
struct sensor_events {
    std::vector<sensor_event> began;
    std::vector<sensor_event> ended;
};

/// Owns circles (position, radius, inverse mass, velocity), static boxes, kinematic boxes and
/// dynamic boxes, and steps them. Every call that throws changes nothing.
class particle_world {
public:
    /// Steps between sorts of the circles into the step's order (a sort relists every pair).
    static constexpr std::size_t sort_every = 32;
    /// The longest step and the shortest substep (dt / substeps) accepted, in time units.
    static constexpr float max_time_step = 1e4F;
    static constexpr float min_substep = 1e-9F;

    /// Throws std::invalid_argument if an option is out of range.
    explicit particle_world(world_options options = {});
    /// A copy steps as the original would, bit for bit; it shares the original's threads
    /// (step the two one after the other). A world moved from may only be assigned or destroyed.
    particle_world(const particle_world& other);
    particle_world& operator=(const particle_world& other);
    particle_world(particle_world&& other) noexcept;
    particle_world& operator=(particle_world&& other) noexcept;
    ~particle_world();

    /// Adds a circle (inverse_mass 0: static); returns its index. Throws
    /// std::invalid_argument unless every value is finite, radius >= 0 and inverse_mass >= 0.
    std::size_t add_circle(circle c, float inverse_mass, float vx = 0.0F, float vy = 0.0F);
    /// Adds circles.count circles, k at index size() + k (at rest where vx and vy are empty);
    /// returns the first index. Throws std::invalid_argument naming the first invalid one.
    std::size_t add_circles(circles_cview circles, std::span<const float> inverse_mass,
                            std::span<const float> vx = {}, std::span<const float> vy = {});
    /// Removes circle `index` (std::out_of_range unless below size()); the rest move down.
    void remove_circle(std::size_t index);
    /// Removes every circle i for which remove(i) (called once for each, in ascending order,
    /// before any is removed); the others keep their order. Returns how many went.
    template <class Predicate>
    std::size_t remove_circles_if(Predicate remove) {
        std::vector<std::uint8_t> doomed(size());
        for (std::size_t i = 0; i < doomed.size(); ++i) {
            doomed[i] = remove(i) ? 1 : 0;
        }
        return remove_marked(doomed);
    }

    /// Replaces the static boxes. Throws std::invalid_argument naming the first invalid box.
    void set_boxes(aabbs_view boxes);

    /// Adds a kinematic box, moved by the host, which pushes and carries circles; each step
    /// moves it by (vx, vy) dt unless move_kinematic_box placed it. Returns its index. Throws
    /// std::invalid_argument unless the box is valid and the velocity finite.
    std::size_t add_kinematic_box(aabb box, float vx = 0.0F, float vy = 0.0F);
    /// Below: std::out_of_range unless index < kinematic_box_count(), std::invalid_argument
    /// for a velocity not finite or a box not valid. The velocity, from the next step on:
    void set_kinematic_velocity(std::size_t index, float vx, float vy);
    /// Where kinematic box `index` is at the end of the next step, moved there in equal parts
    /// a substep, at velocity (next - now) / dt in that step's contacts.
    void move_kinematic_box(std::size_t index, aabb next);
    void remove_kinematic_box(std::size_t index); ///< those after it move down one index
    /// A kinematic box now, and where move_kinematic_box sent it (`moving`), if it did.
    struct kinematic_box {
        aabb box;
        float vx = 0.0F;
        float vy = 0.0F;
        bool moving = false;
        aabb next;
    };
    [[nodiscard]] std::size_t kinematic_box_count() const noexcept;
    [[nodiscard]] kinematic_box kinematic_box_at(std::size_t index) const;

    /// Adds a dynamic box: a body like a circle (gravity moves it, contacts with circles, the
    /// other dynamic boxes, static and kinematic boxes hold it, with the world's friction and
    /// restitution), which stays axis-aligned and does not rotate. Kept as its centre and
    /// half-size, 0.5 min + 0.5 max and 0.5 max - 0.5 min in floats. inverse_mass 0: it never
    /// moves. Returns its index. Throws std::invalid_argument unless every value is finite,
    /// min <= max on both axes and inverse_mass >= 0.
    std::size_t add_dynamic_box(aabb box, float inverse_mass, float vx = 0.0F, float vy = 0.0F);
    /// Removes dynamic box `index` (std::out_of_range unless below dynamic_box_count()); those
    /// after it move down one index.
    void remove_dynamic_box(std::size_t index);
    [[nodiscard]] std::size_t dynamic_box_count() const noexcept;
    /// A dynamic box now: its bounds (centre -/+ half-size), inverse mass and velocity.
    struct dynamic_box {
        aabb box;
        float inverse_mass = 0.0F;
        float vx = 0.0F;
        float vy = 0.0F;
    };
    [[nodiscard]] dynamic_box dynamic_box_at(std::size_t index) const;
    /// The dynamic boxes' own arrays, to read, or to move boxes and set their velocities
    /// between steps (finite values); add_dynamic_box and remove_dynamic_box invalidate it.
    [[nodiscard]] dynamic_boxes_view dynamic_boxes() noexcept;

    /// Advances by dt, time units; dt may change from step to step. Throws
    /// std::invalid_argument unless dt is finite, at most max_time_step, dt / substeps at least
    /// min_substep, and every kinematic box's move stays finite.
    void step(float dt);

    /// The material of shape `index` of `kind`, from the next step on. Every body starts with
    /// the options' friction and restitution (set_boxes gives each static box those). Throws
    /// std::out_of_range for an index not below its kind's count, std::invalid_argument for
    /// shape_kind::none or a material out of range, changing nothing.
    void set_material(shape_kind kind, std::size_t index, material m);
    [[nodiscard]] material material_of(shape_kind kind, std::size_t index) const;
    /// Every circle's material at once, circle i's from friction[i] and restitution[i]. Throws
    /// std::invalid_argument, naming the first circle out of range, unless both have size()
    /// values and all are in range, changing nothing.
    void set_circle_materials(std::span<const float> friction, std::span<const float> restitution);

    /// The collision filter of shape `index` of `kind`, from the next step on (which lists
    /// every pair again). Every body starts with the default filter. Throws std::out_of_range
    /// for an index not below its kind's count, std::invalid_argument for shape_kind::none,
    /// changing nothing.
    void set_filter(shape_kind kind, std::size_t index, collision_filter f);
    [[nodiscard]] collision_filter filter_of(shape_kind kind, std::size_t index) const;
    /// Every circle's filter at once, circle i's from category[i] and mask[i]. Throws
    /// std::invalid_argument unless both have size() values, changing nothing.
    void set_circle_filters(std::span<const std::uint64_t> category,
                            std::span<const std::uint64_t> mask);

    /// Each ray's first hit among every circle and box the world holds, as they are now
    /// (docs/behaviour.md "Ray casts"): the hit into `hits` (its index among the shapes of its
    /// kind), the kind into `kinds` (shape_kind::none where it hits nothing). Returns how many
    /// rays hit. Runs on the world's workers. Throws std::invalid_argument as cast_rays
    /// (queries.hpp) does, or unless `kinds` has the rays' count, before writing anything.
    /// The queries see only the shapes `filter` collides with, by the filters' rule (the
    /// default filter sees every shape whose mask has bit 0 set).
    std::size_t cast_rays(rays_cview rays, ray_hits_view hits, std::span<shape_kind> kinds,
                          collision_filter filter = {}) const;
    /// Replaces `out` with every shape that reaches into `region` (touching counts): circles,
    /// then static, kinematic and dynamic boxes, each kind in ascending index. Returns how
    /// many. Throws std::invalid_argument unless the region is a valid box.
    std::size_t query_region(const aabb& region, std::vector<shape_ref>& out,
                             collision_filter filter = {}) const;
    /// Replaces `out` with every shape within `distance` of the point (x, y) (0: the shapes the
    /// point is in, their boundary included), in the order of query_region. Throws
    /// std::invalid_argument unless the point is finite and distance finite and >= 0.
    std::size_t query_point(float x, float y, float distance, std::vector<shape_ref>& out,
                            collision_filter filter = {}) const;

    /// The last step's contact events (docs/behaviour.md, "Contact events"); empty lists
    /// unless world_options::contact_events is on. Valid until the next step.
    [[nodiscard]] const contact_events& last_contact_events() const noexcept;
    /// Every pair of shapes touching at the end of the last step, in shape order (empty
    /// unless contact_events is on), made on each call.
    [[nodiscard]] std::vector<shape_pair> touching() const;

    /// Adds a sensor: a box that collides with nothing and, after each step, holds the
    /// circles and dynamic boxes that reach into it (touching counts) and that `filter`
    /// collides with. Returns its index. Throws std::invalid_argument unless the box is valid.
    std::size_t add_sensor(aabb box, collision_filter filter = {});
    /// Below: std::out_of_range unless index < sensor_count(). Where sensor `index` is from
    /// the next step on (std::invalid_argument unless the box is valid):
    void move_sensor(std::size_t index, aabb box);
    void remove_sensor(std::size_t index); ///< those after it move down one index
    [[nodiscard]] std::size_t sensor_count() const noexcept;
    [[nodiscard]] aabb sensor_at(std::size_t index) const;
    /// The shapes in sensor `index` at the end of the last step: circles, then dynamic boxes,
    /// each in ascending index (empty for a sensor added since). Valid until the world changes.
    [[nodiscard]] std::span<const shape_ref> sensor_contents(std::size_t index) const;
    /// What came into and went out of the sensors in the last step. Valid until the next step.
    [[nodiscard]] const sensor_events& last_sensor_events() const noexcept;

    /// Whether the world is asleep (world_options::sleep): its last step changed nothing.
    [[nodiscard]] bool sleeping() const noexcept;
    /// Wakes the world: the next step runs in full.
    void wake() noexcept;

    [[nodiscard]] std::size_t size() const noexcept;
    /// The world's own arrays, to read or edit between steps; add_circle invalidates it.
    [[nodiscard]] particles_view particles() noexcept;
    [[nodiscard]] const static_box_grid& boxes() const noexcept;
    [[nodiscard]] const world_options& options() const noexcept;
    /// Circle pairs listed for the last step (those that could touch, and more by pair_margin;
    /// never two that their collision filters keep apart).
    [[nodiscard]] std::size_t last_pair_count() const noexcept;
    [[nodiscard]] std::vector<circle_pair> listed_pairs() const; ///< (lower, higher), sorted
    /// Steps that listed every circle (full) or only those leaving their margins (partial).
    struct listing_counts {
        std::size_t full = 0;
        std::size_t partial = 0;
    };
    [[nodiscard]] listing_counts listings() const noexcept;

private:
    friend struct detail::world_access;
    std::size_t remove_marked(std::span<const std::uint8_t> doomed);
    std::unique_ptr<detail::world_state> state_;
};

} // namespace simdcollide
