#!/usr/bin/env python3
"""The Python module's call overhead: kernels called from Python against the same kernels
called from C++ (Google Benchmark, simdcollide_bench_python) on the same arrays.

    python3 bench/python_overhead.py BUILD_DIR [--rounds 3]

BUILD_DIR holds the module and bench/simdcollide_bench_python. Rounds alternate C++ and
Python; each figure is the median of its rounds, each round a median of repetitions.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import timeit

import numpy as np

SIZES = (4096, 1_000_000)
KERNELS = ("distance_squared", "contact")


def make_scene(n, seed):
    """Boxes over a square and circles near them: about half the pairs in contact."""
    rng = np.random.default_rng(seed)
    w = 0.5 + 2.5 * rng.random(n)
    h = 0.5 + 2.5 * rng.random(n)
    min_x = 100 * rng.random(n)
    min_y = 100 * rng.random(n)
    r = 0.1 + 0.9 * rng.random(n)
    grow = 2 * r + 0.5
    x = min_x - grow + (w + 2 * grow) * rng.random(n)
    y = min_y - grow + (h + 2 * grow) * rng.random(n)
    return [a.astype(np.float32) for a in (x, y, r, min_x, min_y, min_x + w, min_y + h)]


def cpp_medians(binary, paths):
    out = subprocess.run(
        [binary, *paths, "--benchmark_repetitions=5", "--benchmark_min_time=0.2",
         "--benchmark_format=json", "--benchmark_report_aggregates_only=true"],
        check=True, capture_output=True, text=True).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            _, kernel, _, n = b["run_name"].split("/")
            medians[(kernel, int(n))] = b["real_time"] * {"ns": 1e-9, "us": 1e-6,
                                                           "ms": 1e-3}[b["time_unit"]]
    return medians


def python_medians(sc, scenes, aligned):
    medians = {}
    for n, scene in scenes.items():
        # Aligned: on 64-byte boundaries, as the C++ side's arrays are. Otherwise numpy's
        # own arrays, which start on 16 bytes.
        arrays = [sc.empty(n) if aligned else np.empty(n, np.float32) for _ in scene]
        for a, values in zip(arrays, scene):
            a[:] = values
        circles = sc.Circles(*arrays[:3])
        boxes = sc.Boxes(*arrays[3:])
        distances = sc.empty(n) if aligned else np.empty(n, np.float32)
        contacts = (sc.Contacts.zeros(n) if aligned else
                    sc.Contacts(*(np.zeros(n, np.float32) for _ in range(5))))
        calls = {"distance_squared": lambda: sc.distance_squared(circles, boxes, distances),
                 "contact": lambda: sc.contact(circles, boxes, contacts)}
        for kernel, call in calls.items():
            number = max(1, int(0.2 / max(timeit.timeit(call, number=3) / 3, 1e-9)) // 5)
            times = [timeit.timeit(call, number=number) / number for _ in range(5)]
            medians[(kernel, n)] = statistics.median(times)
    return medians


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.build_dir))
    import simdcollide as sc

    binary = os.path.join(args.build_dir, "bench", "simdcollide_bench_python")
    scenes = {n: make_scene(n, seed=n) for n in SIZES}
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for n, arrays in scenes.items():
            path = os.path.join(folder, f"scene-{n}.bin")
            with open(path, "wb") as f:
                f.write(np.uint64(n).tobytes())
                for a in arrays:
                    f.write(a.tobytes())
            paths.append(path)
        cpp, py, unaligned = [], [], []
        for _ in range(args.rounds):
            cpp.append(cpp_medians(binary, paths))
            py.append(python_medians(sc, scenes, aligned=True))
            unaligned.append(python_medians(sc, scenes, aligned=False))

    print(f"simdcollide {sc.__version__}, {sc.active_isa()}; medians of {args.rounds} "
          "alternating rounds")
    print("Python: on sc.empty arrays (64-byte aligned, as the C++ side's); "
          "numpy arrays: on numpy.empty arrays")
    print(f"{'kernel':<18} {'n':>9} {'C++':>12} {'Python':>12} {'Python / C++':>13} "
          f"{'numpy arrays':>12} {'/ C++':>8}")
    for kernel in KERNELS:
        for n in SIZES:
            c, p, u = (statistics.median(r[(kernel, n)] for r in runs)
                       for runs in (cpp, py, unaligned))
            print(f"{kernel:<18} {n:>9} {c * 1e6:>10.2f}us {p * 1e6:>10.2f}us {p / c:>12.3f}x "
                  f"{u * 1e6:>10.2f}us {u / c:>7.3f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
