#!/usr/bin/env python3
"""Compile-speed benchmark: XPUCodegen vs one `ocloc` process per kernel.

Usage: bench.py BUILD_DIR [--out DIR] [--quick]

Builds a kernel set (examples/gen_accumulate.py with varied live
accumulators, vector width and element type: tiny to heavily spilling),
emits SPIR-V once with xpu-opt (up to xpu-emit-spirv) and measures, in one
run on this machine:
  (a) baseline: one `ocloc compile` process per build, serially, as
      upstream XeVM and Triton do, doing the same builds the project does
      (small GRF for every kernel, plus large where the auto decision built
      large too: the project's cold report says which);
  (b) xpu-opt --xpu-native-codegen, cold cache, jobs=1 and jobs=2;
  (c) the same, warm cache;
  (d) a 1000-module set made of 50 unique kernels, cold cache, jobs=2,
      against the baseline compiling all 1000 modules;
  and the share of the cold jobs=1 wall time spent outside IGC
  (1 - sum of the workers' compile_ms / wall).
Prints ratios against (a) and writes JSON to OUT/results.json.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(SRC, "examples", "gen_accumulate.py")
WRAP = os.path.join(SRC, "test", "Transforms", "NativeCodegen", "Inputs",
                    "spirv-to-binary.py")
PY = sys.executable
OCLOC_FLAGS = {"small": "-cl-intel-128-GRF-per-thread",
               "large": "-cl-intel-256-GRF-per-thread"}


def candidate_kernels():
    """(N accumulators, width, type), shuffled: tiny to heavily spilling."""
    configs = []
    for ty in ["f32", "f16"]:
        for width in [4, 8, 16]:
            for n in [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24]:
                configs.append((n, width, ty))
    random.Random(0).shuffle(configs)
    return configs


def emit_one(xpu_opt, out, name, n, width, ty):
    """SPIR-V of one generated kernel module, or None if it fails."""
    text = subprocess.run(
        [PY, GEN, str(n), "--module", name, "--width", str(width),
         "--type", ty], check=True, capture_output=True, text=True).stdout
    src = os.path.join(out, "mlir", name + ".mlir")
    with open(src, "w") as f:
        f.write(text)
    pipeline = ("builtin.module(xpu-attach-target{arch=pvc grf-mode=auto},"
                "gpu.module(convert-gpu-to-llvm-spv{use-64bit-index=true}),"
                "convert-scf-to-cf,gpu.module(convert-to-llvm),"
                "reconcile-unrealized-casts,xpu-emit-spirv)")
    r = subprocess.run([xpu_opt, src, f"--pass-pipeline={pipeline}"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    # The object's payload is its last string: ... = "<bytes>">]
    m = re.search(r'"((?:[^"\\]|\\.)*)">\s*\]', r.stdout)
    payload = m.group(1)
    data = bytearray()
    i = 0
    while i < len(payload):
        if payload[i] == "\\" and payload[i + 1] == "\\":
            data.append(ord("\\"))
            i += 2
        elif payload[i] == "\\":
            data.append(int(payload[i + 1:i + 3], 16))
            i += 3
        else:
            data.append(ord(payload[i]))
            i += 1
    return bytes(data)


def generate_spirv(xpu_opt, out, configs, count):
    """One .spv per kernel, each module lowered by its own xpu-opt (written
    while xpu-emit-spirv still ran LLVM's SPIR-V backend in-process, which
    corrupted later modules: llvm#160613). Kernels that fail are dropped
    (and listed)."""
    os.makedirs(os.path.join(out, "mlir"), exist_ok=True)
    spv_dir = os.path.join(out, "spv")
    os.makedirs(spv_dir, exist_ok=True)
    paths, dropped = {}, []
    for n, width, ty in configs:
        if len(paths) == count:
            break
        name = f"acc{n}_w{width}_{ty}"
        data = emit_one(xpu_opt, out, name, n, width, ty)
        if data is None:
            dropped.append(name)
            continue
        paths[name] = os.path.join(spv_dir, name + ".spv")
        with open(paths[name], "wb") as f:
            f.write(data)
    if dropped:
        print(f"dropped {len(dropped)} kernels with invalid SPIR-V: "
              f"{' '.join(dropped)}")
    if len(paths) < count:
        sys.exit(f"only {len(paths)} kernels, {count} wanted")
    return sorted(paths), paths


def wrap(out, file_name, entries):
    """A gpu.binary module per (module name, .spv path)."""
    path = os.path.join(out, file_name)
    with open(path, "w") as f:
        subprocess.run([PY, WRAP] + [f"{n}={p}" for n, p in entries],
                       check=True, stdout=f)
    return path


def run_project(xpu_opt, mlir, out, tag, cache, jobs, env):
    report = os.path.join(out, f"{tag}.json")
    start = time.perf_counter()
    subprocess.run(
        [xpu_opt, mlir, "-o", os.path.join(out, f"{tag}.out.mlir"),
         f"--xpu-native-codegen=backend=ocloc cache-dir={cache} jobs={jobs} "
         f"report={report}"], check=True, env=env)
    wall = time.perf_counter() - start
    with open(report) as f:
        modules = json.load(f)["modules"]
    errors = [m for m in modules if "error" in m]
    if errors:
        sys.exit(f"{tag}: {len(errors)} modules failed: {errors[0]}")
    attempts = [a for m in modules for a in m["attempts"]]
    return {
        "wall_s": wall,
        "modules": len(modules),
        "builds_requested": len(attempts),
        "builds_unique": sum(1 for a in attempts if not a.get("reused")),
        "compile_ms_sum": sum(a["compile_ms"] for a in attempts),
        "cache": sorted({m["cache"] for m in modules}),
        "modes": {m["module"]: [a["grf_mode"] for a in m["attempts"]]
                  for m in modules},
    }


def ocloc_build(ocloc, spv, flags, work):
    start = time.perf_counter()
    r = subprocess.run(
        [ocloc, "compile", "-file", spv, "-spirv_input", "-device", "pvc",
         "-internal_options", "-ze-allow-zebin", "-options", flags,
         "-output", "k", "-output_no_suffix", "-out_dir", work],
        cwd=work, capture_output=True)
    if r.returncode != 0:
        sys.exit(f"ocloc failed on {spv} {flags}: {r.stdout[-500:]}")
    return time.perf_counter() - start


def parse_args():
    """The command line: BUILD_DIR, --out, --kernels, --unique, --modules,
    --full-baseline."""
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--out")
    parser.add_argument("--kernels", type=int, default=64)
    parser.add_argument("--unique", type=int, default=50)
    parser.add_argument("--modules", type=int, default=1000)
    parser.add_argument("--full-baseline", action="store_true",
                        help="run ocloc for all modules of the (d) set "
                             "instead of a measured sample")
    return parser.parse_args()


def make_kernel_sets(xpu_opt, out, args):
    """The 64-kernel set and the 1000-module set of `--unique` of those
    kernels (shuffled); returns (names, {name: .spv}, the 64-kernel file,
    the unique kernels, the 1000 (module, kernel) pairs, their file)."""
    names, spv = generate_spirv(xpu_opt, out, candidate_kernels(),
                                args.kernels)
    set64 = wrap(out, "set64.mlir", [(n, spv[n]) for n in names])
    unique = names[:args.unique]
    rng = random.Random(1)
    big = [(f"m{i}", unique[i % len(unique)]) for i in range(args.modules)]
    rng.shuffle(big)
    set1000 = wrap(out, "set1000.mlir",
                   [(f"m{i}", spv[k]) for i, (_, k) in enumerate(big)])
    print(f"{len(names)} unique kernels; {args.modules}-module set of "
          f"{len(unique)} unique kernels", flush=True)
    return names, spv, set64, unique, big, set1000


def run_project_runs(xpu_opt, set64, set1000, out, env):
    """(b) cold at jobs=1 and 2, (c) warm (output checked identical to
    (b)), (d) the 1000-module set with dedup; returns {run: result}."""
    results = {}
    # (b) cold, then (c) warm, each in a fresh cache directory.
    for jobs in [1, 2]:
        cache = os.path.join(out, f"cache-j{jobs}")
        results[f"cold_j{jobs}"] = run_project(
            xpu_opt, set64, out, f"cold_j{jobs}", cache, jobs, env)
        print(f"(b) cold jobs={jobs}: {results[f'cold_j{jobs}']['wall_s']:.2f} s",
              flush=True)
    results["warm"] = run_project(xpu_opt, set64, out, "warm",
                                  os.path.join(out, "cache-j2"), 2, env)
    print(f"(c) warm: {results['warm']['wall_s']:.3f} s", flush=True)
    for tag in ["cold_j1", "cold_j2"]:
        same = open(os.path.join(out, f"{tag}.out.mlir")).read() == open(
            os.path.join(out, "warm.out.mlir")).read()
        if not same:
            sys.exit(f"{tag} and warm outputs differ")
    results["dedup"] = run_project(xpu_opt, set1000, out, "dedup",
                                   os.path.join(out, "cache-dedup"), 2, env)
    print(f"(d) dedup 1000 modules: {results['dedup']['wall_s']:.2f} s",
          flush=True)
    return results


def run_baselines(ocloc, names, spv, modes, big, out, full_baseline):
    """(a) the project's builds, one ocloc process each, serially, and the
    1000-module baseline; returns (baseline s, 1000-module baseline s, the
    sample, its measured s, its estimate from (a))."""
    work = tempfile.mkdtemp(prefix="ocloc-bench-", dir=out)
    per_kernel = {}
    for name in names:
        per_kernel[name] = sum(ocloc_build(ocloc, spv[name], OCLOC_FLAGS[m],
                                           work) for m in modes[name])
    baseline = sum(per_kernel.values())
    print(f"(a) baseline: {sum(len(modes[n]) for n in names)} ocloc "
          f"processes, {baseline:.2f} s", flush=True)
    # The 1000-module baseline: every module compiled, as without dedup.
    # By default a measured sample (the first 100 modules, run for real)
    # validates the sum of the per-kernel times measured in (a).
    estimate = sum(per_kernel[k] for _, k in big)
    sample = big if full_baseline else big[:100]
    sample_time = sum(sum(ocloc_build(ocloc, spv[k], OCLOC_FLAGS[m], work)
                          for m in modes[k]) for _, k in sample)
    sample_estimate = sum(per_kernel[k] for _, k in sample)
    if full_baseline:
        baseline1000 = sample_time
    else:
        baseline1000 = estimate * sample_time / sample_estimate
    shutil.rmtree(work, ignore_errors=True)
    return baseline, baseline1000, sample, sample_time, sample_estimate


def write_summary(out, args, names, modes, results, baselines, load_before,
                  load_after):
    """The summary (machine, builds, baselines, results, ratios, share
    outside IGC, targets), written to results.json; returns it."""
    baseline, baseline1000, sample, sample_time, sample_estimate = baselines
    cold1 = results["cold_j1"]
    outside = 1 - cold1["compile_ms_sum"] / 1000 / cold1["wall_s"]
    summary = {
        "machine": {"cores": os.cpu_count(), "load_before": load_before,
                    "load_after": load_after},
        "kernels": len(names),
        "builds": sum(len(modes[n]) for n in names),
        "baseline_s": baseline,
        "baseline_1000_s": baseline1000,
        "baseline_1000_method": "measured" if args.full_baseline else
        f"per-kernel times of (a) scaled by a measured sample of "
        f"{len(sample)} modules (sample/estimate = "
        f"{sample_time / sample_estimate:.3f})",
        "results": results,
        "ratios": {
            "cold_j1": baseline / results["cold_j1"]["wall_s"],
            "cold_j2": baseline / results["cold_j2"]["wall_s"],
            "warm": baseline / results["warm"]["wall_s"],
            "dedup_1000": baseline1000 / results["dedup"]["wall_s"],
        },
        "outside_igc_share_cold_j1": outside,
        "targets": {"cold_j2": 3, "dedup_1000": 15, "warm": 50,
                    "outside_igc_share_cold_j1": 0.10},
    }
    for r in results.values():
        r.pop("modes")
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(summary, f, indent=2)
    return summary


def print_table(summary, args, unique, out):
    """Prints the table of runs against the baseline, the share of cold
    jobs=1 outside IGC and the load after."""
    results = summary["results"]
    ratios = summary["ratios"]
    outside = summary["outside_igc_share_cold_j1"]
    load_after = summary["machine"]["load_after"]
    rows = [
        ("(a) baseline, ocloc per build, serial", summary["baseline_s"], 1.0,
         ""),
        ("(b) cold, jobs=1", results["cold_j1"]["wall_s"], ratios["cold_j1"],
         ""),
        ("(b) cold, jobs=2", results["cold_j2"]["wall_s"], ratios["cold_j2"],
         ">= 3x"),
        ("(c) warm cache", results["warm"]["wall_s"], ratios["warm"],
         ">= 50x"),
        (f"(a') baseline, {args.modules} modules",
         summary["baseline_1000_s"], 1.0, ""),
        (f"(d) {args.modules} modules / {len(unique)} unique, cold, jobs=2",
         results["dedup"]["wall_s"], ratios["dedup_1000"], ">= 15x"),
    ]
    print()
    print("| run | wall s | speed-up vs baseline | target |")
    print("|---|---:|---:|---|")
    for label, wall, ratio, target in rows:
        print(f"| {label} | {wall:.3f} | {ratio:.1f}x | {target} |")
    print(f"\noutside IGC, cold jobs=1: {outside * 100:.1f}% of wall time "
          f"(target <= 10%)")
    print(f"load average after: {load_after[0]:.2f}")
    print(f"JSON: {os.path.join(out, 'results.json')}")


def main():
    args = parse_args()
    build = os.path.abspath(args.build)
    xpu_opt = os.path.join(build, "bin", "xpu-opt")
    ocloc = shutil.which("ocloc") or "/usr/bin/ocloc"
    out = os.path.abspath(args.out or os.path.join(build, "bench",
                                                   "compile_speed"))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    env = dict(os.environ)
    env.pop("XPU_CODEGEN_CACHE_DIR", None)

    load_before = os.getloadavg()
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} "
          f"{load_before[2]:.2f}; {os.cpu_count()} cores", flush=True)
    names, spv, set64, unique, big, set1000 = make_kernel_sets(xpu_opt, out,
                                                               args)
    results = run_project_runs(xpu_opt, set64, set1000, out, env)
    # (a) the same builds, one ocloc process each, serially.
    modes = results["cold_j1"]["modes"]
    baselines = run_baselines(ocloc, names, spv, modes, big, out,
                              args.full_baseline)
    load_after = os.getloadavg()
    summary = write_summary(out, args, names, modes, results, baselines,
                            load_before, load_after)
    print_table(summary, args, unique, out)

if __name__ == "__main__":
    main()
