// Sensors (world_events.hpp): each sensor's circles and dynamic boxes found by the region
// queries after the step, a sensor a task, and compared with the last step's. The circles
// are looked for only in the blocks of slots whose bounds the sensor's box meets.
#include "world/world_events.hpp"
#include "world/world_state.hpp"

#include "pairwise/kernel_table.hpp"
#include "runtime/tasks.hpp"
#include "world/world_dynamic_boxes.hpp"
#include "world/world_errors.hpp"
#include "world/world_filters.hpp"
#include "world/world_slots.hpp"

#include <simdcollide/queries.hpp>
#include <simdcollide/validate.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace simdcollide {

namespace {

bool collide(const collision_filter& f, std::uint64_t category, std::uint64_t mask) {
    return (f.category & mask) != 0 && (category & f.mask) != 0;
}

bool ref_less(const shape_ref& l, const shape_ref& r) {
    return l.kind != r.kind ? l.kind < r.kind : l.index < r.index;
}

// What came in (`began`) and went out of sensor s, as events.
void compare(std::uint32_t s, const std::vector<shape_ref>& was, const std::vector<shape_ref>& is,
             sensor_events& events) {
    std::vector<shape_ref> changed;
    std::set_difference(is.begin(), is.end(), was.begin(), was.end(), std::back_inserter(changed),
                        ref_less);
    for (const shape_ref& r : changed) {
        events.began.push_back({s, r});
    }
    changed.clear();
    std::set_difference(was.begin(), was.end(), is.begin(), is.end(), std::back_inserter(changed),
                        ref_less);
    for (const shape_ref& r : changed) {
        events.ended.push_back({s, r});
    }
}

// The boxes' own check (validate.hpp), its message naming the sensor.
void check_sensor_box(std::size_t index, const aabb& box) {
    const validation v = validate(aabbs_view{&box.min_x, &box.min_y, &box.max_x, &box.max_y, 1});
    if (!v) {
        detail::refuse("sensor " + std::to_string(index) + v.reason.substr(v.reason.find(':')));
    }
}

} // namespace

std::size_t detail::world_state::add_sensor(aabb box, collision_filter filter) {
    const std::size_t index = sensors_.count();
    check_sensor_box(index, box);
    sensors_.box.push_back(box);
    sensors_.filter.push_back(filter);
    sensors_.contents.emplace_back();
    return index;
}

void detail::world_state::move_sensor(std::size_t index, aabb box) {
    detail::require_index("move_sensor", index, sensors_.count(), "sensors");
    check_sensor_box(index, box);
    sensors_.box[index] = box;
}

void detail::world_state::remove_sensor(std::size_t index) {
    detail::require_index("remove_sensor", index, sensors_.count(), "sensors");
    const auto at = static_cast<std::ptrdiff_t>(index);
    sensors_.box.erase(sensors_.box.begin() + at);
    sensors_.filter.erase(sensors_.filter.begin() + at);
    sensors_.contents.erase(sensors_.contents.begin() + at);
}

aabb detail::world_state::sensor_at(std::size_t index) const {
    detail::require_index("sensor_at", index, sensors_.count(), "sensors");
    return sensors_.box[index];
}

std::span<const shape_ref> detail::world_state::sensor_contents(std::size_t index) const {
    detail::require_index("sensor_contents", index, sensors_.count(), "sensors");
    return sensors_.contents[index];
}

void detail::world_sensors::renumber(const shape_renumbering& r) {
    for (std::vector<shape_ref>& c : contents) {
        std::erase_if(c, [&](shape_ref& ref) { return !r.apply(ref); });
    }
}

namespace {

// Slots a block of the circles' bounds covers: a sensor scans the blocks its box meets.
constexpr std::size_t slots_per_bound = 128;

// Each block's bounds: the circles' boxes, grown past what rounding in the region test
// (d^2 <= r^2 in floats) can reach beyond them, (|x| + r) 2^-20 at most for any circle of the
// block, and bounded by nothing where a circle's r^2 is not finite, so that every sensor
// scans that block. A circle whose centre is not a number is never in a region: the
// comparisons pass it over.
void find_slot_bounds(const detail::circle_slots& slots, std::vector<aabb>& bounds,
                      const detail::task_runner& tasks) {
    const std::size_t n = slots.size();
    bounds.resize((n + slots_per_bound - 1) / slots_per_bound);
    detail::for_each_item(tasks, bounds.size(), [&](std::size_t k) {
        constexpr float inf = std::numeric_limits<float>::infinity();
        float lo_x = inf;
        float lo_y = inf;
        float hi_x = -inf;
        float hi_y = -inf;
        float widest = 0.0F;
        const std::size_t end = std::min(n, (k + 1) * slots_per_bound);
        for (std::size_t i = k * slots_per_bound; i < end; ++i) {
            const float r = std::abs(slots.radius[i]);
            const float x = slots.x[i];
            const float y = slots.y[i];
            lo_x = x - r < lo_x ? x - r : lo_x;
            hi_x = x + r > hi_x ? x + r : hi_x;
            lo_y = y - r < lo_y ? y - r : lo_y;
            hi_y = y + r > hi_y ? y + r : hi_y;
            widest = r > widest ? r : widest;
        }
        // |x| + r <= max(|x - r|, |x + r|): the grow covers every circle of the block.
        const float grow_x = std::max(std::abs(lo_x), std::abs(hi_x)) * 0x1p-20F + 1e-18F;
        const float grow_y = std::max(std::abs(lo_y), std::abs(hi_y)) * 0x1p-20F + 1e-18F;
        bounds[k] = std::isfinite(widest * widest)
                        ? aabb{lo_x - grow_x, lo_y - grow_y, hi_x + grow_x, hi_y + grow_y}
                        : aabb{-inf, -inf, inf, inf};
    });
}

bool meet(const aabb& a, const aabb& b) {
    return a.min_x <= b.max_x && b.min_x <= a.max_x && a.min_y <= b.max_y && b.min_y <= a.max_y;
}

} // namespace

void detail::find_sensor_events(world_sensors& sensors, const circle_slots& slots,
                                const dynamic_boxes& dynamic, const world_filters& filters,
                                const kernel_table& kernels, const task_runner& tasks) {
    sensors.last.began.clear();
    sensors.last.ended.clear();
    const std::size_t n = sensors.count();
    if (n == 0) {
        return;
    }
    const aabb_set boxes = dynamic.all_bounds();
    find_slot_bounds(slots, sensors.slot_bounds, tasks);
    sensors.now.resize(n);
    for_each_item(tasks, n, [&](std::size_t s) {
        std::vector<shape_ref>& out = sensors.now[s];
        out.clear();
        const collision_filter& f = sensors.filter[s];
        const aabb& box = sensors.box[s];
        // The circles, by the region kernel over the blocks of slots the box meets, then in
        // the order of their indices.
        std::vector<std::uint32_t> found;
        std::uint8_t in[slots_per_bound];
        for (std::size_t k = 0; k < sensors.slot_bounds.size(); ++k) {
            if (!meet(sensors.slot_bounds[k], box)) {
                continue;
            }
            const std::size_t first = k * slots_per_bound;
            const std::size_t count = std::min(slots.size() - first, slots_per_bound);
            const circles_cview block{slots.x.data() + first, slots.y.data() + first,
                                      slots.radius.data() + first, count};
            if (kernels.queries.circles_in_region(block, box, in) == 0) {
                continue;
            }
            for (std::size_t j = 0; j < count; ++j) {
                if (in[j] != 0) {
                    found.push_back(slots.circle_of_slot[first + j]);
                }
            }
        }
        std::sort(found.begin(), found.end());
        for (const std::uint32_t i : found) {
            if (collide(f, filters.circle_category[i], filters.circle_mask[i])) {
                out.push_back({shape_kind::circle, i});
            }
        }
        boxes_in_region(boxes.view(), box, found);
        for (const std::uint32_t i : found) {
            if (collide(f, filters.dynamic_category[i], filters.dynamic_mask[i])) {
                out.push_back({shape_kind::dynamic_box, i});
            }
        }
    });
    for (std::size_t s = 0; s < n; ++s) {
        compare(static_cast<std::uint32_t>(s), sensors.contents[s], sensors.now[s], sensors.last);
    }
    sensors.contents.swap(sensors.now);
}

} // namespace simdcollide
