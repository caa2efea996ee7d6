// Sensors (world_events.hpp): each sensor's circles and dynamic boxes found by the region
// queries (queries.hpp) after the step, a sensor a task, and compared with the last step's.
#include "world/world_events.hpp"
#include "world/world_state.hpp"

#include "runtime/tasks.hpp"
#include "world/world_dynamic_boxes.hpp"
#include "world/world_errors.hpp"
#include "world/world_filters.hpp"
#include "world/world_slots.hpp"

#include <simdcollide/queries.hpp>
#include <simdcollide/validate.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
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

void detail::find_sensor_events(world_sensors& sensors, const circle_fields& circles,
                                const dynamic_boxes& dynamic, const world_filters& filters,
                                const task_runner& tasks) {
    sensors.last.began.clear();
    sensors.last.ended.clear();
    const std::size_t n = sensors.count();
    if (n == 0) {
        return;
    }
    const aabb_set boxes = dynamic.all_bounds();
    const circles_cview c{circles.x.data(), circles.y.data(), circles.radius.data(),
                          circles.size()};
    sensors.now.resize(n);
    for_each_item(tasks, n, [&](std::size_t s) {
        std::vector<shape_ref>& out = sensors.now[s];
        out.clear();
        const collision_filter& f = sensors.filter[s];
        std::vector<std::uint32_t> found;
        circles_in_region(c, sensors.box[s], found);
        for (const std::uint32_t i : found) {
            if (collide(f, filters.circle_category[i], filters.circle_mask[i])) {
                out.push_back({shape_kind::circle, i});
            }
        }
        boxes_in_region(boxes.view(), sensors.box[s], found);
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
