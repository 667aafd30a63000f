#!/usr/bin/env python3
"""Cold pipeline runs with link=false and link=true (xpu-link-modules) on
sets of small one-kernel modules, and on the same set plus a few kernels that
spill in small GRF (which `auto` splits out of the linked build into large
builds of their own).

For each set, jobs and link setting it runs `xpu-opt --xpu-codegen-pipeline`
with `cache-dir=none` (cold: every build compiles), and prints a Markdown
table of the wall time, the number of IGC builds and their summed time
(`compile_ms` of the report's attempts that really compiled), best of
`--repeat` runs. It also checks that each linked run's report has the same
per-module results as the unlinked one.

Usage: bench/link/bench.py BUILD_DIR [--sizes 16,64] [--jobs 1,2]
                           [--spilling 4] [--repeat 2] [--out DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

RESULT_FIELDS = ["grf_mode", "n_regs", "spill_size", "build_flags"]
KERNEL_FIELDS = ["grf_count", "simd", "spill_size", "private_size"]


def pointwise(i):
    """A small pointwise kernel; the constants make every module distinct
    (xpu-dedupe-modules would fold equal ones)."""
    return f"""  gpu.module @pw{i} {{
    gpu.func @pw{i}(%in: memref<?xf32>, %out: memref<?xf32>) kernel {{
      %t = gpu.global_id x
      %x = memref.load %in[%t] : memref<?xf32>
      %a = arith.constant {i + 1}.0 : f32
      %b = arith.constant {2 * i + 3}.0 : f32
      %y = arith.mulf %x, %a : f32
      %z = arith.addf %y, %b : f32
      %s = math.sqrt %z : f32
      memref.store %s, %out[%t] : memref<?xf32>
      gpu.return
    }}
  }}"""


def spilling(here, i):
    """acc16 of examples/gen_accumulate.py (spills in small GRF only at
    SIMD16), renamed and with a distinct constant."""
    gen = os.path.join(here, "..", "..", "examples", "gen_accumulate.py")
    text = subprocess.run([sys.executable, gen, "16", "--module", f"sp{i}"],
                          check=True, capture_output=True, text=True).stdout
    lines = text.splitlines()[1:-1]
    body = "\n".join(lines).replace("@acc16(", f"@sp{i}(")
    return body.replace("arith.constant 1.0 : f32",
                        f"arith.constant {i + 1}.5 : f32", 1)


def write_input(path, small, spill, here):
    modules = [pointwise(i) for i in range(small)]
    modules += [spilling(here, i) for i in range(spill)]
    with open(path, "w") as f:
        f.write("module attributes {gpu.container_module} {\n")
        f.write("\n".join(modules))
        f.write("\n}\n")


def run(xpu_opt, path, out, jobs, link):
    report = os.path.join(out, f"report-{os.getpid()}.json")
    options = (f"arch=pvc grf-mode=auto cache-dir=none jobs={jobs} "
               f"link={'true' if link else 'false'} report={report}")
    start = time.perf_counter()
    subprocess.run([xpu_opt, path, f"--xpu-codegen-pipeline={options}",
                    "-o", os.devnull], check=True)
    wall = time.perf_counter() - start
    with open(report) as f:
        modules = json.load(f)["modules"]
    builds = [a for m in modules for a in m["attempts"]
              if not a.get("reused") and a.get("compile_ms", 0) > 0]
    return {"wall": wall, "builds": len(builds),
            "igc_ms": sum(a["compile_ms"] for a in builds),
            "modules": modules}


def facts(modules):
    return {m["module"]: ({k: m.get(k) for k in RESULT_FIELDS},
                          sorted(tuple(k[f] for f in KERNEL_FIELDS)
                                 for k in m["kernels"]))
            for m in modules}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--sizes", default="16,64")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--spilling", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    xpu_opt = os.path.join(args.build, "bin", "xpu-opt")
    out = args.out or tempfile.mkdtemp(prefix="xpu-link-bench-")
    os.makedirs(out, exist_ok=True)

    sets = [(n, 0) for n in map(int, args.sizes.split(","))]
    if args.spilling:
        sets.append((sets[0][0], args.spilling))
    rows, failures = [], 0
    for small, spill in sets:
        path = os.path.join(out, f"set-{small}-{spill}.mlir")
        write_input(path, small, spill, here)
        name = f"{small} small" + (f" + {spill} spilling" if spill else "")
        for jobs in map(int, args.jobs.split(",")):
            best = {}
            for link in (False, True):
                runs = [run(xpu_opt, path, out, jobs, link)
                        for _ in range(args.repeat)]
                best[link] = min(runs, key=lambda r: r["wall"])
            if facts(best[False]["modules"]) != facts(best[True]["modules"]):
                print(f"DIFFERENT RESULTS: {name}, jobs={jobs}",
                      file=sys.stderr)
                failures += 1
            off, on = best[False], best[True]
            rows.append((name, jobs, off, on))
            print(f"{name}, jobs={jobs}: {off['wall']:.2f} s -> "
                  f"{on['wall']:.2f} s", file=sys.stderr, flush=True)

    print("| modules | jobs | link=false: wall s / IGC builds / IGC ms | "
          "link=true: wall s / IGC builds / IGC ms | wall speed-up |")
    print("|---|---|---|---|---|")
    for name, jobs, off, on in rows:
        print(f"| {name} | {jobs} | {off['wall']:.2f} / {off['builds']} / "
              f"{off['igc_ms']:.0f} | {on['wall']:.2f} / {on['builds']} / "
              f"{on['igc_ms']:.0f} | {off['wall'] / on['wall']:.2f}x |")
    if failures:
        sys.exit(f"{failures} linked runs differ from the unlinked ones")


if __name__ == "__main__":
    main()
