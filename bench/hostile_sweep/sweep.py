#!/usr/bin/env python3
"""A hostile user's sweep of the host (issue 11): feeds corrupted inputs to
the tools and counts, per kind, what happened to each input:

  tried   inputs fed
  crashed the host process died of a signal, or Python printed a traceback
  hung    the host did not finish within the time limit
  clean   a located error / "not a zebin" / a cache miss, exit status 1
  ok      accepted (compiled, parsed, hit) with facts that check out
  wrong   accepted with facts that do not check out (n_regs vs the binary's
          grf_count, a cache hit with another binary, ...)

Usage: sweep.py BUILD_DIR [--spirv N] [--zebin N] [--cache N] [--attrs N]
       [--dimension NAME=N ...] [--seed S] [--json OUT]

The dimensions of issue 26 live in their own modules next to this one
(DIMENSIONS below), each with a LABEL and a sweep(build, count, rng, work)
returning the same counts; `--dimension NAME=N` sets how many inputs one
gets (0 skips it).

Everything runs against BUILD_DIR (xpu-opt, the Python package in
BUILD_DIR/python_packages). Corruptions are random but seeded.
"""

import argparse
import importlib
import json
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INPUTS = REPO / "test" / "Inputs" / "Native"
KINDS = ("tried", "crashed", "hung", "clean", "ok", "wrong")
# Dimension modules and how many inputs each gets by default.
DIMENSIONS = {
    "printing_flags": 40,
    "stale_replies": 30,
    "link_aliasing": 30,
    "worker_starts": 20,
    "slow_server": 6,
    "upstream_verifiers": 160,
    "special_files": 52,
}


def new_counts():
    return {k: 0 for k in KINDS}


def env_for(build):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(build / "python_packages")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("XPU_CODEGEN_CACHE_DIR", "none")
    return env


def crashed(proc):
    return proc.returncode < 0 or "Traceback" in proc.stderr


def mutate(data, rng):
    """One random corruption: flipped bytes, a truncation, a splice of
    garbage, or a duplicated range."""
    data = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        for _ in range(rng.randrange(1, 9)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        data = data[:rng.randrange(len(data))]
    elif kind == 2:
        at = rng.randrange(len(data))
        data[at:at + rng.randrange(1, 64)] = rng.randbytes(rng.randrange(64))
    else:
        a = rng.randrange(len(data))
        b = min(len(data), a + rng.randrange(1, 256))
        at = rng.randrange(len(data))
        data[at:at] = data[a:b]
    return bytes(data)


# --------------------------------------------------------------------------
# Corrupted SPIR-V through the CLI (a batch per run, validation on and off)
# --------------------------------------------------------------------------

def sweep_spirv(build, count, rng, work):
    counts = new_counts()
    seeds = [(INPUTS / f"{n}.spv").read_bytes()
             for n in ("nospill", "spill_small_only", "private_array")]
    batch = 25
    for start in range(0, count, batch):
        n = min(batch, count - start)
        folder = work / f"spirv{start}"
        folder.mkdir()
        paths = []
        for i in range(n):
            path = folder / f"m{start + i}.spv"
            path.write_bytes(mutate(rng.choice(seeds), rng))
            paths.append(path)
        validate = "off" if (start // batch) % 2 else "warn"
        report = folder / "report.json"
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "xpu_codegen", "compile", *map(
                    str, paths), "-o", str(folder / "out"), "--report",
                 str(report), "--validate", validate, "--cache-dir", "none",
                 "--timeout-ms", "20000", "--memory-limit-mb", "4096", "-q"],
                capture_output=True, text=True, timeout=900,
                env=env_for(build))
        except subprocess.TimeoutExpired:
            counts["tried"] += n
            counts["hung"] += n
            continue
        counts["tried"] += n
        if crashed(proc):
            counts["crashed"] += n
            print("CRASH", validate, proc.returncode, proc.stderr[-600:],
                  file=sys.stderr)
            continue
        entries = json.loads(report.read_text())["modules"] \
            if report.exists() else []
        by_name = {}
        for entry in entries:
            by_name.setdefault(entry["module"], []).append(entry)
        for path in paths:
            mine = by_name.get(path.stem, [])
            if not mine or any("error" in e for e in mine):
                counts["clean"] += 1
                continue
            good = all(check_entry(e, folder / "out") for e in mine)
            counts["ok" if good else "wrong"] += 1
    return counts


def check_entry(entry, out_dir):
    """The report's facts against the binary the CLI wrote."""
    sys.path.insert(0, "")
    import xpu_codegen  # noqa: E402  (PYTHONPATH of the build)
    binary = out_dir / f"{entry['module']}.zebin"
    if not binary.exists():
        return False
    info = xpu_codegen.read_zebin(binary)
    grf = {k.name: k.grf_count for k in info.kernels}
    for kernel in entry["kernels"]:
        if grf.get(kernel["name"]) != kernel["grf_count"]:
            return False
        if entry["n_regs"] and kernel["grf_count"] != entry["n_regs"]:
            return False
        if kernel["simd"] not in (8, 16, 32):
            return False
    return True


# --------------------------------------------------------------------------
# Mutated zebins through `inspect` (and .ze_info nesting bombs)
# --------------------------------------------------------------------------

def sweep_zebin(build, count, rng, work):
    counts = new_counts()
    seeds = sorted(INPUTS.glob("*.zebin"))
    seeds = [p.read_bytes() for p in seeds]
    batch = 200
    for start in range(0, count, batch):
        n = min(batch, count - start)
        folder = work / f"zebin{start}"
        folder.mkdir()
        paths = []
        for i in range(n):
            path = folder / f"z{start + i}.zebin"
            data = rng.choice(seeds)
            if i % 50 == 0:  # A nesting bomb in the .ze_info text.
                at = data.find(b"kernels:")
                data = data[:at] + b"x: " + b"[" * 100000 + data[at:]
            else:
                data = mutate(data, rng)
            path.write_bytes(data)
            paths.append(path)
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "xpu_codegen", "inspect",
                 *map(str, paths)],
                capture_output=True, text=True, timeout=600,
                env=env_for(build))
        except subprocess.TimeoutExpired:
            counts["tried"] += n
            counts["hung"] += n
            continue
        counts["tried"] += n
        if crashed(proc):
            counts["crashed"] += n
            print("CRASH", proc.returncode, proc.stderr[-600:],
                  file=sys.stderr)
            continue
        failed = set(re.findall(r"error: (\S+\.zebin): ", proc.stderr))
        failed |= set(re.findall(r"error: cannot read (\S+\.zebin)",
                                 proc.stderr))
        for path in paths:
            counts["clean" if str(path) in failed else "ok"] += 1
    return counts


# --------------------------------------------------------------------------
# Cache corruptions (in a child process per case: hangs and crashes count)
# --------------------------------------------------------------------------

CACHE_CHILD = r"""
import os, sys, xpu_codegen
spv = open(sys.argv[1], "rb").read()
[m] = xpu_codegen.compile(spv, cache_dir=sys.argv[2], grf_mode="small")
sys.stdout.write(m.cache + " " + m.binary.hex()[:0] + str(len(m.binary)) + "\n")
open(sys.argv[3], "wb").write(m.binary)
"""


def corrupt_cache(cache, kind, rng):
    entries = [p for p in (cache / "v2").glob("llvmcache-*")
               if ".tmp-" not in p.name]
    for path in entries:
        data = path.read_bytes() if path.is_file() else b""
        if kind == "flip":
            data = bytearray(data)
            data[rng.randrange(len(data))] ^= 0xFF
            path.write_bytes(bytes(data))
        elif kind == "truncate":
            path.write_bytes(data[:rng.randrange(len(data))])
        elif kind == "garbage":
            path.write_bytes(rng.randbytes(rng.randrange(1, 4096)))
        elif kind == "empty":
            path.write_bytes(b"")
        elif kind == "fifo":
            path.unlink()
            os.mkfifo(path)
        elif kind == "devzero":
            path.unlink()
            path.symlink_to("/dev/zero")
        elif kind == "sparse":
            path.unlink()
            with open(path, "wb") as f:
                f.truncate(8 << 30)
        elif kind == "directory":
            path.unlink()
            path.mkdir()
        elif kind == "swap" and len(entries) > 1:
            other = entries[(entries.index(path) + 1) % len(entries)]
            if other.is_file():
                path.write_bytes(other.read_bytes())
        elif kind == "unreadable":
            path.chmod(0)


def sweep_cache(build, count, rng, work):
    counts = new_counts()
    kinds = ("flip", "truncate", "garbage", "empty", "fifo", "devzero",
             "sparse", "directory", "swap", "unreadable")
    spv = INPUTS / "spill_small_only.spv"
    reference = work / "reference.zebin"
    child = work / "cache_child.py"
    child.write_text(CACHE_CHILD)
    base = work / "cache-base"
    subprocess.run([sys.executable, str(child), str(spv), str(base),
                    str(reference)], check=True, env=env_for(build),
                   capture_output=True, timeout=600)
    for i in range(count):
        kind = kinds[i % len(kinds)]
        cache = work / f"cache{i}"
        shutil.copytree(base, cache, symlinks=True)
        corrupt_cache(cache, kind, rng)
        out = work / f"cache{i}.zebin"
        counts["tried"] += 1
        try:
            proc = subprocess.run(
                [sys.executable, str(child), str(spv), str(cache), str(out)],
                capture_output=True, text=True, timeout=120,
                env=env_for(build))
        except subprocess.TimeoutExpired:
            counts["hung"] += 1
            print("HUNG", kind, file=sys.stderr)
            continue
        finally:
            for p in (cache / "v2").glob("llvmcache-*"):
                if p.is_file() and not p.is_symlink():
                    p.unlink()
        if crashed(proc):
            counts["crashed"] += 1
            print("CRASH", kind, proc.stderr[-400:], file=sys.stderr)
        elif proc.returncode != 0:
            counts["clean"] += 1
        elif out.read_bytes() == reference.read_bytes():
            counts["ok"] += 1  # a miss recompiled, or an intact hit
        else:
            counts["wrong"] += 1
            print("WRONG", kind, proc.stdout, file=sys.stderr)
    return counts


# --------------------------------------------------------------------------
# Malformed attributes through xpu-opt
# --------------------------------------------------------------------------

def attribute_cases(rng, count):
    archs = ['"pvc"', '"tgllp"', '"bmg"', '""', '"pvc\\00x"', "3", '"' +
             "a" * 5000 + '"', '"acm-g10"']
    modes = ["small", "large", "auto", "default", "huge", '"small"', "1", ""]
    flags = ['""', '"-O2"', '"-ze-intel-256-GRF-per-thread"',
             '"-cl-intel-num-thread-per-eu 4"', '"' + "-x " * 3000 + '"',
             "7", '"\\ff\\fe"']
    extras = ["", ", subgroup_size = 16", ", subgroup_size = 8",
              ", subgroup_size = -1", ", subgroup_size = 99999999999",
              ", bogus = 1"]
    discardable = ["", "xpu.grf_mode = #xpu.grf_mode<large>",
                   "xpu.grf_mode = 3 : i32", 'xpu.grf_mode = "small"',
                   "xpu.device_arch = 5", 'xpu.device_arch = "nope"',
                   "xpu.spill = #xpu.spill<grf_mode = small, spill_size = -1,"
                   " grf_count = 128, simd = 16>",
                   "xpu.spill = #xpu.spill<grf_mode = auto, spill_size = 0,"
                   " grf_count = 9999, simd = 3>",
                   "xpu.spill = 1", "xpu.pressure = []",
                   "xpu.auto_plan = #xpu.grf_mode<small>"]
    for i in range(count):
        target = (f"#xpu.target<arch = {rng.choice(archs)}, grf_mode = "
                  f"{rng.choice(modes)}{rng.choice(extras)}, flags = "
                  f"{rng.choice(flags)}>")
        attrs = rng.choice(discardable)
        attr_dict = f" attributes {{{attrs}}}" if attrs else ""
        text = (f"gpu.module @m [{target}]{attr_dict} {{\n"
                f"  gpu.func @k() kernel {{ gpu.return }}\n}}\n")
        if i % 3 == 0:  # mangle a character or two of the text
            text = list(text)
            for _ in range(rng.randrange(1, 3)):
                text[rng.randrange(len(text))] = rng.choice("<>{}[]\",=@#")
            text = "".join(text)
        yield text


def sweep_attrs(build, count, rng, work):
    counts = new_counts()
    xpu_opt = build / "bin" / "xpu-opt"
    for i, text in enumerate(attribute_cases(rng, count)):
        path = work / f"attr{i}.mlir"
        path.write_text(text)
        counts["tried"] += 1
        try:
            proc = subprocess.run(
                [str(xpu_opt), str(path), "--xpu-select-grf-mode"],
                capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            counts["hung"] += 1
            continue
        if proc.returncode < 0 or "Stack dump" in proc.stderr or \
                "PLEASE submit" in proc.stderr:
            counts["crashed"] += 1
            print("CRASH", path, proc.stderr[-400:], file=sys.stderr)
        elif proc.returncode == 0:
            counts["ok"] += 1
        elif re.search(r":\d+:\d+: error: ", proc.stderr):
            counts["clean"] += 1
        else:
            counts["wrong"] += 1  # an error without a location
            print("UNLOCATED", path, proc.stderr[-300:], file=sys.stderr)
    return counts


def run_alone(module, default_count, add_arguments=None):
    """Runs one dimension module by itself:
    MODULE.py BUILD_DIR [--count N] [--seed S] [its own options].
    `add_arguments(parser)` adds the module's options and returns what to
    do with the parsed arguments before the sweep."""
    parser = argparse.ArgumentParser(description=module.LABEL)
    parser.add_argument("build", type=Path)
    parser.add_argument("--count", type=int, default=default_count)
    parser.add_argument("--seed", type=int, default=11)
    apply = add_arguments(parser) if add_arguments else None
    args = parser.parse_args()
    if apply:
        apply(args)
    with tempfile.TemporaryDirectory(prefix="xpu-sweep-") as tmp:
        counts = module.sweep(args.build.resolve(), args.count,
                              random.Random(args.seed), Path(tmp))
    print(module.LABEL, json.dumps(counts))


def parse_dimensions(parser, items):
    """--dimension NAME=N values over the defaults."""
    dimensions = dict(DIMENSIONS)
    for item in items:
        name, _, count = item.partition("=")
        if name not in DIMENSIONS or not count.isdigit():
            parser.error(f"--dimension {item!r}: expected NAME=N with NAME "
                         "one of " + ", ".join(DIMENSIONS))
        dimensions[name] = int(count)
    return dimensions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--spirv", type=int, default=200)
    parser.add_argument("--zebin", type=int, default=2000)
    parser.add_argument("--cache", type=int, default=50)
    parser.add_argument("--attrs", type=int, default=300)
    parser.add_argument("--dimension", action="append", default=[],
                        metavar="NAME=N",
                        help="inputs for one of: " + ", ".join(DIMENSIONS))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    dimensions = parse_dimensions(parser, args.dimension)
    build = args.build.resolve()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(build / "python_packages"))
    os.environ["PYTHONPATH"] = str(build / "python_packages")
    rng = random.Random(args.seed)
    results = {}
    with tempfile.TemporaryDirectory(prefix="xpu-sweep-") as tmp:
        work = Path(tmp)
        for name, fn, n in (("corrupted SPIR-V (CLI)", sweep_spirv,
                             args.spirv),
                            ("mutated zebins (inspect)", sweep_zebin,
                             args.zebin),
                            ("cache corruptions", sweep_cache, args.cache),
                            ("malformed attributes (xpu-opt)", sweep_attrs,
                             args.attrs)):
            if n:
                folder = work / name.split()[0]
                folder.mkdir()
                results[name] = fn(build, n, rng, folder)
                print(name, results[name], flush=True)
        for module, n in dimensions.items():
            if n:
                dimension = importlib.import_module(module)
                folder = work / module
                folder.mkdir()
                results[dimension.LABEL] = dimension.sweep(build, n, rng,
                                                           folder)
                print(dimension.LABEL, results[dimension.LABEL], flush=True)
    print()
    print("| input | " + " | ".join(KINDS) + " |")
    print("|---|" + "---|" * len(KINDS))
    for name, counts in results.items():
        print(f"| {name} | " + " | ".join(str(counts[k]) for k in KINDS)
              + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    main()
