// Choosing the kernel table: what this build contains, what the CPU can run, what the user
// forced (set_isa or SIMDCOLLIDE_ISA), and which table is active now.
#include <simdcollide/dispatch.hpp>

#include "pairwise/kernel_table.hpp"
#include "pairwise/simd/isa_of.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <string>

namespace simdcollide {
namespace detail {

const kernel_table* compiled_table(isa which) noexcept {
    switch (which) {
    case isa::reference:
        return &reference_table();
#if SIMDCOLLIDE_HAVE_SSE2
    case isa::sse2:
        return &simd_table<xsimd::sse2>();
#endif
#if SIMDCOLLIDE_HAVE_AVX2
    case isa::avx2:
        return &simd_table<xsimd::avx2>();
#endif
#if SIMDCOLLIDE_HAVE_AVX512
    case isa::avx512:
        return &simd_table<xsimd::avx512f>();
#endif
#if SIMDCOLLIDE_HAVE_NEON
    case isa::neon:
        return &simd_table<xsimd::neon64>();
#endif
    default:
        return nullptr;
    }
}

namespace {

constexpr std::array all_isas{isa::reference, isa::sse2, isa::avx2, isa::avx512, isa::neon};

bool cpu_runs(isa which, const cpu_features& f) noexcept {
    switch (which) {
    case isa::reference:
        return true;
    case isa::sse2:
        return f.sse2;
    case isa::avx2:
        return f.avx2;
    case isa::avx512: // its object is compiled with -mavx512f -mavx512vl (CMakeLists.txt)
        return f.avx512f && f.avx512vl;
    case isa::neon:
        return f.neon;
    }
    return false;
}

std::string detected_list(const cpu_features& f) {
    std::string out;
    for (isa which : all_isas) {
        if (which != isa::reference && cpu_runs(which, f)) {
            out += out.empty() ? "" : " ";
            out += isa_name(which);
        }
    }
    return out.empty() ? "none" : out;
}

// Throws isa_unavailable with a message a user can act on.
[[noreturn]] void refuse(isa which, const char* asked_by) {
    std::string message =
        std::string(asked_by) + " asks for '" + std::string(isa_name(which)) + "', which ";
    if (compiled_table(which) == nullptr) {
        message += "this build of simdcollide does not contain";
    } else {
        message += "this CPU or operating system cannot run (detected: " +
                   detected_list(detect_cpu_features()) + ")";
    }
    throw isa_unavailable(message);
}

// The table from SIMDCOLLIDE_ISA, or the best one when it is unset, empty or "best".
const kernel_table& choose_table() {
    const char* forced = std::getenv("SIMDCOLLIDE_ISA");
    if (forced == nullptr || *forced == '\0' || std::string_view(forced) == "best") {
        return *compiled_table(best_isa());
    }
    const std::optional<isa> which = isa_from_name(forced);
    if (!which) {
        throw isa_unavailable(std::string("SIMDCOLLIDE_ISA='") + forced +
                              "' is not an instruction set; use one of: best reference sse2 "
                              "avx2 avx512 neon");
    }
    if (!isa_supported(*which)) {
        refuse(*which, "SIMDCOLLIDE_ISA");
    }
    return *compiled_table(*which);
}

// Null until the first kernel call chooses; a racing first call chooses the same table.
std::atomic<const kernel_table*> active{nullptr};

} // namespace

const kernel_table& active_table() {
    const kernel_table* table = active.load(std::memory_order_acquire);
    if (table == nullptr) {
        table = &choose_table();
        active.store(table, std::memory_order_release);
    }
    return *table;
}

} // namespace detail

std::string_view isa_name(isa which) noexcept {
    switch (which) {
    case isa::reference:
        return "reference";
    case isa::sse2:
        return "sse2";
    case isa::avx2:
        return "avx2";
    case isa::avx512:
        return "avx512";
    case isa::neon:
        return "neon";
    }
    return "unknown";
}

std::optional<isa> isa_from_name(std::string_view name) noexcept {
    for (isa which : detail::all_isas) {
        if (isa_name(which) == name) {
            return which;
        }
    }
    return std::nullopt;
}

std::size_t lane_count(isa which) noexcept {
    switch (which) {
    case isa::reference:
        return 1;
    case isa::sse2:
    case isa::neon:
        return 4;
    case isa::avx2:
        return 8;
    case isa::avx512:
        return 16;
    }
    return 1;
}

std::vector<isa> compiled_isas() {
    std::vector<isa> out;
    for (isa which : detail::all_isas) {
        if (detail::compiled_table(which) != nullptr) {
            out.push_back(which);
        }
    }
    return out;
}

bool isa_supported(isa which) noexcept {
    return detail::compiled_table(which) != nullptr &&
           detail::cpu_runs(which, detect_cpu_features());
}

isa best_isa() noexcept {
    const cpu_features f = detect_cpu_features();
    isa best = isa::reference;
    for (isa which : detail::all_isas) { // ordered by width
        if (detail::compiled_table(which) != nullptr && detail::cpu_runs(which, f)) {
            best = which;
        }
    }
    return best;
}

isa active_isa() {
    return detail::active_table().id;
}

void set_isa(isa which) {
    if (!isa_supported(which)) {
        detail::refuse(which, "set_isa");
    }
    detail::active.store(detail::compiled_table(which), std::memory_order_release);
}

void reset_isa() noexcept {
    detail::active.store(nullptr, std::memory_order_release);
}

} // namespace simdcollide
