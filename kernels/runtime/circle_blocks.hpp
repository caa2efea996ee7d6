// Blocks of circles as items for the workers (tasks.hpp): circles_per_task consecutive
// circles (the world's slots) a block, and a block's circles as a view of their own. The
// cut depends on the circle count alone, so the bits do not depend on the worker count.
#pragma once

#include <simdcollide/soa.hpp>

#include <cstddef>

namespace simdcollide::detail {

/// Slots in a block: enough that a block's work (microseconds) is well above the cost of
/// handing it to a worker, few enough that a pile of some thousand circles has several.
inline constexpr std::size_t circles_per_task = 1024;

/// Blocks for `count` slots.
[[nodiscard]] constexpr std::size_t task_blocks(std::size_t count) noexcept {
    return (count + circles_per_task - 1) / circles_per_task;
}

/// Slots [first, end) of block k of `count`.
struct task_block {
    std::size_t first;
    std::size_t end;
};
[[nodiscard]] constexpr task_block block_of(std::size_t k, std::size_t count) noexcept {
    const std::size_t first = k * circles_per_task;
    return {first, count - first < circles_per_task ? count : first + circles_per_task};
}

/// The circles of block b of a view, as a view of their own (a copy with its pointers
/// moved: no constructor to share).
[[nodiscard]] [[gnu::always_inline]] inline particles_view circles_of(const particles_view& c,
                                                                      task_block b) noexcept {
    particles_view v = c;
    v.x += b.first;
    v.y += b.first;
    v.radius += b.first;
    v.inverse_mass += b.first;
    v.vx += b.first;
    v.vy += b.first;
    v.count = b.end - b.first;
    return v;
}

} // namespace simdcollide::detail
