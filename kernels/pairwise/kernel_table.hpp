// The table of kernel entry points that one instruction set provides.
//
// Dispatch keeps a pointer to one table; the public functions check their arguments and
// call through it. The reference fills one table, and each per-instruction-set file
// fills one more (simd/table.hpp). Entries never check arguments: callers already did.
#pragma once

#include "pairwise/bands.hpp"
#include "pairwise/pair_corrections.hpp"

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/dispatch.hpp>
#include <simdcollide/response.hpp>
#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>
#include <simdcollide/world.hpp>

#include "pairwise/world_records.hpp"

#include <cstddef>
#include <cstdint>

namespace simdcollide::detail {

struct circle_aabb_kernels_table {
    void (*closest_point)(circles_cview, aabbs_view, points_view);
    void (*distance_squared)(circles_cview, aabbs_view, float* out);
    /// `mask` may be null: then only the count is computed.
    std::size_t (*overlap)(circles_cview, aabbs_view, std::uint8_t* mask, float margin);
    std::size_t (*contact)(circles_cview, aabbs_view, contacts_view, float margin);
    std::size_t (*push_out)(circles_view, aabbs_view, float margin);
    /// Every circle against the same box: the kernels above with that box repeated.
    std::size_t (*push_out_box)(circles_view, aabb box, float margin);
    void (*closest_point_box)(circles_cview, aabb box, points_view);
    void (*distance_squared_box)(circles_cview, aabb box, float* out);
    std::size_t (*overlap_box)(circles_cview, aabb box, std::uint8_t* mask, float margin);
    std::size_t (*contact_box)(circles_cview, aabb box, contacts_view, float margin);
};

struct circle_circle_kernels_table {
    void (*distance_squared)(circles_cview, circles_cview, float* out);
    /// `mask` may be null: then only the count is computed.
    std::size_t (*overlap)(circles_cview, circles_cview, std::uint8_t* mask);
    std::size_t (*contact)(circles_cview, circles_cview, contacts_view);
    std::size_t (*separate)(particles_view, particles_view, separation_weighting);
    /// Pair list: pair k's contact into out[k]; `scratch` holds 4 floats per circle.
    std::size_t (*pair_contact)(circles_cview, const circle_pair* pairs, std::size_t pair_count,
                                contacts_view out, float* scratch);
    /// Pair-list separation's per-pair part: adds every pair's correction to `sums`.
    void (*pair_corrections)(particles_view, const circle_pair* pairs, std::size_t pair_count,
                             separation_weighting, const pair_corrections& sums);
    /// Pair-list separation's last part: moves each circle by the mean of its corrections.
    std::size_t (*apply_corrections)(const detail::pair_corrections& sums, particles_view);
};

struct swept_kernels_table {
    /// Move i of circle i against box i; returns the number of impacts.
    std::size_t (*box)(circles_cview, displacements_cview, aabbs_view, impacts_view);
    /// Every move against the same box.
    std::size_t (*one_box)(circles_cview, displacements_cview, aabb box, impacts_view);
    /// Move i of circle i against still circle i of the second view.
    std::size_t (*circle)(circles_cview, displacements_cview, circles_cview, impacts_view);
};

struct response_kernels_table {
    std::size_t (*circle_aabb)(particles_view, contacts_cview, response_parameters);
    std::size_t (*circle_circle)(particles_view, particles_view, contacts_cview,
                                 response_parameters);
};

/// Phase 3's hold (world.hpp), which separate_in_order applies after its rounds.
struct move_hold {
    const float* moved_x; ///< each circle's position after phase 1 (count floats each)
    const float* moved_y;
    float fraction; ///< of its radius: the longest move from there a circle keeps
};

/// What the world's phases 5 and 6 read besides the circles, for a single velocity pass
/// (world_kernels_table::gain_and_respond).
struct velocity_update {
    const float* moved_x; ///< each circle's position after phase 1 (count floats each)
    const float* moved_y;
    float inverse_h;          ///< 1 / h for the substep's h
    float cap;                ///< the gain's speed cap (world_options::max_correction_speed)
    float friction;           ///< mu
    const world_touch* boxes; ///< phase 2's box touches: the box as a (static), the circle as b
    std::size_t box_count;
    const world_touch* pairs; ///< phase 3's circle-pair touches (a != b in each)
    std::size_t pair_count;
    /// Boxes that move (the world's kinematic boxes): a box touch with a >= moving_from
    /// answers the circle's velocity relative to box a, whose velocity is
    /// (box_vx[a - moving_from], box_vy[a - moving_from]). None where box_vx is null.
    const float* box_vx = nullptr;
    const float* box_vy = nullptr;
    std::uint32_t moving_from = 0;
};

/// Phase 3's record of the circle pairs in contact for phase 6 (world.hpp, step 3): what
/// their touches need besides the contacts, and where they go.
struct touch_recording {
    touch_parameters parameters;
    /// Room for as many touches as there are pairs; entries past the count are scratch
    /// (SIMD paths write whole blocks). Does not overlap the pairs.
    world_touch* touches;
};

struct world_kernels_table {
    /// s.substeps whole substeps with a single separation round and a single velocity pass,
    /// in bands (bands.hpp; world.hpp, "Bands"): phases 1 to 6 on `s`,
    /// run_substeps_in_bands' schedule. Writes s's outputs and scratch. `scratch` holds 10
    /// floats per entry of the plan's ring (band_plan::ring_room), 16-byte aligned, for each
    /// substep in flight, s.scratch_stride apart.
    void (*substeps_in_bands)(particles_view, band_substep& s, float* scratch);
    /// Phase 3 (world.hpp): `rounds` passes over the pairs in order, each pair's separation
    /// applied at once, seeing the positions the pairs before it left (Gauss-Seidel). The
    /// pairs come in `groups` groups, group g ending at ends[g] (pair_groups.hpp): no two
    /// pairs of a group share a circle. `scratch` holds 4 floats per circle (8 with a
    /// record), 16-byte aligned.
    /// `record`, unless null: in the first round, each pair in contact (depth > 0) as its
    /// turn comes, from the positions the pairs before it left, is recorded in list order
    /// as the world_touch phase 6 needs (its circles, normal and depth, and its approach
    /// speed from the velocities, which phase 3 does not change); returns how many (0
    /// without a record, or with no rounds).
    /// `hold`, unless null: after the rounds, hold_moves with it on every circle (the world's
    /// phase 3; SIMD paths hold each circle as they write its position back).
    std::size_t (*separate_in_order)(particles_view, const circle_pair* pairs,
                                     const std::uint32_t* ends, std::size_t groups,
                                     separation_weighting, int rounds,
                                     const touch_recording* record, const move_hold* hold,
                                     float* scratch);
    /// Phase 1 for every circle: v += gravity_h (g * h) and x += v * h where inverse mass
    /// > 0; every circle's position after it into moved_x, moved_y (count floats each).
    void (*integrate)(particles_view, float gravity_h_x, float gravity_h_y, float h, float* moved_x,
                      float* moved_y);
    /// Phase 3's hold for every circle: where the move from moved (x - moved) is longer
    /// than `fraction` * radius, x = moved + (x - moved) * (fraction * radius / |x - moved|).
    /// The world holds through separate_in_order's `hold`; this is the hold alone, which the
    /// tests and the fuzzer compare with the reference case by case.
    void (*hold_moves)(particles_view, const float* moved_x, const float* moved_y, float fraction);
    /// Phase 5 for every circle: where inverse mass > 0, v += (x - moved) * inverse_h, that
    /// gain capped at `cap` in speed.
    void (*gain_corrections)(particles_view, const float* moved_x, const float* moved_y,
                             float inverse_h, float cap);
    /// Phase 6 for the circle pairs in contact, a single pass: each touch's impulse applied
    /// to its circles' velocities in the order of impulse_runs interleaved runs (world.hpp),
    /// each seeing the last's results, with the touches' weights. touches come from
    /// separate_in_order (a != b in each); `scratch` holds 2 floats per circle, 8-byte
    /// aligned (SIMD paths keep the velocities there). The world's single pass runs
    /// this loop inside gain_and_respond; this is phase 6's pairs alone, with their own pack
    /// and unpack (the world/respond benchmark, the tests and the fuzzer).
    void (*respond_pairs)(particles_view, const world_touch* touches, std::size_t count,
                          float friction, float* scratch);
    /// Phases 5 and 6 with a single velocity pass: gain_corrections, then each box touch's
    /// impulse on its circle (b) in order, then respond_pairs over the pair touches, each
    /// seeing the last's velocities. Reads x, y and inverse mass; writes vx and vy.
    /// `scratch` holds 2 floats per circle, 8-byte aligned.
    void (*gain_and_respond)(particles_view, const velocity_update& u, float* scratch);
    /// to[k] = from[index[k]] for k < count, bits and all: the world's move of its circles
    /// into slots and back. Every index within `from`; `to` does not overlap `from`.
    void (*permute)(const float* from, const std::uint32_t* index, std::size_t count, float* to);
    /// Phase 2 for the listed (circle, box) contacts: `listed` holds (circle, box) pairs,
    /// circles of the view and boxes as records of (min x, min y, max x, max y) in `boxes`,
    /// 16-byte aligned. Each one's circle-AABB contact (margin 0); for those in contact
    /// (hit, depth > 0), in list order, the world_touch the impulse loop needs into
    /// touches[] (the box as a, static; the circle as b); returns how many. touches has
    /// room for count; entries past the returned count are scratch.
    std::size_t (*box_touches)(particles_view, const circle_pair* listed, std::size_t count,
                               const float* boxes, const touch_parameters& p, world_touch* touches);
    /// Phase 4: for each listed (circle, box), in order, the circle pushed out along the
    /// contact's normal by its depth where in contact, seeing the position the entries
    /// before it left. Reads x, y and radius; writes x and y.
    void (*push_boxes)(particles_view, const circle_pair* listed, std::size_t count,
                       const float* boxes);
    /// The largest vx^2 + vy^2 of the circles (0 for none; a NaN never wins), exactly: step
    /// 1b's first look for fast circles in each substep.
    float (*fastest)(particles_view);
};

struct kernel_table {
    isa id;
    circle_aabb_kernels_table circle_aabb;
    circle_circle_kernels_table circle_circle;
    response_kernels_table response;
    swept_kernels_table swept;
    world_kernels_table world;
};

/// The reference implementation's table (kernels/pairwise/reference/).
const kernel_table& reference_table() noexcept;

/// The table for `which`, or null when this build does not contain it. Does not check
/// whether the CPU can run it: that is dispatch's job (dispatch.cpp).
const kernel_table* compiled_table(isa which) noexcept;

/// The active table: resolves SIMDCOLLIDE_ISA on first use (may throw isa_unavailable).
const kernel_table& active_table();

} // namespace simdcollide::detail
