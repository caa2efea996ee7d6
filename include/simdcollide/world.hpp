// A particle world: circles that move, static boxes that do not, kinematic boxes that the
// host moves, stepped in time.
//
// A step works on the circles in slots: every sort_every (32) steps, the first included,
// they are sorted by the cell of a grid their centres fall in, so that circles that can
// touch sit near each other in memory; each step copies them into their slots and its
// results back. "Circle" below means a slot, and pairs and contacts are ordered by slot: a
// pair's first circle is the one in the lower slot. The caller's indexing never changes
// (particles()).
//
// Then step(dt) makes sure it has lists of what can touch during the step: the circle
// pairs (pair_finder) and, for each moving circle, the static boxes (static_box_grid
// candidates, kept if within reach). Each circle is listed with its radius grown by a
// margin s = |v| dt + |g| dt^2 (how far it can move in the step) + pair_margin, and the
// lists are kept from step to step (Verlet lists) while every circle stays within its s of
// where it was listed, counting the coming step's move, and no radius, inverse mass or box
// has changed. When a few circles (at most relist_at_most(), an eighth of them) would leave
// their margins, only they are listed again: each against every circle as that one was
// listed (found through a grid of the listed circles), and against the boxes; otherwise, or
// when anything else changed or the circles were sorted, everything is listed again.
// Either way the lists are kept in the order a full listing gives (pairs by a then b, boxes
// by circle then box). Which pairs they hold beyond those in contact depends on when each
// circle was listed and on pair_margin, and phase 3 goes over every listed pair, so those
// change a step's bits: a listed pair not in contact moves nothing itself, but it changes
// the groups, and so the order, in which the others are taken. When the lists change, the
// pairs are cut into parts (the schedule, below) and each part grouped (pair_groups.hpp).
// Then it runs `substeps` substeps of h = dt / substeps, each:
//   1. semi-implicit Euler for every circle with inverse mass > 0: v += gravity * h, then
//      x += v * h;
//   1b. continuous collision (world_options::sweep_from): each fast circle (one that can
//      move further in the substep than sweep_from times its radius, by its speed before
//      phase 1 and what gravity adds in it) has its move of 1 swept (swept.hpp) against the
//      boxes and static circles near its path. At the first impact it stops where it
//      touches; its velocity loses its approach along the impact's normal, times
//      1 + restitution, and friction slows it along the surface, within mu times that
//      impulse; the rest of its move, less the part into the surface, is swept again (the
//      surface hit left out) and taken up to any second impact, which answers the same way.
//      Where it ends counts as its position after phase 1. A fast circle against a moving
//      one is left to the substeps, as Box2D leaves bodies that are not bullets: two fast
//      circles can pass through each other, and neither passes through a static one. A
//      step in bands (below) in which a circle can be fast, by the speeds at its start and
//      what gravity adds over it, or in which a circle is listed with a kinematic box, runs
//      outside bands.
//   1c. kinematic boxes (add_kinematic_box): each step lists, for each kinematic box, the
//      moving circles whose listed reach (above) meets the box's region: the bounds of where
//      the box starts and ends the step, grown by four times the furthest its corners go in
//      it. The entries are kept from step to step as the lists are: a box whose path leaves
//      its region is listed again alone, a circle listed again alone is looked for among
//      the regions, and all are listed afresh when the lists are. Which circles are listed
//      beyond those that touch a box changes no bit. In each substep the box moves by its
//      substep's move m (v h, or an equal part of the way to where move_kinematic_box sent
//      it), and each listed circle whose move of 1 and 1b, from s by d, is fast against a
//      box (|d - m| >= sweep_from times its radius; a circle whose |d| and the furthest any
//      box moves add up to less is slow against all) is swept against it, boxes in
//      ascending order, each in its own frame: from s by d - m against the box where it
//      started the substep. At an impact the circle's velocity relative to the box (the
//      box's velocity: v, or its centre's move over dt) loses its approach along the normal
//      times 1 + restitution, and friction slows it along the surface within mu times that
//      impulse; the circle ends at the impact, plus the rest of its move in that frame less
//      its part into the box, plus m. Where it ends counts as its position after phase 1.
//      So a box pushes a circle at any speed without passing through it. Phases 2, 4 and 6
//      then take each listed circle's kinematic boxes after its static ones, as static
//      boxes where the substep ends them, but on the circle's velocity relative to the box
//      (its approach in 2, its impulses in 6);
//   2. the listed boxes in contact now, each with its normal, depth and approach speed vn0
//      (relative velocity along the normal; < 0 when closing);
//   3. for each part of the schedule in turn, `separation_iterations` rounds of separation
//      in order (Gauss-Seidel, pair_groups.hpp) over its pairs, grouped: each pair in
//      contact is separated from the positions the pairs before it left, so a correction
//      that pushes a circle into a neighbour is met later in the same round. The first
//      round records each pair in contact as it reaches it, before separating it, for 6:
//      its normal and depth there, and its approach speed vn0. So a pair that an earlier
//      one pushed into contact is recorded with the depth it is separated by, and one that
//      an earlier one parted is not. Then each circle of the part's range is held: its
//      move by 3 so far held to separation_reach (below) of its radius a step, radius /
//      substeps a substep, scaled back along its direction (a circle that a later part
//      moves again is held again);
//   4. each moving circle pushed out of its listed boxes in ascending box index
//      (docs/behaviour.md's order rule), its kinematic boxes last: a circle pinched between
//      a kinematic box and a static box or circle is held out of the kinematic box. Static
//      circles are never moved. For a kinematic box's contact, the friction limit of 6 takes
//      the circle's depth in the box now, before this push (the depth 2 saw, if more): the
//      weight of a pile reaches its bottom row through 3, and so holds it on a moving box;
//   5. the velocity update of position-based dynamics: each moving circle's velocity gains
//      the correction of 3 and 4 divided by h, that gain capped at max_correction_speed.
//      So a contact that closed during the substep ends it at rest along its normal, and a
//      correction adds no energy. A correction too long to square in floats (a push out of
//      a box some 1e38 wide) gains max_correction_speed along its direction;
//   6. restitution and friction for the contacts of 2 and 3, part by part in the
//      schedule's order: a block's part takes the box contacts of the block's circles in
//      list order, then its circle pairs in contact in eight interleaved runs of their list
//      (k, k + q, ..., k + 7q, with q an eighth of it, rounded up); the far part its pairs
//      so; each contact seeing the last's result. With W = wa + wb and vn the relative
//      normal velocity now: a normal impulse j = max(e * max(-vn0, 0) - vn, 0) / W raises
//      vn to e times the approach speed (position-based restitution); friction removes
//      tangential relative velocity, |jt| <= mu * (depth * (1 / h) / W + j), the first term
//      being the normal impulse the position correction amounted to (Coulomb). (In floats,
//      each division here and in 5 is a multiplication by a reciprocal worked out once per
//      contact or per substep: 1 / W, 1 / h.) With velocity_iterations = k > 1, k passes
//      in the same order; each later pass keeps each contact's impulses as totals and
//      applies their change (sequential impulses): the normal total
//      max(J + (e * max(-vn0, 0) - vn) / W, 0) may shrink again, and the friction total
//      stays within mu * (depth * (1 / h) / W + normal total). With shock propagation
//      (world_options::shock_propagation, s; 0 by default), the lower circle of a pair of
//      moving circles acts with its inverse mass scaled by 1 - s * d^2, d the normal's
//      component along gravity, and W is the sum of the weights so scaled (phase 3 keeps
//      the scaled weights in its records of the contacts).
//
// The schedule (kernels/broad_phase/pair_schedule.hpp): the slots are cut into blocks of
// world_options::circles_per_block slots, or by default chosen from the list when it is
// made afresh: at least twice the slot distance that 99 of 100 pairs stay within, and at
// least 16 384; where four such blocks fit, a multiple of four blocks of about equal size
// (whole multiples of 1 024 slots). Part k holds, in list order, the pairs whose second circle is
// in block k and whose first is in block k or k - 1; the far part the pairs that reach further. The
// parts go: those of even blocks, those of odd blocks, the far part. The parts of even (or of odd)
// blocks name disjoint circles, so the workers (world_options::workers) take them side by side, and
// the order, and so the bits, do not depend on the number of workers. Slots run row by row of
// cells, a pile's bottom first, so a part takes its block upwards from the seam below it.
//
// Bands (world_options::circles_per_band, off by default): with one separation round and
// one velocity pass, a substep can run its phases band by band, each band being
// circles_per_band consecutive slots, so that a band's circles, pairs and touches stay in a
// core's cache from phase 1 to phase 6 (at 1 000 000 circles each phase over every circle
// had them come back from memory). Each phase does to each circle what it does above; the
// order of phase 6 is what changes. A band's pairs are the groups whose first pair's first
// circle is in it; they reach circles up to some later band. For each band in order:
// phases 1 and 2 for every band up to the last one its pairs reach (if not done yet), then
// phase 3 over its groups, then the hold and phases 4 and 5 for its circles (final now: no
// later band's pairs name them), then phase 6 for each earlier band, in order, whose
// pairs' circles are all past phase 5: its box touches in list order, then its pair
// touches group by group in the grouper's order (a group's touches share no circle, so SIMD
// paths take them W at a time). So phase 6 takes a band's boxes, then its pairs, then the
// next band's boxes, where without bands it takes every box and then every pair in
// interleaved runs. Each phase reads what it read before: phase 3 records each pair's
// approach speed from the velocities phase 1 left, since no impulse has reached its circles
// yet. Bands need no list of their own: they are worked out when the lists change, from
// the grouper's chunks and a pass over the box contacts (bands.hpp). What a band keeps per
// circle while it is in flight goes round a ring of the bands in flight when
// circles_per_band is a power of two, so that it stays in cache.
// From world_options::overlap_substeps_from circles on, the substeps of a step overlap,
// each a few bands behind the one before (each band of a substep after the same band of
// the one before has finished with it), to the same bits.
//
// Deep piles (a hundred circles deep and more) land and come to rest with substeps = 8,
// separation_iterations = 2 and shock_propagation = 0.5; see
// world_options::shock_propagation.
//
// A circle carried further than its margin within one step (by box push-outs, say one born
// inside a box, or by impulses; separation is held, separation_reach) can meet one it was
// not listed with; that contact acts from the next listing. The collision phases are
// public functions too (pair_finder::find, contact over a pair list, pair_grouper and
// separate_in_order, push_out_all, and respond for impulse-based response), for
// simulations that keep their own integrator; the hold of 3, the velocity update of 5
// and the impulses of 6 are the world's own.
//
// Deterministic: the same world and the same dt give the same bits, on every instruction
// set (each phase is bit-identical to its reference) and with any number of workers. The
// slots depend on the circles' positions at each sort, so a world whose circles were added
// in another order steps to different bits (the same physics, its contacts taken in
// another order).
//
// Why each phase is as it is (the slots, recording the contacts in phase 3, separation in
// order, the hold, the velocity update, deep piles) is in docs/world-design.md; where each
// lives, in docs/architecture.md.
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

/// Phase 3's hold (step 3 above): separation moves a circle at most this fraction of its
/// radius in a step (radius / substeps in each substep). Unitless.
///
/// Why: separation in order can pass a whole column's push to its bottom circle in one
/// round, and under a falling pile's pressure it carried circles further in a step than
/// they were listed for, into boxes they were not listed with and past a thin box's middle
/// (docs/world-design.md has what that lost unheld). Held to its radius a step, a circle
/// that moves as predicted cannot reach a box beyond its lists, and separation carries it
/// at most radius / substeps into a listed box in a substep, out of which phase 4 pushes it
/// back. What it costs: a circle of radius 0 is not moved by separation, and a pair whose
/// separation would move a circle further than its radius takes more than a step to part.
/// Other velocity changes within a step (impulses from fast neighbours) can still carry a
/// circle past its lists.
inline constexpr float separation_reach = 1.0F;

/// How a world steps. The defaults suit particles of radius about 0.1 to 1 in metres.
/// Every option has a range, checked by particle_world's constructor.
struct world_options {
    /// The most substeps, separation_iterations and velocity_iterations accepted.
    static constexpr int max_rounds = 1024;
    /// The largest |gravity_x| and |gravity_y| accepted, length / time^2.
    static constexpr float max_gravity = 1e6F;

    float gravity_x = 0.0F;   ///< |gravity_x| <= max_gravity, length / time^2
    float gravity_y = -9.81F; ///< |gravity_y| <= max_gravity, length / time^2
    int substeps = 4;         ///< 1 to max_rounds: substeps per step
    /// 1 to max_rounds: rounds of separation in order (phase 3) per substep. A second round halves
    /// the overlap left in a packed pile (see phase 3) and steadies deep piles ("Deep
    /// piles" in docs/world-design.md), at a sixth to a third more time a step on the
    /// 10 000-circle pile.
    int separation_iterations = 1;
    float restitution = 0.0F; ///< in [0, 1], for every contact
    float friction = 0.2F;    ///< >= 0, Coulomb coefficient for every contact
    separation_weighting weighting = separation_weighting::inverse_mass;
    float max_correction_speed = 5.0F; ///< > 0, length / time: see step 5 above
    /// >= 0, unitless, or infinity (never): continuous collision (step 1b above). A moving
    /// circle that can move further in a substep than sweep_from times its radius is swept
    /// along that substep's move against the boxes and static circles near its path, so
    /// that it never passes through one. Slower circles take none of it. 0 sweeps every
    /// moving circle. The same threshold, on the move relative to the box, decides which
    /// circles are swept against a kinematic box (step 1c); with infinity none is.
    float sweep_from = 0.5F;
    /// >= 0, length: how much further than a step's possible move each circle's pairs and
    /// boxes are listed. Larger lists, made less often (see the top of this file; why 0.08:
    /// docs/world-design.md, "Lists").
    float pair_margin = 0.08F;
    /// 1 to max_rounds: passes of phase 6 (restitution and friction) per substep. More passes
    /// let a deep pile carry its weight (docs/world-design.md, "Deep piles"). One pass runs a
    /// SIMD kernel; more run scalar code, and cost far more than the pass they add.
    int velocity_iterations = 1;
    /// In [0, 1], unitless: shock propagation in phase 6 (step 6 above). A circle pair's
    /// impulse acts as if the lower circle (the one further along gravity) were heavier: its
    /// inverse mass is scaled by 1 - shock_propagation * d^2, where d is the component of the
    /// contact normal along gravity (1 for one circle straight above the other, 0 side by
    /// side). So a circle landing on one below is stopped by it without pushing it on down,
    /// and a falling column is stopped in one pass from the bottom up, as if rigid, where
    /// equal weights stop a column of n circles only over about n passes. Not applied when
    /// either circle is static, nor without gravity. It gives up phase 6's conservation of
    /// momentum along gravity for those pairs (the lower circle is given less than its share),
    /// which is what lets a deep pile land and rest; 0 (the default) gives the plain
    /// impulses. 0.5 is what we suggest for piles more than about a hundred circles deep
    /// (with substeps = 8 and separation_iterations = 2); see docs/world-design.md, "Deep
    /// piles". Off by default because it costs where it is not needed: a shallow pile steps
    /// somewhat slower with it (docs/performance.md).
    float shock_propagation = 0.0F;
    /// 0 (the default: no bands), or a multiple of 16 up to 2^30: circles in a band, the unit
    /// in which a substep with one separation round and one velocity pass runs its phases
    /// ("Bands" above). Bands change the order of phase 6, and so the bits. They pay from
    /// some 100 000 circles on, where a pile no longer fits in a core's cache
    /// (docs/performance.md). What they cost: phase 6 in group order passes a shock along a
    /// column a few links a pass where list order passes it the column's length, so deep
    /// piles calm more slowly, which is why bands are not the default.
    std::size_t circles_per_band = 0;
    /// Circles from which substeps in bands overlap: up to 4 substeps run band by band
    /// together, each a few bands behind the one before, so that a band's circles, pairs and
    /// touches come from memory once for them all, where each substep read them all again.
    /// The bits are the same either way (bands.hpp, run_substeps_in_bands); only the time
    /// changes. Used where circles_per_band is a power of two and each substep's touches go
    /// round a ring (the pairs of one band reach only a few bands on); each substep in flight
    /// has rings of its own, and they leave the L2 cache sooner. So it pays once the pile no
    /// longer fits in the last level of cache (some 50 bytes a circle in a packed pile), and
    /// costs before (docs/performance.md). Any value is valid (0: always).
    std::size_t overlap_substeps_from = std::size_t{1} << 18;
    /// 0 (the default: 16 384 or more, chosen from the listed pairs), or a power of two
    /// from 1 024 to 2^20: slots in a block of the schedule (below), whose parts the workers
    /// take side by side in phases 3 and 6. Smaller blocks give the workers more parts
    /// (a pile of fewer circles than a block runs phases 3 and 6 on one worker); each seam
    /// between blocks is one more place where phase 6 does not carry an impulse on up a
    /// column in the same pass, so deep piles calm more slowly in small blocks
    /// (docs/world-design.md, "Workers"). Changes the bits, as it changes the order.
    std::size_t circles_per_block = 0;
    /// The most workers accepted.
    static constexpr int max_workers = simdcollide::max_workers;
    /// 1 to max_workers: the threads a step runs on, the one that calls step included. Above
    /// 1 and without `tasks`, the world starts workers - 1 threads of its own when it is
    /// made, and stops them when it is destroyed; with 1, it starts none. A step gives the
    /// same bits with any count (workers.hpp, docs/behaviour.md "Workers"). A step keeps at
    /// most half its schedule's blocks busy, rounded up (circles_per_block): after its first
    /// step, a world of one or two blocks (by default at least 16 384 slots each) steps on
    /// the calling thread alone; the world's own threads it does not keep busy sleep.
    /// Substeps in bands (circles_per_band) run on the calling thread alone.
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

    /// Adds a kinematic box: one the host moves (steps 1c, 2, 4 and 6 above). Each step moves it
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
    /// Keep dt fixed for a pile that should stay at rest: the overlap a resting pile keeps
    /// depends on dt / substeps, and a shorter substep lets it spring back up, the whole
    /// pile rising for a while (docs/world-design.md, "Known limits"). Coarse steps in deep
    /// piles (one substep at 1/30) can crush a pile and push circles through boxes 1 thick.
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
