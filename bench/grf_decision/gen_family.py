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
import json
import sys

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


def body_update(n, vec, elem, acc, indent, load_base):
    """Lines updating accumulators `acc[i]` in place; returns (lines, results)."""
    out = []
    out.append(f"{indent}%x = vector.load %in[{load_base}] : memref<?x{elem}>, {vec}")
    res = []
    for i in range(n):
        out += [
            f"{indent}%k{i} = arith.constant {float(i + 1)} : {elem}",
            f"{indent}%s{i} = vector.broadcast %k{i} : {elem} to {vec}",
            f"{indent}%m{i} = arith.mulf %x, %s{i} : {vec}",
            f"{indent}%n{i} = arith.addf {acc[i]}, %m{i} : {vec}",
            f"{indent}%q{i} = math.sqrt %n{i} : {vec}",
        ]
        res.append(f"%q{i}")
    return out, res


def kernel(shape, n, width, elem, name):
    vec = f"vector<{width}x{elem}>"
    types = ", ".join(vec for _ in range(n))
    out = [
        f"    gpu.func @{name}(%in: memref<?x{elem}>, %out: memref<?x{elem}>, %iters: index) kernel {{",
        "      %c0 = arith.constant 0 : index",
        "      %c1 = arith.constant 1 : index",
        f"      %cw = arith.constant {width} : index",
        f"      %zero = arith.constant 0.0 : {elem}",
        f"      %z = vector.broadcast %zero : {elem} to {vec}",
        "      %tid = gpu.global_id x",
        "      %base = arith.muli %tid, %cw : index",
    ]
    inits = ", ".join(f"%a{i} = %z" for i in range(n))
    if shape == "loop":
        out.append(f"      %r:{n} = scf.for %it = %c0 to %iters step %c1 iter_args({inits}) -> ({types}) {{")
        out.append("        %off = arith.addi %base, %it : index")
        lines, res = body_update(n, vec, elem, [f"%a{i}" for i in range(n)], "        ", "%off")
        out += lines
        out.append(f"        scf.yield {', '.join(res)} : {types}")
        out.append("      }")
    elif shape == "nested":
        out.append(f"      %r:{n} = scf.for %it = %c0 to %iters step %c1 iter_args({inits}) -> ({types}) {{")
        inner = ", ".join(f"%b{i} = %a{i}" for i in range(n))
        out.append(f"        %t:{n} = scf.for %jt = %c0 to %iters step %c1 iter_args({inner}) -> ({types}) {{")
        out.append("          %o1 = arith.addi %base, %it : index")
        out.append("          %off = arith.addi %o1, %jt : index")
        lines, res = body_update(n, vec, elem, [f"%b{i}" for i in range(n)], "          ", "%off")
        out += lines
        out.append(f"          scf.yield {', '.join(res)} : {types}")
        out.append("        }")
        out.append(f"        scf.yield {', '.join(f'%t#{i}' for i in range(n))} : {types}")
        out.append("      }")
    elif shape == "loads":
        out.append(f"      %r:{n} = scf.for %it = %c0 to %iters step %c1 iter_args({inits}) -> ({types}) {{")
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
        out.append("      }")
    else:
        raise ValueError(shape)
    for i in range(n):
        out += [
            f"      %o{i} = arith.constant {i * width} : index",
            f"      %p{i} = arith.addi %base, %o{i} : index",
            f"      vector.store %r#{i}, %out[%p{i}] : memref<?x{elem}>, {vec}",
        ]
    out.append("      gpu.return")
    out.append("    }")
    return "\n".join(out)


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
