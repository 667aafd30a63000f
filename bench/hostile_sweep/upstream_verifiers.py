"""Sweep dimension: MLIR text that crashes upstream code (issue 26 item 6).

Mutates the XeGPU layouts and shapes of test/Parity/xegpu_*.mlir (0,
negative and huge values in sg_layout, sg_data, inst_data, lane_layout,
lane_data, order and in vector / tensor_desc dimensions) and generates
nesting bombs (regions, brackets, alias chains, affine terms) around and far
beyond the 2048-level limit. Each input goes through xpu-opt (the XeGPU
lowering) and through the Python binding (the whole pipeline, in one child
interpreter that is restarted after a crash).

    python3 upstream_verifiers.py BUILD_DIR [--count N] [--seed S]
"""

import random
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep import env_for, new_counts  # noqa: E402

LABEL = "upstream-verifier crashes (XeGPU layouts, nesting; xpu-opt and Python)"

ROOT = Path(__file__).resolve().parents[2]
LAYOUT_FIELD = re.compile(
    r"\b(sg_layout|sg_data|inst_data|lane_layout|lane_data|order)"
    r"\s*=\s*\[([-0-9, ]+)\]")
SHAPE = re.compile(r"\b(vector|!xegpu\.tensor_desc)<((?:\d+x)+)")
VALUES = [0, -1, -2, -2147483648, 2147483647, 4294967296, 65536, 1, 3, 7]
DIMS = [0, 1, 3, 2147483647, 2147483648, 4294967296, 65536, 99999999999]
NESTINGS = ["scf", "brackets", "aliases", "affine"]
DEPTHS = [100, 2000, 2040, 2049, 3000, 5000, 20000, 100000]
LOWERING = ("--pass-pipeline=builtin.module(gpu.module("
            "xpu-lower-to-xevm{keep-going=true}))")

# Compiles each file named on stdin; prints one status line per file.
CHILD = r"""
import re, sys, xpu_codegen
for line in sys.stdin:
    path = line.strip()
    print("START", path, flush=True)
    try:
        xpu_codegen.compile(open(path).read(), cache_dir="none")
        print("OK", flush=True)
    except xpu_codegen.CompileError as error:
        located = re.search(r":\d+:\d+: error: ", str(error))
        print("CLEAN" if located else "UNLOCATED", flush=True)
"""


def mutate_layout(text, rng):
    """One layout field or one vector / tensor_desc dimension replaced."""
    fields = list(LAYOUT_FIELD.finditer(text))
    shapes = list(SHAPE.finditer(text))
    if fields and (not shapes or rng.random() < 0.7):
        match = rng.choice(fields)
        values = [v.strip() for v in match.group(2).split(",")]
        values[rng.randrange(len(values))] = str(rng.choice(VALUES))
        new = f"{match.group(1)} = [{', '.join(values)}]"
    else:
        match = rng.choice(shapes)
        dims = match.group(2).split("x")[:-1]
        dims[rng.randrange(len(dims))] = str(rng.choice(DIMS))
        new = f"{match.group(1)}<{'x'.join(dims)}x"
    return text[:match.start()] + new + text[match.end():]


def nesting_bomb(kind, depth):
    if kind == "scf":
        return ("gpu.module @deep {\n"
                "  gpu.func @k(%buf: memref<64xf32>, %t: i1) kernel {\n"
                "    %i = gpu.thread_id x\n"
                "    %f = arith.constant 1.0 : f32\n"
                + "scf.if %t {\n" * depth
                + "    memref.store %f, %buf[%i] : memref<64xf32>\n"
                + "}\n" * depth + "    gpu.return\n  }\n}\n")
    if kind == "brackets":
        return ("module attributes {test.x = " + "[" * depth + "1"
                + "]" * depth + "} {}\n")
    if kind == "aliases":
        return ("#a0 = [1]\n"
                + "".join(f"#a{i} = [#a{i - 1}]\n" for i in range(1, depth))
                + f"module attributes {{test.x = #a{depth - 1}}} {{}}\n")
    return ("#map = affine_map<(d0) -> (" + " + ".join(["d0"] * depth)
            + ")>\nmodule attributes {test.x = #map} {}\n")


def make_inputs(count, rng, work):
    sources = sorted((ROOT / "test" / "Parity").glob("xegpu_*.mlir"))
    paths = []
    for i in range(count):
        if i % 4 == 3:
            text = nesting_bomb(NESTINGS[(i // 4) % len(NESTINGS)],
                                rng.choice(DEPTHS))
        else:
            text = mutate_layout(rng.choice(sources).read_text(), rng)
            if rng.random() < 0.3:  # a second mutation
                text = mutate_layout(text, rng)
        path = work / f"upstream{i}.mlir"
        path.write_text(text)
        paths.append(path)
    return paths


def classify(proc):
    if proc.returncode < 0 or "Stack dump" in proc.stderr or \
            "PLEASE submit" in proc.stderr:
        return "crashed"
    if proc.returncode == 0:
        return "ok"
    if re.search(r":\d+:\d+: error: ", proc.stderr):
        return "clean"
    return "wrong"


def run_xpu_opt(build, paths, counts):
    for path in paths:
        counts["tried"] += 1
        try:
            proc = subprocess.run(
                [str(build / "bin" / "xpu-opt"), str(path), LOWERING,
                 "-o", "/dev/null"],
                capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            counts["hung"] += 1
            continue
        kind = classify(proc)
        counts[kind] += 1
        if kind in ("crashed", "wrong"):
            print(kind.upper(), "xpu-opt", path, proc.stderr[-400:],
                  file=sys.stderr)


def run_python(build, paths, counts):
    """One child for many inputs; a crash costs the input that was being
    compiled, and the child is started again for the rest."""
    pending = list(paths)
    while pending:
        proc = subprocess.run(
            [sys.executable, "-c", CHILD], input="\n".join(map(str, pending)),
            capture_output=True, text=True, timeout=3600,
            env=env_for(build))
        lines = proc.stdout.splitlines()
        done = 0
        for start, status in zip(lines[::2], lines[1::2]):
            counts["tried"] += 1
            counts[{"OK": "ok", "CLEAN": "clean"}.get(status, "wrong")] += 1
            done += 1
        pending = pending[done:]
        if pending and proc.returncode != 0:
            counts["tried"] += 1
            counts["crashed"] += 1
            print("CRASHED python", pending[0], proc.returncode,
                  proc.stderr[-400:], file=sys.stderr)
            pending = pending[1:]
        elif pending:
            break


def sweep(build: Path, count: int, rng: random.Random, work: Path) -> dict:
    """`count` inputs, each through xpu-opt and the Python binding."""
    paths = make_inputs(count, rng, work)
    counts = new_counts()
    run_xpu_opt(build, paths, counts)
    run_python(build, paths, counts)
    return counts


if __name__ == "__main__":
    import sweep as driver
    driver.run_alone(sys.modules[__name__], 160)
