// Sleep (world_sleep.hpp): the world's rest time from its fastest moving body after each
// step, and the check before a step that nothing woke it.
#include "world/world_sleep.hpp"

#include "world/world_dynamic_boxes.hpp"
#include "world/world_kinematic.hpp"
#include "world/world_slots.hpp"

#include <cstddef>
#include <cstring>
#include <vector>

namespace simdcollide {

namespace {

// x, y, vx and vy of every body, a field after the other.
template <class Fields>
void snapshot(const Fields& f, std::vector<float>& out) {
    out.clear();
    for (const auto* field : {&f.x, &f.y, &f.vx, &f.vy}) {
        out.insert(out.end(), field->data(), field->data() + field->size());
    }
}

// Whether the bodies' x, y, vx and vy are, bit for bit, those of `was`.
template <class Fields>
bool same_as(const Fields& f, const std::vector<float>& was) {
    const std::size_t n = f.x.size();
    if (was.size() != 4 * n) {
        return false;
    }
    std::size_t at = 0;
    for (const auto* field : {&f.x, &f.y, &f.vx, &f.vy}) {
        if (n > 0 && std::memcmp(field->data(), was.data() + at, n * sizeof(float)) != 0) {
            return false;
        }
        at += n;
    }
    return true;
}

// Whether every body with an inverse mass above 0 is slower than `speed`.
template <class Fields>
bool all_slower(const Fields& f, float speed) {
    const double limit = static_cast<double>(speed) * speed;
    for (std::size_t i = 0; i < f.x.size(); ++i) {
        const double vx = f.vx[i];
        const double vy = f.vy[i];
        if (f.inverse_mass[i] > 0.0F && !(vx * vx + vy * vy < limit)) {
            return false;
        }
    }
    return true;
}

template <class Fields>
void stop(Fields& f) {
    for (std::size_t i = 0; i < f.x.size(); ++i) {
        if (f.inverse_mass[i] > 0.0F) {
            f.vx[i] = 0.0F;
            f.vy[i] = 0.0F;
        }
    }
}

} // namespace

bool detail::kinematic_boxes_move(const kinematic_boxes& kinematic) noexcept {
    for (std::size_t b = 0; b < kinematic.count(); ++b) {
        if (kinematic.moving[b] != 0 || kinematic.vx[b] != 0.0F || kinematic.vy[b] != 0.0F) {
            return true;
        }
    }
    return false;
}

bool detail::world_sleep::stays_asleep(bool edited, bool kinematic_moves,
                                       const circle_fields& circles_now,
                                       const dynamic_boxes& dynamic,
                                       const kinematic_boxes& kinematic) {
    if (!asleep) {
        return false;
    }
    if (!edited && !kinematic_moves && kinematic.count() == kinematic_count &&
        same_as(circles_now, circles) && same_as(dynamic, boxes)) {
        return true;
    }
    asleep = false;
    rest = 0.0F;
    circles.clear();
    boxes.clear();
    return false;
}

void detail::world_sleep::after_step(const world_options& options, float dt, bool kinematic_moved,
                                     circle_fields& circles_now, dynamic_boxes& dynamic,
                                     const kinematic_boxes& kinematic) {
    if (!options.sleep) {
        return;
    }
    const bool resting = !kinematic_moved && all_slower(circles_now, options.sleep_speed) &&
                         all_slower(dynamic, options.sleep_speed);
    rest = resting ? rest + dt : 0.0F;
    if (!(rest >= options.sleep_time)) {
        return;
    }
    stop(circles_now);
    stop(dynamic);
    snapshot(circles_now, circles);
    snapshot(dynamic, boxes);
    kinematic_count = kinematic.count();
    asleep = true;
    ++falls;
}

} // namespace simdcollide
