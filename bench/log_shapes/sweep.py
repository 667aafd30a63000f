#!/usr/bin/env python3
"""Sweeps a CLBlast-like SGEMM family through both IGCs on the devices users
run, in every GRF mode the project builds, and lists the distinct shapes of
IGC's build-log lines (kernel names and numbers replaced), with how often
each appeared and how the log's spill line relates to `.ze_info`.

It looks for log shapes the spill measurement does not know yet
(docs/SpillMeasurement.md): RetryManager outcomes, SIMD drops, new wording.

Usage: sweep.py [--igc2-root DIR] [--shapes N] [--json OUT]
"""
import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test" / "Inputs" / "Native"))
from gen_gemm import gemm  # noqa: E402

LLVM = Path("/usr/lib/llvm-22/bin")
# Tiles (M, N, KWI) from light to heavy register pressure.
TILES = [(m, n, k) for m in (4, 6, 7, 8, 10, 12, 16) for n in (4, 8, 12, 16)
         for k in (1, 2)]
FLAGS = {"small": "-cl-intel-128-GRF-per-thread",
         "large": "-cl-intel-256-GRF-per-thread",
         "default": "-cl-std=CL2.0"}
DEVICES = {"igc1": ["pvc", "acm-g10"],
           "igc2": ["pvc", "bmg", "lnl", "ptl", "cri"]}


def to_spirv(name, tile, work):
    cl = work / f"{name}.cl"
    cl.write_text(gemm(name, *tile))
    ll, spv = work / f"{name}.ll", work / f"{name}.spv"
    subprocess.run([str(LLVM / "clang"), "-cl-std=CL2.0", "-target", "spir64",
                    "-O2", "-emit-llvm", "-S", "-Xclang",
                    "-finclude-default-header", str(cl), "-o", str(ll)],
                   check=True)
    subprocess.run([str(LLVM / "llc"), "-mtriple=spirv64-unknown-unknown",
                    "-filetype=obj", str(ll), "-o", str(spv)], check=True)
    return spv


def ocloc_command(compiler, igc2_root):
    if compiler == "igc1":
        return ["ocloc"]
    lib = igc2_root / "usr" / "lib" / "x86_64-linux-gnu"
    ocloc = sorted((igc2_root / "usr" / "bin").glob("ocloc-26.*"))[0]
    return [str(lib / "ld-linux-x86-64.so.2"), "--library-path", str(lib),
            str(ocloc)]


def build(command, spv, device, flags, work):
    out = work / "out"
    proc = subprocess.run(command + [
        "compile", "-file", str(spv), "-spirv_input", "-device", device,
        "-options", flags, "-exclude_ir", "-output", str(out),
        "-output_no_suffix"], capture_output=True, text=True, cwd=work,
        timeout=600)
    binary = next((p for p in (work / "out", work / "out.bin")
                   if p.exists()), None)
    spill = None
    if binary:
        text = subprocess.run([str(LLVM / "llvm-objcopy"),
                               "--dump-section=.ze_info=/dev/stdout",
                               str(binary), "/dev/null"],
                              capture_output=True, text=True).stdout
        found = re.search(r"spill_size:\s+(\d+)", text)
        spill = int(found.group(1)) if found else None
        binary.unlink()
    return proc.stdout + proc.stderr, spill


def shape_of(line, name):
    line = line.replace(name, "K")
    return re.sub(r"\d+", "N", line.strip())


def relation(log, spill, grf_bytes):
    """How the last spill line relates to .ze_info spill_size."""
    found = re.findall(r"spilled around (\d+)", log)
    if spill is None or not found:
        return "no ze_info spill" if spill is None else "no log line"
    kept_previous = "Used previous version" in log
    equal = int(found[-1]) * grf_bytes == spill
    return f"{'equal' if equal else 'differs'}" + \
        (" (kept previous)" if kept_previous else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--igc2-root", type=Path,
                        default=REPO / ".compilers" / "igc-2.40")
    parser.add_argument("--shapes", type=int, default=len(TILES))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    shapes = collections.Counter()
    relations = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        step = max(1, len(TILES) // max(1, args.shapes))
        for tile in TILES[::step][:args.shapes]:
            spv = to_spirv("gemm_{}x{}x{}".format(*tile), tile, work)
            for compiler, devices in DEVICES.items():
                command = ocloc_command(compiler, args.igc2_root)
                for device in devices:
                    grf_bytes = 32 if device == "acm-g10" else 64
                    for mode, flags in FLAGS.items():
                        log, spill = build(command, spv, device, flags, work)
                        name = spv.stem
                        for line in log.splitlines():
                            if line.strip():
                                shapes[(compiler, shape_of(line, name))] += 1
                        relations[(compiler, relation(log, spill,
                                                      grf_bytes))] += 1
    print("| compiler | log line shape | count |\n|---|---|---|")
    for (compiler, shape), count in sorted(shapes.items()):
        print(f"| {compiler} | `{shape}` | {count} |")
    print("\n| compiler | last spill line vs .ze_info | builds |\n|---|---|---|")
    for (compiler, rel), count in sorted(relations.items()):
        print(f"| {compiler} | {rel} | {count} |")
    if args.json:
        args.json.write_text(json.dumps({
            "shapes": [[c, s, n] for (c, s), n in shapes.items()],
            "relations": [[c, r, n] for (c, r), n in relations.items()]},
            indent=1))


if __name__ == "__main__":
    main()
