#!/usr/bin/env python3
"""Generates the GRF-decision benchmark family: kernels spanning register
pressure.

Each kernel keeps N vector accumulators live across a loop; the family varies
N, the vector width, the element type (f32/f16) and the loop shape:

* `loop`:   one scf.for carrying the N accumulators (iter_args);
* `nested`: an outer scf.for whose body runs an inner scf.for, both carrying
            the accumulators;
* `loads`:  one scf.for whose body first loads N vectors and then updates the
            accumulators, so 2N vectors are live in the middle of the body.

Every kernel is its own gpu.module (build flags apply per module), so one
`xpu-opt` run compiles and reports the whole family. Writes the MLIR to
stdout, or to --output, and the parameters of every kernel to --manifest.

Usage: gen_family.py [--output family.mlir] [--manifest family.json]
"""
import argparse
import importlib.util
import json
import os
import sys

# The `loop` shape is examples/gen_accumulate.py's kernel; the other shapes
# share its prologue and epilogue.
_spec = importlib.util.spec_from_file_location(
    "gen_accumulate",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                 "examples", "gen_accumulate.py"))
gen_accumulate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_accumulate)

# (shape, type, width, [N...])
FAMILY = [
    ("loop", "f32", 8, [2, 4, 6, 7, 8, 9, 10, 12, 16, 24, 32]),
    ("loop", "f32", 4, [4, 8, 12, 16, 20, 24]),
    ("loop", "f32", 16, [2, 3, 4, 5, 6, 8, 12]),
    ("loop", "f16", 8, [4, 8, 12, 16, 20, 24, 32]),
    ("loop", "f16", 16, [4, 6, 8, 10, 12, 16]),
    ("nested", "f32", 8, [4, 6, 8, 10, 12, 16]),
    ("loads", "f32", 8, [2, 3, 4, 5, 6, 8, 12]),
]


def kernel(shape, n, width, elem, name):
    if shape == "loop":
        return gen_accumulate.kernel(n, width, elem, name)
    vec = f"vector<{width}x{elem}>"
    types = ", ".join(vec for _ in range(n))
    inits = ", ".join(f"%a{i} = %z" for i in range(n))
    out = gen_accumulate.prologue(n, width, elem, name)
    out.append(f"      %r:{n} = scf.for %it = %c0 to %iters step %c1 iter_args({inits}) -> ({types}) {{")
    if shape == "nested":
        inner = ", ".join(f"%b{i} = %a{i}" for i in range(n))
        out.append(f"        %t:{n} = scf.for %jt = %c0 to %iters step %c1 iter_args({inner}) -> ({types}) {{")
        out.append("          %o1 = arith.addi %base, %it : index")
        out.append("          %off = arith.addi %o1, %jt : index")
        out += gen_accumulate.update(n, width, elem, "%b", "          ")
        out.append(f"          scf.yield {', '.join(f'%q{i}' for i in range(n))} : {types}")
        out.append("        }")
        out.append(f"        scf.yield {', '.join(f'%t#{i}' for i in range(n))} : {types}")
    elif shape == "loads":
        out.append("        %off = arith.addi %base, %it : index")
        for i in range(n):
            out += [
                f"        %d{i} = arith.constant {i * width} : index",
                f"        %e{i} = arith.addi %off, %d{i} : index",
                f"        %x{i} = vector.load %in[%e{i}] : memref<?x{elem}>, {vec}",
            ]
        for i in range(n):
            out += [
                f"        %m{i} = arith.mulf %x{i}, %a{i} : {vec}",
                f"        %n{i} = arith.addf %m{i}, %x{(i + 1) % n} : {vec}",
                f"        %q{i} = math.sqrt %n{i} : {vec}",
            ]
        out.append(f"        scf.yield {', '.join(f'%q{i}' for i in range(n))} : {types}")
    else:
        raise ValueError(shape)
    out.append("      }")
    return "\n".join(out + gen_accumulate.epilogue(n, width, elem))


def family():
    for shape, elem, width, ns in FAMILY:
        for n in ns:
            yield {"name": f"{shape}_{elem}_w{width}_n{n}", "shape": shape,
                   "type": elem, "width": width, "n": n}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output", default=None)
    parser.add_argument("--manifest", default=None)
    parser.add_argument("--split-dir", default=None,
                        help="also write one file per kernel, NAME.mlir")
    args = parser.parse_args()
    lines = ["module attributes {gpu.container_module} {"]
    entries = list(family())
    for e in entries:
        lines.append(f"  gpu.module @{e['name']} {{")
        lines.append(kernel(e["shape"], e["n"], e["width"], e["type"], "k"))
        lines.append("  }")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.split_dir:
        for e in entries:
            with open(f"{args.split_dir}/{e['name']}.mlir", "w") as f:
                f.write("module attributes {gpu.container_module} {\n"
                        f"  gpu.module @{e['name']} {{\n"
                        + kernel(e["shape"], e["n"], e["width"], e["type"], "k")
                        + "\n  }\n}\n")
    if args.manifest:
        with open(args.manifest, "w") as f:
            json.dump(entries, f, indent=1)


if __name__ == "__main__":
    main()
