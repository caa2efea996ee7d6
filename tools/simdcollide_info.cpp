// simdcollide-info: what this CPU offers, what this build carries, and what runs.
//
//   simdcollide-info              print the report
//   simdcollide-info --expect X   also exit 1 unless the active instruction set is X
//                                 (used by the qemu tests to prove what dispatch picks)
#include <simdcollide/simdcollide.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace {

const char* yes_no(bool value) {
    return value ? "yes" : "no";
}

} // namespace

int main(int argc, char** argv) {
    const char* expected = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--expect") == 0 && i + 1 < argc) {
            expected = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--expect ISA]\n", argv[0]);
            return 2;
        }
    }

    const simdcollide::cpu_features f = simdcollide::detect_cpu_features();
    std::printf("simdcollide %s\n", SIMDCOLLIDE_VERSION_STRING);
    std::printf(
        "cpu features: sse2=%s sse4.1=%s avx=%s avx2=%s fma=%s avx512f=%s avx512vl=%s neon=%s\n",
        yes_no(f.sse2), yes_no(f.sse4_1), yes_no(f.avx), yes_no(f.avx2), yes_no(f.fma),
        yes_no(f.avx512f), yes_no(f.avx512vl), yes_no(f.neon));
    std::printf("os saves:     ymm=%s zmm=%s\n", yes_no(f.os_saves_ymm), yes_no(f.os_saves_zmm));
    std::printf("compiled in: ");
    for (simdcollide::isa which : simdcollide::compiled_isas()) {
        std::printf(" %s%s", std::string(simdcollide::isa_name(which)).c_str(),
                    simdcollide::isa_supported(which) ? "" : "(unsupported here)");
    }
    std::printf("\n");

    try {
        const simdcollide::isa active = simdcollide::active_isa();
        std::printf("active:       %s, %zu float lanes\n",
                    std::string(simdcollide::isa_name(active)).c_str(),
                    simdcollide::lane_count(active));
        if (expected != nullptr && simdcollide::isa_name(active) != expected) {
            std::fprintf(stderr, "simdcollide-info: expected %s, but %s is active\n", expected,
                         std::string(simdcollide::isa_name(active)).c_str());
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "simdcollide-info: %s\n", e.what());
        return 2;
    }
    return 0;
}
