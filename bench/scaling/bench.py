#!/usr/bin/env python3
"""Scaling of the project's passes with program size (issue 36).

For each size N, an IREE-like program (bench/pipeline/gen_inputs.py renamed:
N modules, each launched from a host function, 50 unique kernels renamed;
or, with --set distinct, N pointwise modules no two alike, so that nothing
folds and every module is linked and looked up) runs through xpu-codegen-pipeline (arch=pvc) warm: a first run fills a
private module cache, so what is timed is the project's own work (attach,
select, dedupe, link, cache look-ups, native codegen's bookkeeping, the
report), not IGC. Per pass, `--mlir-timing` gives its wall time; the
baseline, measured in the same run, is a bare parse and print of the same
file (`xpu-opt FILE -o OUT --mlir-print-assume-verified=false`: its output
verified by the printer, as the warm runs' is). Runs use `-verify-each=0`:
the verifier after each pass is upstream's and quadratic in modules
(gpu.container_module looks each launch's module up by a scan); it is
reported apart.

Prints, per size: each pass's time and its time per module, the warm run
against parse+print (limit 2.5x), peak memory; and each pass's time at the
largest size against the smallest (limit: 12x for 8x the modules). The
limits are the issue's; a pass over them is marked.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "pipeline", "gen_inputs.py")
TIMING = re.compile(r"^\s+([\d.]+) \(\s*[\d.]+%\)\s+(?:[\d.]+ \(\s*[\d.]+%\)\s+)?"
                    r"(\S.*?)\s*$")
OWN = ("XPUAttachTarget", "XPUSelectGRFMode", "XPUDedupeModules",
       "XPULinkModules", "XPUModuleCache", "XPUStartWorkers",
       "XPUUnlinkFailedModules", "XPUEmitSPIRV", "XPUNativeCodegen")


def run(command):
    """Wall seconds, peak RSS of the child (KiB) and stderr of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode:
        sys.exit(f"failed: {' '.join(command)}\n{done.stderr[-2000:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before), done.stderr


def pass_times(timing_text):
    """Pass name -> seconds (summed over its runs) from --mlir-timing."""
    times = {}
    for line in timing_text.splitlines():
        match = TIMING.match(line)
        if match and match.group(2) in OWN + ("Parser", "Output"):
            name = match.group(2)
            times[name] = times.get(name, 0.0) + float(match.group(1))
    return times


def median_run(command, repeat):
    runs = sorted((run(command) for _ in range(repeat)), key=lambda r: r[0])
    return runs[len(runs) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--sizes", default="1000,2000,4000,8000")
    parser.add_argument("--set", choices=["renamed", "distinct"],
                        default="renamed",
                        help="renamed: copies of --unique kernels that "
                        "fold; distinct: no two modules alike")
    parser.add_argument("--unique", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verify-each-up-to", type=int, default=8000,
                        help="sizes above this skip the run with upstream's "
                        "quadratic verifier after each pass (shown as -)")
    args = parser.parse_args()
    xpu_opt = os.path.join(args.build, "bin", "xpu-opt")
    sizes = [int(s) for s in args.sizes.split(",")]
    work = tempfile.mkdtemp(prefix="xpu-scaling-")
    cache = os.path.join(work, "cache")
    pipeline = f"--xpu-codegen-pipeline=arch=pvc cache-dir={cache}"
    rows = {}
    for n in sizes:
        path = os.path.join(work, f"{args.set}{n}.mlir")
        with open(path, "w") as out:
            subprocess.run([sys.executable, GEN, args.set, "--modules",
                            str(n), "--unique", str(args.unique)],
                           stdout=out, check=True)
        out = os.path.join(work, "out.mlir")
        # Fills the cache (the first size builds the unique kernels).
        run([xpu_opt, path, "-o", out, pipeline, "-verify-each=0"])
        # Like the warm runs (-verify-each=0), the bare run has its output
        # verified once by the printer: the same verification on both sides.
        parse = median_run([xpu_opt, path, "-o", out,
                            "--mlir-print-assume-verified=false"], args.repeat)
        warm = median_run([xpu_opt, path, "-o", out, pipeline,
                           "-verify-each=0", "--mlir-timing"], args.repeat)
        verified = (run([xpu_opt, path, "-o", out, pipeline])
                    if n <= args.verify_each_up_to else (float("nan"),))
        rows[n] = {"parse": parse[0], "warm": warm[0], "rss": warm[1],
                   "verified": verified[0], "passes": pass_times(warm[2])}

    what = (f"{args.unique} unique kernels renamed" if args.set == "renamed"
            else "every module distinct")
    print(f"xpu-codegen-pipeline warm, {what} (median of {args.repeat}); "
          "seconds, ms per 1000 modules")
    print(f"{'modules':>8} {'parse+print':>11} {'warm':>7} {'warm/parse':>10} "
          f"{'limit':>5} {'verify-each':>11} {'peak MiB':>8}")
    for n, row in rows.items():
        ratio = row["warm"] / row["parse"]
        print(f"{n:>8} {row['parse']:>11.2f} {row['warm']:>7.2f} "
              f"{ratio:>10.2f} {'2.5':>5} {row['verified']:>11.2f} "
              f"{row['rss'] / 1024:>8.0f}{'  OVER' if ratio > 2.5 else ''}")
    first, last = sizes[0], sizes[-1]
    growth = last / first
    limit = 1.5 * growth
    print(f"\nper pass: seconds at each size, and at {last} against {first} "
          f"modules ({growth:.0f}x the modules; limit {limit:.0f}x)")
    names = [p for p in ("Parser",) + OWN + ("Output",)
             if any(p in r["passes"] for r in rows.values())]
    print(f"{'pass':<24}" + "".join(f"{n:>9}" for n in sizes) +
          f"{'ratio':>8}{'limit':>7}")
    own_first = own_last = 0.0
    for name in names:
        times = [rows[n]["passes"].get(name, 0.0) for n in sizes]
        ratio = times[-1] / times[0] if times[0] > 0.0005 else float("nan")
        if name in OWN:
            own_first += times[0]
            own_last += times[-1]
        mark = "  OVER" if name in OWN and ratio > limit else ""
        print(f"{name:<24}" + "".join(f"{t:>9.3f}" for t in times) +
              f"{ratio:>8.1f}{(f'{limit:.0f}' if name in OWN else '-'):>7}"
              f"{mark}")
    own = own_last / own_first
    print(f"{'own passes together':<24}{own_first:>9.3f}"
          + " " * 9 * (len(sizes) - 2) + f"{own_last:>9.3f}{own:>8.1f}"
          f"{limit:>7.0f}{'  OVER' if own > limit else ''}")


if __name__ == "__main__":
    main()
