#!/usr/bin/env bash
# Installs what simdcollide needs to build, test and benchmark, from Debian's archive.
# Run as root (or with sudo) on Debian 12 or a derivative. Safe to run again.
set -euo pipefail

packages=(
    cmake g++ make           # the build
    libxsimd-dev             # SIMD kernels (build-time only, headers)
    libgtest-dev             # tests
    libbenchmark-dev         # benchmarks
    libbox2d-dev             # the Box2D 2.4.1 comparison benchmark
    qemu-user                # running the tests as CPUs without AVX, and as aarch64
    g++-aarch64-linux-gnu    # the NEON build, run under qemu-aarch64
    googletest               # GoogleTest's sources, built for aarch64 in the NEON job
    binutils                 # nm and objdump, for the per-ISA symbol check
    python3                  # the benchmark report, and a test of it
    python3-matplotlib       # the benchmark report's plots, and the Python example's
    python3-dev python3-numpy pybind11-dev   # the Python module
    python3-pytest           # its tests
    libpng-dev               # simdcollide-demo's PNG frames
    clang libclang-rt-dev    # the clang build and the libFuzzer job (and its fuzzer runtime)
    clang-format             # the formatting check
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: everything is installed"
    exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
