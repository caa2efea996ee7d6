// CPU feature detection with cpuid and xgetbv, our own rather than xsimd 8.1's, which reads
// AVX and SSE2 from the wrong registers and never asks the OS (xgetbv) whether it saves
// the wider register state. A CPU can have AVX while the OS has it switched off.
#include <simdcollide/dispatch.hpp>

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <cstdint>
#endif

namespace simdcollide {

#if defined(__x86_64__) || defined(_M_X64)
namespace {

// xgetbv through its encoding: the intrinsic would need -mxsave on this baseline file.
// Only called when cpuid says OSXSAVE, i.e. the instruction exists and is enabled.
std::uint64_t read_xcr0() noexcept {
    std::uint32_t eax = 0;
    std::uint32_t edx = 0;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
    return (std::uint64_t{edx} << 32) | eax;
}

constexpr bool bit(unsigned value, unsigned index) noexcept {
    return ((value >> index) & 1U) != 0;
}

} // namespace

cpu_features detect_cpu_features() noexcept {
    cpu_features f;
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) {
        return f;
    }
    const unsigned max_leaf = eax;

    __get_cpuid(1, &eax, &ebx, &ecx, &edx);
    f.sse2 = bit(edx, 26);
    f.sse4_1 = bit(ecx, 19);
    const bool osxsave = bit(ecx, 27);
    const bool cpu_avx = bit(ecx, 28);
    const bool cpu_fma = bit(ecx, 12);

    const std::uint64_t xcr0 = osxsave ? read_xcr0() : 0;
    // XCR0 bit 1: SSE state, bit 2: AVX (upper YMM) state; bits 5-7: opmask, ZMM0-15 upper
    // halves, ZMM16-31.
    f.os_saves_ymm = (xcr0 & 0x6) == 0x6;
    f.os_saves_zmm = f.os_saves_ymm && (xcr0 & 0xE0) == 0xE0;

    f.avx = cpu_avx && f.os_saves_ymm;
    f.fma = cpu_fma && f.avx;
    if (max_leaf >= 7) {
        __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
        f.avx2 = f.avx && bit(ebx, 5);
        f.avx512f = bit(ebx, 16) && f.os_saves_zmm;
        f.avx512vl = bit(ebx, 31) && f.os_saves_zmm;
    }
    return f;
}

#elif defined(__aarch64__)

cpu_features detect_cpu_features() noexcept {
    cpu_features f;
    f.neon = true; // Advanced SIMD is mandatory on aarch64
    return f;
}

#else

cpu_features detect_cpu_features() noexcept {
    return {};
}

#endif

} // namespace simdcollide
