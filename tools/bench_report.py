#!/usr/bin/env python3
"""simdcollide benchmark reports: make one from simdcollide_bench's JSON, or compare two.

usage:
  bench_report.py make RESULTS.json REPORT_DIR   write REPORT_DIR/results.json (a copy),
                                                 report.md and the PNG plots
  bench_report.py compare REPORT_DIR REPORT_DIR  print two reports' figures side by side

A report holds, for one machine: the CPU and the instruction sets it runs; each kernel's
time per element by instruction set, with the dispatched path's speed-up over the scalar
reference, over GCC's auto-vectorised reference loop (autovec) and over Box2D, each
measured in the same run; the particle world's step at each size measured; and, where they
were measured, the step on each count of workers with its speed-up over one. Plots
(matplotlib): speed-up over the reference by kernel and instruction set, and the step's
time per circle against the number of circles.
"""
import json
import os
import re
import shutil
import sys

NAME = re.compile(r"^(?P<family>[a-z_]+)/(?P<kernel>[a-z_0-9]+)/(?P<impl>[a-z0-9_]+)/(?P<n>\d+)"
                  r"(?:/workers:(?P<workers>\d+))?(?:/(?:manual|real)_time)?$")
ISAS = ["sse2", "avx2", "avx512", "neon"]
IMPLS = ["reference"] + ISAS + ["dispatch", "autovec", "box2d"]


class ReportError(Exception):
    """A problem with the user's input, told in one line, without a traceback."""


def load_results(path):
    """The benchmark JSON at `path`: (context, {(family, kernel, n): {impl: nanoseconds}}).
    A benchmark on k workers is kernel "<kernel>@workers" with impl k; one with any other
    variant in its name (sweep:on, ...) is left out."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ReportError(f"cannot read {path}: {e.strerror}") from None
    if not text.strip():
        raise ReportError(f"{path} is empty: run simdcollide_bench with "
                          "--benchmark_out=FILE --benchmark_out_format=json")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReportError(f"{path} is not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ReportError(f"{path} is not Google Benchmark's JSON output (no \"benchmarks\" list)")
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    if "simdcollide_version" not in context:
        raise ReportError(f"{path} does not come from simdcollide_bench (its context names no "
                          "simdcollide_version); make it with tools/run-main.sh")
    rows = {}
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    for b in data["benchmarks"]:
        if not isinstance(b, dict):
            continue
        # With repetitions, the median aggregate; without, the single run.
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        m = NAME.match(str(b.get("run_name", b.get("name", ""))))
        if not m or "real_time" not in b:
            continue
        if m["workers"] is None:
            key, impl = (m["family"], m["kernel"], int(m["n"])), m["impl"]
        else:
            key, impl = (m["family"], m["kernel"] + "@workers", int(m["n"])), int(m["workers"])
        try:
            rows.setdefault(key, {})[impl] = float(b["real_time"]) * scale[b.get("time_unit", "ns")]
        except (KeyError, TypeError, ValueError):
            raise ReportError(f"{path}: benchmark {b.get('name')} has no readable time") from None
    if not rows:
        raise ReportError(f"{path} holds no simdcollide kernel or world benchmark")
    return context, rows


def kernel_rows(rows):
    """The kernels at one size (the largest measured under 1 000 000), by name."""
    out = {}
    for (family, kernel, n), impls in sorted(rows.items()):
        if family == "world" or n >= 1000000 or "dispatch" not in impls:
            continue
        name = f"{family}/{kernel}"
        if name not in out or n == 4096:
            out[name] = (n, impls)
    return out


def step_rows(rows):
    """The world step's times by number of circles: {n: {impl: ns a step}}."""
    return {n: impls for (family, kernel, n), impls in sorted(rows.items())
            if family == "world" and kernel == "step"}


def worker_rows(rows):
    """The dispatched step on workers by number of circles: {n: {workers: ns a step}}."""
    return {n: counts for (family, kernel, n), counts in sorted(rows.items())
            if family == "world" and kernel == "step@workers"}


def fmt_time(t):
    if t >= 1e6:
        return f"{t / 1e6:.2f} ms"
    if t >= 1e3:
        return f"{t / 1e3:.2f} us"
    return f"{t:.0f} ns"


def ratio(impls, bar):
    if bar in impls and "dispatch" in impls and impls["dispatch"] > 0:
        return f"{impls[bar] / impls['dispatch']:.1f}x"
    return "-"


def machine_lines(context):
    caches = context.get("caches") or []
    cache_text = ", ".join(f"L{c.get('level')} {c.get('type', '').lower()} {c.get('size', 0) // 1024} KiB"
                           for c in caches if isinstance(c, dict))
    return [
        f"- CPU: {context.get('cpu_model', 'unknown')}, {context.get('num_cpus', '?')} cores "
        f"at {context.get('mhz_per_cpu', '?')} MHz" + (f" ({cache_text})" if cache_text else ""),
        f"- Instruction sets this CPU runs: {(context.get('simdcollide_isas') or 'none beyond the reference').replace(',', ', ')}; "
        f"dispatch picks {context.get('simdcollide_dispatch', '?')}",
        f"- simdcollide {context.get('simdcollide_version')}"
        + (f", commit {context['simdcollide_commit']}" if context.get("simdcollide_commit") else ""),
        f"- Run {context.get('date', '?')} on host {context.get('host_name', '?')}",
    ]


def markdown_table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cells) + " |" for cells in lines]
    return out


def report_text(context, rows):
    kernels = kernel_rows(rows)
    present = [i for i in IMPLS if any(i in impls for _, impls in kernels.values())]
    out = ["# simdcollide benchmark report", ""] + machine_lines(context) + [""]
    if kernels:
        out += ["## Kernels", "",
                "Median time per element (ns); the speed-ups are the dispatched path's, "
                "each against a time measured in the same run.", ""]
        header = ["kernel", "n"] + present + ["SIMD / reference", "SIMD / autovec", "SIMD / Box2D"]
        lines = []
        for name, (n, impls) in kernels.items():
            cells = [f"`{name}`", str(n)]
            cells += [f"{impls[i] / n:.3f}" if i in impls else "-" for i in present]
            cells += [ratio(impls, "reference"), ratio(impls, "autovec"), ratio(impls, "box2d")]
            lines.append(cells)
        out += markdown_table(header, lines) + [""]
    steps = step_rows(rows)
    if steps:
        out += ["## The world step", "",
                "One step (4 substeps) of a settled pile with the default options.", ""]
        lines = []
        for n, impls in steps.items():
            for impl in ["dispatch", "reference"]:
                if impl in impls:
                    lines.append([str(n), impl, fmt_time(impls[impl]), f"{impls[impl] / n:.1f}",
                                  ratio(impls, "reference") if impl == "dispatch" else "-"])
        out += markdown_table(["circles", "path", "a step", "ns a circle", "SIMD / reference"],
                              lines) + [""]
    on_workers = worker_rows(rows)
    if on_workers:
        out += ["## The world step on workers", "",
                "The same step on each count of workers (`world_options::workers`, the world's "
                "own threads), and one worker's time over it, measured in the same run. A step "
                "keeps at most half its schedule's blocks of workers busy: with the default "
                "blocks, a pile of up to 32 768 circles steps on the calling thread after its "
                "first step.", ""]
        lines = []
        for n, counts in on_workers.items():
            for k in sorted(counts):
                speed_up = f"{counts[1] / counts[k]:.2f}x" if 1 in counts and counts[k] > 0 else "-"
                lines.append([str(n), str(k), fmt_time(counts[k]), f"{counts[k] / n:.1f}",
                              speed_up])
        out += markdown_table(["circles", "workers", "a step", "ns a circle", "1 worker / k"],
                              lines) + [""]
    out += ["## Plots", "", "![speed-up by kernel and instruction set](speedup.png)", "",
            "![step time per circle](step_per_circle.png)", ""]
    return "\n".join(out)


def plot(context, rows, folder):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ReportError("matplotlib is not installed (Debian: apt-get install "
                          "python3-matplotlib); the report's plots need it") from None
    kernels = kernel_rows(rows)
    isas = [i for i in ISAS if any(i in impls for _, impls in kernels.values())]
    names = [name for name, (_, impls) in kernels.items() if "reference" in impls]
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / max(len(isas), 1)
    for k, isa in enumerate(isas):
        xs, ys = [], []
        for j, name in enumerate(names):
            impls = kernels[name][1]
            if isa in impls and impls[isa] > 0:
                xs.append(j + (k - (len(isas) - 1) / 2) * width)
                ys.append(impls["reference"] / impls[isa])
        ax.bar(xs, ys, width, label=isa)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("speed-up over the scalar reference")
    ax.set_title(f"simdcollide {context.get('simdcollide_version')} on {context.get('cpu_model', '?')}")
    if isas:
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "speedup.png"), dpi=100)
    plt.close(fig)

    steps = step_rows(rows)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for impl, style in [("dispatch", "o-"), ("reference", "s--")]:
        points = [(n, impls[impl] / n) for n, impls in steps.items() if impl in impls]
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], style, label=impl)
    ax.set_xscale("log")
    ax.set_xlabel("circles")
    ax.set_ylabel("ns a circle, one step of 4 substeps")
    ax.set_ylim(bottom=0)
    ax.set_title("the world step: time per circle")
    if steps:
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "step_per_circle.png"), dpi=100)
    plt.close(fig)


def make(results, folder):
    context, rows = load_results(results)
    try:
        os.makedirs(folder, exist_ok=True)
        if os.path.abspath(results) != os.path.abspath(os.path.join(folder, "results.json")):
            shutil.copyfile(results, os.path.join(folder, "results.json"))
        with open(os.path.join(folder, "report.md"), "w", encoding="utf-8") as f:
            f.write(report_text(context, rows))
    except OSError as e:
        raise ReportError(f"cannot write the report in {folder}: {e.strerror}") from None
    plot(context, rows, folder)
    print(report_text(context, rows))
    print(f"report written to {folder}/ (report.md, results.json, speedup.png, step_per_circle.png)")


def compare(first, second):
    reports = []
    for folder in (first, second):
        results = os.path.join(folder, "results.json")
        if not os.path.isfile(results):
            raise ReportError(f"{folder} is not a report folder (no results.json in it); "
                              "make one with tools/run-main.sh")
        reports.append(load_results(results))
    (ca, ra), (cb, rb) = reports
    if ca.get("simdcollide_version") != cb.get("simdcollide_version"):
        raise ReportError(f"the reports are of different simdcollide versions "
                          f"({ca.get('simdcollide_version')} and {cb.get('simdcollide_version')}): "
                          "their kernels may differ, so compare reports of one version")
    label = [f"{c.get('cpu_model', '?')} ({c.get('simdcollide_dispatch', '?')})" for c in (ca, cb)]
    print(f"# {label[0]}  against  {label[1]}\n")
    for k, c in enumerate((ca, cb)):
        print(f"{'AB'[k]}:")
        print("\n".join(machine_lines(c)))
        print()
    ka, kb = kernel_rows(ra), kernel_rows(rb)
    lines = []
    for name in sorted(set(ka) | set(kb)):
        cells = [f"`{name}`"]
        for table in (ka, kb):
            if name in table:
                n, impls = table[name]
                cells += [f"{impls['dispatch'] / n:.3f}", ratio(impls, "reference")]
            else:
                cells += ["-", "-"]
        lines.append(cells)
    print("\n".join(markdown_table(["kernel", "A ns/element", "A SIMD / reference",
                                    "B ns/element", "B SIMD / reference"], lines)))
    sa, sb = step_rows(ra), step_rows(rb)
    lines = []
    for n in sorted(set(sa) | set(sb)):
        cells = [str(n)]
        for table in (sa, sb):
            impls = table.get(n, {})
            cells.append(f"{impls['dispatch'] / n:.1f}" if "dispatch" in impls else "-")
        lines.append(cells)
    if lines:
        print()
        print("\n".join(markdown_table(["world step, circles", "A ns a circle", "B ns a circle"],
                                       lines)))
    wa, wb = worker_rows(ra), worker_rows(rb)
    lines = []
    for n in sorted(set(wa) | set(wb)):
        for k in sorted(set(wa.get(n, {})) | set(wb.get(n, {}))):
            cells = [str(n), str(k)]
            for table in (wa, wb):
                counts = table.get(n, {})
                if k in counts and counts[k] > 0:
                    cells += [f"{counts[k] / n:.1f}",
                              f"{counts[1] / counts[k]:.2f}x" if 1 in counts else "-"]
                else:
                    cells += ["-", "-"]
            lines.append(cells)
    if lines:
        print()
        print("\n".join(markdown_table(["world step, circles", "workers", "A ns a circle",
                                        "A 1 worker / k", "B ns a circle", "B 1 worker / k"],
                                       lines)))


def main(argv):
    if len(argv) == 4 and argv[1] == "make":
        make(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "compare":
        compare(argv[2], argv[3])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except ReportError as e:
        print(f"bench_report: {e}", file=sys.stderr)
        sys.exit(1)
