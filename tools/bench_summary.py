#!/usr/bin/env python3
"""Summarise a simdcollide_bench JSON file: medians of repetitions, and the ratios that matter.

usage: bench_summary.py RESULTS.json [--markdown]

For each family/kernel at each n it prints the median time of every implementation and the
speed-ups of the dispatched SIMD path over the scalar reference, over GCC's auto-vectorised
reference loop (autovec) and over Box2D, all measured in the same run. For push-out at the
largest n it also prints its bandwidth as a fraction of the stream baseline's. Last, each
"must reach" target of the issues that this run measured, with the AVX2 path (what the
issues ask for) and the dispatched one, and whether each meets it.
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


# The issues' "must reach" targets that the main job measures, each a ratio that must be at
# least the bar: (issue, benchmark key, the implementation compared with, the bar). A ratio
# is that implementation's time over the SIMD path's; the issues ask for them with AVX2 at
# n = 4096. The verdict is on the ratio before it is rounded for printing. The targets of
# other kinds (push-out's bytes, the step's time, the grid) are in print_targets.
# Not here: the 1 000 000-circle step's cost per circle against the 10 000-circle one (issue
# 4's 1.5x), which takes longer than the main job (README, "How a world step scales").
TARGETS = [
    (2, ("circle_aabb", "push_out", 4096), "reference", 5.0),
    (2, ("circle_aabb", "push_out", 4096), "autovec", 1.0),
    (2, ("circle_aabb", "contact", 4096), "reference", 5.0),
    (2, ("circle_aabb", "contact", 4096), "autovec", 1.0),
    (2, ("circle_aabb", "contact", 4096), "box2d", 20.0),
    (2, ("circle_aabb", "closest_point", 4096), "reference", 4.0),
    (2, ("circle_aabb", "distance_squared", 4096), "reference", 4.0),
    (2, ("circle_aabb", "overlap", 4096), "reference", 4.0),
    (3, ("circle_circle", "contact", 4096), "reference", 5.0),
    (3, ("circle_circle", "contact", 4096), "autovec", 1.0),
    (3, ("circle_circle", "contact", 4096), "box2d", 20.0),
    (3, ("circle_circle", "separate", 4096), "reference", 5.0),
    (3, ("circle_circle", "separate", 4096), "autovec", 1.0),
    (3, ("circle_circle", "separate_pairs", 4096), "reference", 3.0),
    (3, ("circle_circle", "separate_in_order", 4096), "reference", 3.0),
    (3, ("response", "circle_aabb", 4096), "reference", 4.0),
    (3, ("response", "circle_circle", 4096), "reference", 4.0),
]


def stream_ratio(push, simd):
    """Push-out's bytes per second with `simd` over the stream baseline's, or None."""
    if "stream" not in push or simd not in push:
        return None
    return push[simd]["bytes_per_second"] / push["stream"]["bytes_per_second"]


def print_targets(context, rows, markdown):
    """Each target this run measured: the AVX2 and the dispatched ratios, and which meet it."""
    dispatched = context.get("simdcollide_dispatch", "dispatch")
    header = ["issue", "target", "asked", "avx2", f"dispatch ({dispatched})", "met"]
    lines = []

    def verdict(values, meets):
        met = [name for name, v in values if v is not None and meets(v)]
        return " and ".join(met) if met else "no"

    for issue, key, bar, asked in TARGETS:
        impls = rows.get(key, {})
        if bar not in impls:
            continue
        values = []
        for simd in ["avx2", "dispatch"]:
            values.append((simd, ns(impls[bar]) / ns(impls[simd]) if simd in impls else None))
        cells = [str(issue), f"{key[0]}/{key[1]}/{key[2]} vs {bar}", f">= {asked:g}x"]
        cells += [f"{v:.1f}x" if v is not None else "-" for _, v in values]
        cells.append(verdict(values, lambda v, asked=asked: v >= asked))
        lines.append(cells)

    # Push-out at 16M: bytes per second against the stream baseline's, at least 0.8x.
    push = rows.get(("circle_aabb", "push_out", 16777216), {})
    if "stream" in push:
        values = [(simd, stream_ratio(push, simd)) for simd in ["avx2", "dispatch"]]
        lines.append(["2", "circle_aabb/push_out/16777216 vs stream bytes/s", ">= 0.8x"]
                     + [f"{v:.2f}x" if v is not None else "-" for _, v in values]
                     + [verdict(values, lambda v: v >= 0.8)])

    # The 10 000-circle step: at most 1 ms dispatched.
    step = rows.get(("world", "step", 10000), {})
    if "dispatch" in step:
        t = ns(step["dispatch"])
        lines.append(["4", "world/step/dispatch/10000", "<= 1 ms", "-", fmt_time(t),
                      "dispatch" if t <= 1e6 else "no"])

    # The static-box grid against brute force: faster from 1000 boxes on, and never more
    # than 1.2x slower below.
    boxes = sorted((n, impls) for (family, _, n), impls in rows.items()
                   if family == "static_boxes" and "grid" in impls and "brute_force" in impls)
    if boxes:
        speedups = [(n, ns(impls["brute_force"]) / ns(impls["grid"])) for n, impls in boxes]
        meets = all(s > 1.0 if n >= 1000 else s >= 1 / 1.2 for n, s in speedups)
        lines.append(["4", "static_boxes grid vs brute_force",
                      "> 1x from 1000 boxes, >= 0.83x below", "-",
                      ", ".join(f"{s:.1f}x ({n})" for n, s in speedups),
                      "dispatch" if meets else "no"])

    if not lines:
        return
    print("\nThe issues' targets (ratios: the bar's time over the SIMD path's)")
    print_table(header, lines, markdown, left=3)


def print_table(header, lines, markdown, left=1):
    """Text columns: the first `left` left-aligned, the rest right-aligned."""
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
    else:
        widths = [max(len(c[k]) for c in [header] + lines) for k in range(len(header))]
        for cells in [header] + lines:
            print("  ".join(c.ljust(w) if k < left else c.rjust(w)
                            for k, (c, w) in enumerate(zip(cells, widths))))


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

    print_table(header, lines, markdown)

    print_targets(context, rows, markdown)

    # Push-out at the largest n against the memory-bandwidth bar.
    push = rows.get(("circle_aabb", "push_out", 16777216), {})
    ratio = stream_ratio(push, "dispatch")
    if ratio is not None:
        print(f"\npush_out at n=16777216: {push['dispatch']['bytes_per_second'] / 1e9:.1f} GB/s, "
              f"stream baseline {push['stream']['bytes_per_second'] / 1e9:.1f} GB/s: "
              f"{ratio:.2f}x of the bar")
    return 0


if __name__ == "__main__":
    sys.exit(main())
