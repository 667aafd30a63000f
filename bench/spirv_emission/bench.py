"""SPIR-V emission benchmark (bench/README.md, "spirv_emission").

Input: N (default 64) small gpu.modules (test/Transforms/EmitSPIRV/Inputs/
gen-modules.py: accumulate kernels, f32/f16, 4/8/16 wide, 1 to 5 kernels
per module), lowered to the LLVM dialect once. Timed, each R times (median):

- `xpu-emit-spirv` of this build on the lowered file (wall time of the pass
  from -mlir-timing), emitter processes started (a wrapper counts them);
- with --before XPU_OPT, the same pass of an older build (the `llc` child
  per module path), and whether its SPIR-V is byte-identical;
- `llc -O2 -filetype=obj` once per module on that module's optimized
  bitcode (mlir-translate + opt -O2): the process per module the old path
  paid, on its own.
"""
import argparse
import hashlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(SRC, "test", "Transforms", "EmitSPIRV", "Inputs",
                   "gen-modules.py")
LLVM = "/usr/lib/llvm-22/bin"
LOWER = ("builtin.module(xpu-attach-target{arch=pvc},"
         "gpu.module(convert-gpu-to-llvm-spv{use-64bit-index=true}),"
         "convert-scf-to-cf,gpu.module(convert-to-llvm),"
         "reconcile-unrealized-casts)")
EMIT = "builtin.module(xpu-emit-spirv)"
BINARY = re.compile(r'gpu\.binary @(\w+) .*?assembly = "((?:[^"\\]|\\.)*)"')


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True,
                          **kw)


def emit_pass_seconds(xpu_opt, lowered, out, env):
    """Wall seconds of XPUEmitSPIRV per -mlir-timing, and the output."""
    r = run([xpu_opt, lowered, f"--pass-pipeline={EMIT}", "-mlir-timing",
             "-o", out], env=env)
    m = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+XPUEmitSPIRV$", r.stderr,
                  re.M)
    return float(m.group(1))


def payloads(path):
    with open(path) as f:
        return {name: hashlib.sha256(p.encode()).hexdigest()
                for name, p in BINARY.findall(f.read())}


def split_modules(lowered):
    """Each gpu.module's body as a builtin module (for mlir-translate)."""
    mods, cur = [], None
    for line in open(lowered).read().split("\n"):
        m = re.match(r"  gpu\.module @(\w+)", line)
        if m:
            cur = (m.group(1), [])
            continue
        if cur is not None:
            if line == "  }":
                mods.append(cur)
                cur = None
            else:
                cur[1].append(line)
    return mods


def parse_args():
    """The command line: BUILD_DIR, --before, --modules, --repeat."""
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--before", help="an older xpu-opt to compare with")
    ap.add_argument("--modules", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    return ap.parse_args()


def generate_and_lower(xpu_opt, work, n):
    """Generates the n modules (gen-modules.py) and lowers them to the LLVM
    dialect once; returns the lowered file."""
    prefixes = ",".join("abcdefghij"[: (n + 23) // 24])
    names = []
    for p in prefixes.split(","):
        for t in ("f32", "f16"):
            for w in (4, 8, 16):
                for k in (1, 2, 3, 5):
                    names.append(f"{p}{k}_{w}_{t}")
    names = names[:n]
    src = os.path.join(work, "input.mlir")
    with open(src, "w") as f:
        f.write(run([sys.executable, GEN, "--prefixes", prefixes, "--only",
                     ",".join(names)]).stdout)
    lowered = os.path.join(work, "lowered.mlir")
    run([xpu_opt, src, f"--pass-pipeline={LOWER}", "-o", lowered])
    return lowered


def counting_emitter_env(work, emitter):
    """A wrapper around xpu-spirv-emitter that logs each start; returns
    (the log, an environment naming the wrapper)."""
    log = os.path.join(work, "starts.log")
    wrapper = os.path.join(work, "emitter.sh")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\necho started >> {log}\nexec {emitter} "$@"\n')
    os.chmod(wrapper, 0o755)
    return log, dict(os.environ, XPU_CODEGEN_SPIRV_EMITTER=wrapper)


def time_this_build(xpu_opt, lowered, new_out, env, log, repeat):
    """xpu-emit-spirv of this build, median of `repeat` runs; returns its
    table row (label with the emitter processes the last run started,
    seconds)."""
    times = []
    for _ in range(repeat):
        if os.path.exists(log):
            os.remove(log)
        times.append(emit_pass_seconds(xpu_opt, lowered, new_out, env))
    starts = len(open(log).read().split())
    new = statistics.median(times)
    return (f"xpu-emit-spirv, this build ({starts} emitter process"
            f"{'es' if starts != 1 else ''})", new)


def time_before(before, lowered, new_out, work, n, repeat):
    """The same pass of an older xpu-opt, median of `repeat` runs; returns
    (its table row, whether its SPIR-V equals this build's)."""
    old_out = os.path.join(work, "before.mlir")
    old = statistics.median(
        emit_pass_seconds(before, lowered, old_out, dict(os.environ))
        for _ in range(repeat))
    row = (f"xpu-emit-spirv, {before} ({n} llc processes)", old)
    return row, payloads(new_out) == payloads(old_out)


def time_llc_per_module(lowered, n, repeat):
    """The old path's backend step on its own: one llc per module on that
    module's optimized bitcode, median of `repeat` runs; returns its row."""
    with tempfile.TemporaryDirectory() as tmp:
        bitcode = []
        for name, body in split_modules(lowered):
            ll = run([os.path.join(LLVM, "mlir-translate"), "--mlir-to-llvmir"],
                     input="module {\n" + "\n".join(body) + "\n}\n").stdout
            bc = os.path.join(tmp, name + ".bc")
            run([os.path.join(LLVM, "opt"), "-O2", "-o", bc],
                input=ll)
            bitcode.append(bc)
        llc_times = []
        for _ in range(repeat):
            start = time.perf_counter()
            for bc in bitcode:
                run([os.path.join(LLVM, "llc"), "-mtriple=spirv64-unknown-unknown",
                     "-O2", "-filetype=obj", bc, "-o", bc + ".spv"])
            llc_times.append(time.perf_counter() - start)
        return (f"llc -O2 once per module ({n} processes), alone",
                statistics.median(llc_times))


def print_table(rows, n, repeat, before, same):
    """Prints the table and, with --before, whether the SPIR-V is
    byte-identical; exits 1 when it is not."""
    print(f"{n} modules, median of {repeat} runs\n")
    print("| emission | total s | ms per module |")
    print("|---|---|---|")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.3f} | {1000 * seconds / n:.1f} |")
    if same is not None:
        print(f"\nSPIR-V byte-identical to {before}: {same}")
        if not same:
            sys.exit(1)


def main():
    args = parse_args()
    build = os.path.abspath(args.build)
    xpu_opt = os.path.join(build, "bin", "xpu-opt")
    emitter = os.path.join(build, "bin", "xpu-spirv-emitter")
    work = os.path.join(build, "bench", "spirv_emission")
    os.makedirs(work, exist_ok=True)
    n = args.modules

    lowered = generate_and_lower(xpu_opt, work, n)
    log, env = counting_emitter_env(work, emitter)

    new_out = os.path.join(work, "new.mlir")
    rows = [time_this_build(xpu_opt, lowered, new_out, env, log, args.repeat)]
    same = None
    if args.before:
        row, same = time_before(args.before, lowered, new_out, work, n,
                                args.repeat)
        rows.append(row)
    rows.append(time_llc_per_module(lowered, n, args.repeat))
    print_table(rows, n, args.repeat, args.before, same)

if __name__ == "__main__":
    main()
