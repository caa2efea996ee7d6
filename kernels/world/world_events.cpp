// Contact events (world_events.hpp): the step's contacts tested as the step leaves their
// shapes and compared with the last step's: the circle pairs by slot, in the lists' order,
// the others in shape order; the changes then named by the caller's indices.
#include "world/world_events.hpp"

#include "runtime/tasks.hpp"
#include "world/solver/contacts.hpp"
#include "world/world_boxes.hpp"
#include "world/world_dynamic_boxes.hpp"
#include "world/world_kinematic.hpp"
#include "world/world_slots.hpp"
#include "world/world_solve.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace simdcollide {

namespace {

using detail::dynamic_boxes;
using detail::kinematic_boxes;
using detail::world_boxes;

bool ref_less(const shape_ref& l, const shape_ref& r) {
    return l.kind != r.kind ? l.kind < r.kind : l.index < r.index;
}

shape_pair ordered(shape_ref a, shape_ref b) {
    return ref_less(b, a) ? shape_pair{b, a} : shape_pair{a, b};
}

struct pair_less {
    bool operator()(const shape_pair& l, const shape_pair& r) const noexcept {
        if (l.a.kind != r.a.kind) {
            return l.a.kind < r.a.kind;
        }
        if (l.a.index != r.a.index) {
            return l.a.index < r.a.index;
        }
        return l.b.kind != r.b.kind ? l.b.kind < r.b.kind : l.b.index < r.b.index;
    }
};

// Box bounds as (min x, min y, max x, max y).
struct bounds {
    float min_x, min_y, max_x, max_y;
};

// The shapes of the step's bodies and fixed boxes as the step leaves them. Bodies: circles
// by slot, then the dynamic boxes; fixed boxes: the static ones, then the kinematic ones.
struct step_shapes {
    const detail::circle_slots& slots;
    const world_boxes& boxes;
    const kinematic_boxes& kinematic;
    const dynamic_boxes& dynamic;

    [[nodiscard]] std::uint32_t circles() const noexcept {
        return static_cast<std::uint32_t>(slots.size());
    }
    [[nodiscard]] bool is_circle(std::uint32_t body) const noexcept { return body < circles(); }
    [[nodiscard]] shape_ref body_ref(std::uint32_t body) const noexcept {
        return is_circle(body) ? shape_ref{shape_kind::circle, slots.circle_of_slot[body]}
                               : shape_ref{shape_kind::dynamic_box, body - circles()};
    }
    [[nodiscard]] shape_ref fixed_ref(std::uint32_t box) const noexcept {
        const auto statics = static_cast<std::uint32_t>(boxes.count());
        return box < statics ? shape_ref{shape_kind::static_box, box}
                             : shape_ref{shape_kind::kinematic_box, box - statics};
    }
    [[nodiscard]] bounds body_bounds(std::uint32_t body) const noexcept {
        const aabb b = dynamic.bounds(body - circles());
        return {b.min_x, b.min_y, b.max_x, b.max_y};
    }
    [[nodiscard]] bounds fixed_bounds(std::uint32_t box) const noexcept {
        const auto statics = static_cast<std::uint32_t>(boxes.count());
        if (box < statics) {
            const aabbs_view v = boxes.grid.boxes();
            return {v.min_x[box], v.min_y[box], v.max_x[box], v.max_y[box]};
        }
        const std::uint32_t k = box - statics;
        return {kinematic.min_x[k], kinematic.min_y[k], kinematic.max_x[k], kinematic.max_y[k]};
    }
};

// Closed shapes: touching counts. In double, so that no rounding decides a touch.
bool circles_touch(const detail::circle_slots& s, std::uint32_t a, std::uint32_t b) {
    const double dx = static_cast<double>(s.x[b]) - s.x[a];
    const double dy = static_cast<double>(s.y[b]) - s.y[a];
    const double r = static_cast<double>(s.radius[a]) + s.radius[b];
    return dx * dx + dy * dy <= r * r;
}

bool circle_touches_box(const detail::circle_slots& s, std::uint32_t c, const bounds& b) {
    const double x = s.x[c];
    const double y = s.y[c];
    const double dx = x - std::clamp(x, static_cast<double>(b.min_x), static_cast<double>(b.max_x));
    const double dy = y - std::clamp(y, static_cast<double>(b.min_y), static_cast<double>(b.max_y));
    const double r = s.radius[c];
    return dx * dx + dy * dy <= r * r;
}

bool boxes_touch(const bounds& l, const bounds& r) {
    return l.min_x <= r.max_x && r.min_x <= l.max_x && l.min_y <= r.max_y && r.min_y <= l.max_y;
}

// Where a hit meets at the step's end: on the circle's boundary along the normal, or the
// middle of two boxes' overlap.
void circle_point(const detail::circle_slots& s, std::uint32_t c, float toward_x, float toward_y,
                  contact_hit& hit) {
    hit.point_x = s.x[c] + toward_x * s.radius[c];
    hit.point_y = s.y[c] + toward_y * s.radius[c];
}

void box_point(const bounds& l, const bounds& r, contact_hit& hit) {
    hit.point_x = 0.5F * (std::max(l.min_x, r.min_x) + std::min(l.max_x, r.max_x));
    hit.point_y = 0.5F * (std::max(l.min_y, r.min_y) + std::min(l.max_y, r.max_y));
}

template <class Contacts>
bool is_hit(const Contacts& c, std::size_t k, float hit_speed) {
    return c.approach[k] < -hit_speed && c.max_normal[k] > 0.0F;
}

// A pair in shape order, with the normal turned where its ends swap.
void add_hit(shape_ref a, shape_ref b, float nx, float ny, float speed, contact_hit hit,
             std::vector<contact_hit>& hits) {
    const bool swap = ref_less(b, a);
    hit.shapes = swap ? shape_pair{b, a} : shape_pair{a, b};
    hit.normal_x = swap ? -nx : nx;
    hit.normal_y = swap ? -ny : ny;
    hit.speed = speed;
    hits.push_back(hit);
}

// Body pairs (circles with circles, and with or between dynamic boxes): the normal from a to b.
void body_pairs(const step_shapes& shapes, const detail::pair_contacts& c, float hit_speed,
                std::vector<shape_pair>& touching, std::vector<contact_hit>& hits) {
    const detail::circle_slots& s = shapes.slots;
    for (std::size_t k = 0; k < c.size(); ++k) {
        const std::uint32_t a = c.a[k];
        const std::uint32_t b = c.b[k];
        const bool touch = shapes.is_circle(b) ? circles_touch(s, a, b)
                           : shapes.is_circle(a)
                               ? circle_touches_box(s, a, shapes.body_bounds(b))
                               : boxes_touch(shapes.body_bounds(a), shapes.body_bounds(b));
        const shape_ref ra = shapes.body_ref(a);
        const shape_ref rb = shapes.body_ref(b);
        if (touch) {
            touching.push_back(ordered(ra, rb));
        }
        if (is_hit(c, k, hit_speed)) {
            contact_hit hit;
            if (shapes.is_circle(a)) {
                circle_point(s, a, c.normal_x[k], c.normal_y[k], hit);
            } else {
                box_point(shapes.body_bounds(a), shapes.body_bounds(b), hit);
            }
            add_hit(ra, rb, c.normal_x[k], c.normal_y[k], -c.approach[k], hit, hits);
        }
    }
}

// A body (circle or dynamic box) with a fixed box: the normal from the box to the body.
void fixed_pairs(const step_shapes& shapes, const detail::box_contacts& c, float hit_speed,
                 std::vector<shape_pair>& touching, std::vector<contact_hit>& hits) {
    const detail::circle_slots& s = shapes.slots;
    for (std::size_t k = 0; k < c.size(); ++k) {
        const std::uint32_t body = c.circle[k];
        const bounds box = shapes.fixed_bounds(c.box[k]);
        const bool circle = shapes.is_circle(body);
        const bool touch =
            circle ? circle_touches_box(s, body, box) : boxes_touch(shapes.body_bounds(body), box);
        const shape_ref rbody = shapes.body_ref(body);
        const shape_ref rbox = shapes.fixed_ref(c.box[k]);
        if (touch) {
            touching.push_back(ordered(rbody, rbox));
        }
        if (is_hit(c, k, hit_speed)) {
            contact_hit hit;
            if (circle) {
                circle_point(s, body, -c.normal_x[k], -c.normal_y[k], hit);
            } else {
                box_point(box, shapes.body_bounds(body), hit);
            }
            add_hit(rbox, rbody, c.normal_x[k], c.normal_y[k], -c.approach[k], hit, hits);
        }
    }
}

bool hit_less(const contact_hit& l, const contact_hit& r) {
    return pair_less{}(l.shapes, r.shapes);
}

std::uint64_t key_of(std::uint32_t a, std::uint32_t b) {
    return std::uint64_t{a} << 32 | b;
}

shape_pair circles_of(std::uint64_t key, std::span<const std::uint32_t> circle_of_slot) {
    const std::uint32_t a = circle_of_slot[static_cast<std::uint32_t>(key >> 32)];
    const std::uint32_t b = circle_of_slot[static_cast<std::uint32_t>(key)];
    return {{shape_kind::circle, std::min(a, b)}, {shape_kind::circle, std::max(a, b)}};
}

// The listed circle pairs that touch, appended to `keys` as keys (slot a << 32 | slot b), in
// the lists' order, which is the keys' and reads the slots in memory order; most of a pile's
// pairs touch and many do not, so each key is written and kept where it touches, without a
// branch on it.
void touching_circles(const detail::circle_slots& s, std::span<const circle_pair> listed,
                      std::vector<std::uint64_t>& keys) {
    const std::size_t first = keys.size();
    keys.resize(first + listed.size());
    std::size_t kept = first;
    for (const circle_pair p : listed) {
        keys[kept] = key_of(p.a, p.b);
        kept += circles_touch(s, p.a, p.b) ? 1 : 0;
    }
    keys.resize(kept);
}

// The circle pairs' contacts that hit, a few.
void circle_hits(const detail::circle_slots& s, const detail::pair_contacts& c, float hit_speed,
                 std::vector<contact_hit>& hits) {
    for (std::size_t k = 0; k < c.size(); ++k) {
        if (!is_hit(c, k, hit_speed)) {
            continue;
        }
        const std::uint32_t ca = s.circle_of_slot[c.a[k]];
        const std::uint32_t cb = s.circle_of_slot[c.b[k]];
        contact_hit h;
        circle_point(s, c.a[k], c.normal_x[k], c.normal_y[k], h);
        add_hit({shape_kind::circle, ca}, {shape_kind::circle, cb}, c.normal_x[k], c.normal_y[k],
                -c.approach[k], h, hits);
    }
}

// What is in `now` and not in `was` (both sorted) into `began`, what is in `was` and not in
// `now` into `ended`.
template <class T, class Less, class Began, class Ended>
void compare(const std::vector<T>& was, const std::vector<T>& now, Less less, Began began,
             Ended ended) {
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < now.size() || j < was.size()) {
        if (j == was.size() || (i < now.size() && less(now[i], was[j]))) {
            began(now[i++]);
        } else if (i == now.size() || less(was[j], now[i])) {
            ended(was[j++]);
        } else {
            ++i;
            ++j;
        }
    }
}

} // namespace

detail::shape_renumbering
detail::shape_renumbering::of_marked(shape_kind kind, std::span<const std::uint8_t> doomed) {
    shape_renumbering r{kind, std::vector<std::uint32_t>(doomed.size())};
    std::uint32_t kept = 0;
    for (std::size_t i = 0; i < doomed.size(); ++i) {
        r.new_index[i] = doomed[i] != 0 ? no_shape : kept++;
    }
    return r;
}

detail::shape_renumbering detail::shape_renumbering::of_one(shape_kind kind, std::size_t index,
                                                            std::size_t count) {
    std::vector<std::uint8_t> doomed(count);
    doomed[index] = 1;
    return of_marked(kind, doomed);
}

bool detail::shape_renumbering::apply(shape_ref& r) const noexcept {
    if (r.kind != kind) {
        return true;
    }
    if (r.index >= new_index.size() || new_index[r.index] == no_shape) {
        return false;
    }
    r.index = new_index[r.index];
    return true;
}

void detail::world_events::to_circles(std::span<const std::uint32_t> circle_of_slot) {
    if (!in_slots) {
        return;
    }
    for (std::uint64_t& key : circle_keys) {
        const shape_pair p = circles_of(key, circle_of_slot);
        key = key_of(p.a.index, p.b.index);
    }
    in_slots = false;
}

void detail::world_events::renumber(const shape_renumbering& r,
                                    std::span<const std::uint32_t> circle_of_slot) {
    std::erase_if(others, [&](shape_pair& p) { return !(r.apply(p.a) && r.apply(p.b)); });
    if (r.kind != shape_kind::circle) {
        return;
    }
    to_circles(circle_of_slot);
    std::erase_if(circle_keys, [&](std::uint64_t& key) {
        shape_ref a{shape_kind::circle, static_cast<std::uint32_t>(key >> 32)};
        shape_ref b{shape_kind::circle, static_cast<std::uint32_t>(key)};
        if (!(r.apply(a) && r.apply(b))) {
            return true;
        }
        key = key_of(a.index, b.index); // the order of the circles kept is kept
        return false;
    });
}

void detail::world_events::forget(shape_kind kind) {
    std::erase_if(others,
                  [&](const shape_pair& p) { return p.a.kind == kind || p.b.kind == kind; });
}

std::vector<shape_pair>
detail::world_events::touching(std::span<const std::uint32_t> circle_of_slot) const {
    std::vector<shape_pair> all;
    all.reserve(circle_keys.size() + others.size());
    for (const std::uint64_t key : circle_keys) {
        all.push_back(in_slots
                          ? circles_of(key, circle_of_slot)
                          : shape_pair{{shape_kind::circle, static_cast<std::uint32_t>(key >> 32)},
                                       {shape_kind::circle, static_cast<std::uint32_t>(key)}});
    }
    all.insert(all.end(), others.begin(), others.end());
    std::sort(all.begin(), all.end(), pair_less{});
    return all;
}

void detail::find_contact_events(world_events& events, const solver_state& solver,
                                 std::span<const circle_pair> pairs, const circle_slots& slots,
                                 const world_boxes& boxes, const kinematic_boxes& kinematic,
                                 const dynamic_boxes& dynamic, const task_runner& tasks) {
    contact_events& last = events.last;
    last.began.clear();
    last.ended.clear();
    last.hits.clear();
    // The last step's circle pairs in this step's slots, where these changed.
    if (!events.in_slots) {
        for (std::uint64_t& key : events.circle_keys) {
            const std::uint32_t a = slots.slot_of_circle[static_cast<std::uint32_t>(key >> 32)];
            const std::uint32_t b = slots.slot_of_circle[static_cast<std::uint32_t>(key)];
            key = key_of(std::min(a, b), std::max(a, b));
        }
        std::sort(events.circle_keys.begin(), events.circle_keys.end());
        events.in_slots = true;
    }
    // The circle pairs in blocks on the workers, joined in the lists' order.
    std::vector<std::uint64_t>& keys = events.now_keys;
    join_in_blocks(tasks, pairs.size(), items_per_task, events.keys_of_block, keys,
                   [&](std::size_t first, std::size_t end, std::vector<std::uint64_t>& out,
                       std::size_t /*block*/) {
                       touching_circles(slots, pairs.subspan(first, end - first), out);
                   });
    circle_hits(slots, solver.pairs, events.hit_speed, last.hits);
    std::vector<shape_pair>& others = events.now_others;
    others.clear();
    const step_shapes shapes{slots, boxes, kinematic, dynamic};
    fixed_pairs(shapes, solver.boxes, events.hit_speed, others, last.hits);
    body_pairs(shapes, solver.dynamic_pairs, events.hit_speed, others, last.hits);
    fixed_pairs(shapes, solver.dynamic_fixed, events.hit_speed, others, last.hits);
    std::sort(others.begin(), others.end(), pair_less{});
    std::sort(last.hits.begin(), last.hits.end(), hit_less);
    // A step changes few touches: the changes are found in the slots' order, then named and
    // put in shape order.
    const std::span<const std::uint32_t> circle_of_slot = slots.circle_of_slot;
    compare(
        events.circle_keys, keys, std::less<>{},
        [&](std::uint64_t key) { last.began.push_back(circles_of(key, circle_of_slot)); },
        [&](std::uint64_t key) { last.ended.push_back(circles_of(key, circle_of_slot)); });
    compare(
        events.others, others, pair_less{}, [&](const shape_pair& p) { last.began.push_back(p); },
        [&](const shape_pair& p) { last.ended.push_back(p); });
    std::sort(last.began.begin(), last.began.end(), pair_less{});
    std::sort(last.ended.begin(), last.ended.end(), pair_less{});
    events.circle_keys.swap(keys);
    events.others.swap(others);
}

} // namespace simdcollide
