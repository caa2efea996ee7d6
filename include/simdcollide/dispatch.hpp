// Runtime choice of instruction set.
//
// One binary carries the scalar reference and a SIMD version of every kernel for each
// instruction set it was built with (x86-64: SSE2, AVX2, AVX-512 F and VL; aarch64:
// NEON). On first use the library picks the widest one that both the CPU and the operating
// system support, detected with cpuid and xgetbv. Every choice gives bit-identical results;
// only speed differs.
//
// The environment variable SIMDCOLLIDE_ISA (reference, sse2, avx2, avx512, neon, or best)
// overrides the choice; it is read once, at the first kernel call or active_isa() call.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace simdcollide {

/// The implementations a kernel call can run.
enum class isa {
    reference, ///< the scalar reference: portable C++, the definition of the results
    sse2,      ///< x86-64, 4 lanes
    avx2,      ///< x86-64, 8 lanes
    avx512,    ///< x86-64 AVX-512F and AVX-512VL, 16 lanes
    neon,      ///< aarch64 Advanced SIMD, 4 lanes
};

/// Thrown when an instruction set is asked for (by set_isa or SIMDCOLLIDE_ISA) that this
/// build does not contain or this CPU and OS cannot run. Nothing is changed when it is thrown.
class isa_unavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The lower-case name used by SIMDCOLLIDE_ISA and in benchmark names ("avx2").
[[nodiscard]] std::string_view isa_name(isa which) noexcept;

/// Parses a name as isa_name writes it; std::nullopt for anything else ("best" included).
[[nodiscard]] std::optional<isa> isa_from_name(std::string_view name) noexcept;

/// Floats per vector register for that instruction set (1 for the reference).
[[nodiscard]] std::size_t lane_count(isa which) noexcept;

/// Instruction sets this build contains, reference first, in increasing width.
[[nodiscard]] std::vector<isa> compiled_isas();

/// True when this build contains `which` and this CPU and OS can run it.
[[nodiscard]] bool isa_supported(isa which) noexcept;

/// The widest supported instruction set: what is chosen when nothing is forced.
[[nodiscard]] isa best_isa() noexcept;

/// The instruction set the kernels run now. On the first call it reads SIMDCOLLIDE_ISA;
/// throws isa_unavailable if that names an unknown or unsupported instruction set.
[[nodiscard]] isa active_isa();

/// Forces every later kernel call onto `which`, for all threads. Throws isa_unavailable if
/// `which` is not supported here, and then leaves the active choice as it was.
void set_isa(isa which);

/// Forgets any forced choice: the next call chooses again (reading SIMDCOLLIDE_ISA again).
void reset_isa() noexcept;

/// What cpuid and xgetbv reported. An `os_*` flag says the OS saves that register state.
struct cpu_features {
    bool sse2 = false;
    bool sse4_1 = false;
    bool avx = false;      ///< the CPU has AVX and the OS saves YMM state
    bool avx2 = false;     ///< AVX2, with YMM state saved
    bool fma = false;      ///< FMA3 (never used by the kernels: it would change rounding)
    bool avx512f = false;  ///< AVX-512F, with ZMM and opmask state saved
    bool avx512vl = false; ///< AVX-512VL (AVX-512 on 256-bit vectors), with ZMM and opmask
                           ///< state saved; the avx512 kernels need it as well as F
    bool neon = false;
    bool os_saves_ymm = false;
    bool os_saves_zmm = false;
};

/// Detects the CPU once per call; cheap enough for start-up, not for a hot loop.
[[nodiscard]] cpu_features detect_cpu_features() noexcept;

} // namespace simdcollide
