// A pair list cut for workers (pair_groups.hpp, pair_blocks), and separate_in_order over it:
// the world's schedule (pair_schedule.hpp) offered on its own.
#include "broad_phase/pair_schedule.hpp"
#include "broad_phase/separate_in_order.hpp"
#include "pairwise/kernel_table.hpp"
#include "pairwise/pair_list.hpp"
#include "runtime/arguments.hpp"
#include "runtime/circle_blocks.hpp"
#include "runtime/tasks.hpp"

#include <simdcollide/pair_groups.hpp>

#include <stdexcept>
#include <string>

namespace simdcollide {

pair_blocks::pair_blocks() = default;
pair_blocks::~pair_blocks() = default;
pair_blocks::pair_blocks(const pair_blocks& other)
    : schedule_(other.schedule_ ? std::make_unique<detail::pair_schedule>(*other.schedule_)
                                : nullptr) {}
pair_blocks& pair_blocks::operator=(const pair_blocks& other) {
    if (this != &other) {
        schedule_ =
            other.schedule_ ? std::make_unique<detail::pair_schedule>(*other.schedule_) : nullptr;
    }
    return *this;
}
pair_blocks::pair_blocks(pair_blocks&& other) noexcept = default;
pair_blocks& pair_blocks::operator=(pair_blocks&& other) noexcept = default;

namespace {

// What cut() takes: each pair (a, b) with a < b < n, ascending by (a, b), none twice; a
// block size of 0 or a power of two from 1024 to 2^20.
void check_cut(std::span<const circle_pair> pairs, std::size_t n, std::size_t block) {
    const std::string where = "simdcollide::pair_blocks::cut: ";
    if (!detail::block_size_allowed(block)) {
        throw std::invalid_argument(where + "block_circles is " + std::to_string(block) +
                                    ", must be 0 or a power of two from 1024 to 2^20");
    }
    if (n >= (std::size_t{1} << 32)) {
        throw std::invalid_argument(where + "circle_count is " + std::to_string(n) +
                                    ", must be below 2^32 (pairs name circles in 32 bits)");
    }
    const auto named = [&](std::size_t k) {
        return "pair " + std::to_string(k) + " (" + std::to_string(pairs[k].a) + ", " +
               std::to_string(pairs[k].b) + ")";
    };
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const circle_pair q = pairs[k];
        if (!(q.a < q.b) || q.b >= n) {
            throw std::invalid_argument(where + named(k) + " must have a < b < circle_count (" +
                                        std::to_string(n) + ")");
        }
        if (k > 0 && !(pairs[k - 1].a < q.a || (pairs[k - 1].a == q.a && pairs[k - 1].b < q.b))) {
            throw std::invalid_argument(where + named(k) +
                                        " does not follow the pair before it: the list must "
                                        "ascend by first then second circle, each pair once");
        }
    }
}

void cut_on(std::unique_ptr<detail::pair_schedule>& schedule, std::span<const circle_pair> pairs,
            std::size_t n, std::size_t block, const detail::task_runner& tasks) {
    check_cut(pairs, n, block);
    auto made = std::make_unique<detail::pair_schedule>();
    made->build(pairs, n, {}, true, tasks, block);
    schedule = std::move(made);
}

// The parts in their waves (pair_schedule.hpp), each part's rounds on table t.
void separate_blocks_with(const detail::kernel_table& t, particles_view c,
                          const pair_blocks& blocks, separation_weighting mode, int rounds,
                          separation_workspace& workspace, const detail::task_runner& tasks) {
    detail::require_in_order_arguments(c, blocks.circle_count(), rounds);
    if (blocks.blocks() == 0 || rounds == 0) {
        return;
    }
    float* const scratch = detail::scratch_of(workspace, 4 * c.count);
    const detail::pair_schedule& schedule = detail::schedule_of(blocks);
    // A part's circles as a view of their own, and its scratch: 4 floats a circle from its
    // first, so that parts side by side use their own.
    const auto separate = [&](const detail::pair_part& part) {
        if (part.pairs.empty()) {
            return;
        }
        const pair_groups& groups = part.grouper.groups();
        t.world.separate_in_order(detail::circles_of(c, {part.first, part.end}),
                                  groups.pairs().data(), groups.ends().data(), groups.ends().size(),
                                  mode, rounds, scratch + 4 * std::size_t{part.first});
    };
    detail::in_waves(tasks, schedule,
                     [&](const detail::pair_part& part, std::size_t) { separate(part); });
}

} // namespace

void pair_blocks::cut(std::span<const circle_pair> pairs, std::size_t circle_count,
                      std::size_t block_circles) {
    cut_on(schedule_, pairs, circle_count, block_circles, {});
}
void pair_blocks::cut(std::span<const circle_pair> pairs, std::size_t circle_count,
                      std::size_t block_circles, const workers& w) {
    cut_on(schedule_, pairs, circle_count, block_circles, detail::runner_of(w));
}
std::size_t pair_blocks::circle_count() const noexcept {
    return schedule_ ? schedule_->circle_count() : 0;
}
std::size_t pair_blocks::block_circles() const noexcept {
    return schedule_ ? schedule_->block_circles() : 0;
}
std::size_t pair_blocks::blocks() const noexcept {
    return schedule_ ? schedule_->blocks() : 0;
}
std::size_t pair_blocks::far_pairs() const noexcept {
    return schedule_ ? schedule_->far().pairs.size() : 0;
}

const detail::pair_schedule& detail::schedule_of(const pair_blocks& blocks) noexcept {
    static const detail::pair_schedule none;
    return blocks.schedule_ ? *blocks.schedule_ : none;
}

void separate_in_order(particles_view circles, const pair_blocks& blocks, separation_weighting mode,
                       int rounds, separation_workspace& workspace, const workers& w) {
    separate_blocks_with(detail::active_table(), circles, blocks, mode, rounds, workspace,
                         detail::runner_of(w));
}
void separate_in_order(particles_view circles, const pair_blocks& blocks, separation_weighting mode,
                       int rounds, const workers& w) {
    separation_workspace workspace;
    separate_in_order(circles, blocks, mode, rounds, workspace, w);
}
void separate_in_order(particles_view circles, const pair_blocks& blocks, separation_weighting mode,
                       int rounds) {
    separation_workspace workspace;
    separate_blocks_with(detail::active_table(), circles, blocks, mode, rounds, workspace, {});
}

namespace reference {
void separate_in_order(particles_view circles, const pair_blocks& blocks, separation_weighting mode,
                       int rounds) {
    separation_workspace workspace;
    separate_blocks_with(detail::reference_table(), circles, blocks, mode, rounds, workspace, {});
}
} // namespace reference

} // namespace simdcollide
