#!/usr/bin/env python3
"""Import time of xpu_codegen and per-call overhead of its CLI.

Usage: measure.py [-n N] PACKAGES_DIR [PACKAGES_DIR ...]

PACKAGES_DIR is a build's python_packages directory (several are measured
interleaved, e.g. before and after a change). Every sample is a fresh
`python3` process:

- import: `import xpu_codegen`, timed with time.perf_counter inside the
  child; `+ SPIR-V compile` additionally compiles a tiny SPIR-V kernel
  (test/Inputs/Native/nospill.spv, a cache hit);
- CLI call: `python3 -m xpu_codegen compile nospill.spv --arch pvc
  --cache-dir D -o OUT -q` with a warm cache (no IGC work), wall time and
  the child's CPU time (user + system);
- `python3 -c pass`: the interpreter's own start, for reference.

Prints medians of N samples (seconds) as a Markdown table.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SPV = os.path.join(HERE, "..", "..", "test", "Inputs", "Native",
                   "nospill.spv")
PYTHON = sys.executable
KEYS = ("import", "import + SPIR-V compile", "CLI call (wall)",
        "CLI call (CPU)", "python3 -c pass")

IMPORT = ("import time; t = time.perf_counter(); import xpu_codegen; "
          "print(time.perf_counter() - t)")
IMPORT_COMPILE = (
    "import sys, time; t = time.perf_counter(); import xpu_codegen; "
    "data = open(sys.argv[1], 'rb').read(); "
    "xpu_codegen.compile(data, name='nospill', arch='pvc', "
    "cache_dir=sys.argv[2]); print(time.perf_counter() - t)")


def run(argv, env):
    """Wall time and CPU time (user + system) of one child; its stdout."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    out, err = child.communicate()
    wall = time.perf_counter() - start
    if child.returncode:
        sys.exit(f"{argv} failed ({child.returncode}):\n{err.decode()}")
    return wall, out.decode()


def cpu_of_children():
    usage = os.times()
    return usage.children_user + usage.children_system


def measure(packages, n, cache, work, samples):
    """Appends n samples of each measurement to `samples`."""
    env = dict(os.environ, PYTHONPATH=packages)
    out = os.path.join(work, "out.zebin")
    cli = [PYTHON, "-m", "xpu_codegen", "compile", SPV, "--arch", "pvc",
           "--cache-dir", cache, "-o", out, "-q"]
    run(cli, env)  # warm the cache
    for key in KEYS:
        samples.setdefault(key, [])
    for _ in range(n):
        samples["import"].append(float(run([PYTHON, "-c", IMPORT], env)[1]))
        samples["import + SPIR-V compile"].append(
            float(run([PYTHON, "-c", IMPORT_COMPILE, SPV, cache], env)[1]))
        before = cpu_of_children()
        wall, _ = run(cli, env)
        samples["CLI call (CPU)"].append(cpu_of_children() - before)
        samples["CLI call (wall)"].append(wall)
        samples["python3 -c pass"].append(run([PYTHON, "-c", "pass"], env)[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=15)
    parser.add_argument("packages", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        # Interleaved rounds, so that a busy machine hurts all alike.
        results = [dict() for _ in args.packages]
        rounds = 3
        for _ in range(rounds):
            for index, packages in enumerate(args.packages):
                measure(os.path.abspath(packages), max(1, args.n // rounds),
                        os.path.join(work, f"cache{index}"), work,
                        results[index])
    print(f"| median of {len(results[0]['import'])}, seconds | " +
          " | ".join(args.packages) + " |")
    print("|---|" + "---|" * len(args.packages))
    for key in KEYS:
        print(f"| {key} | " + " | ".join(
            f"{statistics.median(r[key]):.3f}" for r in results) + " |")


if __name__ == "__main__":
    main()
