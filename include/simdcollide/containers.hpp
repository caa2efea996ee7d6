// Owning structure-of-arrays containers: a convenience on top of the views.
//
// Each field lives in its own 64-byte aligned array whose capacity is padded to a whole
// number of 64-byte lines, so every SIMD load of a full vector stays inside the allocation.
// Padding is zero-filled. The containers hand out views; kernels never need the containers.
//
// Arrays of 4 KiB or more are also placed so that any 8 arrays made in a row start at least
// five 64-byte lines apart modulo 4 KiB (see aligned_floats). Where a kernel reads some
// arrays and writes others that start at the same address modulo 4 KiB, or less than a
// line after it, the CPU holds loads back behind the stores, and the contact kernels slow
// down severalfold (docs/performance.md, "Where the arrays lie"). The allocator alone gives
// such layouts: glibc serves every allocation of 128 KiB or more from its own pages, at the
// same offset in a page.
#pragma once

#include <simdcollide/shapes.hpp>
#include <simdcollide/soa.hpp>

#include <cstddef>
#include <memory>
#include <span>

namespace simdcollide {

/// A growable array of floats, 64-byte aligned, capacity padded to 16 floats, padding zeroed.
///
/// Placement: an array of capacity 1024 floats (4 KiB) or more starts at an offset modulo
/// 4 KiB taken from a sequence shared by all arrays of the process: the k-th such
/// allocation at line (23 k mod 64), so that any 8 arrays allocated in a row start at least
/// 5 lines (320 bytes) apart and any 12 at least 3 lines apart. It costs up to 4 KiB more
/// memory per array and changes no result, only where the data lies.
class aligned_floats {
public:
    aligned_floats() = default;
    explicit aligned_floats(std::size_t count);
    aligned_floats(const aligned_floats& other);
    aligned_floats& operator=(const aligned_floats& other);
    aligned_floats(aligned_floats&&) noexcept = default;
    aligned_floats& operator=(aligned_floats&&) noexcept = default;
    ~aligned_floats() = default;

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
    [[nodiscard]] float* data() noexcept { return data_.get(); }
    [[nodiscard]] const float* data() const noexcept { return data_.get(); }
    float& operator[](std::size_t i) noexcept { return data_[i]; }
    const float& operator[](std::size_t i) const noexcept { return data_[i]; }
    [[nodiscard]] std::span<float> span() noexcept { return {data_.get(), size_}; }
    [[nodiscard]] std::span<const float> span() const noexcept { return {data_.get(), size_}; }

    /// New elements are 0. Keeps existing values; may reallocate (invalidating views).
    void resize(std::size_t count);
    void push_back(float value);
    void reserve(std::size_t count);

private:
    // Frees the allocation that the array starts `offset` bytes into (value-initialised by
    // unique_ptr to 0; no default member initialiser, so that it is complete where
    // unique_ptr needs it).
    struct free_aligned {
        std::size_t offset;
        void operator()(float* p) const noexcept;
    };
    std::unique_ptr<float[], free_aligned> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

/// Owning set of circles (centres and radii) in structure-of-arrays form.
class circle_set {
public:
    circle_set() = default;
    /// `count` circles at the origin with radius 0.
    explicit circle_set(std::size_t count) : x(count), y(count), radius(count) {}

    [[nodiscard]] std::size_t size() const noexcept { return x.size(); }
    void resize(std::size_t count);
    void push_back(const circle& c);
    [[nodiscard]] circle operator[](std::size_t i) const noexcept {
        return {x[i], y[i], radius[i]};
    }

    [[nodiscard]] circles_view view() noexcept {
        return {x.data(), y.data(), radius.data(), size()};
    }
    [[nodiscard]] circles_cview view() const noexcept {
        return {x.data(), y.data(), radius.data(), size()};
    }

    aligned_floats x;
    aligned_floats y;
    aligned_floats radius;
};

/// Owning set of axis-aligned boxes (min and max corners) in structure-of-arrays form.
class aabb_set {
public:
    aabb_set() = default;
    /// `count` zero-size boxes at the origin.
    explicit aabb_set(std::size_t count) : min_x(count), min_y(count), max_x(count), max_y(count) {}

    [[nodiscard]] std::size_t size() const noexcept { return min_x.size(); }
    void resize(std::size_t count);
    void push_back(const aabb& b);
    [[nodiscard]] aabb operator[](std::size_t i) const noexcept {
        return {min_x[i], min_y[i], max_x[i], max_y[i]};
    }

    [[nodiscard]] aabbs_view view() const noexcept {
        return {min_x.data(), min_y.data(), max_x.data(), max_y.data(), size()};
    }

    aligned_floats min_x;
    aligned_floats min_y;
    aligned_floats max_x;
    aligned_floats max_y;
};

/// Owning output arrays for the contact kernels.
class contact_set {
public:
    contact_set() = default;
    explicit contact_set(std::size_t count)
        : normal_x(count), normal_y(count), depth(count), point_x(count), point_y(count) {}

    /// Resizes all five arrays (as aligned_floats::resize).
    void resize(std::size_t count) {
        for (aligned_floats* field : {&normal_x, &normal_y, &depth, &point_x, &point_y}) {
            field->resize(count);
        }
    }

    [[nodiscard]] std::size_t size() const noexcept { return depth.size(); }
    [[nodiscard]] contacts_view view() noexcept {
        return {normal_x.data(), normal_y.data(), depth.data(),
                point_x.data(),  point_y.data(),  size()};
    }

    aligned_floats normal_x;
    aligned_floats normal_y;
    aligned_floats depth;
    aligned_floats point_x;
    aligned_floats point_y;
};

} // namespace simdcollide
