// Where a world's steps spend their time, stage by stage (world_solve.cpp's stages): once asked
// (world_state::keep_profile), every step reads a clock as each stage starts, some forty times a
// step, and adds the time to the stage's total. The benchmarks ask (bench_world.cpp,
// SIMDCOLLIDE_BENCH_STAGES); nothing in a step depends on it, and a world not asked reads no clock.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace simdcollide::detail {

enum class step_stage : std::uint8_t {
    sort,                 // into slots, when due
    gather,               // the circles into slot order
    lists,                // kept, relisted or made again; the kinematic boxes' entries
    contacts,             // the contacts made again and coloured, when the lists change
    prepare,              // each contact's normal, separation and masses, once a step
    integrate_velocities, // each substep: gravity
    warm_start,           // each substep: the accumulated impulses applied
    solve,                // each substep: soft contacts, with push-out
    fast_circles,         // each substep: the look for fast circles
    integrate_positions,  // each substep: x += v h
    sweep,                // each substep: continuous collision
    kinematic_sweep,      // each substep: the sweeps against kinematic boxes
    relax,                // each substep: rigid contacts, without push-out
    restitution,          // after the substeps
    scatter,              // the results back to the caller's order
    events,               // contact events and sensors, where asked for
};
inline constexpr std::size_t step_stage_count = 16;

inline constexpr std::array<const char*, step_stage_count> step_stage_names{
    "sort",         "gather",
    "lists",        "contacts",
    "prepare",      "integrate_velocities",
    "warm_start",   "solve",
    "fast_circles", "integrate_positions",
    "sweep",        "kinematic_sweep",
    "relax",        "restitution",
    "scatter",      "events"};

/// Seconds spent in each stage over the steps kept so far, and those steps.
struct step_profile {
    std::array<double, step_stage_count> seconds{};
    std::size_t steps = 0;
};

/// Once kept, adds the time from each enter() to the next one, or to stop(), to the stage
/// entered.
class stage_clock {
public:
    void keep(bool on) noexcept {
        on_ = on;
        running_ = false;
    }
    /// A step begins: a stage left running by a step that threw is dropped.
    void begin_step() noexcept {
        running_ = false;
        profile_.steps += on_ ? 1 : 0;
    }
    void enter(step_stage stage) noexcept {
        if (!on_) {
            return;
        }
        const clock::time_point now = clock::now();
        add_until(now);
        stage_ = stage;
        since_ = now;
        running_ = true;
    }
    void stop() noexcept {
        if (on_) {
            add_until(clock::now());
            running_ = false;
        }
    }
    [[nodiscard]] const step_profile& profile() const noexcept { return profile_; }

private:
    using clock = std::chrono::steady_clock;

    void add_until(clock::time_point now) noexcept {
        if (running_) {
            profile_.seconds[static_cast<std::size_t>(stage_)] +=
                std::chrono::duration<double>(now - since_).count();
        }
    }

    step_profile profile_;
    step_stage stage_ = step_stage::sort;
    clock::time_point since_{};
    bool running_ = false;
    bool on_ = false;
};

} // namespace simdcollide::detail
