#include <simdcollide/containers.hpp>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace simdcollide {
namespace {

constexpr std::size_t alignment = 64;
constexpr std::size_t floats_per_line = alignment / sizeof(float);

std::size_t padded(std::size_t count) {
    return (count + floats_per_line - 1) / floats_per_line * floats_per_line;
}

} // namespace

void aligned_floats::free_aligned::operator()(float* p) const noexcept {
    ::operator delete[](p, std::align_val_t{alignment});
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
    std::unique_ptr<float[], free_aligned> fresh(static_cast<float*>(
        ::operator new[](capacity * sizeof(float), std::align_val_t{alignment})));
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
