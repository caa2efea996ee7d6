// Shared by the fuzz targets: how they turn libFuzzer's bytes into values, and how they
// compare floats.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace simdcollide::fuzz {

/// Reads the fuzzer's bytes front to back, and round again from the start past the end, so
/// that a short input still fills every element of a long view with its own values (zeros
/// only for an empty input).
class reader {
public:
    reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    std::uint8_t byte() { return size_ == 0 ? 0 : data_[at_++ % size_]; }

    /// One float from four bytes: a raw bit pattern when the first byte's low two bits are
    /// 0 (NaN, infinities, subnormals, -0 and huge values all come up), else a small dyadic
    /// value k / 16 for a 16-bit k (exact in float, so sums and differences of such values
    /// are exact too, and shapes touch exactly).
    float value() {
        const std::uint8_t kind = byte();
        const std::uint8_t b1 = byte();
        const std::uint8_t b2 = byte();
        const std::uint8_t b3 = byte();
        if ((kind & 3U) == 0) {
            return std::bit_cast<float>(
                static_cast<std::uint32_t>(kind) | static_cast<std::uint32_t>(b1) << 8U |
                static_cast<std::uint32_t>(b2) << 16U | static_cast<std::uint32_t>(b3) << 24U);
        }
        const auto k = static_cast<std::int16_t>(static_cast<std::uint16_t>(b1) |
                                                 static_cast<std::uint16_t>(b2) << 8U);
        return static_cast<float>(k) / 16.0F;
    }

    /// A value in [0, top], in steps of top / 255.
    float fraction_of(float top) { return top * static_cast<float>(byte()) / 255.0F; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

/// A float's bits, every NaN as one pattern: docs/behaviour.md ("Exactness") lets a NaN's payload
/// differ between instruction sets, and nothing else.
inline std::uint32_t canonical_bits(float v) {
    return v != v ? 0x7FC00000U : std::bit_cast<std::uint32_t>(v);
}

} // namespace simdcollide::fuzz
