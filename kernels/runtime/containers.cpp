#include <simdcollide/containers.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace simdcollide {
namespace {

constexpr std::size_t alignment = 64;
constexpr std::size_t floats_per_line = alignment / sizeof(float);

// Placement modulo a 4 KiB page (containers.hpp): arrays of a page or more go to line
// (23 k mod 64) of the page for the k-th such allocation. 23 spreads consecutive arrays:
// any 8 in a row are 5 lines apart or more, any 12 at least 3.
constexpr std::size_t page = 4096;
constexpr std::size_t lines_per_page = page / alignment;
constexpr std::size_t line_step = 23;
std::atomic<std::size_t> placed_arrays{0};

std::size_t padded(std::size_t count) {
    return (count + floats_per_line - 1) / floats_per_line * floats_per_line;
}

// Where the next array of `bytes` starts in its allocation, which has room for it at any
// line of a page: 0 for small arrays, else the distance from `base` to the chosen line.
std::size_t offset_for(const char* base, std::size_t bytes) {
    if (bytes < page) {
        return 0;
    }
    const std::size_t k = placed_arrays.fetch_add(1, std::memory_order_relaxed);
    const std::size_t line = (k * line_step) % lines_per_page;
    const std::size_t at = reinterpret_cast<std::uintptr_t>(base) % page;
    return (line * alignment + page - at) % page;
}

} // namespace

void aligned_floats::free_aligned::operator()(float* p) const noexcept {
    ::operator delete[](reinterpret_cast<char*>(p) - offset, std::align_val_t{alignment});
}

aligned_floats::aligned_floats(std::size_t count) {
    resize(count);
}

aligned_floats::aligned_floats(const aligned_floats& other) {
    reserve(other.size_);
    std::copy_n(other.data(), other.size_, data());
    size_ = other.size_;
}

aligned_floats& aligned_floats::operator=(const aligned_floats& other) {
    if (this != &other) {
        aligned_floats copy(other);
        *this = std::move(copy);
    }
    return *this;
}

void aligned_floats::reserve(std::size_t count) {
    if (count <= capacity_) {
        return;
    }
    const std::size_t capacity = padded(std::max(count, capacity_ * 2));
    const std::size_t bytes = capacity * sizeof(float);
    const std::size_t room = bytes < page ? 0 : page - alignment; // for the offset
    char* base = static_cast<char*>(::operator new[](bytes + room, std::align_val_t{alignment}));
    const std::size_t offset = offset_for(base, bytes);
    std::unique_ptr<float[], free_aligned> fresh(reinterpret_cast<float*>(base + offset),
                                                 free_aligned{offset});
    std::fill_n(fresh.get(), capacity, 0.0F); // padding is 0, always
    if (size_ > 0) {
        std::copy_n(data_.get(), size_, fresh.get());
    }
    data_ = std::move(fresh);
    capacity_ = capacity;
}

void aligned_floats::resize(std::size_t count) {
    reserve(count);
    if (count < size_) {
        std::fill(data_.get() + count, data_.get() + size_, 0.0F); // keep the padding zeroed
    }
    size_ = count;
}

void aligned_floats::push_back(float value) {
    reserve(size_ + 1);
    data_[size_++] = value;
}

void circle_set::resize(std::size_t count) {
    x.resize(count);
    y.resize(count);
    radius.resize(count);
}

void circle_set::push_back(const circle& c) {
    x.push_back(c.x);
    y.push_back(c.y);
    radius.push_back(c.radius);
}

void aabb_set::resize(std::size_t count) {
    min_x.resize(count);
    min_y.resize(count);
    max_x.resize(count);
    max_y.resize(count);
}

void aabb_set::push_back(const aabb& b) {
    min_x.push_back(b.min_x);
    min_y.push_back(b.min_y);
    max_x.push_back(b.max_x);
    max_y.push_back(b.max_y);
}

} // namespace simdcollide
