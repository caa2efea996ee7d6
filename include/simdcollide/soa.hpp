// Structure-of-arrays views: how every kernel sees a simulation's own data.
//
// A view is a handful of pointers (one per field) and a count. It owns nothing and copies
// nothing: the kernels read and write the caller's arrays in place. Pointers need no
// particular alignment. Views are cheap to pass by value.
//
// Constructors that take spans check that every field has the same length and throw
// std::invalid_argument naming the mismatched field, so a length mistake is found before
// any kernel touches memory. The same check comes with each field named where the view is
// made, which keeps x from being passed as vx:
//
//     const simdcollide::particles_view view({.x = x, .y = y, .radius = radius,
//                                             .inverse_mass = inverse_mass, .vx = vx, .vy = vy});
//
// Constructors that take raw pointers trust the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace simdcollide {

/// Read-only view of `count` circles: centres `(x[i], y[i])` and radii `radius[i]`, in the
/// simulation's length unit. Valid input has finite values and `radius[i] >= 0`.
/// Kernels that need only the centres ignore `radius`, which may then be null.
struct circles_cview {
    const float* x = nullptr;
    const float* y = nullptr;
    const float* radius = nullptr;
    std::size_t count = 0;

    constexpr circles_cview() = default;
    /// Trusts the caller: each pointer must address `count` floats (or be null when count is 0).
    constexpr circles_cview(const float* x_, const float* y_, const float* radius_,
                            std::size_t count_) noexcept
        : x(x_), y(y_), radius(radius_), count(count_) {}
    /// Throws std::invalid_argument unless the three spans have the same length.
    circles_cview(std::span<const float> x_, std::span<const float> y_,
                  std::span<const float> radius_);
    /// The fields by name: circles_cview({.x = x, .y = y, .radius = radius}).
    struct fields {
        std::span<const float> x, y, radius;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit circles_cview(const fields& f) : circles_cview(f.x, f.y, f.radius) {}
};

/// View of `count` circles whose centres a kernel may move (push-out writes `x` and `y` in
/// place). Radii are read only. Converts implicitly to circles_cview.
struct circles_view {
    float* x = nullptr;
    float* y = nullptr;
    const float* radius = nullptr;
    std::size_t count = 0;

    constexpr circles_view() = default;
    /// Trusts the caller: each pointer must address `count` floats (or be null when count is 0).
    constexpr circles_view(float* x_, float* y_, const float* radius_, std::size_t count_) noexcept
        : x(x_), y(y_), radius(radius_), count(count_) {}
    /// Throws std::invalid_argument unless the three spans have the same length.
    circles_view(std::span<float> x_, std::span<float> y_, std::span<const float> radius_);
    /// The fields by name: circles_view({.x = x, .y = y, .radius = radius}).
    struct fields {
        std::span<float> x, y;
        std::span<const float> radius;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit circles_view(const fields& f) : circles_view(f.x, f.y, f.radius) {}

    constexpr operator circles_cview() const noexcept { return {x, y, radius, count}; }
};

/// Read-only view of `count` axis-aligned boxes, each the closed rectangle
/// `[min_x[i], max_x[i]] x [min_y[i], max_y[i]]`. Valid input has finite values and
/// `min <= max` on both axes.
struct aabbs_view {
    const float* min_x = nullptr;
    const float* min_y = nullptr;
    const float* max_x = nullptr;
    const float* max_y = nullptr;
    std::size_t count = 0;

    constexpr aabbs_view() = default;
    /// Trusts the caller: each pointer must address `count` floats (or be null when count is 0).
    constexpr aabbs_view(const float* min_x_, const float* min_y_, const float* max_x_,
                         const float* max_y_, std::size_t count_) noexcept
        : min_x(min_x_), min_y(min_y_), max_x(max_x_), max_y(max_y_), count(count_) {}
    /// Throws std::invalid_argument unless the four spans have the same length.
    aabbs_view(std::span<const float> min_x_, std::span<const float> min_y_,
               std::span<const float> max_x_, std::span<const float> max_y_);
    /// The fields by name: aabbs_view({.min_x = a, .min_y = b, .max_x = c, .max_y = d}).
    struct fields {
        std::span<const float> min_x, min_y, max_x, max_y;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit aabbs_view(const fields& f) : aabbs_view(f.min_x, f.min_y, f.max_x, f.max_y) {}
};

/// View of `count` boxes a kernel may move, each with an inverse mass (`inverse_mass == 0`:
/// static, it never moves; valid input has `inverse_mass >= 0` and finite): bounds as in
/// aabbs_view, written in place. Converts to aabbs_view.
struct box_bodies_view {
    float* min_x = nullptr;
    float* min_y = nullptr;
    float* max_x = nullptr;
    float* max_y = nullptr;
    const float* inverse_mass = nullptr;
    std::size_t count = 0;

    constexpr box_bodies_view() = default;
    /// Trusts the caller: each pointer must address `count` floats (or be null when count is 0).
    constexpr box_bodies_view(float* min_x_, float* min_y_, float* max_x_, float* max_y_,
                              const float* inverse_mass_, std::size_t count_) noexcept
        : min_x(min_x_), min_y(min_y_), max_x(max_x_), max_y(max_y_), inverse_mass(inverse_mass_),
          count(count_) {}
    /// Throws std::invalid_argument unless the five spans have the same length.
    box_bodies_view(std::span<float> min_x_, std::span<float> min_y_, std::span<float> max_x_,
                    std::span<float> max_y_, std::span<const float> inverse_mass_);
    /// The fields by name: box_bodies_view({.min_x = a, .min_y = b, .max_x = c, .max_y = d,
    /// .inverse_mass = w}).
    struct fields {
        std::span<float> min_x, min_y, max_x, max_y;
        std::span<const float> inverse_mass;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit box_bodies_view(const fields& f)
        : box_bodies_view(f.min_x, f.min_y, f.max_x, f.max_y, f.inverse_mass) {}

    constexpr operator aabbs_view() const noexcept { return {min_x, min_y, max_x, max_y, count}; }
};

/// Writable view of `count` points, an output of closest_point.
struct points_view {
    float* x = nullptr;
    float* y = nullptr;
    std::size_t count = 0;

    constexpr points_view() = default;
    constexpr points_view(float* x_, float* y_, std::size_t count_) noexcept
        : x(x_), y(y_), count(count_) {}
    /// Throws std::invalid_argument unless the two spans have the same length.
    points_view(std::span<float> x_, std::span<float> y_);
    /// The fields by name: points_view({.x = x, .y = y}).
    struct fields {
        std::span<float> x, y;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit points_view(const fields& f) : points_view(f.x, f.y) {}
};

/// Writable view of `count` contacts, the output of the contact kernels. For pair `i` in
/// contact: the unit normal `(normal_x[i], normal_y[i])` pointing from the first shape
/// towards the second (from the box towards the circle), the penetration `depth[i]` (positive
/// when overlapping; down to `-margin` with a contact margin) and the contact point
/// `(point_x[i], point_y[i])`. A pair not in contact gets all five values `0`.
struct contacts_view {
    float* normal_x = nullptr;
    float* normal_y = nullptr;
    float* depth = nullptr;
    float* point_x = nullptr;
    float* point_y = nullptr;
    std::size_t count = 0;

    constexpr contacts_view() = default;
    constexpr contacts_view(float* normal_x_, float* normal_y_, float* depth_, float* point_x_,
                            float* point_y_, std::size_t count_) noexcept
        : normal_x(normal_x_), normal_y(normal_y_), depth(depth_), point_x(point_x_),
          point_y(point_y_), count(count_) {}
    /// Throws std::invalid_argument unless the five spans have the same length.
    contacts_view(std::span<float> normal_x_, std::span<float> normal_y_, std::span<float> depth_,
                  std::span<float> point_x_, std::span<float> point_y_);
    /// The fields by name: contacts_view({.normal_x = nx, .normal_y = ny, .depth = d,
    /// .point_x = px, .point_y = py}).
    struct fields {
        std::span<float> normal_x, normal_y, depth, point_x, point_y;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit contacts_view(const fields& f)
        : contacts_view(f.normal_x, f.normal_y, f.depth, f.point_x, f.point_y) {}
};

/// Read-only view of `count` contacts (see contacts_view), the input of velocity response.
struct contacts_cview {
    const float* normal_x = nullptr;
    const float* normal_y = nullptr;
    const float* depth = nullptr;
    const float* point_x = nullptr;
    const float* point_y = nullptr;
    std::size_t count = 0;

    constexpr contacts_cview() = default;
    constexpr contacts_cview(const float* normal_x_, const float* normal_y_, const float* depth_,
                             const float* point_x_, const float* point_y_,
                             std::size_t count_) noexcept
        : normal_x(normal_x_), normal_y(normal_y_), depth(depth_), point_x(point_x_),
          point_y(point_y_), count(count_) {}
    constexpr contacts_cview(const contacts_view& c) noexcept // NOLINT: implicit on purpose
        : normal_x(c.normal_x), normal_y(c.normal_y), depth(c.depth), point_x(c.point_x),
          point_y(c.point_y), count(c.count) {}
};

/// Read-only view of `count` displacements `(dx[i], dy[i])`, in the length unit: how far
/// each circle moves, the input of the swept kernels (swept.hpp). Valid input is finite.
struct displacements_cview {
    const float* dx = nullptr;
    const float* dy = nullptr;
    std::size_t count = 0;

    constexpr displacements_cview() = default;
    /// Trusts the caller: each pointer must address `count` floats (or be null when count is 0).
    constexpr displacements_cview(const float* dx_, const float* dy_, std::size_t count_) noexcept
        : dx(dx_), dy(dy_), count(count_) {}
    /// Throws std::invalid_argument unless the two spans have the same length.
    displacements_cview(std::span<const float> dx_, std::span<const float> dy_);
    /// The fields by name: displacements_cview({.dx = dx, .dy = dy}).
    struct fields {
        std::span<const float> dx, dy;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit displacements_cview(const fields& f) : displacements_cview(f.dx, f.dy) {}
};

/// Writable view of `count` impacts, the output of the swept kernels (swept.hpp). For a move
/// that hits its obstacle: `time[i]` in [0, 1], the fraction of the move done at first
/// contact, and the unit normal `(normal_x[i], normal_y[i])` at that contact, from the
/// obstacle towards the moving circle. A move that does not hit gets time 1 and normal (0, 0).
struct impacts_view {
    float* time = nullptr;
    float* normal_x = nullptr;
    float* normal_y = nullptr;
    std::size_t count = 0;

    constexpr impacts_view() = default;
    /// Trusts the caller: each pointer must address `count` floats (or be null when count is 0).
    constexpr impacts_view(float* time_, float* normal_x_, float* normal_y_,
                           std::size_t count_) noexcept
        : time(time_), normal_x(normal_x_), normal_y(normal_y_), count(count_) {}
    /// Throws std::invalid_argument unless the three spans have the same length.
    impacts_view(std::span<float> time_, std::span<float> normal_x_, std::span<float> normal_y_);
    /// The fields by name: impacts_view({.time = t, .normal_x = nx, .normal_y = ny}).
    struct fields {
        std::span<float> time, normal_x, normal_y;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit impacts_view(const fields& f) : impacts_view(f.time, f.normal_x, f.normal_y) {}
};

/// Read-only view of `count` rays, the input of the ray casts (queries.hpp): ray i is the
/// segment from its origin `(x[i], y[i])` to `(x[i] + dx[i], y[i] + dy[i])`, in the length unit.
/// The casts refuse rays that are not finite.
struct rays_cview {
    const float* x = nullptr;
    const float* y = nullptr;
    const float* dx = nullptr;
    const float* dy = nullptr;
    std::size_t count = 0;

    constexpr rays_cview() = default;
    /// Trusts the caller: each pointer must address `count` floats (or be null when count is 0).
    constexpr rays_cview(const float* x_, const float* y_, const float* dx_, const float* dy_,
                         std::size_t count_) noexcept
        : x(x_), y(y_), dx(dx_), dy(dy_), count(count_) {}
    /// Throws std::invalid_argument unless the four spans have the same length.
    rays_cview(std::span<const float> x_, std::span<const float> y_, std::span<const float> dx_,
               std::span<const float> dy_);
    /// The fields by name: rays_cview({.x = x, .y = y, .dx = dx, .dy = dy}).
    struct fields {
        std::span<const float> x, y, dx, dy;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit rays_cview(const fields& f) : rays_cview(f.x, f.y, f.dx, f.dy) {}
};

/// The shape index of a ray that hits nothing (ray_hits_view).
inline constexpr std::uint32_t no_shape = 0xFFFFFFFFU;

/// Writable view of `count` ray hits, the output of the ray casts (queries.hpp). For a ray
/// that hits: `fraction[i]` in [0, 1], how far along the ray the hit is; the point
/// `(point_x[i], point_y[i])` there; the shape's outward unit normal `(normal_x[i],
/// normal_y[i])` there ((0, 0) for a ray that starts in the shape); and `shape[i]`, the index
/// of the shape hit. A ray that hits nothing gets fraction 1, its end as the point, normal
/// (0, 0) and shape no_shape.
struct ray_hits_view {
    float* fraction = nullptr;
    float* point_x = nullptr;
    float* point_y = nullptr;
    float* normal_x = nullptr;
    float* normal_y = nullptr;
    std::uint32_t* shape = nullptr;
    std::size_t count = 0;

    constexpr ray_hits_view() = default;
    /// Trusts the caller: each pointer must address `count` elements (or be null when count
    /// is 0).
    constexpr ray_hits_view(float* fraction_, float* point_x_, float* point_y_, float* normal_x_,
                            float* normal_y_, std::uint32_t* shape_, std::size_t count_) noexcept
        : fraction(fraction_), point_x(point_x_), point_y(point_y_), normal_x(normal_x_),
          normal_y(normal_y_), shape(shape_), count(count_) {}
    /// The fields by name: ray_hits_view({.fraction = f, ..., .shape = s}).
    struct fields {
        std::span<float> fraction, point_x, point_y, normal_x, normal_y;
        std::span<std::uint32_t> shape;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit ray_hits_view(const fields& f);
};

/// View of `count` moving circles: centres `(x, y)` and velocities `(vx, vy)` that kernels
/// write in place, radii and inverse masses (`inverse_mass == 0`: static, infinite mass;
/// valid input has `inverse_mass >= 0` and finite). Each kernel says which fields it reads
/// and writes; fields it does not use may be null. Converts to circles_view.
struct particles_view {
    float* x = nullptr;
    float* y = nullptr;
    const float* radius = nullptr;
    const float* inverse_mass = nullptr;
    float* vx = nullptr;
    float* vy = nullptr;
    std::size_t count = 0;

    constexpr particles_view() = default;
    /// Trusts the caller: each non-null pointer must address `count` floats.
    constexpr particles_view(float* x_, float* y_, const float* radius_, const float* inverse_mass_,
                             float* vx_, float* vy_, std::size_t count_) noexcept
        : x(x_), y(y_), radius(radius_), inverse_mass(inverse_mass_), vx(vx_), vy(vy_),
          count(count_) {}
    /// Throws std::invalid_argument unless the six spans have the same length.
    particles_view(std::span<float> x_, std::span<float> y_, std::span<const float> radius_,
                   std::span<const float> inverse_mass_, std::span<float> vx_,
                   std::span<float> vy_);
    /// The fields by name: particles_view({.x = x, .y = y, .radius = radius,
    /// .inverse_mass = inverse_mass, .vx = vx, .vy = vy}).
    struct fields {
        std::span<float> x, y;
        std::span<const float> radius, inverse_mass;
        std::span<float> vx, vy;
    };
    /// Throws std::invalid_argument unless the fields have the same length.
    explicit particles_view(const fields& f)
        : particles_view(f.x, f.y, f.radius, f.inverse_mass, f.vx, f.vy) {}

    constexpr operator circles_view() const noexcept { return {x, y, radius, count}; }
    constexpr operator circles_cview() const noexcept { return {x, y, radius, count}; }
};

/// A pair of circles by index into one particles_view, as a broad phase produces them.
struct circle_pair {
    std::uint32_t a;
    std::uint32_t b;
};

} // namespace simdcollide
