// Public ray casts and region queries: check the arguments once, then call the chosen table.
#include <simdcollide/queries.hpp>

#include "pairwise/kernel_table.hpp"
#include "pairwise/query_runs.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace simdcollide {

namespace {

// Rays cost O(shapes) each: blocks this size keep the workers busy from a few thousand rays.
constexpr std::size_t rays_per_task = 256;

[[noreturn]] void refuse(const char* kernel, const std::string& why) {
    throw std::invalid_argument(std::string("simdcollide::") + kernel + ": " + why);
}

void require_shape_count(const char* kernel, std::size_t count) {
    if (count >= no_shape) {
        refuse(kernel, std::to_string(count) + " shapes, where at most " +
                           std::to_string(no_shape - 1) + " can be told apart");
    }
}

void require_finite_rays(const char* kernel, rays_cview r) {
    for (std::size_t i = 0; i < r.count; ++i) {
        const float values[] = {r.x[i], r.y[i], r.dx[i], r.dy[i]};
        const char* const names[] = {"x", "y", "dx", "dy"};
        for (int f = 0; f < 4; ++f) {
            if (!std::isfinite(values[f])) {
                refuse(kernel, "ray " + std::to_string(i) + " has " + names[f] + " = " +
                                   std::to_string(values[f]) + ", not finite");
            }
        }
    }
}

// What every ray cast checks: the rays, the hits, and that the hits overlap nothing else.
void check_rays(rays_cview r, ray_hits_view h, std::initializer_list<detail::array_use> shapes) {
    constexpr const char* kernel = "cast_rays";
    detail::require_fields(kernel, "rays", r.count, {r.x, r.y, r.dx, r.dy});
    detail::require_count(kernel, "hits", r.count, h.count);
    detail::require_fields(kernel, "hits", h.count,
                           {h.fraction, h.point_x, h.point_y, h.normal_x, h.normal_y, h.shape});
    std::vector<detail::array_use> arrays = {
        detail::reads("rays.x", r.x, r.count),
        detail::reads("rays.y", r.y, r.count),
        detail::reads("rays.dx", r.dx, r.count),
        detail::reads("rays.dy", r.dy, r.count),
        detail::writes("hits.fraction", h.fraction, h.count),
        detail::writes("hits.point_x", h.point_x, h.count),
        detail::writes("hits.point_y", h.point_y, h.count),
        detail::writes("hits.normal_x", h.normal_x, h.count),
        detail::writes("hits.normal_y", h.normal_y, h.count),
        {"hits.shape", h.shape, h.count, sizeof(std::uint32_t), true}};
    arrays.insert(arrays.end(), shapes.begin(), shapes.end());
    detail::require_apart(kernel, arrays, detail::in_place::refused);
    require_finite_rays(kernel, r);
}

} // namespace

void detail::check_ray_cast(rays_cview rays, ray_hits_view hits) {
    check_rays(rays, hits, {});
}

std::size_t detail::cast_rays_with(const kernel_table& t, rays_cview r, circles_cview c,
                                   ray_hits_view h, const task_runner& run) {
    detail::require_fields("cast_rays", "circles", c.count, {c.x, c.y, c.radius});
    require_shape_count("cast_rays", c.count);
    check_rays(r, h,
               {detail::reads("circles.x", c.x, c.count), detail::reads("circles.y", c.y, c.count),
                detail::reads("circles.radius", c.radius, c.count)});
    return detail::sum_over_blocks(run, r.count, rays_per_task, [&](std::size_t i, std::size_t e) {
        return t.queries.ray_circles(slice(r, i, e), c, slice(h, i, e));
    });
}

std::size_t detail::cast_rays_with(const kernel_table& t, rays_cview r, aabbs_view b,
                                   ray_hits_view h, const task_runner& run) {
    detail::require_fields("cast_rays", "boxes", b.count, {b.min_x, b.min_y, b.max_x, b.max_y});
    require_shape_count("cast_rays", b.count);
    check_rays(r, h,
               {detail::reads("boxes.min_x", b.min_x, b.count),
                detail::reads("boxes.min_y", b.min_y, b.count),
                detail::reads("boxes.max_x", b.max_x, b.count),
                detail::reads("boxes.max_y", b.max_y, b.count)});
    return detail::sum_over_blocks(run, r.count, rays_per_task, [&](std::size_t i, std::size_t e) {
        return t.queries.ray_boxes(slice(r, i, e), b, slice(h, i, e));
    });
}

namespace {

void require_region(const char* kernel, const aabb& region) {
    const float values[] = {region.min_x, region.min_y, region.max_x, region.max_y};
    for (const float v : values) {
        if (!std::isfinite(v)) {
            refuse(kernel, "the region has a value that is not finite");
        }
    }
    if (!(region.min_x <= region.max_x && region.min_y <= region.max_y)) {
        refuse(kernel, "the region has min > max");
    }
}

void require_point(const char* kernel, float x, float y, float distance) {
    if (!std::isfinite(x) || !std::isfinite(y)) {
        refuse(kernel, "the point is not finite");
    }
    if (!std::isfinite(distance) || !(distance >= 0.0F)) {
        refuse(kernel, "distance = " + std::to_string(distance) + ", not finite and >= 0");
    }
}

// out = the indices whose mask byte `mark` sets, in ascending order, a block of shapes at a
// time: mark(begin, end, mask) fills mask[0, end - begin).
template <class Mark>
std::size_t list_marked(std::size_t count, std::vector<std::uint32_t>& out, Mark mark) {
    constexpr std::size_t block = 4096;
    std::uint8_t mask[block];
    out.clear();
    for (std::size_t begin = 0; begin < count; begin += block) {
        const std::size_t end = begin + block < count ? begin + block : count;
        if (mark(begin, end, mask) == 0) {
            continue;
        }
        for (std::size_t i = begin; i < end; ++i) {
            if (mask[i - begin] != 0) {
                out.push_back(static_cast<std::uint32_t>(i));
            }
        }
    }
    return out.size();
}

std::size_t circles_in_region_with(const detail::kernel_table& t, circles_cview c,
                                   const aabb& region, std::vector<std::uint32_t>& out) {
    detail::require_fields("circles_in_region", "circles", c.count, {c.x, c.y, c.radius});
    require_shape_count("circles_in_region", c.count);
    require_region("circles_in_region", region);
    return list_marked(c.count, out, [&](std::size_t i, std::size_t e, std::uint8_t* mask) {
        return t.queries.circles_in_region(detail::slice(c, i, e), region, mask);
    });
}

std::size_t circles_near_point_with(const detail::kernel_table& t, circles_cview c, float x,
                                    float y, float distance, std::vector<std::uint32_t>& out) {
    detail::require_fields("circles_near_point", "circles", c.count, {c.x, c.y, c.radius});
    require_shape_count("circles_near_point", c.count);
    require_point("circles_near_point", x, y, distance);
    return list_marked(c.count, out, [&](std::size_t i, std::size_t e, std::uint8_t* mask) {
        return t.queries.circles_near_point(detail::slice(c, i, e), x, y, distance, mask);
    });
}

std::size_t boxes_in_region_with(const detail::kernel_table& t, aabbs_view b, const aabb& region,
                                 std::vector<std::uint32_t>& out) {
    detail::require_fields("boxes_in_region", "boxes", b.count,
                           {b.min_x, b.min_y, b.max_x, b.max_y});
    require_shape_count("boxes_in_region", b.count);
    require_region("boxes_in_region", region);
    return list_marked(b.count, out, [&](std::size_t i, std::size_t e, std::uint8_t* mask) {
        return t.queries.boxes_in_region(detail::slice(b, i, e), region, mask);
    });
}

std::size_t boxes_near_point_with(const detail::kernel_table& t, aabbs_view b, float x, float y,
                                  float distance, std::vector<std::uint32_t>& out) {
    detail::require_fields("boxes_near_point", "boxes", b.count,
                           {b.min_x, b.min_y, b.max_x, b.max_y});
    require_shape_count("boxes_near_point", b.count);
    require_point("boxes_near_point", x, y, distance);
    return list_marked(b.count, out, [&](std::size_t i, std::size_t e, std::uint8_t* mask) {
        return t.queries.boxes_near_point(detail::slice(b, i, e), x, y, distance, mask);
    });
}

} // namespace

std::size_t cast_rays(rays_cview rays, circles_cview circles, ray_hits_view hits) {
    return detail::cast_rays_with(detail::active_table(), rays, circles, hits);
}
std::size_t cast_rays(rays_cview rays, aabbs_view boxes, ray_hits_view hits) {
    return detail::cast_rays_with(detail::active_table(), rays, boxes, hits);
}
std::size_t cast_rays(rays_cview rays, circles_cview circles, ray_hits_view hits,
                      const workers& w) {
    return detail::cast_rays_with(detail::active_table(), rays, circles, hits,
                                  detail::runner_of(w));
}
std::size_t cast_rays(rays_cview rays, aabbs_view boxes, ray_hits_view hits, const workers& w) {
    return detail::cast_rays_with(detail::active_table(), rays, boxes, hits, detail::runner_of(w));
}
std::size_t circles_in_region(circles_cview circles, const aabb& region,
                              std::vector<std::uint32_t>& out) {
    return circles_in_region_with(detail::active_table(), circles, region, out);
}
std::size_t circles_near_point(circles_cview circles, float x, float y, float distance,
                               std::vector<std::uint32_t>& out) {
    return circles_near_point_with(detail::active_table(), circles, x, y, distance, out);
}
std::size_t boxes_in_region(aabbs_view boxes, const aabb& region, std::vector<std::uint32_t>& out) {
    return boxes_in_region_with(detail::active_table(), boxes, region, out);
}
std::size_t boxes_near_point(aabbs_view boxes, float x, float y, float distance,
                             std::vector<std::uint32_t>& out) {
    return boxes_near_point_with(detail::active_table(), boxes, x, y, distance, out);
}

namespace reference {
std::size_t cast_rays(rays_cview rays, circles_cview circles, ray_hits_view hits) {
    return detail::cast_rays_with(detail::reference_table(), rays, circles, hits);
}
std::size_t cast_rays(rays_cview rays, aabbs_view boxes, ray_hits_view hits) {
    return detail::cast_rays_with(detail::reference_table(), rays, boxes, hits);
}
std::size_t circles_in_region(circles_cview circles, const aabb& region,
                              std::vector<std::uint32_t>& out) {
    return circles_in_region_with(detail::reference_table(), circles, region, out);
}
std::size_t circles_near_point(circles_cview circles, float x, float y, float distance,
                               std::vector<std::uint32_t>& out) {
    return circles_near_point_with(detail::reference_table(), circles, x, y, distance, out);
}
std::size_t boxes_in_region(aabbs_view boxes, const aabb& region, std::vector<std::uint32_t>& out) {
    return boxes_in_region_with(detail::reference_table(), boxes, region, out);
}
std::size_t boxes_near_point(aabbs_view boxes, float x, float y, float distance,
                             std::vector<std::uint32_t>& out) {
    return boxes_near_point_with(detail::reference_table(), boxes, x, y, distance, out);
}
} // namespace reference

} // namespace simdcollide
