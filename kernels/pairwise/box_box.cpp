// Public box-box entry points: check the arguments once, then call the chosen table.
#include <simdcollide/box_box.hpp>

#include "pairwise/kernel_table.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

namespace simdcollide {
namespace {

void check_boxes(const char* kernel, const char* name, aabbs_view b) {
    detail::require_fields(kernel, name, b.count, {b.min_x, b.min_y, b.max_x, b.max_y});
}

void check_pairs(const char* kernel, aabbs_view a, aabbs_view b) {
    detail::require_count(kernel, "second", a.count, b.count);
    check_boxes(kernel, "first", a);
    check_boxes(kernel, "second", b);
}

#define SIMDCOLLIDE_BOX_READS(name, b)                                                             \
    detail::reads(name ".min_x", (b).min_x, (b).count),                                            \
        detail::reads(name ".min_y", (b).min_y, (b).count),                                        \
        detail::reads(name ".max_x", (b).max_x, (b).count),                                        \
        detail::reads(name ".max_y", (b).max_y, (b).count)
#define SIMDCOLLIDE_CONTACT_WRITES(out)                                                            \
    detail::writes("out.normal_x", (out).normal_x, (out).count),                                   \
        detail::writes("out.normal_y", (out).normal_y, (out).count),                               \
        detail::writes("out.depth", (out).depth, (out).count),                                     \
        detail::writes("out.point_x", (out).point_x, (out).count),                                 \
        detail::writes("out.point_y", (out).point_y, (out).count)

void check_contacts(const char* kernel, std::size_t count, contacts_view out, float margin) {
    detail::require_count(kernel, "out", count, out.count);
    detail::require_fields(kernel, "out", out.count,
                           {out.normal_x, out.normal_y, out.depth, out.point_x, out.point_y});
    detail::require_margin(kernel, margin);
}

std::size_t overlap_with(const detail::kernel_table& t, aabbs_view a, aabbs_view b,
                         std::span<std::uint8_t> mask, float margin,
                         const detail::task_runner& run = {}) {
    check_pairs("overlap", a, b);
    detail::require_count("overlap", "mask", a.count, mask.size());
    detail::require_margin("overlap", margin);
    detail::require_apart("overlap",
                          {SIMDCOLLIDE_BOX_READS("first", a),
                           SIMDCOLLIDE_BOX_READS("second", b),
                           {"mask", mask.data(), mask.size(), 1, true}},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.box_box.overlap(detail::slice(a, i, e), detail::slice(b, i, e),
                                     a.count == 0 ? nullptr : mask.data() + i, margin);
        });
}

std::size_t count_overlaps_with(const detail::kernel_table& t, aabbs_view a, aabbs_view b,
                                float margin, const detail::task_runner& run = {}) {
    check_pairs("count_overlaps", a, b);
    detail::require_margin("count_overlaps", margin);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.box_box.overlap(detail::slice(a, i, e), detail::slice(b, i, e), nullptr,
                                     margin);
        });
}

std::size_t contact_with(const detail::kernel_table& t, aabbs_view a, aabbs_view b,
                         contacts_view out, float margin, const detail::task_runner& run = {}) {
    check_pairs("contact", a, b);
    check_contacts("contact", a.count, out, margin);
    detail::require_apart("contact",
                          {SIMDCOLLIDE_BOX_READS("first", a), SIMDCOLLIDE_BOX_READS("second", b),
                           SIMDCOLLIDE_CONTACT_WRITES(out)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.box_box.contact(detail::slice(a, i, e), detail::slice(b, i, e),
                                     detail::slice(out, i, e), margin);
        });
}

// The one-box forms: the same checks, less the second view's (the box is a value).

std::size_t overlap_box_with(const detail::kernel_table& t, aabbs_view a, const aabb& b,
                             std::span<std::uint8_t> mask, float margin,
                             const detail::task_runner& run = {}) {
    check_boxes("overlap", "boxes", a);
    detail::require_count("overlap", "mask", a.count, mask.size());
    detail::require_margin("overlap", margin);
    detail::require_apart(
        "overlap", {SIMDCOLLIDE_BOX_READS("boxes", a), {"mask", mask.data(), mask.size(), 1, true}},
        detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.box_box.overlap_box(detail::slice(a, i, e), b,
                                         a.count == 0 ? nullptr : mask.data() + i, margin);
        });
}

std::size_t count_overlaps_box_with(const detail::kernel_table& t, aabbs_view a, const aabb& b,
                                    float margin, const detail::task_runner& run = {}) {
    check_boxes("count_overlaps", "boxes", a);
    detail::require_margin("count_overlaps", margin);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.box_box.overlap_box(detail::slice(a, i, e), b, nullptr, margin);
        });
}

std::size_t contact_box_with(const detail::kernel_table& t, aabbs_view a, const aabb& b,
                             contacts_view out, float margin, const detail::task_runner& run = {}) {
    check_boxes("contact", "boxes", a);
    check_contacts("contact", a.count, out, margin);
    detail::require_apart("contact",
                          {SIMDCOLLIDE_BOX_READS("boxes", a), SIMDCOLLIDE_CONTACT_WRITES(out)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.box_box.contact_box(detail::slice(a, i, e), b, detail::slice(out, i, e),
                                         margin);
        });
}

void check_bodies(const char* name, box_bodies_view b) {
    detail::require_fields("separate", name, b.count,
                           {b.min_x, b.min_y, b.max_x, b.max_y, b.inverse_mass});
}

#define SIMDCOLLIDE_BODY_USES(name, b)                                                             \
    detail::writes(name ".min_x", (b).min_x, (b).count),                                           \
        detail::writes(name ".min_y", (b).min_y, (b).count),                                       \
        detail::writes(name ".max_x", (b).max_x, (b).count),                                       \
        detail::writes(name ".max_y", (b).max_y, (b).count),                                       \
        detail::reads(name ".inverse_mass", (b).inverse_mass, (b).count)

std::size_t separate_with(const detail::kernel_table& t, box_bodies_view a, box_bodies_view b,
                          separation_weighting mode, const detail::task_runner& run = {}) {
    detail::require_count("separate", "second", a.count, b.count);
    check_bodies("first", a);
    check_bodies("second", b);
    detail::require_apart("separate",
                          {SIMDCOLLIDE_BODY_USES("first", a), SIMDCOLLIDE_BODY_USES("second", b)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.box_box.separate(detail::slice(a, i, e), detail::slice(b, i, e), mode);
        });
}

std::size_t separate_box_with(const detail::kernel_table& t, box_bodies_view a, const aabb& b,
                              const detail::task_runner& run = {}) {
    check_bodies("boxes", a);
    detail::require_apart("separate", {SIMDCOLLIDE_BODY_USES("boxes", a)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(run, a.count, detail::items_per_task,
                                   [&](std::size_t i, std::size_t e) {
                                       return t.box_box.separate_box(detail::slice(a, i, e), b);
                                   });
}

#undef SIMDCOLLIDE_BODY_USES
#undef SIMDCOLLIDE_CONTACT_WRITES
#undef SIMDCOLLIDE_BOX_READS

} // namespace

std::size_t overlap(aabbs_view first, aabbs_view second, std::span<std::uint8_t> mask,
                    float margin) {
    return overlap_with(detail::active_table(), first, second, mask, margin);
}
std::size_t count_overlaps(aabbs_view first, aabbs_view second, float margin) {
    return count_overlaps_with(detail::active_table(), first, second, margin);
}
std::size_t contact(aabbs_view first, aabbs_view second, contacts_view out, float margin) {
    return contact_with(detail::active_table(), first, second, out, margin);
}
std::size_t overlap(aabbs_view boxes, const aabb& box, std::span<std::uint8_t> mask, float margin) {
    return overlap_box_with(detail::active_table(), boxes, box, mask, margin);
}
std::size_t count_overlaps(aabbs_view boxes, const aabb& box, float margin) {
    return count_overlaps_box_with(detail::active_table(), boxes, box, margin);
}
std::size_t contact(aabbs_view boxes, const aabb& box, contacts_view out, float margin) {
    return contact_box_with(detail::active_table(), boxes, box, out, margin);
}
std::size_t separate(box_bodies_view first, box_bodies_view second, separation_weighting mode) {
    return separate_with(detail::active_table(), first, second, mode);
}
std::size_t separate(box_bodies_view boxes, const aabb& box) {
    return separate_box_with(detail::active_table(), boxes, box);
}

std::size_t overlap(aabbs_view first, aabbs_view second, std::span<std::uint8_t> mask, float margin,
                    const workers& w) {
    return overlap_with(detail::active_table(), first, second, mask, margin, detail::runner_of(w));
}
std::size_t count_overlaps(aabbs_view first, aabbs_view second, float margin, const workers& w) {
    return count_overlaps_with(detail::active_table(), first, second, margin, detail::runner_of(w));
}
std::size_t contact(aabbs_view first, aabbs_view second, contacts_view out, float margin,
                    const workers& w) {
    return contact_with(detail::active_table(), first, second, out, margin, detail::runner_of(w));
}
std::size_t overlap(aabbs_view boxes, const aabb& box, std::span<std::uint8_t> mask, float margin,
                    const workers& w) {
    return overlap_box_with(detail::active_table(), boxes, box, mask, margin, detail::runner_of(w));
}
std::size_t count_overlaps(aabbs_view boxes, const aabb& box, float margin, const workers& w) {
    return count_overlaps_box_with(detail::active_table(), boxes, box, margin,
                                   detail::runner_of(w));
}
std::size_t contact(aabbs_view boxes, const aabb& box, contacts_view out, float margin,
                    const workers& w) {
    return contact_box_with(detail::active_table(), boxes, box, out, margin, detail::runner_of(w));
}
std::size_t separate(box_bodies_view first, box_bodies_view second, separation_weighting mode,
                     const workers& w) {
    return separate_with(detail::active_table(), first, second, mode, detail::runner_of(w));
}
std::size_t separate(box_bodies_view boxes, const aabb& box, const workers& w) {
    return separate_box_with(detail::active_table(), boxes, box, detail::runner_of(w));
}

namespace reference {
std::size_t overlap(aabbs_view first, aabbs_view second, std::span<std::uint8_t> mask,
                    float margin) {
    return overlap_with(detail::reference_table(), first, second, mask, margin);
}
std::size_t count_overlaps(aabbs_view first, aabbs_view second, float margin) {
    return count_overlaps_with(detail::reference_table(), first, second, margin);
}
std::size_t contact(aabbs_view first, aabbs_view second, contacts_view out, float margin) {
    return contact_with(detail::reference_table(), first, second, out, margin);
}
std::size_t overlap(aabbs_view boxes, const aabb& box, std::span<std::uint8_t> mask, float margin) {
    return overlap_box_with(detail::reference_table(), boxes, box, mask, margin);
}
std::size_t count_overlaps(aabbs_view boxes, const aabb& box, float margin) {
    return count_overlaps_box_with(detail::reference_table(), boxes, box, margin);
}
std::size_t contact(aabbs_view boxes, const aabb& box, contacts_view out, float margin) {
    return contact_box_with(detail::reference_table(), boxes, box, out, margin);
}
std::size_t separate(box_bodies_view first, box_bodies_view second, separation_weighting mode) {
    return separate_with(detail::reference_table(), first, second, mode);
}
std::size_t separate(box_bodies_view boxes, const aabb& box) {
    return separate_box_with(detail::reference_table(), boxes, box);
}
} // namespace reference

} // namespace simdcollide
