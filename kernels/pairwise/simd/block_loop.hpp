// The SIMD loop skeleton shared by every kernel: a first partial block up to the vector
// boundary of the array the kernel stores to, full blocks of W lanes straight from the
// caller's arrays (unaligned loads and stores), then one last partial block; partial blocks
// go through zero-padded stack buffers, so a kernel body is written once and sees only whole
// vectors. The lane-by-lane operations the kernels' bodies use are lanes.hpp.
//
// Everything here is a template on the xsimd architecture `Arch`. That is what keeps each
// instruction set's code apart: kernels/pairwise/isa/avx2.cpp instantiates these with xsimd::avx2
// under -mavx2, and every symbol it emits names avx2, so the linker can never hand an SSE2
// caller an AVX2 copy (tests/check_isa_symbols.sh proves no weak symbol is shared). Do not
// add a non-template helper here unless it is always_inline.
#pragma once

#include "pairwise/simd/lanes.hpp"

#include <simdcollide/soa.hpp>
#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace simdcollide::simd {

/// A whole block of W lanes at element `first` of the caller's arrays. (Mask bytes are
/// written through a little-endian word: x86-64 and aarch64 Linux both are.)
template <class Arch>
struct full_block {
    static constexpr std::size_t width = floats<Arch>::size;
    std::size_t first;

    floats<Arch> load(const float* field) const {
        return floats<Arch>::load_unaligned(field + first);
    }
    void store(float* field, const floats<Arch>& value) const {
        value.store_unaligned(field + first);
    }
    // One byte of 0 or 1 a lane. On AVX2 and AVX-512 the lanes are narrowed to bytes in
    // vector registers and stored at once: through lane_bits it takes a shift, an and, a
    // multiply, an and and a store for every four lanes (docs/performance.md, "Measurements behind
    // the code"). Four lanes (SSE2, NEON) keep the multiply.
    void store_mask(std::uint8_t* field, const lanes<Arch>& value) const {
#if defined(__AVX512F__) // (objects without AVX-512 never see these intrinsics)
        if constexpr (is_avx512<Arch>) {
            // 1 in each set lane's 32 bits, then each lane's low byte (vpmovdb).
            const __m512i ones = _mm512_maskz_mov_epi32(value.data, _mm512_set1_epi32(1));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(field + first), _mm512_cvtepi32_epi8(ones));
            return;
        }
#endif
#if defined(__AVX2__)
        if constexpr (is_avx<Arch> && width == 8) {
            // A set lane is all ones: its sign bit shifted down is 1. Packed 32 -> 16 -> 8 bits
            // (unsigned saturation keeps 0 and 1), the low 8 bytes are the 8 lanes in order.
            const __m256i ones = _mm256_srli_epi32(_mm256_castps_si256(value.data), 31);
            const __m128i words =
                _mm_packus_epi32(_mm256_castsi256_si128(ones), _mm256_extracti128_si256(ones, 1));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(field + first),
                             _mm_packus_epi16(words, words));
            return;
        }
#endif
        const std::uint32_t bits = lane_bits<Arch>(value);
        for (std::size_t j = 0; j < width; j += 4) {
            const std::uint32_t bytes = one_byte_per_bit<Arch>((bits >> j) & 0xFU);
            std::memcpy(field + first + j, &bytes, 4);
        }
    }
};

/// The last `count < W` elements from element `first`: loads read only those elements
/// (the other lanes are 0) and stores write only those elements.
template <class Arch>
struct tail_block {
    static constexpr std::size_t width = floats<Arch>::size;
    std::size_t first;
    std::size_t count;

    floats<Arch> load(const float* field) const {
        // memcpy, not std::copy_n: at -O0 the std::copy helpers would be emitted as weak
        // functions in every per-ISA object, and the linker could keep an AVX copy of them.
        alignas(64) float buffer[width] = {};
        std::memcpy(buffer, field + first, count * sizeof(float));
        return floats<Arch>::load_aligned(buffer);
    }
    void store(float* field, const floats<Arch>& value) const {
        alignas(64) float buffer[width];
        value.store_aligned(buffer);
        std::memcpy(field + first, buffer, count * sizeof(float));
    }
    void store_mask(std::uint8_t* field, const lanes<Arch>& value) const {
        const std::uint32_t bits = lane_bits<Arch>(value);
        for (std::size_t j = 0; j < count; ++j) {
            field[first + j] = static_cast<std::uint8_t>((bits >> j) & 1U);
        }
    }
};

/// How many real elements a block holds.
template <class Arch>
constexpr std::size_t lanes_in(const full_block<Arch>& /*block*/) {
    return floats<Arch>::size;
}
template <class Arch>
constexpr std::size_t lanes_in(const tail_block<Arch>& block) {
    return block.count;
}

/// Counts set lanes across blocks: one scalar add per block of the mask's bit count (an
/// integer chain of one cycle per block; a vector tally in a register would be cheaper still,
/// but GCC keeps it on the stack, a store-to-load chain of about ten cycles per block).
template <class Arch>
class lane_counter {
public:
    void add(const full_block<Arch>&, const lanes<Arch>& set) {
        total_ += set_lanes_in(lane_bits<Arch>(set));
    }
    void add(const tail_block<Arch>& block, const lanes<Arch>& set) {
        bool bits[floats<Arch>::size];
        set.store_unaligned(bits);
        for (std::size_t j = 0; j < block.count; ++j) {
            total_ += bits[j] ? 1 : 0;
        }
    }
    std::size_t total() const { return total_; }

private:
    // Four lanes (SSE2, NEON: no popcount instruction to rely on) read their count from a
    // table of sixteen nibbles; AVX2 and AVX-512 CPUs all have POPCNT, which -mavx2 enables.
    static std::size_t set_lanes_in(std::uint32_t bits) {
        if constexpr (floats<Arch>::size == 4) {
            return static_cast<std::size_t>((0x4332322132212110ULL >> (bits * 4U)) & 0xFU);
        } else {
            // The builtin, not std::popcount: at -O0 that is an out-of-line function template,
            // a weak symbol the AVX2 and AVX-512 objects would share (see top).
            return static_cast<std::size_t>(__builtin_popcount(bits));
        }
    }
    std::size_t total_ = 0;
};

/// Stores a block's contacts (any result with hit, normal_x/y, depth, point_x/y); a pair
/// not in contact reports zeros, like the reference's default-constructed contact.
template <class Arch, class Block, class Contact>
void store_contact(const Block& block, const contacts_view& out, const Contact& k) {
    block.store(out.normal_x, zero_unless<Arch>(k.hit, k.normal_x));
    block.store(out.normal_y, zero_unless<Arch>(k.hit, k.normal_y));
    block.store(out.depth, zero_unless<Arch>(k.hit, k.depth));
    block.store(out.point_x, zero_unless<Arch>(k.hit, k.point_x));
    block.store(out.point_y, zero_unless<Arch>(k.hit, k.point_y));
}

/// Prefetches, once per 64-byte line of each field, the line `distance` floats ahead of
/// element `first`, if that is still inside the arrays. `for_writing` says the line is about
/// to be written: a store prefetch on aarch64; on x86 PREFETCHT0 either way, since GCC emits
/// PREFETCHW only under -mprfchw, which no object sets.
template <class Arch, std::size_t distance, int for_writing, class... Fields>
[[gnu::always_inline]] inline void prefetch_lines(std::size_t first, std::size_t count,
                                                  const Fields*... fields) {
    constexpr std::size_t floats_per_line = 16;
    // Whole blocks follow one another W floats apart from wherever the loop's head left them
    // (for_each_block_storing), so exactly one block in each 16 floats starts in this range.
    if (first % floats_per_line < floats<Arch>::size && first + distance < count) {
        (__builtin_prefetch(fields + first + distance, for_writing), ...);
    }
}

/// Software prefetch for a kernel that streams its fields from memory: the hardware
/// prefetchers do not keep nine streams ahead on their own while the kernel computes, and
/// with this compute and memory overlap. Only worth it past the caches (in cache it costs a
/// few percent), so kernels call it for large counts only.
inline constexpr std::size_t prefetch_distance = 256; // floats (1 KiB)

/// From this many pairs, kernels that stream their fields prefetch them (push_out its
/// seven, the contact kernels their inputs and their five outputs): push-out's seven fields
/// then take 28 MiB, about the size of a last-level cache: in cache the prefetches cost a
/// little, in memory they pay (docs/performance.md, "Measurements behind the code").
inline constexpr std::size_t streams_from = std::size_t{1} << 20;

/// The lines a kernel will read, prefetch_distance floats ahead.
template <class Arch, class... Fields>
[[gnu::always_inline]] inline void prefetch_ahead(std::size_t first, std::size_t count,
                                                  const Fields*... fields) {
    prefetch_lines<Arch, prefetch_distance, 0>(first, count, fields...);
}

/// The lines a kernel will write (and not read), prefetch_distance floats ahead.
template <class Arch, class... Written>
[[gnu::always_inline]] inline void prefetch_ahead_for_stores(std::size_t first, std::size_t count,
                                                             const Written*... written) {
    prefetch_lines<Arch, prefetch_distance, 1>(first, count, written...);
}

/// Software prefetch for a kernel bound by writing arrays it does not read, a few lines
/// ahead, at every count: the arrays it writes for writing, and those it reads. On some
/// cores a store that misses L1 waits for its line, and a loop that writes two of every
/// eight arrays it touches waits on those lines even with every array in L2. The contact
/// kernels, which compute far more between their stores, gain nothing from it, so only
/// closest_point calls it (docs/performance.md, "Measurements behind the code"); the contact
/// kernels prefetch further ahead from streams_from pairs, above.
inline constexpr std::size_t store_prefetch_distance = 64; // floats (4 lines)

/// The lines a kernel will write, store_prefetch_distance floats ahead.
template <class Arch, class... Written>
[[gnu::always_inline]] inline void prefetch_for_stores(std::size_t first, std::size_t count,
                                                       const Written*... written) {
    prefetch_lines<Arch, store_prefetch_distance, 1>(first, count, written...);
}

/// The lines a kernel will read, as near ahead as prefetch_for_stores (prefetch_ahead goes
/// further, for memory).
template <class Arch, class... Read>
[[gnu::always_inline]] inline void prefetch_near(std::size_t first, std::size_t count,
                                                 const Read*... read) {
    prefetch_lines<Arch, store_prefetch_distance, 0>(first, count, read...);
}

/// Runs `body(block)` over elements [0, count): first elements [0, head) as one partial block
/// if head > 0 (head <= count), then blocks of W lanes, then the rest as one partial block. If
/// the body returns a lane mask, returns how many of the real (not padding) lanes were set;
/// else returns 0.
///
/// Always inlined, and bodies capture the views by value: xsimd stores through a may_alias
/// type, so if the loop reached the caller's pointers through memory, GCC would reload
/// every pointer after every store. Inlined, the pointers stay in registers.
template <class Arch, class Body>
[[gnu::always_inline]] inline std::size_t for_each_block_after(std::size_t head, std::size_t count,
                                                               Body body) {
    constexpr std::size_t width = floats<Arch>::size;
    using result = decltype(body(std::declval<const full_block<Arch>&>()));
    constexpr bool counts = !std::is_void_v<result>;

    lane_counter<Arch> counter;
    if (head > 0) {
        const tail_block<Arch> block{0, head};
        if constexpr (counts) {
            counter.add(block, body(block));
        } else {
            body(block);
        }
    }
    std::size_t first = head;
    for (; first + width <= count; first += width) {
        const full_block<Arch> block{first};
        if constexpr (counts) {
            counter.add(block, body(block));
        } else {
            body(block);
        }
    }
    if (first < count) {
        const tail_block<Arch> block{first, count - first};
        if constexpr (counts) {
            counter.add(block, body(block));
        } else {
            body(block);
        }
    }
    return counts ? counter.total() : 0;
}

/// How many elements of `field` come before its first address that is a multiple of the
/// vector size (W floats), at most `count`.
template <class Arch>
[[gnu::always_inline]] inline std::size_t elements_before_vector_boundary(const void* field,
                                                                          std::size_t count) {
    constexpr std::uintptr_t vector_bytes = sizeof(float) * floats<Arch>::size;
    const auto address = reinterpret_cast<std::uintptr_t>(field);
    const std::size_t head =
        ((vector_bytes - address % vector_bytes) % vector_bytes) / sizeof(float);
    return head < count ? head : count;
}

/// for_each_block_after over a caller's arrays, with the whole blocks' stores to `stored` (the
/// first field the body stores to, or one it loads where it stores none) aligned to the
/// vector size: the elements before that field's first vector boundary go first, as one
/// partial block. A vector store that straddles two cache lines costs far more than one
/// that does not (docs/performance.md, "Where the arrays lie"). Where the fields share their offset
/// within a line (one allocator's large arrays, all 16 bytes past a page), every store is then
/// aligned; where they do not, the other fields' stores still split. Each element's result depends
/// on that element alone, so where the blocks start changes no bits.
template <class Arch, class Body>
[[gnu::always_inline]] inline std::size_t for_each_block_storing(const void* stored,
                                                                 std::size_t count, Body body) {
    return for_each_block_after<Arch>(elements_before_vector_boundary<Arch>(stored, count), count,
                                      body);
}

/// for_each_block_storing for a body in two parts, `early(block)` and `late(block, e)`, where e
/// is what early returned for that block: whole blocks run early one block ahead of late, so
/// that a block's square root and division (early) are on the divider while the block before
/// does its other work (late). Each block gets late(block, early(block)): the same
/// operations on the same values, so the same bits; the partial blocks at either end take
/// theirs at once. `late` returns the block's lane mask; returns the count of its set real
/// lanes. What early returns is kept in registers from one block to the next, so it should
/// hold what late needs and no more.
/// The circle kernels, whose square root and division are much of their time, gain from it;
/// the box kernels, bound by the other instructions they issue, do not, and do not use it
/// (docs/performance.md, "Measurements behind the code").
template <class Arch, class Early, class Late>
[[gnu::always_inline]] inline std::size_t
for_each_block_pipelined(const void* stored, std::size_t count, Early early, Late late) {
    constexpr std::size_t width = floats<Arch>::size;
    const std::size_t head = elements_before_vector_boundary<Arch>(stored, count);
    lane_counter<Arch> counter;
    if (head > 0) {
        const tail_block<Arch> block{0, head};
        counter.add(block, late(block, early(block)));
    }
    std::size_t first = head;
    if (first + width <= count) {
        auto ahead = early(full_block<Arch>{first});
        for (; first + 2 * width <= count; first += width) {
            const auto next = early(full_block<Arch>{first + width});
            const full_block<Arch> block{first};
            counter.add(block, late(block, ahead));
            ahead = next;
        }
        const full_block<Arch> block{first};
        counter.add(block, late(block, ahead));
        first += width;
    }
    if (first < count) {
        const tail_block<Arch> block{first, count - first};
        counter.add(block, late(block, early(block)));
    }
    return counter.total();
}

} // namespace simdcollide::simd
