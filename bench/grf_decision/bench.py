#!/usr/bin/env python3
"""GRF-decision benchmark: how often each GRF policy picks the measured-best
mode, and how many native compiles it spends per kernel.

Ground truth: every kernel of the family (gen_family.py) compiled in both
modes (grf-mode=small and grf-mode=large). The measured-best mode is the one
that spills less, small on a tie. Policies:

* auto (measured):   this project's auto, predict=false (real run);
* auto predict:      predict=true (real run);
* auto predict+spec: predict=true speculative=true (real run);
* auto predict, unverified: predict=true verify-predicted-large=false (real
  run: a spilling predicted-large build is kept without a small build);
* IGC auto:          auto-strategy=igc, one compile; the mode is grf_count;
* Triton >1000 B, Triton >16 slots, Triton any spill: build small (the
  device default on pvc); rebuild large when the small spill exceeds the
  threshold and keep large (computed from the ground-truth builds).

Usage: bench.py BUILD_DIR [--arch pvc] [--out results.json] [--jobs N]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run_one(xpu_opt, mlir, arch, extra, jobs, report):
    opts = (f"arch={arch} report={report} cache-dir=none backend=ocloc "
            f"jobs={jobs} {extra}")
    subprocess.run([xpu_opt, mlir, f"--xpu-codegen-pipeline={opts}",
                    "-o", os.devnull], check=True)
    with open(report) as f:
        return json.load(f)["modules"][0]


def run_pipeline(xpu_opt, family, arch, extra, jobs, workdir, tag, reuse,
                 parallel):
    """One xpu-opt per kernel (LLVM 22's SPIR-V backend corrupts SPIR-V when
    one process emits many modules: docs/RegisterPressure.md), `parallel`
    processes at a time."""
    saved = os.path.join(workdir, f"report-{tag}.json")
    if reuse and os.path.exists(saved):
        with open(saved) as f:
            return {m["module"]: m for m in json.load(f)["modules"]}, None
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
        futures = [pool.submit(run_one, xpu_opt,
                               os.path.join(workdir, e["name"] + ".mlir"),
                               arch, extra, jobs,
                               os.path.join(workdir, f"{e['name']}.{tag}.json"))
                   for e in family]
        modules = [f.result() for f in futures]
    seconds = time.time() - start
    with open(saved, "w") as f:
        json.dump({"version": 1, "modules": modules}, f)
    return {m["module"]: m for m in modules}, seconds


def best_mode(small, large):
    return "large" if large < small else "small"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--arch", default="pvc")
    parser.add_argument("--out", default=None)
    parser.add_argument("--jobs", type=int, default=2,
                        help="compiler workers per xpu-opt (speculation "
                             "needs 2)")
    parser.add_argument("--parallel", type=int, default=2,
                        help="xpu-opt processes at a time")
    parser.add_argument("--workdir", default=None,
                        help="keep the family and reports here")
    parser.add_argument("--reuse", nargs="*", default=[],
                        help="runs (small, large, auto, igc, ...) whose "
                             "report in --workdir is reused, not re-run")
    args = parser.parse_args()
    xpu_opt = os.path.join(args.build_dir, "bin", "xpu-opt")
    outdir = os.path.join(args.build_dir, "bench", "grf_decision")
    os.makedirs(outdir, exist_ok=True)
    out = args.out or os.path.join(outdir, "results.json")

    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or os.path.join(outdir, "work")
        os.makedirs(workdir, exist_ok=True)
        mlir = os.path.join(workdir, "family.mlir")
        manifest = os.path.join(workdir, "family.json")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_family.py"),
                        "--output", mlir, "--manifest", manifest,
                        "--split-dir", workdir], check=True)
        with open(manifest) as f:
            family = json.load(f)
        runs = {}
        for tag, extra in [
            ("small", "grf-mode=small"),
            ("large", "grf-mode=large"),
            ("auto", "grf-mode=auto"),
            ("predict", "grf-mode=auto predict=true"),
            ("speculative", "grf-mode=auto predict=true speculative=true"),
            ("unverified",
             "grf-mode=auto predict=true verify-predicted-large=false"),
            ("igc", "grf-mode=auto auto-strategy=igc"),
        ]:
            print(f"[grf_decision] {tag}: {extra}", file=sys.stderr)
            runs[tag] = run_pipeline(xpu_opt, family, args.arch, extra,
                                     args.jobs, workdir, tag,
                                     tag in args.reuse, args.parallel)

    kernels = []
    for entry in family:
        name = entry["name"]
        small = runs["small"][0][name]
        large = runs["large"][0][name]
        s, l = small["spill_size"], large["spill_size"]
        simd = max(k["simd"] for k in small["kernels"])
        row = dict(entry)
        row.update({"small_spill": s, "large_spill": l, "simd": simd,
                    "best": best_mode(s, l),
                    "small_ms": small["attempts"][0]["compile_ms"],
                    "large_ms": large["attempts"][0]["compile_ms"]})
        for tag in ("auto", "predict", "speculative", "unverified", "igc"):
            m = runs[tag][0][name]
            row[tag] = {"mode": m["grf_mode"], "compiles": len(m["attempts"]),
                        "source": m.get("decision_source"),
                        "ms": sum(a["compile_ms"] for a in m["attempts"])}
            if "pressure" in m:
                row[tag]["pressure"] = m["pressure"]
                row[tag]["plan"] = m.get("plan")
        for tag, retry in [("triton_1000B", s > 1000),
                           ("triton_16slots", s / (4 * simd) > 16),
                           ("triton_any", s > 0)]:
            row[tag] = {"mode": "large" if retry else "small",
                        "compiles": 2 if retry else 1}
        kernels.append(row)

    policies = [("auto (measured, predict=false)", "auto"),
                ("auto predict=true", "predict"),
                ("auto predict=true speculative=true", "speculative"),
                ("auto predict=true verify-predicted-large=false",
                 "unverified"),
                ("IGC auto flag (auto-strategy=igc)", "igc"),
                ("Triton: large if spill > 1000 B", "triton_1000B"),
                ("Triton: large if > 16 slots/lane", "triton_16slots"),
                ("Triton: large if any spill", "triton_any")]
    table = []
    for label, tag in policies:
        agree = sum(k[tag]["mode"] == k["best"] for k in kernels)
        compiles = sum(k[tag]["compiles"] for k in kernels)
        wall = runs[tag][1] if tag in runs else None
        ms = sum(k[tag].get("ms", 0) for k in kernels) if tag in runs else None
        table.append({"policy": label, "key": tag, "agreement": agree / len(kernels),
                      "agree": agree, "kernels": len(kernels),
                      "compiles_per_kernel": compiles / len(kernels),
                      "wall_s": wall, "compile_ms": ms})
    result = {"arch": args.arch, "kernels": kernels, "table": table,
              "ground_truth": {
                  "no_spill": sum(k["small_spill"] == 0 and k["large_spill"] == 0 for k in kernels),
                  "small_only": sum(k["small_spill"] > 0 and k["large_spill"] == 0 for k in kernels),
                  "both": sum(k["small_spill"] > 0 and k["large_spill"] > 0 for k in kernels),
                  "best_large": sum(k["best"] == "large" for k in kernels)}}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)

    gt = result["ground_truth"]
    print(f"GRF decision benchmark, arch={args.arch}, {len(kernels)} kernels: "
          f"{gt['no_spill']} spill in neither mode, {gt['small_only']} only in "
          f"small, {gt['both']} in both; best mode large for {gt['best_large']}")
    print(f"| policy | agreement with measured best | compiles/kernel | wall s |")
    print(f"|---|---|---|---|")
    for r in table:
        wall = f"{r['wall_s']:.1f}" if r["wall_s"] else "-"
        print(f"| {r['policy']} | {r['agreement'] * 100:.1f}% "
              f"({r['agree']}/{r['kernels']}) | {r['compiles_per_kernel']:.2f} | {wall} |")
    misses = [k for k in kernels if k["predict"]["mode"] != k["best"]]
    for k in misses:
        print(f"predict=true missed {k['name']}: small {k['small_spill']} B, "
              f"large {k['large_spill']} B, chose {k['predict']['mode']} "
              f"({k['predict'].get('pressure')})")
    print(f"JSON: {out}")


if __name__ == "__main__":
    main()
