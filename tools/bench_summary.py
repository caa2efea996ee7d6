#!/usr/bin/env python3
"""Summarise a simdcollide_bench JSON file: medians of repetitions, and the ratios that matter.

usage: bench_summary.py RESULTS.json [--markdown]

For each family/kernel at each n it prints the median time of every implementation and the
speed-ups of the dispatched SIMD path over the scalar reference, over GCC's auto-vectorised
reference loop (autovec) and over Box2D, all measured in the same run. For push-out at the
largest n it also prints its bandwidth as a fraction of the stream baseline's.
"""
import json
import re
import sys

NAME = re.compile(r"^(?P<family>[a-z_]+)/(?P<kernel>[a-z_0-9]+)/(?P<impl>[a-z0-9_]+)/(?P<n>\d+)")
# static_boxes/<method>/<boxes>: three parts, the method in the implementation's place.
BOXES = re.compile(r"^static_boxes/(?P<impl>[a-z_]+)/(?P<n>\d+)")


def medians(path):
    with open(path) as f:
        data = json.load(f)
    rows = {}
    for b in data["benchmarks"]:
        # With repetitions, keep the median aggregate; without, the single run.
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b["run_name"] if "run_name" in b else b["name"]
        m = NAME.match(name)
        if m:
            key = (m["family"], m["kernel"], int(m["n"]))
        else:
            m = BOXES.match(name)
            if not m:
                continue
            key = ("static_boxes", "push_out_all", int(m["n"]))
        rows.setdefault(key, {})[m["impl"]] = b
    return data.get("context", {}), rows


def ns(b):
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return b["real_time"] * scale


def fmt_time(t):
    if t >= 1e6:
        return f"{t / 1e6:.2f} ms"
    if t >= 1e3:
        return f"{t / 1e3:.2f} us"
    return f"{t:.0f} ns"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    markdown = "--markdown" in sys.argv
    context, rows = medians(sys.argv[1])
    impl_order = ["reference", "sse2", "avx2", "avx512", "neon", "dispatch", "autovec", "box2d",
                  "stream", "grid", "brute_force"]
    present = [i for i in impl_order if any(i in r for r in rows.values())]

    cpu = f"{context.get('num_cpus', '?')} x {context.get('mhz_per_cpu', '?')} MHz"
    print(f"simdcollide benchmark summary ({cpu}; medians of repetitions)")
    print("stream: a pass reading and writing push-out's bytes with no collision math")
    header = ["benchmark"] + present + ["SIMD/ref", "SIMD/autovec", "SIMD/box2d", "grid/brute"]
    lines = []
    for (family, kernel, n), impls in sorted(rows.items()):
        cells = [f"{family}/{kernel}/{n}"]
        for i in present:
            cells.append(fmt_time(ns(impls[i])) if i in impls else "-")
        simd = impls.get("dispatch")
        for bar in ["reference", "autovec", "box2d"]:
            if simd and bar in impls:
                cells.append(f"{ns(impls[bar]) / ns(simd):.1f}x")
            else:
                cells.append("-")
        if "grid" in impls and "brute_force" in impls:
            cells.append(f"{ns(impls['brute_force']) / ns(impls['grid']):.1f}x")
        else:
            cells.append("-")
        lines.append(cells)

    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
    else:
        widths = [max(len(c[k]) for c in [header] + lines) for k in range(len(header))]
        for cells in [header] + lines:
            print("  ".join(c.rjust(w) if k else c.ljust(w) for k, (c, w) in enumerate(zip(cells, widths))))

    # Push-out at the largest n against the memory-bandwidth bar.
    push = rows.get(("circle_aabb", "push_out", 16777216), {})
    bar = push.get("stream")
    if bar and "dispatch" in push:
        ratio = push["dispatch"]["bytes_per_second"] / bar["bytes_per_second"]
        print(f"\npush_out at n=16777216: {push['dispatch']['bytes_per_second'] / 1e9:.1f} GB/s, "
              f"stream baseline {bar['bytes_per_second'] / 1e9:.1f} GB/s: {ratio:.2f}x of the bar")
    return 0


if __name__ == "__main__":
    sys.exit(main())
