#!/usr/bin/env bash
# The test job: install dependencies, check that the C++ sources are as clang-format
# writes them, then
#   1. Release build, every test (bit-exactness on every ISA this CPU runs, the reference
#      against hand-worked values, dispatch, the per-ISA symbol check, the Python module's
#      tests, dispatch under qemu as a Core 2 and a Nehalem, CPUs without AVX, and the
#      suite but its longest scenes and its piles stepped everywhere as the Core 2);
#   2. Debug build with AddressSanitizer and UndefinedBehaviorSanitizer, every test but
#      the qemu ones (the sanitizers' runtimes do not run under qemu-user) and the 10 000
#      circle soak (about ten seconds in Release, far longer at -O0 with sanitizers; a 500
#      circle pile runs in its place), the two worker tests that step many worlds, and the
#      packaging tests (a consumer project built three ways), which job 1 runs, the
#      same-bits tests of the kinematic scene, the contact events, the woken pile and the
#      piles of mixed materials and filters, which jobs 1, 3 and 4 run, and the listings of
#      large worlds and the soft step's long scenes, which jobs 1 and 4 run;
#   3. on x86-64, a cross build for aarch64 (NEON) and every test but the soak, those two
#      worker tests and the large listings under qemu-aarch64: the NEON path held to the
#      reference bit for bit;
#   4. a clang Release build and its tests (the same bits as GCC's: the determinism test
#      holds every build to one hash), without the Python module, which job 1 tests;
#   5. a clang build with ThreadSanitizer of the thread and worker tests alone;
#   6. a clang build of the libFuzzer targets (tests/fuzz), with ASan and UBSan, each run
#      for SIMDCOLLIDE_FUZZ_SECONDS (default 30) from a fixed seed: every kernel of every
#      ISA this CPU runs against the reference, and the broad phases and the world against
#      their brute forces and across ISAs, on inputs the fuzzer makes up.
#
#   tools/run-tests.sh [BUILD_ROOT]      (default: build-tests)
#
# With CI=true, warnings are errors and a missing qemu fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-build-tests}
jobs=$(nproc)

# Each job's time, printed when the next begins and at the end.
job_name=
job_start=$SECONDS
job() {
    if [ -n "$job_name" ]; then
        echo "== $job_name: $((SECONDS - job_start)) s"
    fi
    job_name=$1
    job_start=$SECONDS
    [ -z "$job_name" ] || echo "== $job_name"
}

job "dependencies"
tools/install-deps.sh

strict=()
werror=OFF
if [ "${CI:-}" = "true" ]; then
    strict=(-DSIMDCOLLIDE_WERROR=ON -DSIMDCOLLIDE_REQUIRE_QEMU=ON)
    werror=ON
fi

job "clang-format: the sources as .clang-format writes them"
find include kernels tests bench tools python \( -name '*.cpp' -o -name '*.hpp' -o -name '*.inl' \) \
    -print0 | xargs -0 clang-format --dry-run --Werror

job "Release build and tests"
cmake -S . -B "$root/release" -DCMAKE_BUILD_TYPE=Release -DSIMDCOLLIDE_BUILD_BENCHMARKS=ON "${strict[@]}"
cmake --build "$root/release" -j"$jobs"
ctest --test-dir "$root/release" -j"$jobs" --output-on-failure

job "AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
cmake -S . -B "$root/sanitize" -DCMAKE_BUILD_TYPE=Debug -DSIMDCOLLIDE_SANITIZE=address,undefined \
    -DSIMDCOLLIDE_BUILD_BENCHMARKS=OFF "${strict[@]}"
cmake --build "$root/sanitize" -j"$jobs"
# The worker tests that step many worlds (every worker count, hostile circles) run in the
# Release, clang and ThreadSanitizer jobs; here and under qemu-aarch64, the host callbacks'
# test steps worlds on three workers in five blocks, in a fraction of the time.
slow_workers='workers_same_bits\.(any_worker_count|hostile_circles)'
# The same-bits tests of the kinematic scene, the contact events, the woken pile and the
# piles of mixed materials and filters step 13 worlds or more each: their bits are held in
# the Release, aarch64 and clang jobs; here the tests that step one world at a time run.
slow_bits='world_kinematic\.a_scene_steps_to_the_same_bits|world_events\.the_same_events'
slow_bits+='|world_sleep\.a_woken_pile|world_materials\.a_pile_of_mixed'
slow_bits+='|world_filters\.a_filtered_pile'
# The listings of large worlds and the soft step's long scenes (a dt that changes, coarse
# steps in a closed box) step code the other world tests step, at several times the cost:
# the Release and clang jobs run them, and the aarch64 job the scenes (the listings differ
# by instruction set only in a per-circle test the small listings take too).
large_lists='large_world'
long_scenes='soft_step_contacts\.(a_resting_pile_stays_at_rest_when_dt_changes|coarse_steps_keep_a_closed_container_whole)'
ctest --test-dir "$root/sanitize" -j"$jobs" --output-on-failure \
    -E "^qemu_|^consumer_|_soak\.|$slow_workers|$slow_bits|$large_lists|$long_scenes"

if [ "$(uname -m)" = "x86_64" ]; then
    job "aarch64 (NEON) cross build, tests under qemu-aarch64"
    cmake -S . -B "$root/aarch64" -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
        -DCMAKE_BUILD_TYPE=Release -DSIMDCOLLIDE_BUILD_BENCHMARKS=OFF \
        -DSIMDCOLLIDE_GTEST_SOURCE_DIR=/usr/src/googletest "${strict[@]}"
    cmake --build "$root/aarch64" -j"$jobs"
    ctest --test-dir "$root/aarch64" -j"$jobs" --output-on-failure \
        -E "_soak\.|$slow_workers|$large_lists"
fi

job "clang build and tests"
cmake -S . -B "$root/clang" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
    -DSIMDCOLLIDE_BUILD_BENCHMARKS=OFF -DSIMDCOLLIDE_BUILD_PYTHON=OFF "${strict[@]}"
cmake --build "$root/clang" -j"$jobs"
ctest --test-dir "$root/clang" -j"$jobs" --output-on-failure -E '^qemu_|_soak\.|^consumer_'

job "ThreadSanitizer: threads and workers (clang)"
cmake -S . -B "$root/tsan" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSIMDCOLLIDE_SANITIZE=thread -DSIMDCOLLIDE_BUILD_BENCHMARKS=OFF \
    "${strict[@]}"
cmake --build "$root/tsan" -j"$jobs" --target simdcollide_thread_tests
# The worker tests on one SIMD path (the others take the same code through other kernels):
# under ThreadSanitizer each runs some ten times slower.
one_path='every_isa/workers_same_bits.*/reference:every_isa/workers_same_bits.*/sse2'
one_path+=':every_isa/workers_same_bits.*/avx512:every_isa/batch_workers.*/reference'
one_path+=':every_isa/batch_workers.*/sse2:every_isa/batch_workers.*/avx512'
one_path+=':every_isa/pair_blocks_on_each_isa.*/reference:every_isa/pair_blocks_on_each_isa.*/sse2'
one_path+=':every_isa/pair_blocks_on_each_isa.*/avx512'
TSAN_OPTIONS=halt_on_error=1 "$root/tsan/tests/simdcollide_thread_tests" \
    --gtest_filter="-$one_path"

job "libFuzzer: every kernel of every ISA against the reference (clang, ASan + UBSan)"
cmake -S . -B "$root/fuzz" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSIMDCOLLIDE_BUILD_FUZZERS=ON -DSIMDCOLLIDE_BUILD_TESTS=OFF -DSIMDCOLLIDE_BUILD_BENCHMARKS=OFF \
    -DSIMDCOLLIDE_BUILD_TOOLS=OFF -DSIMDCOLLIDE_SANITIZE=fuzzer-no-link,address,undefined \
    -DSIMDCOLLIDE_WERROR=$werror
cmake --build "$root/fuzz" -j"$jobs"
# A crash (a kernel that differs from the reference) leaves its input in $root/fuzz/ as
# crash-*; run the fuzzer on that file alone to see it again.
# libFuzzer logs every input that adds coverage: kept in $root/fuzz/<target>.log, and its
# end shown only when a target fails.
for target in kernels many; do
    log="$root/fuzz/$target.log"
    if ! "$root/fuzz/tests/fuzz/simdcollide_fuzz_$target" -seed=1 \
        -max_total_time="${SIMDCOLLIDE_FUZZ_SECONDS:-30}" -artifact_prefix="$root/fuzz/" >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz_$target failed (its input is the crash-* file in $root/fuzz/)"
        exit 1
    fi
    grep -E '^Done [0-9]+ runs' "$log" | sed "s/^/fuzz_$target: /"
done
job ""
echo "== all jobs: $SECONDS s"
