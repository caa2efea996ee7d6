// The table of kernel entry points that one instruction set provides.
//
// Dispatch keeps a pointer to one table; the public functions check their arguments and
// call through it. The reference fills one table, and each per-instruction-set file
// fills one more (simd/table.hpp). Entries never check arguments: callers already did.
#pragma once

#include "pairwise/pair_corrections.hpp"

#include <simdcollide/circle_circle.hpp>
#include <simdcollide/dispatch.hpp>
#include <simdcollide/response.hpp>
#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>

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

struct box_box_kernels_table {
    /// Box i of the first view against box i of the second. `mask` may be null: then only
    /// the count is computed.
    std::size_t (*overlap)(aabbs_view, aabbs_view, std::uint8_t* mask, float margin);
    std::size_t (*contact)(aabbs_view, aabbs_view, contacts_view, float margin);
    /// Every box against the same box, as the second: the kernels above with it repeated.
    std::size_t (*overlap_box)(aabbs_view, aabb box, std::uint8_t* mask, float margin);
    std::size_t (*contact_box)(aabbs_view, aabb box, contacts_view, float margin);
    /// Separation: box i of each view moved apart; against one box that does not move.
    std::size_t (*separate)(box_bodies_view, box_bodies_view, separation_weighting);
    std::size_t (*separate_box)(box_bodies_view, aabb box);
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

struct world_kernels_table {
    /// separate_in_order (pair_groups.hpp): `rounds` passes over the pairs in order, each
    /// pair's separation applied at once, seeing the positions the pairs before it left
    /// (Gauss-Seidel). The pairs come in `groups` groups, group g ending at ends[g]
    /// (pair_groups.hpp): no two pairs of a group share a circle. `scratch` holds 4 floats
    /// per circle, 16-byte aligned.
    void (*separate_in_order)(particles_view, const circle_pair* pairs, const std::uint32_t* ends,
                              std::size_t groups, separation_weighting, int rounds, float* scratch);
    /// to[k] = from[index[k]] for k < count, bits and all: the world's move of its circles
    /// into slots and back. Every index within `from`; `to` does not overlap `from`.
    void (*permute)(const float* from, const std::uint32_t* index, std::size_t count, float* to);
    /// The largest vx^2 + vy^2 of the circles (0 for none; a NaN never wins), exactly: the
    /// world's look for fast circles in each substep.
    float (*fastest)(particles_view);
};

/// One ray's first hit so far among circles met in any order: the earliest entry time, the
/// lowest circle index on a tie (no_shape and +inf before any), whether the ray starts in
/// that circle, and the ray's origin relative to its centre (for the normal).
struct ray_best {
    float time = __builtin_inff();
    std::uint32_t shape = no_shape;
    bool inside = false;
    float mx = 0.0F;
    float my = 0.0F;
};

struct query_kernels_table {
    /// Every ray against every circle, or every box: each ray's earliest hit (the lowest
    /// index on a tie) into the hits. Returns the number of rays that hit.
    std::size_t (*ray_circles)(rays_cview, circles_cview, ray_hits_view);
    std::size_t (*ray_boxes)(rays_cview, aabbs_view, ray_hits_view);
    /// The ray from (ox, oy) by (dx, dy) against circles [0, count) of the arrays (index: each
    /// circle's own index): `best` takes any that the ray enters earlier, or as early with a
    /// lower index.
    void (*ray_circle_run)(float ox, float oy, float dx, float dy, const float* x, const float* y,
                           const float* radius, const std::uint32_t* index, std::size_t count,
                           ray_best& best);
    /// Each of `rays` against circles [0, count) of the arrays, met in any order: best[i]
    /// becomes what ray_circle_run leaves in a fresh ray_best for ray i.
    void (*rays_circle_run)(rays_cview rays, const float* x, const float* y, const float* radius,
                            const std::uint32_t* index, std::size_t count, ray_best* best);
    /// One byte a shape into `mask` (1: the region or the point reaches it); returns how
    /// many it reaches.
    std::size_t (*circles_in_region)(circles_cview, aabb region, std::uint8_t* mask);
    std::size_t (*circles_near_point)(circles_cview, float x, float y, float distance,
                                      std::uint8_t* mask);
    std::size_t (*boxes_in_region)(aabbs_view, aabb region, std::uint8_t* mask);
    std::size_t (*boxes_near_point)(aabbs_view, float x, float y, float distance,
                                    std::uint8_t* mask);
};

struct kernel_table {
    isa id;
    circle_aabb_kernels_table circle_aabb;
    circle_circle_kernels_table circle_circle;
    box_box_kernels_table box_box;
    response_kernels_table response;
    swept_kernels_table swept;
    world_kernels_table world;
    query_kernels_table queries;
};

/// The reference implementation's table (kernels/pairwise/reference/).
const kernel_table& reference_table() noexcept;

/// The table for `which`, or null when this build does not contain it. Does not check
/// whether the CPU can run it: that is dispatch's job (dispatch.cpp).
const kernel_table* compiled_table(isa which) noexcept;

/// The active table: resolves SIMDCOLLIDE_ISA on first use (may throw isa_unavailable).
const kernel_table& active_table();

} // namespace simdcollide::detail
