#!/usr/bin/env python3
"""tools/bench_report.py on made-up results whose figures are known: the report folder must
hold report.md with each kernel's time per element and speed-ups, the world step per circle
and on workers, and two PNG plots; bad input (another program's JSON, an empty file, a folder that is no
report, reports of two library versions) must give a one-line message and a non-zero exit,
never a traceback.

usage: check_bench_report.py path/to/bench_report.py
"""
import json
import os
import subprocess
import sys
import tempfile


def median(name, time, unit="us", **extra):
    return {"name": name + "_median", "run_name": name, "run_type": "aggregate",
            "aggregate_name": "median", "real_time": time, "time_unit": unit, **extra}


def results(version):
    return {
        "context": {"simdcollide_version": version, "simdcollide_dispatch": "avx2",
                    "simdcollide_isas": "sse2,avx2", "cpu_model": "Test CPU", "num_cpus": 2,
                    "mhz_per_cpu": 3000, "simdcollide_commit": "abc1234"},
        "benchmarks": [
            # push-out at 4096: reference 20.48 us (5 ns an element), avx2 4.096 us (1 ns).
            median("circle_aabb/push_out/reference/4096/manual_time", 20.48),
            median("circle_aabb/push_out/sse2/4096/manual_time", 8.192),
            median("circle_aabb/push_out/avx2/4096/manual_time", 4.096),
            median("circle_aabb/push_out/dispatch/4096/manual_time", 4.096),
            median("circle_aabb/push_out/autovec/4096/manual_time", 12.288),
            # A mean, which the report must not take for the median.
            {**median("circle_aabb/push_out/dispatch/4096/manual_time", 1.0),
             "aggregate_name": "mean"},
            median("circle_circle/contact/reference/4096/manual_time", 8.192),
            median("circle_circle/contact/dispatch/4096/manual_time", 2.048),
            median("circle_circle/contact/box2d/4096/manual_time", 40.96),
            # The step: 1 ms at 10 000 circles (100 ns a circle), 4 ms for the reference.
            median("world/step/dispatch/10000", 1.0, "ms"),
            median("world/step/reference/10000", 4.0, "ms"),
            median("world/step/dispatch/1000", 0.2, "ms"),
            # On workers: 1 ms on one, 0.5 ms on two. Neither, nor a variant of the step
            # (sweep:on), may take the place of the step's own row above.
            median("world/step/dispatch/10000/workers:1/real_time", 1.0, "ms"),
            median("world/step/dispatch/10000/workers:2/real_time", 0.5, "ms"),
            median("world/step/dispatch/10000/sweep:on", 9.0, "ms"),
        ],
    }


def run(script, *args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


def main():
    script = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        def write(name, content):
            path = os.path.join(tmp, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(content if isinstance(content, str) else json.dumps(content))
            return path

        good = write("good.json", results("0.1.0"))
        folder = os.path.join(tmp, "report")
        made = run(script, "make", good, folder)
        if made.returncode != 0:
            failures.append(f"make failed: {made.stderr}")
        else:
            with open(os.path.join(folder, "report.md"), encoding="utf-8") as f:
                report = f.read().splitlines()
            want = [
                "| `circle_aabb/push_out` | 4096 | 5.000 | 2.000 | 1.000 | 1.000 | 3.000 | - "
                "| 5.0x | 3.0x | - |",
                "| `circle_circle/contact` | 4096 | 2.000 | - | - | 0.500 | - | 10.000 | 4.0x "
                "| - | 20.0x |",
                "| 10000 | dispatch | 1.00 ms | 100.0 | 4.0x |",
                "| 1000 | dispatch | 200.00 us | 200.0 | - |",
                "| 10000 | 1 | 1.00 ms | 100.0 | 1.00x |",
                "| 10000 | 2 | 500.00 us | 50.0 | 2.00x |",
                "- Instruction sets this CPU runs: sse2, avx2; dispatch picks avx2",
                "- simdcollide 0.1.0, commit abc1234",
            ]
            failures += [f"report.md lacks: {line}" for line in want if line not in report]
            for png in ["speedup.png", "step_per_circle.png"]:
                path = os.path.join(folder, png)
                if not os.path.isfile(path):
                    failures.append(f"no {png}")
                    continue
                with open(path, "rb") as f:
                    if f.read(8) != b"\x89PNG\r\n\x1a\n":
                        failures.append(f"{png} is not a PNG")
            if not os.path.isfile(os.path.join(folder, "results.json")):
                failures.append("no results.json in the report folder")

        other = os.path.join(tmp, "other")
        run(script, "make", write("other.json", results("0.2.0")), other)
        same = os.path.join(tmp, "same")
        run(script, "make", good, same)
        compared = run(script, "compare", folder, same)
        compared_lines = compared.stdout.splitlines()
        if compared.returncode != 0 or any(line not in compared_lines for line in [
                "| `circle_aabb/push_out` | 1.000 | 5.0x | 1.000 | 5.0x |",
                "| 10000 | 2 | 50.0 | 2.00x | 50.0 | 2.00x |"]):
            failures.append(f"compare of two reports: {compared.stdout}{compared.stderr}")

        bad = [
            (("make", write("empty.json", ""), os.path.join(tmp, "r1")), "is empty"),
            (("make", write("other_program.json", {"items": [1, 2]}), os.path.join(tmp, "r2")),
             "not Google Benchmark's JSON"),
            (("make", write("not_json.json", "<html>"), os.path.join(tmp, "r3")), "is not JSON"),
            (("make", write("foreign.json", {"context": {}, "benchmarks": []}),
              os.path.join(tmp, "r4")), "does not come from simdcollide_bench"),
            (("make", os.path.join(tmp, "missing.json"), os.path.join(tmp, "r5")), "cannot read"),
            (("compare", folder, other), "different simdcollide versions"),
            (("compare", folder, tmp), "is not a report folder"),
        ]
        for args, message in bad:
            r = run(script, *args)
            if r.returncode == 0 or message not in r.stderr or "Traceback" in r.stderr:
                failures.append(f"{args[0]} {os.path.basename(args[1])}: exit {r.returncode}, "
                                f"stderr {r.stderr!r} (wanted {message!r})")
    if failures:
        print("\n".join(failures))
        return 1
    print("bench_report: report, plots, comparison and bad input as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
