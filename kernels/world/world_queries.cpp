// The world's ray casts and region and point queries (docs/behaviour.md "Ray casts" and
// "Region and point queries"): the batch queries of queries.hpp over each kind of shape the
// world holds, as it is between steps, merged in the order of shape_kind.
#include "world/world_state.hpp"

#include "broad_phase/ray_grid.hpp"
#include "pairwise/kernel_table.hpp"
#include "pairwise/query_runs.hpp"
#include "runtime/tasks.hpp"

#include <simdcollide/queries.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace simdcollide {

namespace {

// Whether a query with filter `q` sees a shape with category c and mask m (Box2D's rule).
bool sees(const collision_filter& q, std::uint64_t c, std::uint64_t m) {
    return (c & q.mask) != 0 && (q.category & m) != 0;
}

// The indices, ascending, of the shapes of one kind that `q` sees; `all`: whether it sees
// every one.
std::vector<std::uint32_t> seen_by(const collision_filter& q,
                                   const std::vector<std::uint64_t>& category,
                                   const std::vector<std::uint64_t>& mask, bool& all) {
    std::vector<std::uint32_t> seen;
    all = true;
    for (std::size_t i = 0; i < category.size(); ++i) {
        if (sees(q, category[i], mask[i])) {
            seen.push_back(static_cast<std::uint32_t>(i));
        } else {
            all = false;
        }
    }
    return seen;
}

// Appends the `indices` that `q` sees to `out` as shapes of `kind`.
void add_shapes(shape_kind kind, const std::vector<std::uint32_t>& indices,
                const collision_filter& q, const std::vector<std::uint64_t>& category,
                const std::vector<std::uint64_t>& mask, std::vector<shape_ref>& out) {
    for (const std::uint32_t i : indices) {
        if (sees(q, category[i], mask[i])) {
            out.push_back({kind, i});
        }
    }
}

// Hits of a cast against the shapes `seen` named (shape i of the cast is seen[i]) renamed
// to the world's indices.
void rename_hits(std::span<std::uint32_t> shape, const std::vector<std::uint32_t>& seen) {
    for (std::uint32_t& s : shape) {
        s = s == no_shape ? no_shape : seen[s];
    }
}

} // namespace

std::size_t detail::world_state::cast_rays(rays_cview rays, ray_hits_view hits,
                                           std::span<shape_kind> kinds,
                                           const collision_filter& filter) const {
    if (kinds.size() != rays.count) {
        throw std::invalid_argument("simdcollide::particle_world::cast_rays: kinds has " +
                                    std::to_string(kinds.size()) + " elements but rays has " +
                                    std::to_string(rays.count));
    }
    check_ray_cast(rays, hits);
    const kernel_table& t = active_table();
    const detail::task_runner run{tasks_, static_cast<std::size_t>(options_.workers)};
    // Circles through a grid built over those the filter sees, straight into the caller's
    // hits.
    bool all = true;
    const std::vector<std::uint32_t> seen_circles =
        seen_by(filter, filters_.circle_category, filters_.circle_mask, all);
    circle_set some;
    for (const std::uint32_t i : all ? std::vector<std::uint32_t>{} : seen_circles) {
        some.push_back({circles_.x[i], circles_.y[i], circles_.radius[i]});
    }
    const circles_cview circles =
        all ? circles_cview{circles_.x.data(), circles_.y.data(), circles_.radius.data(), size()}
            : std::as_const(some).view();
    const circle_ray_grid grid(circles);
    grid.cast_all(t, rays, hits, run);
    if (!all) {
        rename_hits({hits.shape, rays.count}, seen_circles);
    }
    for (std::size_t i = 0; i < rays.count; ++i) {
        kinds[i] = hits.shape[i] == no_shape ? shape_kind::none : shape_kind::circle;
    }

    const std::size_t n = rays.count;
    std::vector<float> fraction(n), point_x(n), point_y(n), normal_x(n), normal_y(n);
    std::vector<std::uint32_t> shape(n);
    const ray_hits_view other({fraction, point_x, point_y, normal_x, normal_y, shape});
    // A later kind's hit replaces an earlier one's only where it comes strictly first.
    const auto merge = [&](shape_kind kind) {
        for (std::size_t i = 0; i < n; ++i) {
            if (shape[i] == no_shape ||
                (hits.shape[i] != no_shape && !(fraction[i] < hits.fraction[i]))) {
                continue;
            }
            copy_ray_hit(other, i, hits, i);
            kinds[i] = kind;
        }
    };
    const kinematic_boxes& k = kinematic_;
    const aabb_set dynamic = dynamic_.all_bounds();
    const aabbs_view boxes_of_kind[] = {
        boxes().boxes(),
        {k.min_x.data(), k.min_y.data(), k.max_x.data(), k.max_y.data(), k.count()},
        dynamic.view()};
    const shape_kind kind_of[] = {shape_kind::static_box, shape_kind::kinematic_box,
                                  shape_kind::dynamic_box};
    const std::vector<std::uint64_t>* filters_of[][2] = {
        {&filters_.box_category, &filters_.box_mask},
        {&filters_.kinematic_category, &filters_.kinematic_mask},
        {&filters_.dynamic_category, &filters_.dynamic_mask}};
    for (int kind = 0; kind < 3; ++kind) {
        const std::vector<std::uint32_t> seen =
            seen_by(filter, *filters_of[kind][0], *filters_of[kind][1], all);
        aabb_set some_boxes;
        const aabbs_view b = boxes_of_kind[kind];
        for (const std::uint32_t i : all ? std::vector<std::uint32_t>{} : seen) {
            some_boxes.push_back(
                aabb::from_min_max(b.min_x[i], b.min_y[i], b.max_x[i], b.max_y[i]));
        }
        const aabbs_view cast = all ? b : some_boxes.view();
        if (cast.count > 0) {
            cast_rays_with(t, rays, cast, other, run);
            if (!all) {
                rename_hits(shape, seen);
            }
            merge(kind_of[kind]);
        }
    }
    std::size_t hit = 0;
    for (std::size_t i = 0; i < n; ++i) {
        hit += kinds[i] != shape_kind::none ? 1 : 0;
    }
    return hit;
}

std::size_t detail::world_state::query_region(const aabb& region, std::vector<shape_ref>& out,
                                              const collision_filter& filter) const {
    const circles_cview circles{circles_.x.data(), circles_.y.data(), circles_.radius.data(),
                                size()};
    std::vector<std::uint32_t> found;
    circles_in_region(circles, region, found); // checks the region
    out.clear();
    add_shapes(shape_kind::circle, found, filter, filters_.circle_category, filters_.circle_mask,
               out);
    const kinematic_boxes& k = kinematic_;
    const aabb_set dynamic = dynamic_.all_bounds();
    boxes_in_region(boxes().boxes(), region, found);
    add_shapes(shape_kind::static_box, found, filter, filters_.box_category, filters_.box_mask,
               out);
    boxes_in_region({k.min_x.data(), k.min_y.data(), k.max_x.data(), k.max_y.data(), k.count()},
                    region, found);
    add_shapes(shape_kind::kinematic_box, found, filter, filters_.kinematic_category,
               filters_.kinematic_mask, out);
    boxes_in_region(dynamic.view(), region, found);
    add_shapes(shape_kind::dynamic_box, found, filter, filters_.dynamic_category,
               filters_.dynamic_mask, out);
    return out.size();
}

std::size_t detail::world_state::query_point(float x, float y, float distance,
                                             std::vector<shape_ref>& out,
                                             const collision_filter& filter) const {
    const circles_cview circles{circles_.x.data(), circles_.y.data(), circles_.radius.data(),
                                size()};
    std::vector<std::uint32_t> found;
    circles_near_point(circles, x, y, distance, found); // checks the point and distance
    out.clear();
    add_shapes(shape_kind::circle, found, filter, filters_.circle_category, filters_.circle_mask,
               out);
    const kinematic_boxes& k = kinematic_;
    const aabb_set dynamic = dynamic_.all_bounds();
    boxes_near_point(boxes().boxes(), x, y, distance, found);
    add_shapes(shape_kind::static_box, found, filter, filters_.box_category, filters_.box_mask,
               out);
    boxes_near_point({k.min_x.data(), k.min_y.data(), k.max_x.data(), k.max_y.data(), k.count()}, x,
                     y, distance, found);
    add_shapes(shape_kind::kinematic_box, found, filter, filters_.kinematic_category,
               filters_.kinematic_mask, out);
    boxes_near_point(dynamic.view(), x, y, distance, found);
    add_shapes(shape_kind::dynamic_box, found, filter, filters_.dynamic_category,
               filters_.dynamic_mask, out);
    return out.size();
}

} // namespace simdcollide
