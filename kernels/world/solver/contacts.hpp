// The soft step's contacts (docs/world-design.md, "The step"): what the solver keeps of each
// listed circle pair and circle-box entry for one step, in colour order, and what its
// kernels read besides. Internal, not installed.
#pragma once

#include <simdcollide/containers.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace simdcollide::detail {

/// A pair_contacts' arrays as the solver's kernels see them: plain pointers, so that code
/// compiled for one instruction set calls no inline member function another object shares
/// (tests/check_isa_symbols.sh).
struct pair_contacts_view {
    const std::uint32_t* a;
    const std::uint32_t* b;
    const float* normal_x;
    const float* normal_y;
    const float* base;
    const float* wa;
    const float* wb;
    const float* approach;
    const float* friction;
    const float* restitution;
    float* normal;
    float* tangent;
    float* max_normal;
    std::size_t overflow_start; // the first contact of the overflow colour
};

/// A pair_contacts' arrays as the prepare kernel writes them (see pair_contacts_view).
struct pair_prepare_view {
    const std::uint32_t* a;
    const std::uint32_t* b;
    float* normal_x;
    float* normal_y;
    float* base;
    float* wa;
    float* wb;
    float* approach;
    float* normal;
    float* tangent;
    float* max_normal;
};

/// A box_contacts' arrays as the solver's kernels see them (see pair_contacts_view).
struct box_contacts_view {
    const std::uint32_t* circle;
    const float* normal_x;
    const float* normal_y;
    const float* base;
    const float* box_normal;
    const float* box_tangent;
    const float* approach;
    const float* friction;
    const float* restitution;
    float* normal;
    float* tangent;
    float* max_normal;
    std::size_t overflow_start;
};

/// Contacts between two circles, a field an array, in colour order: colour c holds
/// [colour_start[c], colour_start[c + 1]), and within a colour no moving circle appears
/// twice, so its contacts can be solved in any order, W at a time or on several workers, to
/// the same bits. The last colour is the overflow: contacts that found no colour, solved one
/// after another in list order.
struct pair_contacts {
    std::vector<std::uint32_t> a, b; // slots; the normal points from a to b
    aligned_floats normal_x, normal_y;
    aligned_floats base; // separation at the step's start (< 0: overlap), length
    // Each circle's share of a velocity change along the contact, wa / (wa + wb) and wb /
    // (wa + wb) by their inverse masses (0: static): the impulses are kept in units of the
    // velocity change they make, so that the normal and tangent masses are 1.
    aligned_floats wa, wb;
    aligned_floats approach; // relative normal velocity at the step's start (< 0: closing)
                             // of a contact apart then; 0 if it overlapped
    aligned_floats friction; // of the two bodies' materials combined (materials.hpp)
    aligned_floats restitution;
    aligned_floats normal;     // accumulated normal impulse (>= 0), kept from step to step
    aligned_floats tangent;    // accumulated friction impulse, kept from step to step
    aligned_floats max_normal; // the largest normal impulse in the step (restitution)
    std::vector<std::size_t> colour_start;
    std::vector<std::uint32_t> position; // of the k-th listed pair: where its contact lies

    [[nodiscard]] std::size_t size() const noexcept { return a.size(); }
    [[nodiscard]] std::size_t colours() const noexcept {
        return colour_start.empty() ? 0 : colour_start.size() - 1;
    }
    void resize(std::size_t count);
    /// The first contact of the overflow colour (size() before the contacts are coloured).
    [[nodiscard]] std::size_t overflow_start() const noexcept {
        return colours() == 0 ? size() : colour_start[colours() - 1];
    }
    [[nodiscard]] pair_contacts_view view() noexcept;
    [[nodiscard]] pair_prepare_view prepare_view() noexcept;
};

/// Contacts of a moving circle with a box (static or kinematic): the box as the first body,
/// with no inverse mass; the normal points from the box to the circle; the impulses in units
/// of the circle's velocity change. Colour r holds the
/// r-th box of each circle (entries by circle, then box), so a circle's boxes act in
/// ascending box index and no circle appears twice in a colour; the last colour is the
/// overflow, as for pairs.
struct box_contacts {
    std::vector<std::uint32_t> circle; // slot
    std::vector<std::uint32_t> box;    // the step's box number (static boxes, then kinematic)
    aligned_floats normal_x, normal_y;
    aligned_floats base;
    aligned_floats box_normal;  // the box's velocity along the normal
    aligned_floats box_tangent; // the box's velocity along the tangent (-ny, nx)
    aligned_floats approach;
    aligned_floats friction; // of the circle's and the box's materials combined
    aligned_floats restitution;
    aligned_floats normal;
    aligned_floats tangent;
    aligned_floats max_normal;
    std::vector<std::size_t> colour_start;
    std::vector<std::uint32_t> position; // of the k-th listed entry: where its contact lies

    [[nodiscard]] std::size_t size() const noexcept { return circle.size(); }
    [[nodiscard]] std::size_t colours() const noexcept {
        return colour_start.empty() ? 0 : colour_start.size() - 1;
    }
    void resize(std::size_t count);
    /// The first contact of the overflow colour (size() before the contacts are coloured).
    [[nodiscard]] std::size_t overflow_start() const noexcept {
        return colours() == 0 ? size() : colour_start[colours() - 1];
    }
    [[nodiscard]] box_contacts_view view() noexcept;
};

/// The circles as the solver's kernels see them: four floats a slot, (vx, vy, dx, dy), its
/// velocity and its move since the step began, so that a contact reads a circle in one
/// 16-byte load. 16-byte aligned. The prepare stage reads the circles' shapes the same way,
/// four floats a slot: (x, y, radius, inverse mass) where the step begins.
struct solver_bodies {
    float* state;
};

/// Two bodies' shares of a velocity change along their contact, wa / (wa + wb) and
/// wb / (wa + wb) by their inverse masses (pair_contacts), both halved first where their sum
/// would overflow; 0 and 0 where neither moves. The reference's prepare and the dynamic
/// boxes' use it; the SIMD prepare does the same operations.
struct velocity_shares {
    float a, b;
};
[[nodiscard]] inline velocity_shares shares_of(float wa, float wb) noexcept {
    if (!(wa + wb <= std::numeric_limits<float>::max())) {
        wa = wa * 0.5F;
        wb = wb * 0.5F;
    }
    const float w = wa + wb;
    const bool moves = w > 0.0F;
    return {moves ? wa / w : 0.0F, moves ? wb / w : 0.0F};
}

/// A soft contact's response for one substep (docs/world-design.md, "Soft contacts").
struct contact_softness {
    float bias_rate = 0.0F;     // 1 / time: how much of the overlap a substep pushes out
    float mass_scale = 1.0F;    // of the rigid contact's impulse
    float impulse_scale = 0.0F; // of the accumulated impulse, taken away
};

/// What the solve and relax passes read besides the contacts.
struct solve_parameters {
    float inverse_h = 0.0F;      // 1 / substep
    float max_push = 0.0F;       // the largest push-out speed, length / time
    float elapsed = 0.0F;        // time since the step began, at the substep's solve
    contact_softness moving;     // between two moving circles
    contact_softness fixed;      // with a static circle or a box
    bool use_bias = true;        // solve: true; relax: false
    bool keep_max_normal = true; // the largest normal impulse kept (for restitution)
};

/// What restitution reads besides the contacts.
struct restitution_parameters {
    float threshold = 0.0F; // approach speeds slower than this do not bounce
};

} // namespace simdcollide::detail
