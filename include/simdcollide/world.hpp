// A particle world: circles that move, static boxes that do not, kinematic boxes that the
// host moves, stepped in time.
//
// Each step(dt) lists what can touch during it (circle pairs and circle-box entries, kept
// from step to step while every circle stays within its margin), makes a contact of each
// listed pair and entry, and then solves them with a soft step: contacts prepared once
// a step; in each of `substeps` substeps of h = dt / substeps, velocities integrated
// (gravity), the contacts' impulses applied again (warm starting), a soft solve that pushes
// overlaps out at most at max_push_speed, positions integrated (with continuous collision
// against boxes and static circles, and kinematic boxes swept in their frames), and a rigid
// relax; after the substeps, restitution. Impulses carry from step to step. The contacts
// are solved colour by colour, no circle twice in a colour, so that SIMD lanes and workers
// take a colour's contacts side by side. docs/world-design.md tells the step in full, with
// its formulas; docs/behaviour.md the rules the world keeps.
//
// Deterministic: the same world and the same dt give the same bits on every instruction set
// and with any number of workers. The circles are sorted into slots now and then (their
// order in memory: circles near each other in space near each other there), and a world
// whose circles were added in another order steps to different bits (the same physics).
#pragma once

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/containers.hpp>
#include <simdcollide/pair_finder.hpp>
#include <simdcollide/pair_groups.hpp>
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

class particle_world;
namespace detail {
class world_state;
world_state& state_of(particle_world& world) noexcept;
const world_state& state_of(const particle_world& world) noexcept;
} // namespace detail

/// How a world steps. The defaults suit particles of radius about 0.1 to 1 in metres.
/// Every option has a range, checked by particle_world's constructor.
struct world_options {
    /// The most substeps and relax_iterations accepted.
    static constexpr int max_rounds = 1024;
    /// The largest |gravity_x| and |gravity_y| accepted, length / time^2.
    static constexpr float max_gravity = 1e6F;

    float gravity_x = 0.0F;   ///< |gravity_x| <= max_gravity, length / time^2
    float gravity_y = -9.81F; ///< |gravity_y| <= max_gravity, length / time^2
    int substeps = 4;         ///< 1 to max_rounds: substeps per step
    /// In [0, 1], for every contact: an impact (circles apart or touching at the step's
    /// start) leaves at restitution times its approach speed; an overlapping contact does
    /// not bounce.
    float restitution = 0.0F;
    float friction = 0.2F; ///< >= 0, Coulomb coefficient for every contact
    /// > 0, 1 / time (hertz), or infinity: how stiff a contact is, taken at most 0.45 of the
    /// substep rate, 0.45 / h (a third with relax_iterations = 1): the default 80 holds with
    /// 4 substeps for dt up to 1/45. Contacts with a box or a static circle take twice that.
    /// A resting contact that carries a load sinks by about load / (m omega^2), omega = 2 pi
    /// hertz and m the pair's reduced mass: stiffer contacts let a deep pile sink less into
    /// itself. A stiffness that changes with dt (infinity, or dt past where the bound bites)
    /// makes a resting pile rise or sink when dt changes.
    float contact_hertz = 80.0F;
    /// >= 0 and finite, unitless: the damping ratio of a contact (1: critical). Tall
    /// columns ring unless it is high (docs/world-design.md, "Deep piles").
    float contact_damping_ratio = 30.0F;
    /// > 0, length / time, or infinity: the fastest a contact pushes overlapping circles
    /// apart, so that an overlap made at once (circles added into each other, a deep pile
    /// landing) is undone calmly.
    float max_push_speed = 3.0F;
    /// >= 0 and finite, length / time: contacts that approach slower than this do not
    /// bounce (restitution), so that resting contacts stay at rest.
    float restitution_threshold = 1.0F;
    /// 1 to max_rounds: relax passes a substep (the contacts solved again without push-out).
    int relax_iterations = 2;
    /// >= 0, unitless, or infinity (never): continuous collision. A moving circle that can
    /// move further in a substep than sweep_from times its radius is swept along that
    /// substep's move against the boxes and static circles near its path, so that it never
    /// passes through one. Slower circles take none of it. 0 sweeps every moving circle.
    /// The same threshold, on the move relative to the box, decides which circles are swept
    /// against a kinematic box; with infinity none is.
    float sweep_from = 0.5F;
    /// >= 0, length: how much further than a step's possible move each circle's pairs and
    /// boxes are listed. Larger lists, made less often (docs/world-design.md, "Lists").
    float pair_margin = 0.08F;
    /// The most workers accepted.
    static constexpr int max_workers = simdcollide::max_workers;
    /// Circles a step gives each busy worker at least (see workers).
    static constexpr std::size_t circles_per_worker = 2048;
    /// 1 to max_workers: the threads a step runs on, the one that calls step included. Above
    /// 1 and without `tasks`, the world starts workers - 1 threads of its own when it is
    /// made, and stops them when it is destroyed; with 1, it starts none. A step gives the
    /// same bits with any count (workers.hpp, docs/behaviour.md "Workers"). A step keeps one
    /// worker busy for each circles_per_worker circles, at least one; the world's own threads
    /// it does not keep busy sleep.
    int workers = 1;
    /// The host's task system (workers.hpp), to run the workers on instead of threads of the
    /// world's own: both callbacks, or neither.
    task_callbacks tasks{};
};

/// Owns circles (position, radius, inverse mass, velocity), static boxes and kinematic boxes,
/// and steps them.
class particle_world {
public:
    /// Steps between sorts of the circles into slots (the first step sorts too): often
    /// enough that circles that touch stay near in memory as a pile shifts, seldom enough
    /// that the full listing each sort brings costs little. A step that sorts also lists
    /// every pair and groups them again, which at 1 000 000 circles costs more than a step,
    /// so a timing of a few steps should span whole multiples of sort_every.
    static constexpr std::size_t sort_every = 32;

    /// Throws std::invalid_argument if an option is out of range (see world_options).
    explicit particle_world(world_options options = {});
    /// A copy steps as the original would, bit for bit. With workers > 1 and no `tasks`, it
    /// shares the original's threads: step the two one after the other, not at once. A world
    /// moved from may only be assigned to or destroyed.
    particle_world(const particle_world& other);
    particle_world& operator=(const particle_world& other);
    particle_world(particle_world&& other) noexcept;
    particle_world& operator=(particle_world&& other) noexcept;
    ~particle_world();

    /// Adds one circle; returns its index (indices never change). Throws
    /// std::invalid_argument, and adds nothing, unless every value is finite, radius >= 0
    /// and inverse_mass >= 0 (0: static).
    std::size_t add_circle(circle c, float inverse_mass, float vx = 0.0F, float vy = 0.0F);

    /// Adds circles.count circles from arrays: circle k gets index size() + k, with
    /// inverse_mass[k] and velocity (vx[k], vy[k]) (zero where vx and vy are empty). Returns
    /// the index of the first. Throws std::invalid_argument, and adds nothing, unless the
    /// arrays have circles.count elements (vx and vy both, or neither), none is null, and
    /// every circle is valid as for add_circle (the message names the first invalid one).
    std::size_t add_circles(circles_cview circles, std::span<const float> inverse_mass,
                            std::span<const float> vx = {}, std::span<const float> vy = {});

    /// Removes circle `index`; every circle after it moves down one index, in order. Throws
    /// std::out_of_range, and removes nothing, unless index < size().
    void remove_circle(std::size_t index);

    /// Removes every circle i for which remove(i) is true (called once for each index, in
    /// ascending order, before anything is removed); the circles kept keep their order,
    /// each moving down by the number removed before it. Returns how many were removed.
    template <class Predicate>
    std::size_t remove_circles_if(Predicate remove) {
        std::vector<std::uint8_t> doomed(size());
        for (std::size_t i = 0; i < doomed.size(); ++i) {
            doomed[i] = remove(i) ? 1 : 0;
        }
        return remove_marked(doomed);
    }

    /// Replaces the static boxes (building their grid). Throws std::invalid_argument naming
    /// the first invalid box, and then keeps the previous boxes.
    void set_boxes(aabbs_view boxes);

    /// Adds a kinematic box: one the host moves, which pushes and carries circles and is not
    /// moved by them. Each step moves it
    /// by its velocity (vx, vy) times dt, substep by substep, unless move_kinematic_box gave
    /// it a place for that step. Returns its index among the kinematic boxes (indices never
    /// change but by removal). Throws std::invalid_argument naming it, and adds nothing,
    /// unless the box is valid (finite, min <= max) and the velocity finite. Adding or
    /// removing a kinematic box changes no other list: the static boxes' grid stays.
    std::size_t add_kinematic_box(aabb box, float vx = 0.0F, float vy = 0.0F);
    /// Sets kinematic box `index`'s velocity (length / time) for the steps to come. Throws
    /// std::out_of_range unless index < kinematic_box_count(), std::invalid_argument unless
    /// vx and vy are finite; either way nothing changes.
    void set_kinematic_velocity(std::size_t index, float vx, float vy);
    /// Where kinematic box `index` is to be at the end of the next step: that step moves it
    /// there in equal parts a substep, each corner on its own, and its velocity in that
    /// step's contacts is its centre's, (where it goes - where it is) / dt. Its velocity
    /// applies again from the step after. Throws std::out_of_range unless index <
    /// kinematic_box_count(), std::invalid_argument unless `next` is valid (finite, min <=
    /// max); either way nothing changes.
    void move_kinematic_box(std::size_t index, aabb next);
    /// Removes kinematic box `index`; those after it move down one index. Throws
    /// std::out_of_range, and removes nothing, unless index < kinematic_box_count().
    void remove_kinematic_box(std::size_t index);
    /// A kinematic box now: where it is, its velocity, and where move_kinematic_box sent it
    /// for the next step (`moving` true), if it did.
    struct kinematic_box {
        aabb box;
        float vx = 0.0F;
        float vy = 0.0F;
        bool moving = false;
        aabb next;
    };
    [[nodiscard]] std::size_t kinematic_box_count() const noexcept;
    /// Throws std::out_of_range unless index < kinematic_box_count().
    [[nodiscard]] kinematic_box kinematic_box_at(std::size_t index) const;

    /// The longest step and the shortest substep (dt / substeps) step() accepts, in time
    /// units: within them 1 / h, gravity's speed and fall over a step and the velocity
    /// update stay far from the float range's ends.
    static constexpr float max_time_step = 1e4F;
    static constexpr float min_substep = 1e-9F;

    /// Advances by dt (time units). Throws std::invalid_argument, and changes nothing,
    /// unless dt is finite, at most max_time_step, and dt / substeps is at least
    /// min_substep, and every kinematic box's move in the step stays finite (the message
    /// names the first that does not).
    ///
    /// dt may change from step to step: the impulses carried to the next step are scaled by
    /// the ratio of its substep to the last one's.
    void step(float dt);

    [[nodiscard]] std::size_t size() const noexcept;
    /// The world's own arrays, for reading or editing between steps (the view is invalidated
    /// by add_circle).
    [[nodiscard]] particles_view particles() noexcept;
    [[nodiscard]] const static_box_grid& boxes() const noexcept;
    [[nodiscard]] const world_options& options() const noexcept;
    /// Circle pairs listed for the last step (those that could touch during it, and more by
    /// pair_margin).
    [[nodiscard]] std::size_t last_pair_count() const noexcept;
    /// Those pairs in the caller's indexing, each as (lower index, higher index), sorted.
    /// For tests and diagnostics: it allocates.
    [[nodiscard]] std::vector<circle_pair> listed_pairs() const;
    /// How many steps since construction listed every circle (full) or only the few that
    /// would leave their margins (partial); the others kept their lists.
    struct listing_counts {
        std::size_t full = 0;
        std::size_t partial = 0;
    };
    [[nodiscard]] listing_counts listings() const noexcept;

private:
    friend detail::world_state& detail::state_of(particle_world& world) noexcept;
    friend const detail::world_state& detail::state_of(const particle_world& world) noexcept;
    std::size_t remove_marked(std::span<const std::uint8_t> doomed);

    // Everything else: the circles in their slots, the lists, the schedule, the workers
    // (kernels/world/world_state.hpp).
    std::unique_ptr<detail::world_state> state_;
};

} // namespace simdcollide
