#!/usr/bin/env python3
"""GRF-decision benchmark: how often each GRF policy keeps the measured-best
mode, what a miss costs in spill, and how many native compiles each policy
spends per kernel, for one device and one compiler.

Ground truth: every kernel of the family (gen_family.py) built in each GRF
mode the device has (its ladder: small and large; small, large and xlarge
on cri), plus one build without a GRF flag (`grf-mode=default`, what
Triton's 'default' builds first). The measured-best mode is the one that
spills least, the smaller mode on a tie. Policies:

* auto (measured):  this project's auto, predict=false (real run);
* auto predict:     predict=true (real run);
* auto predict+spec, auto predict unverified (only with --pvc-extras, or
  on pvc by default): predict=true speculative=true, and
  verify-predicted-large=false (a spilling predicted-large build is kept
  without a small build) (real runs);
* IGC auto flag:    auto-strategy=igc, one compile; the mode is the
  binary's grf_count (IGC 2.40 picks counts such as 160 or 192 on Xe3:
  those are "N regs", never the measured-best mode);
* Triton rolling / Triton LTS: Triton's current rule, computed from the
  ground-truth builds: build default; retry at the device's largest mode
  (512 on cri, else 256) when the default build spills more than 1024
  bytes per thread (rolling drivers) or at all (LTS drivers), and keep the
  retry;
* least spill: build every mode, keep the least spill (the measured-best
  by definition; its cost is the ladder's length).

Usage: bench.py BUILD_DIR [--arch pvc] [--compiler-root DIR]
                [--out results.json] [--jobs N] [--parallel N]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# The GRF modes of each device, smallest first (docs/Devices.md, "GRF
# modes"): 512 registers only on cri (IGC 2.x).
LADDERS = {"cri": ["small", "large", "xlarge"]}
REGS = {"small": 128, "large": 256, "xlarge": 512}
MODE_OF_REGS = {v: k for k, v in REGS.items()}
ROLLING_THRESHOLD = 1024  # bytes per thread, Triton's rolling-driver rule


def ladder(arch):
    return LADDERS.get(arch, ["small", "large"])


def run_one(xpu_opt, mlir, arch, extra, jobs, report, compiler_root):
    """One kernel's module in its own xpu-opt."""
    return run_batch(xpu_opt, mlir, arch, extra, jobs, report,
                     compiler_root)[0]


def run_batch(xpu_opt, mlir, arch, extra, jobs, report, compiler_root):
    """The whole family in one xpu-opt: its `jobs` workers start once."""
    opts = (f"arch={arch} report={report} cache-dir=none backend=ocloc "
            f"jobs={jobs} {extra}")
    if compiler_root:
        opts += f" compiler-root={compiler_root}"
    proc = subprocess.run([xpu_opt, mlir, f"--xpu-codegen-pipeline={opts}",
                           "-o", os.devnull], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"xpu-opt failed on {mlir} ({extra}):\n"
                           f"{proc.stderr[-2000:]}")
    with open(report) as f:
        return json.load(f)["modules"]


def run_pipeline(xpu_opt, family, arch, extra, jobs, workdir, tag, reuse,
                 parallel, compiler_root, batch):
    """One xpu-opt per kernel, `parallel` processes at a time, or with
    `batch` one xpu-opt for the whole family. Returns ({module: report
    entry}, wall seconds or None when reused)."""
    saved = os.path.join(workdir, f"report-{tag}.json")
    if reuse and os.path.exists(saved):
        with open(saved) as f:
            data = json.load(f)
        return {m["module"]: m for m in data["modules"]}, data.get("wall_s")
    start = time.time()
    if batch:
        modules = run_batch(xpu_opt, os.path.join(workdir, "family.mlir"),
                            arch, extra, jobs,
                            os.path.join(workdir, f"family.{tag}.json"),
                            compiler_root)
        seconds = time.time() - start
        with open(saved, "w") as f:
            json.dump({"version": 1, "wall_s": seconds, "batch": True,
                       "modules": modules}, f)
        return {m["module"]: m for m in modules}, seconds
    with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
        futures = [pool.submit(run_one, xpu_opt,
                               os.path.join(workdir, e["name"] + ".mlir"),
                               arch, extra, jobs,
                               os.path.join(workdir, f"{e['name']}.{tag}.json"),
                               compiler_root)
                   for e in family]
        modules = [f.result() for f in futures]
    seconds = time.time() - start
    with open(saved, "w") as f:
        json.dump({"version": 1, "wall_s": seconds, "modules": modules}, f)
    return {m["module"]: m for m in modules}, seconds


def kept_mode(module):
    """The mode of the kept build from the binary's grf_count: small, large,
    xlarge, or "N regs" for a count IGC picked itself (Xe3)."""
    regs = max(k["grf_count"] for k in module["kernels"])
    return MODE_OF_REGS.get(regs, f"{regs} regs")


def regs_of(mode):
    """Registers of a kept mode: small/large/xlarge or "N regs"."""
    return REGS.get(mode) or int(mode.split()[0])


def best_mode(spills, modes):
    """Least spill, the smaller mode on a tie (`modes` smallest first)."""
    return min(modes, key=lambda m: (spills[m], modes.index(m)))


def compiler_tag(compiler_root):
    if not compiler_root:
        return "system"
    return os.path.basename(os.path.normpath(compiler_root))


def parse_args():
    """The command line (see the module's docstring and --help)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--arch", default="pvc")
    parser.add_argument("--compiler-root", default=None,
                        help="the compiler (pipeline option compiler-root); "
                             "default $XPU_CODEGEN_COMPILER_ROOT, else the "
                             "system's")
    parser.add_argument("--out", default=None)
    parser.add_argument("--jobs", type=int, default=2,
                        help="compiler workers per xpu-opt (speculation "
                             "needs 2)")
    parser.add_argument("--parallel", type=int, default=2,
                        help="xpu-opt processes at a time")
    parser.add_argument("--batch", action="store_true",
                        help="one xpu-opt (with --jobs workers) for the "
                             "whole family per run instead of one per "
                             "kernel: the workers start once")
    parser.add_argument("--workdir", default=None,
                        help="keep the family and reports here")
    parser.add_argument("--reuse", nargs="*", default=[],
                        help="runs (small, large, xlarge, default, auto, "
                             "predict, igc, ...) whose report in --workdir "
                             "is reused, not re-run")
    parser.add_argument("--extras", choices=["auto", "on", "off"],
                        default="auto",
                        help="also run predict=true speculative=true and "
                             "verify-predicted-large=false (auto: on pvc "
                             "only)")
    parser.add_argument("--quiet-misses", action="store_true",
                        help="do not list IGC auto's misses")
    return parser.parse_args()


def generate_family(workdir):
    """The kernel family (gen_family.py) in workdir: family.mlir, one file
    per kernel and the manifest; returns the manifest's entries."""
    mlir = os.path.join(workdir, "family.mlir")
    manifest = os.path.join(workdir, "family.json")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_family.py"),
                    "--output", mlir, "--manifest", manifest,
                    "--split-dir", workdir], check=True)
    with open(manifest) as f:
        return json.load(f)


def run_plan(modes, extras):
    """The runs, [(run, pipeline options)]: every mode of the ladder, the
    default build, then the policies run for real."""
    plan = [(m, f"grf-mode={m}") for m in modes]
    plan += [("default", "grf-mode=default"),
             ("auto", "grf-mode=auto"),
             ("predict", "grf-mode=auto predict=true")]
    if extras:
        plan += [("speculative", "grf-mode=auto predict=true speculative=true"),
                 ("unverified",
                  "grf-mode=auto predict=true verify-predicted-large=false")]
    plan += [("igc", "grf-mode=auto auto-strategy=igc")]
    return plan


def run_all(args, plan, xpu_opt, family, workdir, compiler_root):
    """Every run of the plan (or its saved report with --reuse); returns
    {run: ({module: report entry}, wall seconds or None)}."""
    runs = {}
    for run, extra in plan:
        print(f"[grf_decision] {args.arch} {compiler_tag(compiler_root)} "
              f"{run}: {extra}", file=sys.stderr, flush=True)
        runs[run] = run_pipeline(xpu_opt, family, args.arch, extra,
                                 args.jobs, workdir, run, run in args.reuse,
                                 args.parallel, compiler_root, args.batch)
        if run not in args.reuse and runs[run][1] is not None:
            print(f"[grf_decision]   {runs[run][1]:.1f} s", file=sys.stderr,
                  flush=True)
    return runs


def kernel_row(entry, runs, modes, measured):
    """One kernel's results: its ground truth (spill, compile time and SIMD
    per mode, the measured-best mode, the default build), what each run
    policy kept, and Triton's rules and least spill computed from the
    ground-truth builds."""
    name = entry["name"]
    spills = {m: runs[m][0][name]["spill_size"] for m in modes}
    ms = {m: runs[m][0][name]["attempts"][0]["compile_ms"] for m in modes}
    best = best_mode(spills, modes)
    default = runs["default"][0][name]
    row = dict(entry)
    row.update({"spill": spills, "compile_ms": ms, "best": best,
                "best_spill": spills[best],
                "simd": {m: max(k["simd"] for k in runs[m][0][name]["kernels"])
                         for m in modes},
                "default": {"mode": kept_mode(default),
                            "spill": default["spill_size"],
                            "ms": default["attempts"][0]["compile_ms"]}})
    for run in measured:
        m = runs[run][0][name]
        row[run] = {"mode": kept_mode(m), "spill": m["spill_size"],
                    "compiles": len(m["attempts"]),
                    "source": m.get("decision_source"),
                    "decision": m.get("decision"),
                    "ms": sum(a["compile_ms"] for a in m["attempts"])}
        if "pressure" in m:
            row[run]["pressure"] = m["pressure"]
            row[run]["plan"] = m.get("plan")
    top = modes[-1]
    d = default["spill_size"]
    for rule, retry in [("triton_rolling", d > ROLLING_THRESHOLD),
                        ("triton_lts", d > 0)]:
        dms = row["default"]["ms"]
        row[rule] = ({"mode": top, "spill": spills[top], "compiles": 2,
                      "ms": dms + ms[top]}
                     if retry else
                     {"mode": row["default"]["mode"], "spill": d,
                      "compiles": 1, "ms": dms})
    row["least_spill"] = {"mode": best, "spill": spills[best],
                          "compiles": len(modes),
                          "ms": sum(ms.values())}
    return row


def policy_list(modes, extras):
    """The table's policies, [(label, key of the kernel rows)]."""
    policies = [("project auto (predict=false)", "auto"),
                ("project auto predict=true", "predict")]
    if extras:
        policies += [("project auto predict=true speculative=true",
                      "speculative"),
                     ("project auto predict=true verify-predicted-large=false",
                      "unverified")]
    top_regs = REGS[modes[-1]]
    policies += [("IGC auto flag (auto-strategy=igc)", "igc"),
                 (f"Triton rolling: default, {top_regs} if spill > "
                  f"{ROLLING_THRESHOLD} B", "triton_rolling"),
                 (f"Triton LTS: default, {top_regs} if any spill",
                  "triton_lts"),
                 (f"least spill (build all {len(modes)} modes)",
                  "least_spill")]
    return policies


def policy_table(policies, kernels, runs):
    """Per policy: agreement with the measured-best mode, kernels not
    worse, spill above best, more registers, compiles, IGC and wall time."""
    table = []
    for label, key in policies:
        agree = sum(k[key]["mode"] == k["best"] for k in kernels)
        excess = [k[key]["spill"] - k["best_spill"] for k in kernels]
        # More registers than the measured-best mode: fewer threads per
        # vector engine for no less spill.
        more_regs = sum(regs_of(k[key]["mode"]) > REGS[k["best"]]
                        for k in kernels)
        compiles = sum(k[key]["compiles"] for k in kernels)
        wall = runs[key][1] if key in runs else None
        # Neither more spill nor more registers than the measured-best mode
        # (a count IGC picks on Xe3, e.g. 96 registers without spill, is
        # not worse than 128 without spill, though not the same mode).
        not_worse = sum(e <= 0 and regs_of(k[key]["mode"]) <= REGS[k["best"]]
                        for e, k in zip(excess, kernels))
        table.append({"policy": label, "key": key, "not_worse": not_worse,
                      "agreement": agree / len(kernels), "agree": agree,
                      "kernels": len(kernels),
                      "excess_spill_bytes": sum(e for e in excess if e > 0),
                      "kernels_with_excess": sum(e > 0 for e in excess),
                      "kernels_more_regs": more_regs,
                      "compiles_per_kernel": compiles / len(kernels),
                      "compile_s": sum(k[key]["ms"] for k in kernels) / 1000,
                      "wall_s": wall})
    return table


def make_result(args, compiler, compiler_root, modes, kernels, table, runs):
    """The results file's content: device, compiler, kernels, table, the
    ground truth's summary and every run's wall time."""
    by_best = {m: sum(k["best"] == m for k in kernels) for m in modes}
    spill_in = {m: sum(k["spill"][m] > 0 for k in kernels) for m in modes}
    return {"arch": args.arch, "compiler": compiler,
            "compiler_root": compiler_root or "system", "modes": modes,
            "kernels": kernels, "table": table,
            "ground_truth": {
                "kernels": len(kernels),
                "best": by_best,
                "spill_in": spill_in,
                "no_spill": sum(all(k["spill"][m] == 0 for m in modes)
                                for k in kernels),
                "best_spill_bytes": sum(k["best_spill"] for k in kernels),
                "default_modes": sorted({k["default"]["mode"]
                                         for k in kernels})},
            "wall_s": {r: runs[r][1] for r in runs}}


def print_table(result):
    """Prints the header, the ground truth's line and the policy table."""
    modes, kernels = result["modes"], result["kernels"]
    gt = result["ground_truth"]
    spill_in, by_best = gt["spill_in"], gt["best"]
    print(f"GRF decision benchmark: arch={result['arch']}, "
          f"compiler={result['compiler']}, "
          f"{len(kernels)} kernels, modes {'/'.join(modes)}")
    print(f"Ground truth: {gt['no_spill']} spill in no mode; spill in "
          + ", ".join(f"{m} {spill_in[m]}" for m in modes)
          + "; measured-best " + ", ".join(f"{m} {by_best[m]}" for m in modes)
          + f"; default build's modes {', '.join(gt['default_modes'])}; "
          f"least possible spill {gt['best_spill_bytes']} B in all")
    print("| policy | same mode as measured-best | no more spill or "
          "registers than it | spill above best, B (kernels) | more "
          "registers than best (kernels) | compiles/kernel | IGC s | "
          "wall s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in result["table"]:
        print(f"| {r['policy']} | {r['agreement'] * 100:.0f}% "
              f"({r['agree']}/{r['kernels']}) | {r['not_worse']}/{r['kernels']} "
              f"| {r['excess_spill_bytes']} "
              f"({r['kernels_with_excess']}) | {r['kernels_more_regs']} | "
              f"{r['compiles_per_kernel']:.2f} | {r['compile_s']:.1f} | "
              + (f"{r['wall_s']:.1f} |" if r["wall_s"] else "- |"))
    print("(IGC s: the compile_ms of the builds each policy ran, summed; "
          "Triton and least spill from the ground-truth builds. wall s: the "
          "policy's own run.)")


def print_misses(kernels, modes, quiet_misses):
    """Lists the kernels whose kept mode is not the measured-best, for
    predict, igc (unless --quiet-misses) and auto."""
    for key in ("predict", "igc", "auto"):
        if quiet_misses and key == "igc":
            continue
        for k in kernels:
            if k[key]["mode"] != k["best"]:
                print(f"{key} missed {k['name']}: spill "
                      + ", ".join(f"{m} {k['spill'][m]}" for m in modes)
                      + f"; kept {k[key]['mode']} ({k[key]['spill']} B)"
                      + (f" {k[key].get('pressure')}" if key == "predict"
                         else ""))


def main():
    args = parse_args()
    compiler_root = (args.compiler_root
                     or os.environ.get("XPU_CODEGEN_COMPILER_ROOT") or None)
    if compiler_root:
        compiler_root = os.path.abspath(compiler_root)
    xpu_opt = os.path.join(args.build_dir, "bin", "xpu-opt")
    outdir = os.path.join(args.build_dir, "bench", "grf_decision")
    os.makedirs(outdir, exist_ok=True)
    tag = f"{args.arch}-{compiler_tag(compiler_root)}"
    out = args.out or os.path.join(outdir, f"results-{tag}.json")
    modes = ladder(args.arch)
    extras = (args.extras == "on"
              or (args.extras == "auto" and args.arch == "pvc"))

    workdir = args.workdir or os.path.join(outdir, f"work-{tag}")
    os.makedirs(workdir, exist_ok=True)
    family = generate_family(workdir)
    plan = run_plan(modes, extras)
    runs = run_all(args, plan, xpu_opt, family, workdir, compiler_root)
    measured = [r for r, _ in plan if r not in modes and r != "default"]
    compiler = next(iter(runs[modes[0]][0].values())).get("compiler", "?")

    kernels = [kernel_row(entry, runs, modes, measured) for entry in family]
    table = policy_table(policy_list(modes, extras), kernels, runs)
    result = make_result(args, compiler, compiler_root, modes, kernels, table,
                         runs)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)

    print_table(result)
    print_misses(kernels, modes, args.quiet_misses)
    print(f"JSON: {out}")

if __name__ == "__main__":
    main()
