// Runtime dispatch: what is chosen, forcing a choice, and refusing what cannot run.
#include "test_support.hpp"

#include <cstdlib>

namespace simdcollide::testing {
namespace {

// Restores automatic choice and the environment after each test.
class dispatch : public ::testing::Test {
protected:
    void TearDown() override {
        unsetenv("SIMDCOLLIDE_ISA");
        reset_isa();
    }
};

TEST_F(dispatch, names_round_trip) {
    for (isa which : {isa::reference, isa::sse2, isa::avx2, isa::avx512, isa::neon}) {
        EXPECT_EQ(isa_from_name(isa_name(which)), which);
    }
    EXPECT_EQ(isa_from_name("AVX2"), std::nullopt);
    EXPECT_EQ(isa_from_name("best"), std::nullopt);
}

TEST_F(dispatch, lane_counts) {
    EXPECT_EQ(lane_count(isa::reference), 1U);
    EXPECT_EQ(lane_count(isa::sse2), 4U);
    EXPECT_EQ(lane_count(isa::avx2), 8U);
    EXPECT_EQ(lane_count(isa::avx512), 16U);
    EXPECT_EQ(lane_count(isa::neon), 4U);
}

TEST_F(dispatch, automatic_choice_is_the_best_supported) {
    unsetenv("SIMDCOLLIDE_ISA");
    reset_isa();
    EXPECT_EQ(active_isa(), best_isa());
    EXPECT_TRUE(isa_supported(best_isa()));
    for (isa which : compiled_isas()) {
        if (isa_supported(which)) {
            EXPECT_LE(lane_count(which), lane_count(best_isa())) << isa_name(which);
        }
    }
}

TEST_F(dispatch, feature_flags_are_consistent) {
    const cpu_features f = detect_cpu_features();
    // Each wider set implies the narrower ones and the OS state it needs.
    if (f.avx2) {
        EXPECT_TRUE(f.avx);
    }
    if (f.avx) {
        EXPECT_TRUE(f.os_saves_ymm);
    }
    if (f.avx512f || f.avx512vl) {
        EXPECT_TRUE(f.os_saves_zmm);
    }
#if defined(__x86_64__)
    EXPECT_TRUE(f.sse2); // every x86-64 CPU has it
    EXPECT_TRUE(isa_supported(isa::sse2));
    EXPECT_EQ(isa_supported(isa::avx2), f.avx2);
    EXPECT_EQ(isa_supported(isa::avx512), f.avx512f && f.avx512vl);
#endif
}

TEST_F(dispatch, set_isa_forces_each_supported_choice) {
    for (isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        set_isa(which);
        EXPECT_EQ(active_isa(), which);
    }
}

TEST_F(dispatch, set_isa_refuses_what_cannot_run_and_changes_nothing) {
    set_isa(isa::reference);
    bool refused_any = false;
    for (isa which : {isa::sse2, isa::avx2, isa::avx512, isa::neon}) {
        if (isa_supported(which)) {
            continue;
        }
        refused_any = true;
        EXPECT_THROW(set_isa(which), isa_unavailable) << isa_name(which);
        EXPECT_EQ(active_isa(), isa::reference);
    }
    // Every build lacks at least one: x86 has no NEON, aarch64 no AVX.
    EXPECT_TRUE(refused_any);
}

TEST_F(dispatch, environment_variable_forces_the_choice) {
    for (isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        setenv("SIMDCOLLIDE_ISA", std::string(isa_name(which)).c_str(), 1);
        reset_isa();
        EXPECT_EQ(active_isa(), which);
    }
    setenv("SIMDCOLLIDE_ISA", "best", 1);
    reset_isa();
    EXPECT_EQ(active_isa(), best_isa());
}

TEST_F(dispatch, environment_variable_with_a_bad_name_is_a_clear_error) {
    setenv("SIMDCOLLIDE_ISA", "avx3", 1);
    reset_isa();
    try {
        (void)active_isa();
        FAIL() << "expected isa_unavailable";
    } catch (const isa_unavailable& e) {
        EXPECT_NE(std::string(e.what()).find("avx3"), std::string::npos) << e.what();
    }
    // Kernels refuse too, before touching anything.
    circle_set c(1);
    aabb_set b(1);
    EXPECT_THROW(push_out(c.view(), b.view()), isa_unavailable);
}

TEST_F(dispatch, environment_variable_asking_for_an_unsupported_isa_is_a_clear_error) {
    for (isa which : {isa::sse2, isa::avx2, isa::avx512, isa::neon}) {
        if (isa_supported(which)) {
            continue;
        }
        setenv("SIMDCOLLIDE_ISA", std::string(isa_name(which)).c_str(), 1);
        reset_isa();
        EXPECT_THROW((void)active_isa(), isa_unavailable) << isa_name(which);
    }
}

// The forced implementation is the one that runs: a kernel called through the public API
// after set_isa gives the same bits as that table called directly.
TEST_F(dispatch, public_calls_run_the_forced_table) {
    pair_scene scene(257, 1);
    fill_random(scene, 99);
    for (isa which : compiled_isas()) {
        if (!isa_supported(which)) {
            continue;
        }
        set_isa(which);
        std::vector<float> d2(scene.size()), direct(scene.size());
        distance_squared(scene.circles(), scene.boxes(), d2);
        detail::compiled_table(which)->circle_aabb.distance_squared(scene.circles(), scene.boxes(),
                                                                    direct.data());
        EXPECT_EQ(d2, direct) << isa_name(which);
        EXPECT_EQ(detail::active_table().id, which);
    }
}

} // namespace
} // namespace simdcollide::testing
