#!/usr/bin/env bash
# The main job: install dependencies, build (Release), benchmark every kernel at n = 4096
# (the scalar reference, each instruction set this CPU runs, GCC's auto-vectorised loop,
# Box2D) and the particle world's step at 1 000 to 30 000 circles, and at 10 000 on each
# count of workers up to the cores, then write a report folder (tools/bench_report.py): the
# raw Google Benchmark JSON, report.md and PNG plots.
#
#   tools/run-main.sh [BUILD_DIR] [REPORT_DIR]     (defaults: build, report)
#
# Compare two machines' reports: python3 tools/bench_report.py compare REPORT_A REPORT_B
#
# Environment: REPETITIONS (default 5) and MIN_TIME (seconds a repetition, default 0.1).
# FULL=1 runs the longer set as well: push-out at n = 2^24 against a memory-bandwidth
# baseline, the world step's phases, the static-box grid against brute force and the step
# of 100 000 circles on each count of workers (about ten minutes, more with many cores).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
report=${2:-report}
repetitions=${REPETITIONS:-5}
min_time=${MIN_TIME:-0.1}

tools/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)" --target simdcollide_bench simdcollide-info

"$build"/tools/simdcollide-info
echo
filter='/4096(/|$)|^world/step/dispatch/(1000|3000|10000|30000)$|^world/step/reference/10000$'
filter="$filter"'|^world/step/dispatch/10000/workers:'
if [ "${FULL:-0}" = "1" ]; then
    filter="$filter"'|push_out/.*/16777216|^world/(find_pairs|group_pairs|separate|solve)/.*/10000(/|$)|^static_boxes/'
    filter="$filter"'|^world/step/dispatch/100000/workers:'
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
mkdir -p "$report"
"$build"/bench/simdcollide_bench \
    --benchmark_filter="$filter" \
    --benchmark_repetitions="$repetitions" --benchmark_min_time="$min_time" \
    --benchmark_report_aggregates_only=true --benchmark_context=simdcollide_commit="$commit" \
    --benchmark_out="$report/results.json" --benchmark_out_format=json > "$build/bench-results.txt"
# Debian's interpreter, which has python3-matplotlib, even where another python3 comes first.
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
"$python" tools/bench_report.py make "$report/results.json" "$report"
