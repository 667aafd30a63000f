#!/usr/bin/env python3
"""Register-count benchmark for Xe3 (ptl) and Xe3P (cri): the project's
`auto` against IGC's default build and the best over every register count.

Ground truth: each kernel of the family (gen_family.py) built by IGC 2.40's
ocloc once per register count the device has (docs/Devices.md, "Register
counts": the mode flags for 128/256/512, `-ze-exp-register-file-size N` for
the others) and once without a GRF flag (IGC's default). The objective is
auto's (docs/NativeCodegen.md): least spill, then the most lanes in flight
per engine (threads at the count x SIMD width), then the fewest registers.
Policies:

* project auto: `grf-mode=auto`, run for real (its builds counted);
* IGC default: the build without a GRF flag (one build);
* best mode: the best of the GRF modes only (128, 256, 512 on cri), what a
  ladder over the modes can reach at most;
* best count: the best over every count (the optimum; one build per count).

Usage: counts.py BUILD_DIR [--arch ptl] [--compiler-root DIR] [--jobs N]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))

# Threads per vector engine at each count (docs/Devices.md).
THREADS = {
    "ptl": {32: 10, 64: 10, 96: 10, 128: 8, 160: 6, 192: 5, 256: 4},
    "cri": {32: 8, 64: 8, 96: 8, 128: 8, 160: 6, 192: 5, 256: 4, 512: 2},
}
MODE_FLAGS = {128: "-cl-intel-128-GRF-per-thread",
              256: "-cl-intel-256-GRF-per-thread",
              512: "-cl-intel-512-GRF-per-thread"}


def flag_of(count):
    """The flag the project asks for `count` with ("" for IGC's default)."""
    if count is None:
        return ""
    return MODE_FLAGS.get(count, f"-ze-exp-register-file-size {count}")


def decode_mlir_string(text):
    """The bytes of an MLIR string literal's body (\\XX and \\\\ escapes,
    llvm::printEscapedString)."""
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1] == "\\":
            out.append(0x5C)
            i += 2
        elif text[i] == "\\":
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def emit_spirv(xpu_opt, mlir, arch):
    """The SPIR-V of the one gpu.module in `mlir` (xpu-emit-spirv)."""
    attach = subprocess.run([xpu_opt, mlir, f"--xpu-attach-target=arch={arch}"],
                            capture_output=True, text=True, check=True)
    lowered = subprocess.run(
        [xpu_opt, "--pass-pipeline=builtin.module(gpu.module("
         "xpu-lower-to-xevm),xpu-emit-spirv)"], input=attach.stdout,
        capture_output=True, text=True, check=True)
    match = re.search(r'assembly = "((?:[^"\\]|\\\\|\\[0-9A-F]{2})*)"',
                      lowered.stdout)
    return decode_mlir_string(match.group(1))


def ocloc_command(root):
    lib = os.path.join(root, "usr", "lib", "x86_64-linux-gnu")
    ocloc = glob.glob(os.path.join(root, "usr", "bin", "ocloc-*"))[0]
    return [os.path.join(lib, "ld-linux-x86-64.so.2"), "--library-path", lib,
            ocloc]


def build(ocloc, spirv_path, arch, count, workdir):
    """One ocloc build: (grf_count, simd, spill bytes) of its kernel."""
    tag = f"{os.path.basename(spirv_path)}.{count or 'default'}"
    out = os.path.join(workdir, tag)
    cmd = ocloc + ["compile", "-spirv_input", "-file", spirv_path, "-device",
                   arch, "-output", out, "-q"]
    if count is not None:
        cmd += ["-options", flag_of(count)]
    subprocess.run(cmd, capture_output=True, check=True)
    binary = open(glob.glob(out + "*")[0], "rb").read()
    info = binary.decode("latin-1")

    def field(name):
        return int(re.search(name + r": *(\d+)", info).group(1))
    spill = re.search(r"spill_size: *(\d+)", info)
    return (field("grf_count"), field("simd_size"),
            int(spill.group(1)) if spill else 0)


def key(arch, registers, simd, spill):
    """The objective, smaller is better."""
    return (spill, -THREADS[arch][registers] * simd, registers)


def run_auto(xpu_opt, family_mlir, arch, root, report, jobs):
    subprocess.run([xpu_opt, family_mlir, "-o", os.devnull,
                    f"--xpu-codegen-pipeline=arch={arch} grf-mode=auto "
                    f"cache-dir=none backend=ocloc jobs={jobs} "
                    f"compiler-root={root} report={report}"],
                   capture_output=True, check=True)
    with open(report) as f:
        return {m["module"]: m for m in json.load(f)["modules"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--arch", default="ptl", choices=sorted(THREADS))
    parser.add_argument("--compiler-root",
                        default=os.path.join(SOURCE, ".compilers",
                                             "igc-2.40"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    arch, root = args.arch, os.path.abspath(args.compiler_root)
    xpu_opt = os.path.join(args.build_dir, "bin", "xpu-opt")
    ocloc = ocloc_command(root)
    workdir = tempfile.mkdtemp(prefix=f"grf-counts-{arch}-")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_family.py"),
                    "--output", os.path.join(workdir, "family.mlir"),
                    "--manifest", os.path.join(workdir, "family.json"),
                    "--split-dir", workdir], check=True)
    family = json.load(open(os.path.join(workdir, "family.json")))
    counts = sorted(THREADS[arch])
    modes = [c for c in counts if c in MODE_FLAGS]

    def truth(entry):
        spirv = os.path.join(workdir, entry["name"] + ".spv")
        with open(spirv, "wb") as f:
            f.write(emit_spirv(xpu_opt, os.path.join(
                workdir, entry["name"] + ".mlir"), arch))
        return {c: build(ocloc, spirv, arch, c, workdir)
                for c in [None] + counts}

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        builds = dict(zip([e["name"] for e in family],
                          pool.map(truth, family)))
    auto = run_auto(xpu_opt, os.path.join(workdir, "family.mlir"), arch, root,
                    os.path.join(workdir, "auto.json"), args.jobs)

    rows = []
    for entry in family:
        name = entry["name"]
        b = builds[name]
        keys = {c: key(arch, *b[c]) for c in counts}
        best = min(keys.values())
        m = auto[name]
        k = m["kernels"][0]
        auto_key = key(arch, k["grf_count"], k["simd"], m["spill_size"])
        rows.append({"name": name, "best": best[:2],
                     "auto": auto_key[:2], "auto_regs": auto_key[2],
                     "builds": len(m["attempts"]),
                     "default": key(arch, *b[None])[:2],
                     "best_mode": min(keys[c] for c in modes)[:2]})

    def worse(a, b):
        return a > b  # (spill, -lanes): larger is worse

    n = len(rows)
    print(f"register-count benchmark: arch={arch}, compiler={m['compiler']}, "
          f"{n} kernels (gen_family.py), counts {counts}")
    print("| policy | optimal (spill, lanes) | worse than IGC default | "
          "builds/kernel |")
    print("|---|---|---|---|")
    for label, field, builds_per in [
            ("project auto", "auto", sum(r["builds"] for r in rows) / n),
            ("IGC default (no flag)", "default", 1.0),
            (f"best of the modes {modes}", "best_mode", float(len(modes))),
            ("best over all counts", "best", float(len(counts)))]:
        optimal = sum(r[field] == r["best"] for r in rows)
        below = sum(worse(r[field], r["default"]) for r in rows)
        print(f"| {label} | {optimal}/{n} | {below}/{n} | {builds_per:.2f} |")
    for r in rows:
        if r["auto"] != r["best"]:
            print(f"auto missed {r['name']}: kept (spill, -lanes) {r['auto']}"
                  f", best {r['best']}, default {r['default']}")
    json.dump(rows, open(os.path.join(workdir, "rows.json"), "w"), indent=1)
    print(f"JSON: {os.path.join(workdir, 'rows.json')}")


if __name__ == "__main__":
    main()
