// Contact events (world_events.hpp): the step's contacts tested as the step leaves their
// shapes, under the caller's indices, sorted, and compared with the last step's.
#include "world/world_events.hpp"

#include "world/solver/contacts.hpp"
#include "world/world_boxes.hpp"
#include "world/world_dynamic_boxes.hpp"
#include "world/world_kinematic.hpp"
#include "world/world_slots.hpp"
#include "world/world_solve.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace simdcollide {

namespace {

using detail::dynamic_boxes;
using detail::kinematic_boxes;
using detail::ranked_pair;
using detail::world_boxes;

// Shape order as one number: circles, then static, kinematic and dynamic boxes, each kind
// by index.
struct shape_ranks {
    std::uint32_t first[4];

    [[nodiscard]] std::uint32_t of(shape_ref r) const noexcept {
        return first[static_cast<int>(r.kind)] + r.index;
    }
    [[nodiscard]] shape_ref ref(std::uint32_t rank) const noexcept {
        int kind = 3;
        while (rank < first[kind]) {
            --kind;
        }
        return {static_cast<shape_kind>(kind), rank - first[kind]};
    }
};

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
void add_hit(const shape_ranks& ranks, shape_ref a, shape_ref b, float nx, float ny, float speed,
             contact_hit hit, std::vector<contact_hit>& hits) {
    const bool swap = ranks.of(b) < ranks.of(a);
    hit.shapes = swap ? shape_pair{b, a} : shape_pair{a, b};
    hit.normal_x = swap ? -nx : nx;
    hit.normal_y = swap ? -ny : ny;
    hit.speed = speed;
    hits.push_back(hit);
}

void add_touch(const shape_ranks& ranks, shape_ref a, shape_ref b,
               std::vector<ranked_pair>& touching) {
    const std::uint32_t ra = ranks.of(a);
    const std::uint32_t rb = ranks.of(b);
    touching.push_back({std::min(ra, rb), std::max(ra, rb)});
}

// Body pairs (circles with circles, and with or between dynamic boxes): the normal from a to b.
void body_pairs(const step_shapes& shapes, const shape_ranks& ranks, const detail::pair_contacts& c,
                float hit_speed, std::vector<ranked_pair>& touching,
                std::vector<contact_hit>& hits) {
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
            add_touch(ranks, ra, rb, touching);
        }
        if (is_hit(c, k, hit_speed)) {
            contact_hit hit;
            if (shapes.is_circle(a)) {
                circle_point(s, a, c.normal_x[k], c.normal_y[k], hit);
            } else {
                box_point(shapes.body_bounds(a), shapes.body_bounds(b), hit);
            }
            add_hit(ranks, ra, rb, c.normal_x[k], c.normal_y[k], -c.approach[k], hit, hits);
        }
    }
}

// A body (circle or dynamic box) with a fixed box: the normal from the box to the body.
void fixed_pairs(const step_shapes& shapes, const shape_ranks& ranks, const detail::box_contacts& c,
                 float hit_speed, std::vector<ranked_pair>& touching,
                 std::vector<contact_hit>& hits) {
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
            add_touch(ranks, rbody, rbox, touching);
        }
        if (is_hit(c, k, hit_speed)) {
            contact_hit hit;
            if (circle) {
                circle_point(s, body, -c.normal_x[k], -c.normal_y[k], hit);
            } else {
                box_point(box, shapes.body_bounds(body), hit);
            }
            add_hit(ranks, rbox, rbody, c.normal_x[k], c.normal_y[k], -c.approach[k], hit, hits);
        }
    }
}

bool hit_less(const contact_hit& l, const contact_hit& r) {
    return pair_less{}(l.shapes, r.shapes);
}

// The touching pairs as keys (lower rank << 32 | higher rank) in shape order: counted into
// a bucket for each lower rank (a shape touches a few others), each bucket then sorted.
void sort_touching(const std::vector<ranked_pair>& touching, std::uint32_t shapes,
                   std::vector<std::uint32_t>& start, std::vector<std::uint64_t>& keys) {
    start.assign(shapes + 1, 0);
    for (const ranked_pair& p : touching) {
        ++start[p.low + 1];
    }
    for (std::uint32_t r = 0; r < shapes; ++r) {
        start[r + 1] += start[r];
    }
    keys.resize(touching.size());
    for (const ranked_pair& p : touching) {
        keys[start[p.low]++] = std::uint64_t{p.low} << 32 | p.high;
    }
    // start[r] is now the end of bucket r, the beginning of bucket r + 1
    std::uint32_t begin = 0;
    for (std::uint32_t r = 0; r < shapes; ++r) {
        const std::uint32_t end = start[r];
        if (end - begin > 16) {
            std::sort(keys.begin() + begin, keys.begin() + end);
        } else {
            for (std::uint32_t k = begin + 1; k < end; ++k) {
                const std::uint64_t key = keys[k];
                std::uint32_t at = k;
                for (; at > begin && keys[at - 1] > key; --at) {
                    keys[at] = keys[at - 1];
                }
                keys[at] = key;
            }
        }
        begin = end;
    }
}

shape_pair pair_of(const shape_ranks& ranks, std::uint64_t key) {
    return {ranks.ref(static_cast<std::uint32_t>(key >> 32)),
            ranks.ref(static_cast<std::uint32_t>(key))};
}

// Pairs of circles, a circle's rank its index: the listed pairs (those of the contacts) in
// their order, by slot, which reads the slots in order; most of a pile's pairs touch and many
// do not, so each is written and kept where it touches, without a branch on it. Then the
// contacts' hits, a few.
void circle_pairs(const detail::circle_slots& s, std::span<const circle_pair> listed,
                  const detail::pair_contacts& c, float hit_speed,
                  std::vector<ranked_pair>& touching, std::vector<contact_hit>& hits) {
    const std::size_t first = touching.size();
    touching.resize(first + listed.size());
    ranked_pair* out = touching.data() + first;
    std::size_t kept = 0;
    for (const circle_pair p : listed) {
        const std::uint32_t ca = s.circle_of_slot[p.a];
        const std::uint32_t cb = s.circle_of_slot[p.b];
        out[kept] = {std::min(ca, cb), std::max(ca, cb)};
        kept += circles_touch(s, p.a, p.b) ? 1 : 0;
    }
    touching.resize(first + kept);
    for (std::size_t k = 0; k < c.size(); ++k) {
        if (!is_hit(c, k, hit_speed)) {
            continue;
        }
        const std::uint32_t ca = s.circle_of_slot[c.a[k]];
        const std::uint32_t cb = s.circle_of_slot[c.b[k]];
        contact_hit h;
        circle_point(s, c.a[k], c.normal_x[k], c.normal_y[k], h);
        const shape_ref ra{shape_kind::circle, ca};
        const shape_ref rb{shape_kind::circle, cb};
        h.shapes = ca < cb ? shape_pair{ra, rb} : shape_pair{rb, ra};
        h.normal_x = ca < cb ? c.normal_x[k] : -c.normal_x[k];
        h.normal_y = ca < cb ? c.normal_y[k] : -c.normal_y[k];
        h.speed = -c.approach[k];
        hits.push_back(h);
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

void detail::world_events::renumber(const shape_renumbering& r) {
    std::erase_if(touching, [&](shape_pair& p) { return !(r.apply(p.a) && r.apply(p.b)); });
}

void detail::world_events::forget(shape_kind kind) {
    std::erase_if(touching,
                  [&](const shape_pair& p) { return p.a.kind == kind || p.b.kind == kind; });
}

void detail::find_contact_events(world_events& events, const solver_state& solver,
                                 std::span<const circle_pair> pairs, const circle_slots& slots,
                                 const world_boxes& boxes, const kinematic_boxes& kinematic,
                                 const dynamic_boxes& dynamic) {
    contact_events& last = events.last;
    last.began.clear();
    last.ended.clear();
    last.hits.clear();
    const step_shapes shapes{slots, boxes, kinematic, dynamic};
    const auto circles = static_cast<std::uint32_t>(slots.size());
    const auto statics = static_cast<std::uint32_t>(boxes.count());
    const auto kinematics = static_cast<std::uint32_t>(kinematic.min_x.size());
    const shape_ranks ranks{{0, circles, circles + statics, circles + statics + kinematics}};
    const auto all = static_cast<std::uint32_t>(circles + statics + kinematics + dynamic.count());
    std::vector<ranked_pair>& found = events.found;
    found.clear();
    circle_pairs(slots, pairs, solver.pairs, events.hit_speed, found, last.hits);
    fixed_pairs(shapes, ranks, solver.boxes, events.hit_speed, found, last.hits);
    body_pairs(shapes, ranks, solver.dynamic_pairs, events.hit_speed, found, last.hits);
    fixed_pairs(shapes, ranks, solver.dynamic_fixed, events.hit_speed, found, last.hits);
    std::vector<std::uint64_t>& now = events.now_keys;
    sort_touching(found, all, events.bucket_start, now);
    std::sort(last.hits.begin(), last.hits.end(), hit_less);
    // The last step's touching under this step's ranks (the counts of shapes change them),
    // compared with this step's in one pass.
    std::vector<std::uint64_t>& was = events.was_keys;
    was.clear();
    for (const shape_pair& p : events.touching) {
        was.push_back(std::uint64_t{ranks.of(p.a)} << 32 | ranks.of(p.b));
    }
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < now.size() || j < was.size()) {
        if (j == was.size() || (i < now.size() && now[i] < was[j])) {
            last.began.push_back(pair_of(ranks, now[i++]));
        } else if (i == now.size() || was[j] < now[i]) {
            last.ended.push_back(pair_of(ranks, was[j++]));
        } else {
            ++i;
            ++j;
        }
    }
    events.touching.clear();
    for (const std::uint64_t key : now) {
        events.touching.push_back(pair_of(ranks, key));
    }
}

} // namespace simdcollide
