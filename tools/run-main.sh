#!/usr/bin/env bash
# The main job: install dependencies, build (Release), then benchmark every kernel at
# n = 4096 (reference, each instruction set this CPU runs, GCC's auto-vectorised loop,
# Box2D), push-out at n = 16M against the memory-bandwidth baseline, a step of the particle
# world at 10 000 circles and its phases (pair search, grouping the pairs, one round of
# separation in order, alone and recording the pairs in contact as a substep does, phase 6's
# circle pairs), and the static-box broad phase against brute force; print a
# summary of medians with the ratios that matter, and the issues' targets (bench_summary.py).
#
#   tools/run-main.sh [BUILD_DIR]        (default: build)
#
# Environment: REPETITIONS (default 7), MIN_TIME seconds per repetition (default 0.3).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
repetitions=${REPETITIONS:-7}
min_time=${MIN_TIME:-0.3}

tools/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)" --target simdcollide_bench simdcollide-info

"$build"/tools/simdcollide-info
echo
out="$build/bench-results.json"
"$build"/bench/simdcollide_bench \
    --benchmark_filter='/4096(/|$)|push_out/.*/16777216|^world/(step|find_pairs|group_pairs|separate|separate_recording|respond)/.*/10000(/|$)|^static_boxes/' \
    --benchmark_repetitions="$repetitions" --benchmark_min_time="$min_time" \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$out" --benchmark_out_format=json > "$build/bench-results.txt"
python3 tools/bench_summary.py "$out"
