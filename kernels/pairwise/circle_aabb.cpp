// Public circle-AABB entry points: check the arguments once, then call the chosen table.
#include <simdcollide/circle_aabb.hpp>

#include "pairwise/kernel_table.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

namespace simdcollide {
namespace {

// The circles' fields every kernel here reads (the radii where it needs them); the boxes'
// too for the pairwise forms (the one-box forms take the box as a value).
void check_circles(const char* kernel, circles_cview c, bool needs_radius) {
    detail::require_fields(kernel, "circles", c.count, {c.x, c.y});
    if (needs_radius) {
        detail::require_fields(kernel, "circles", c.count, {c.radius});
    }
}

void check_pairs(const char* kernel, circles_cview c, aabbs_view b, bool needs_radius) {
    detail::require_count(kernel, "boxes", c.count, b.count);
    check_circles(kernel, c, needs_radius);
    detail::require_fields(kernel, "boxes", b.count, {b.min_x, b.min_y, b.max_x, b.max_y});
}

// The circles' centres, read by every kernel here; the boxes, read by the pairwise forms;
// the contacts, written by contact.
#define SIMDCOLLIDE_CIRCLE_READS(c)                                                                \
    detail::reads("circles.x", (c).x, (c).count), detail::reads("circles.y", (c).y, (c).count)
#define SIMDCOLLIDE_CIRCLE_BOX_READS(c, b)                                                         \
    SIMDCOLLIDE_CIRCLE_READS(c), detail::reads("boxes.min_x", (b).min_x, (b).count),               \
        detail::reads("boxes.min_y", (b).min_y, (b).count),                                        \
        detail::reads("boxes.max_x", (b).max_x, (b).count),                                        \
        detail::reads("boxes.max_y", (b).max_y, (b).count)
#define SIMDCOLLIDE_CONTACT_WRITES(out)                                                            \
    detail::writes("out.normal_x", (out).normal_x, (out).count),                                   \
        detail::writes("out.normal_y", (out).normal_y, (out).count),                               \
        detail::writes("out.depth", (out).depth, (out).count),                                     \
        detail::writes("out.point_x", (out).point_x, (out).count),                                 \
        detail::writes("out.point_y", (out).point_y, (out).count)

void require_contacts_apart(const char* kernel, circles_cview c, aabbs_view b, contacts_view out) {
    detail::require_apart(kernel,
                          {SIMDCOLLIDE_CIRCLE_BOX_READS(c, b),
                           detail::reads("circles.radius", c.radius, c.count),
                           SIMDCOLLIDE_CONTACT_WRITES(out)},
                          detail::in_place::allowed);
}

void closest_point_with(const detail::kernel_table& t, circles_cview c, aabbs_view b,
                        points_view out, const detail::task_runner& run = {}) {
    check_pairs("closest_point", c, b, false);
    detail::require_count("closest_point", "out", c.count, out.count);
    detail::require_fields("closest_point", "out", out.count, {out.x, out.y});
    detail::require_apart("closest_point",
                          {SIMDCOLLIDE_CIRCLE_BOX_READS(c, b),
                           detail::writes("out.x", out.x, out.count),
                           detail::writes("out.y", out.y, out.count)},
                          detail::in_place::allowed);
    detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            t.circle_aabb.closest_point(detail::slice(c, i, e), detail::slice(b, i, e),
                                        detail::slice(out, i, e));
            return std::size_t{0};
        });
}

void distance_squared_with(const detail::kernel_table& t, circles_cview c, aabbs_view b,
                           std::span<float> out, const detail::task_runner& run = {}) {
    check_pairs("distance_squared", c, b, false);
    detail::require_count("distance_squared", "out", c.count, out.size());
    detail::require_apart(
        "distance_squared",
        {SIMDCOLLIDE_CIRCLE_BOX_READS(c, b), detail::writes("out", out.data(), out.size())},
        detail::in_place::allowed);
    detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            t.circle_aabb.distance_squared(detail::slice(c, i, e), detail::slice(b, i, e),
                                           detail::slice(out, i, e).data());
            return std::size_t{0};
        });
}

std::size_t overlap_with(const detail::kernel_table& t, circles_cview c, aabbs_view b,
                         std::span<std::uint8_t> mask, float margin,
                         const detail::task_runner& run = {}) {
    check_pairs("overlap", c, b, true);
    detail::require_count("overlap", "mask", c.count, mask.size());
    detail::require_margin("overlap", margin);
    detail::require_apart("overlap",
                          {SIMDCOLLIDE_CIRCLE_BOX_READS(c, b),
                           detail::reads("circles.radius", c.radius, c.count),
                           {"mask", mask.data(), mask.size(), 1, true}},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.overlap(detail::slice(c, i, e), detail::slice(b, i, e),
                                         c.count == 0 ? nullptr : mask.data() + i, margin);
        });
}

std::size_t count_overlaps_with(const detail::kernel_table& t, circles_cview c, aabbs_view b,
                                float margin, const detail::task_runner& run = {}) {
    check_pairs("count_overlaps", c, b, true);
    detail::require_margin("count_overlaps", margin);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.overlap(detail::slice(c, i, e), detail::slice(b, i, e), nullptr,
                                         margin);
        });
}

std::size_t contact_with(const detail::kernel_table& t, circles_cview c, aabbs_view b,
                         contacts_view out, float margin, const detail::task_runner& run = {}) {
    check_pairs("contact", c, b, true);
    detail::require_count("contact", "out", c.count, out.count);
    detail::require_fields("contact", "out", out.count,
                           {out.normal_x, out.normal_y, out.depth, out.point_x, out.point_y});
    detail::require_margin("contact", margin);
    require_contacts_apart("contact", c, b, out);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.contact(detail::slice(c, i, e), detail::slice(b, i, e),
                                         detail::slice(out, i, e), margin);
        });
}

std::size_t push_out_with(const detail::kernel_table& t, circles_view c, aabbs_view b, float margin,
                          const detail::task_runner& run = {}) {
    check_pairs("push_out", c, b, true);
    detail::require_margin("push_out", margin);
    detail::require_apart("push_out",
                          {detail::writes("circles.x", c.x, c.count),
                           detail::writes("circles.y", c.y, c.count),
                           detail::reads("circles.radius", c.radius, c.count),
                           detail::reads("boxes.min_x", b.min_x, b.count),
                           detail::reads("boxes.min_y", b.min_y, b.count),
                           detail::reads("boxes.max_x", b.max_x, b.count),
                           detail::reads("boxes.max_y", b.max_y, b.count)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.push_out(detail::slice(c, i, e), detail::slice(b, i, e), margin);
        });
}

std::size_t push_out_box_with(const detail::kernel_table& t, circles_view c, const aabb& b,
                              float margin, const detail::task_runner& run = {}) {
    detail::require_fields("push_out", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_margin("push_out", margin);
    detail::require_apart("push_out",
                          {detail::writes("circles.x", c.x, c.count),
                           detail::writes("circles.y", c.y, c.count),
                           detail::reads("circles.radius", c.radius, c.count)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.push_out_box(detail::slice(c, i, e), b, margin);
        });
}

// The one-box forms: the same checks as above, less the boxes' (the box is a value).

void closest_point_box_with(const detail::kernel_table& t, circles_cview c, const aabb& b,
                            points_view out, const detail::task_runner& run = {}) {
    check_circles("closest_point", c, false);
    detail::require_count("closest_point", "out", c.count, out.count);
    detail::require_fields("closest_point", "out", out.count, {out.x, out.y});
    detail::require_apart("closest_point",
                          {SIMDCOLLIDE_CIRCLE_READS(c), detail::writes("out.x", out.x, out.count),
                           detail::writes("out.y", out.y, out.count)},
                          detail::in_place::allowed);
    detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            t.circle_aabb.closest_point_box(detail::slice(c, i, e), b, detail::slice(out, i, e));
            return std::size_t{0};
        });
}

void distance_squared_box_with(const detail::kernel_table& t, circles_cview c, const aabb& b,
                               std::span<float> out, const detail::task_runner& run = {}) {
    check_circles("distance_squared", c, false);
    detail::require_count("distance_squared", "out", c.count, out.size());
    detail::require_apart(
        "distance_squared",
        {SIMDCOLLIDE_CIRCLE_READS(c), detail::writes("out", out.data(), out.size())},
        detail::in_place::allowed);
    detail::sum_over_blocks(run, c.count, detail::items_per_task,
                            [&](std::size_t i, std::size_t e) {
                                t.circle_aabb.distance_squared_box(detail::slice(c, i, e), b,
                                                                   detail::slice(out, i, e).data());
                                return std::size_t{0};
                            });
}

std::size_t overlap_box_with(const detail::kernel_table& t, circles_cview c, const aabb& b,
                             std::span<std::uint8_t> mask, float margin,
                             const detail::task_runner& run = {}) {
    check_circles("overlap", c, true);
    detail::require_count("overlap", "mask", c.count, mask.size());
    detail::require_margin("overlap", margin);
    detail::require_apart("overlap",
                          {SIMDCOLLIDE_CIRCLE_READS(c),
                           detail::reads("circles.radius", c.radius, c.count),
                           {"mask", mask.data(), mask.size(), 1, true}},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.overlap_box(detail::slice(c, i, e), b,
                                             c.count == 0 ? nullptr : mask.data() + i, margin);
        });
}

std::size_t count_overlaps_box_with(const detail::kernel_table& t, circles_cview c, const aabb& b,
                                    float margin, const detail::task_runner& run = {}) {
    check_circles("count_overlaps", c, true);
    detail::require_margin("count_overlaps", margin);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.overlap_box(detail::slice(c, i, e), b, nullptr, margin);
        });
}

std::size_t contact_box_with(const detail::kernel_table& t, circles_cview c, const aabb& b,
                             contacts_view out, float margin, const detail::task_runner& run = {}) {
    check_circles("contact", c, true);
    detail::require_count("contact", "out", c.count, out.count);
    detail::require_fields("contact", "out", out.count,
                           {out.normal_x, out.normal_y, out.depth, out.point_x, out.point_y});
    detail::require_margin("contact", margin);
    detail::require_apart("contact",
                          {SIMDCOLLIDE_CIRCLE_READS(c),
                           detail::reads("circles.radius", c.radius, c.count),
                           SIMDCOLLIDE_CONTACT_WRITES(out)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, c.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_aabb.contact_box(detail::slice(c, i, e), b, detail::slice(out, i, e),
                                             margin);
        });
}

#undef SIMDCOLLIDE_CONTACT_WRITES
#undef SIMDCOLLIDE_CIRCLE_BOX_READS
#undef SIMDCOLLIDE_CIRCLE_READS

} // namespace

void closest_point(circles_cview circles, aabbs_view boxes, points_view out) {
    closest_point_with(detail::active_table(), circles, boxes, out);
}
void distance_squared(circles_cview circles, aabbs_view boxes, std::span<float> out) {
    distance_squared_with(detail::active_table(), circles, boxes, out);
}
std::size_t overlap(circles_cview circles, aabbs_view boxes, std::span<std::uint8_t> mask,
                    float margin) {
    return overlap_with(detail::active_table(), circles, boxes, mask, margin);
}
std::size_t count_overlaps(circles_cview circles, aabbs_view boxes, float margin) {
    return count_overlaps_with(detail::active_table(), circles, boxes, margin);
}
std::size_t contact(circles_cview circles, aabbs_view boxes, contacts_view out, float margin) {
    return contact_with(detail::active_table(), circles, boxes, out, margin);
}
std::size_t push_out(circles_view circles, aabbs_view boxes, float margin) {
    return push_out_with(detail::active_table(), circles, boxes, margin);
}
std::size_t push_out(circles_view circles, const aabb& box, float margin) {
    return push_out_box_with(detail::active_table(), circles, box, margin);
}
void closest_point(circles_cview circles, const aabb& box, points_view out) {
    closest_point_box_with(detail::active_table(), circles, box, out);
}
void distance_squared(circles_cview circles, const aabb& box, std::span<float> out) {
    distance_squared_box_with(detail::active_table(), circles, box, out);
}
std::size_t overlap(circles_cview circles, const aabb& box, std::span<std::uint8_t> mask,
                    float margin) {
    return overlap_box_with(detail::active_table(), circles, box, mask, margin);
}
std::size_t count_overlaps(circles_cview circles, const aabb& box, float margin) {
    return count_overlaps_box_with(detail::active_table(), circles, box, margin);
}
std::size_t contact(circles_cview circles, const aabb& box, contacts_view out, float margin) {
    return contact_box_with(detail::active_table(), circles, box, out, margin);
}

void closest_point(circles_cview circles, aabbs_view boxes, points_view out, const workers& w) {
    closest_point_with(detail::active_table(), circles, boxes, out, detail::runner_of(w));
}
void distance_squared(circles_cview circles, aabbs_view boxes, std::span<float> out,
                      const workers& w) {
    distance_squared_with(detail::active_table(), circles, boxes, out, detail::runner_of(w));
}
std::size_t overlap(circles_cview circles, aabbs_view boxes, std::span<std::uint8_t> mask,
                    float margin, const workers& w) {
    return overlap_with(detail::active_table(), circles, boxes, mask, margin, detail::runner_of(w));
}
std::size_t count_overlaps(circles_cview circles, aabbs_view boxes, float margin,
                           const workers& w) {
    return count_overlaps_with(detail::active_table(), circles, boxes, margin,
                               detail::runner_of(w));
}
std::size_t contact(circles_cview circles, aabbs_view boxes, contacts_view out, float margin,
                    const workers& w) {
    return contact_with(detail::active_table(), circles, boxes, out, margin, detail::runner_of(w));
}
std::size_t push_out(circles_view circles, aabbs_view boxes, float margin, const workers& w) {
    return push_out_with(detail::active_table(), circles, boxes, margin, detail::runner_of(w));
}
std::size_t push_out(circles_view circles, const aabb& box, float margin, const workers& w) {
    return push_out_box_with(detail::active_table(), circles, box, margin, detail::runner_of(w));
}
void closest_point(circles_cview circles, const aabb& box, points_view out, const workers& w) {
    closest_point_box_with(detail::active_table(), circles, box, out, detail::runner_of(w));
}
void distance_squared(circles_cview circles, const aabb& box, std::span<float> out,
                      const workers& w) {
    distance_squared_box_with(detail::active_table(), circles, box, out, detail::runner_of(w));
}
std::size_t overlap(circles_cview circles, const aabb& box, std::span<std::uint8_t> mask,
                    float margin, const workers& w) {
    return overlap_box_with(detail::active_table(), circles, box, mask, margin,
                            detail::runner_of(w));
}
std::size_t count_overlaps(circles_cview circles, const aabb& box, float margin, const workers& w) {
    return count_overlaps_box_with(detail::active_table(), circles, box, margin,
                                   detail::runner_of(w));
}
std::size_t contact(circles_cview circles, const aabb& box, contacts_view out, float margin,
                    const workers& w) {
    return contact_box_with(detail::active_table(), circles, box, out, margin,
                            detail::runner_of(w));
}

namespace reference {
void closest_point(circles_cview circles, aabbs_view boxes, points_view out) {
    closest_point_with(detail::reference_table(), circles, boxes, out);
}
void distance_squared(circles_cview circles, aabbs_view boxes, std::span<float> out) {
    distance_squared_with(detail::reference_table(), circles, boxes, out);
}
std::size_t overlap(circles_cview circles, aabbs_view boxes, std::span<std::uint8_t> mask,
                    float margin) {
    return overlap_with(detail::reference_table(), circles, boxes, mask, margin);
}
std::size_t count_overlaps(circles_cview circles, aabbs_view boxes, float margin) {
    return count_overlaps_with(detail::reference_table(), circles, boxes, margin);
}
std::size_t contact(circles_cview circles, aabbs_view boxes, contacts_view out, float margin) {
    return contact_with(detail::reference_table(), circles, boxes, out, margin);
}
std::size_t push_out(circles_view circles, aabbs_view boxes, float margin) {
    return push_out_with(detail::reference_table(), circles, boxes, margin);
}
std::size_t push_out(circles_view circles, const aabb& box, float margin) {
    return push_out_box_with(detail::reference_table(), circles, box, margin);
}
void closest_point(circles_cview circles, const aabb& box, points_view out) {
    closest_point_box_with(detail::reference_table(), circles, box, out);
}
void distance_squared(circles_cview circles, const aabb& box, std::span<float> out) {
    distance_squared_box_with(detail::reference_table(), circles, box, out);
}
std::size_t overlap(circles_cview circles, const aabb& box, std::span<std::uint8_t> mask,
                    float margin) {
    return overlap_box_with(detail::reference_table(), circles, box, mask, margin);
}
std::size_t count_overlaps(circles_cview circles, const aabb& box, float margin) {
    return count_overlaps_box_with(detail::reference_table(), circles, box, margin);
}
std::size_t contact(circles_cview circles, const aabb& box, contacts_view out, float margin) {
    return contact_box_with(detail::reference_table(), circles, box, out, margin);
}
} // namespace reference

} // namespace simdcollide
