// Pair-list separation's accumulation step, shared by the reference and every SIMD path so
// that both sum the same corrections in the same order (circle_circle.hpp, "Jacobi with
// averaging").
#pragma once

#include <simdcollide/circle_circle.hpp>

#include <cstddef>
#include <cstdint>

namespace simdcollide::detail {

/// Per-circle sums of the corrections of the pairs that move it, and their number, as
/// records of four floats (x, y, count, 0), so that SIMD paths add one pair's whole
/// correction with one 128-bit read-modify-write (simd/records.hpp).
struct pair_corrections {
    float* sums;   // 4 floats per circle, zeroed by begin_pair_corrections
    float* bodies; // 4 floats per circle of scratch: SIMD paths pack (x, y, radius,
                   // inverse mass) here, to gather a circle with one load

    /// Adds one pair's correction of circle i (the reference's way: three scalar adds, none
    /// when the pair does not move it). Always inlined: called from per-ISA code, where an
    /// out-of-line inline function would be a weak symbol (block_loop.hpp).
    [[gnu::always_inline]] inline void add(std::uint32_t i, bool moves, float dx, float dy) const {
        if (moves) {
            float* s = sums + std::size_t{4} * i;
            s[0] += dx;
            s[1] += dy;
            s[2] += 1.0F;
        }
    }
};

/// Sizes `workspace` for `circles` circles (eight floats each) and zeroes the sums.
pair_corrections begin_pair_corrections(separation_workspace& workspace, std::size_t circles);

/// The reference's last step: moves each circle by the mean of its corrections,
/// x += sum_x / count; returns how many circles moved.
std::size_t apply_pair_corrections(const pair_corrections& sums, particles_view circles);

} // namespace simdcollide::detail
