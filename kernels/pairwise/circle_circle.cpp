// Public circle-circle entry points: check the arguments once, then call the chosen table.
#include <simdcollide/circle_circle.hpp>

#include "pairwise/kernel_table.hpp"
#include "pairwise/pair_list.hpp"
#include "runtime/arguments.hpp"
#include "runtime/tasks.hpp"
#include "runtime/view_slices.hpp"

#include <stdexcept>
#include <string>

namespace simdcollide {
namespace {

void check_pairs(const char* kernel, circles_cview a, circles_cview b, bool needs_radius) {
    detail::require_count(kernel, "b", a.count, b.count);
    detail::require_fields(kernel, "a", a.count, {a.x, a.y});
    detail::require_fields(kernel, "b", b.count, {b.x, b.y});
    if (needs_radius) {
        detail::require_fields(kernel, "a", a.count, {a.radius});
        detail::require_fields(kernel, "b", b.count, {b.radius});
    }
}

void check_bodies(const char* kernel, const char* what, particles_view p) {
    detail::require_fields(kernel, what, p.count, {p.x, p.y, p.radius, p.inverse_mass});
}

// The centres of both sides (and their radii, when read).
#define SIMDCOLLIDE_TWO_SIDES_READ(a, b)                                                           \
    detail::reads("a.x", (a).x, (a).count), detail::reads("a.y", (a).y, (a).count),                \
        detail::reads("b.x", (b).x, (b).count), detail::reads("b.y", (b).y, (b).count)
#define SIMDCOLLIDE_RADII_READ(a, b)                                                               \
    detail::reads("a.radius", (a).radius, (a).count),                                              \
        detail::reads("b.radius", (b).radius, (b).count)
#define SIMDCOLLIDE_CONTACTS_WRITTEN(out)                                                          \
    detail::writes("out.normal_x", (out).normal_x, (out).count),                                   \
        detail::writes("out.normal_y", (out).normal_y, (out).count),                               \
        detail::writes("out.depth", (out).depth, (out).count),                                     \
        detail::writes("out.point_x", (out).point_x, (out).count),                                 \
        detail::writes("out.point_y", (out).point_y, (out).count)

// The pair list as an array the kernel reads.
detail::array_use pairs_read(std::span<const circle_pair> pairs) {
    return {"pairs", pairs.data(), pairs.size(), sizeof(circle_pair), false};
}

void distance_squared_with(const detail::kernel_table& t, circles_cview a, circles_cview b,
                           std::span<float> out, const detail::task_runner& run = {}) {
    check_pairs("distance_squared", a, b, false);
    detail::require_count("distance_squared", "out", a.count, out.size());
    detail::require_apart(
        "distance_squared",
        {SIMDCOLLIDE_TWO_SIDES_READ(a, b), detail::writes("out", out.data(), out.size())},
        detail::in_place::allowed);
    detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            t.circle_circle.distance_squared(detail::slice(a, i, e), detail::slice(b, i, e),
                                             detail::slice(out, i, e).data());
            return std::size_t{0};
        });
}

std::size_t overlap_with(const detail::kernel_table& t, circles_cview a, circles_cview b,
                         std::span<std::uint8_t> mask, bool write_mask,
                         const detail::task_runner& run = {}) {
    check_pairs("overlap", a, b, true);
    if (write_mask) {
        detail::require_count("overlap", "mask", a.count, mask.size());
        detail::require_apart("overlap",
                              {SIMDCOLLIDE_TWO_SIDES_READ(a, b),
                               SIMDCOLLIDE_RADII_READ(a, b),
                               {"mask", mask.data(), mask.size(), 1, true}},
                              detail::in_place::allowed);
    }
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_circle.overlap(detail::slice(a, i, e), detail::slice(b, i, e),
                                           write_mask && a.count > 0 ? mask.data() + i : nullptr);
        });
}

std::size_t contact_with(const detail::kernel_table& t, circles_cview a, circles_cview b,
                         contacts_view out, const detail::task_runner& run = {}) {
    check_pairs("contact", a, b, true);
    detail::require_count("contact", "out", a.count, out.count);
    detail::require_fields("contact", "out", out.count,
                           {out.normal_x, out.normal_y, out.depth, out.point_x, out.point_y});
    detail::require_apart("contact",
                          {SIMDCOLLIDE_TWO_SIDES_READ(a, b), SIMDCOLLIDE_RADII_READ(a, b),
                           SIMDCOLLIDE_CONTACTS_WRITTEN(out)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_circle.contact(detail::slice(a, i, e), detail::slice(b, i, e),
                                           detail::slice(out, i, e));
        });
}

std::size_t pair_contact_with(const detail::kernel_table& t, circles_cview c,
                              std::span<const circle_pair> pairs, contacts_view out,
                              separation_workspace& workspace) {
    detail::require_fields("contact", "circles", c.count, {c.x, c.y, c.radius});
    detail::require_pair_list("contact", c.count, pairs);
    detail::require_count("contact", "out", pairs.size(), out.count);
    detail::require_fields("contact", "out", out.count,
                           {out.normal_x, out.normal_y, out.depth, out.point_x, out.point_y});
    detail::require_apart("contact",
                          {detail::reads("circles.x", c.x, c.count),
                           detail::reads("circles.y", c.y, c.count),
                           detail::reads("circles.radius", c.radius, c.count), pairs_read(pairs),
                           SIMDCOLLIDE_CONTACTS_WRITTEN(out)},
                          detail::in_place::refused);
    return detail::contact_unchecked(t, c, pairs, out, workspace);
}

std::size_t separate_with(const detail::kernel_table& t, particles_view a, particles_view b,
                          separation_weighting mode, const detail::task_runner& run = {}) {
    detail::require_count("separate", "b", a.count, b.count);
    check_bodies("separate", "a", a);
    check_bodies("separate", "b", b);
    detail::require_apart("separate",
                          {detail::writes("a.x", a.x, a.count), detail::writes("a.y", a.y, a.count),
                           detail::writes("b.x", b.x, b.count), detail::writes("b.y", b.y, b.count),
                           SIMDCOLLIDE_RADII_READ(a, b),
                           detail::reads("a.inverse_mass", a.inverse_mass, a.count),
                           detail::reads("b.inverse_mass", b.inverse_mass, b.count)},
                          detail::in_place::allowed);
    return detail::sum_over_blocks(
        run, a.count, detail::items_per_task, [&](std::size_t i, std::size_t e) {
            return t.circle_circle.separate(detail::slice(a, i, e), detail::slice(b, i, e), mode);
        });
}

std::size_t separate_list_with(const detail::kernel_table& t, particles_view c,
                               std::span<const circle_pair> pairs, separation_weighting mode,
                               separation_workspace& workspace) {
    check_bodies("separate", "circles", c);
    detail::require_pair_list("separate", c.count, pairs);
    detail::require_apart(
        "separate",
        {detail::writes("circles.x", c.x, c.count), detail::writes("circles.y", c.y, c.count),
         detail::reads("circles.radius", c.radius, c.count),
         detail::reads("circles.inverse_mass", c.inverse_mass, c.count), pairs_read(pairs)},
        detail::in_place::refused);
    return detail::separate_unchecked(t, c, pairs, mode, workspace);
}

#undef SIMDCOLLIDE_TWO_SIDES_READ
#undef SIMDCOLLIDE_RADII_READ
#undef SIMDCOLLIDE_CONTACTS_WRITTEN

} // namespace

namespace detail {

// The workspace's scratch with room for `floats`, grown only when it has less.
float* scratch_of(separation_workspace& workspace, std::size_t floats) {
    if (workspace.scratch.size() < floats) {
        workspace.scratch.resize(floats);
    }
    return workspace.scratch.data();
}

std::size_t contact_unchecked(const kernel_table& t, circles_cview c,
                              std::span<const circle_pair> pairs, contacts_view out,
                              separation_workspace& workspace) {
    return t.circle_circle.pair_contact(c, pairs.data(), pairs.size(), out,
                                        scratch_of(workspace, 4 * c.count));
}

std::size_t separate_unchecked(const kernel_table& t, particles_view c,
                               std::span<const circle_pair> pairs, separation_weighting mode,
                               separation_workspace& workspace) {
    const pair_corrections sums = begin_pair_corrections(workspace, c.count);
    t.circle_circle.pair_corrections(c, pairs.data(), pairs.size(), mode, sums);
    return t.circle_circle.apply_corrections(sums, c);
}

} // namespace detail

void distance_squared(circles_cview a, circles_cview b, std::span<float> out) {
    distance_squared_with(detail::active_table(), a, b, out);
}
std::size_t overlap(circles_cview a, circles_cview b, std::span<std::uint8_t> mask) {
    return overlap_with(detail::active_table(), a, b, mask, true);
}
std::size_t count_overlaps(circles_cview a, circles_cview b) {
    return overlap_with(detail::active_table(), a, b, {}, false);
}
std::size_t contact(circles_cview a, circles_cview b, contacts_view out) {
    return contact_with(detail::active_table(), a, b, out);
}
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out,
                    separation_workspace& workspace) {
    return pair_contact_with(detail::active_table(), circles, pairs, out, workspace);
}
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out) {
    separation_workspace workspace;
    return pair_contact_with(detail::active_table(), circles, pairs, out, workspace);
}
std::size_t separate(particles_view a, particles_view b, separation_weighting mode) {
    return separate_with(detail::active_table(), a, b, mode);
}
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode, separation_workspace& workspace) {
    return separate_list_with(detail::active_table(), circles, pairs, mode, workspace);
}
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode) {
    separation_workspace workspace;
    return separate_list_with(detail::active_table(), circles, pairs, mode, workspace);
}

void distance_squared(circles_cview a, circles_cview b, std::span<float> out, const workers& w) {
    distance_squared_with(detail::active_table(), a, b, out, detail::runner_of(w));
}
std::size_t overlap(circles_cview a, circles_cview b, std::span<std::uint8_t> mask,
                    const workers& w) {
    return overlap_with(detail::active_table(), a, b, mask, true, detail::runner_of(w));
}
std::size_t count_overlaps(circles_cview a, circles_cview b, const workers& w) {
    return overlap_with(detail::active_table(), a, b, {}, false, detail::runner_of(w));
}
std::size_t contact(circles_cview a, circles_cview b, contacts_view out, const workers& w) {
    return contact_with(detail::active_table(), a, b, out, detail::runner_of(w));
}
std::size_t separate(particles_view a, particles_view b, separation_weighting mode,
                     const workers& w) {
    return separate_with(detail::active_table(), a, b, mode, detail::runner_of(w));
}

namespace reference {
void distance_squared(circles_cview a, circles_cview b, std::span<float> out) {
    distance_squared_with(detail::reference_table(), a, b, out);
}
std::size_t overlap(circles_cview a, circles_cview b, std::span<std::uint8_t> mask) {
    return overlap_with(detail::reference_table(), a, b, mask, true);
}
std::size_t count_overlaps(circles_cview a, circles_cview b) {
    return overlap_with(detail::reference_table(), a, b, {}, false);
}
std::size_t contact(circles_cview a, circles_cview b, contacts_view out) {
    return contact_with(detail::reference_table(), a, b, out);
}
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out,
                    separation_workspace& workspace) {
    return pair_contact_with(detail::reference_table(), circles, pairs, out, workspace);
}
std::size_t contact(circles_cview circles, std::span<const circle_pair> pairs, contacts_view out) {
    separation_workspace workspace;
    return pair_contact_with(detail::reference_table(), circles, pairs, out, workspace);
}
std::size_t separate(particles_view a, particles_view b, separation_weighting mode) {
    return separate_with(detail::reference_table(), a, b, mode);
}
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode, separation_workspace& workspace) {
    return separate_list_with(detail::reference_table(), circles, pairs, mode, workspace);
}
std::size_t separate(particles_view circles, std::span<const circle_pair> pairs,
                     separation_weighting mode) {
    separation_workspace workspace;
    return separate_list_with(detail::reference_table(), circles, pairs, mode, workspace);
}
} // namespace reference

} // namespace simdcollide
