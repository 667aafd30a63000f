#!/usr/bin/env python3
"""Inputs of the whole-pipeline benchmark (bench/pipeline/bench.py).

An Inductor-like mix: one gpu.module per kernel, each with a host function
that launches it (gpu.launch_func), in the form both xpu-codegen-pipeline
and upstream's gpu-lower-to-xevm-pipeline take:

* pointwise kernels: 8 expressions (add, fused multiply-add, relu, gelu,
  softmax-style exp, sigmoid, rsqrt scaling, clamp) x f32/f16 x scalar,
  vector<4>, vector<8> per work-item;
* loop reductions: a row loop accumulating a vector, reduced at the end
  (sum, max, sum of squares, dot) x f32/f16;
* register-heavy kernels: examples/gen_accumulate.py's live accumulators
  (from fitting small GRF to spilling in both modes).

And an IREE-like renamed set: copies of some of those kernels that differ
only in symbol names (module, kernel, host function); and a distinct set:
that many pointwise modules, no two alike (each offsets its index by its
own number), for programs where nothing folds.

Usage: gen_inputs.py mix [--pointwise 48 --reductions 8 --heavy 8]
       gen_inputs.py renamed --modules 1000 --unique 50
       gen_inputs.py distinct --modules 1000
Prints the MLIR; `--list` prints one line per module instead.
"""
import argparse
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

_spec = importlib.util.spec_from_file_location(
    "gen_accumulate", os.path.join(ROOT, "examples", "gen_accumulate.py"))
gen_accumulate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_accumulate)

# name -> (number of inputs, body); the body maps SSA names of the loaded
# inputs (%x0, %x1, ...) and a splat helper to lines computing %y.
POINTWISE = ["add", "fma", "relu", "gelu", "expdiff", "sigmoid", "rsqrt",
             "clamp"]
ELEM_TYPES = ["f32", "f16"]
WIDTHS = [1, 4, 8]
REDUCTIONS = ["sum", "max", "sumsq", "dot"]
# (accumulators, vector width, element type) for the register-heavy kernels.
# On pvc at SIMD16 with IGC 1.0.12504: the first two fit small GRF; 16, 20
# and 24 x vector<8xf32> and 12 x vector<16xf16> spill in small GRF only;
# 32 x vector<8xf32> and 8 x vector<16xf16> spill in both modes.
HEAVY = [(8, 8, "f32"), (12, 8, "f32"), (16, 8, "f32"), (20, 8, "f32"),
         (24, 8, "f32"), (32, 8, "f32"), (8, 16, "f16"), (12, 16, "f16")]


def ty(width, elem):
    return elem if width == 1 else f"vector<{width}x{elem}>"


def const(value, width, elem, name):
    if width == 1:
        return f"      %{name} = arith.constant {value} : {elem}"
    return (f"      %{name} = arith.constant dense<{value}> : "
            f"vector<{width}x{elem}>")


def pointwise_body(op, width, elem):
    t = ty(width, elem)
    c = lambda v, n: const(v, width, elem, n)
    if op == "add":
        return 2, ["      %y = arith.addf %x0, %x1 : " + t]
    if op == "fma":
        return 3, [f"      %y = math.fma %x0, %x1, %x2 : {t}"]
    if op == "relu":
        return 1, [c("0.0", "zero"),
                   f"      %y = arith.maximumf %x0, %zero : {t}"]
    if op == "gelu":
        return 1, [c("0.5", "half"), c("1.0", "one"), c("0.7978845", "k"),
                   f"      %a = arith.mulf %x0, %k : {t}",
                   f"      %th = math.tanh %a : {t}",
                   f"      %b = arith.addf %th, %one : {t}",
                   f"      %h = arith.mulf %x0, %half : {t}",
                   f"      %y = arith.mulf %h, %b : {t}"]
    if op == "expdiff":
        return 2, [f"      %d = arith.subf %x0, %x1 : {t}",
                   f"      %y = math.exp %d : {t}"]
    if op == "sigmoid":
        return 1, [c("1.0", "one"),
                   f"      %n = arith.negf %x0 : {t}",
                   f"      %e = math.exp %n : {t}",
                   f"      %d = arith.addf %e, %one : {t}",
                   f"      %y = arith.divf %one, %d : {t}"]
    if op == "rsqrt":
        return 2, [c("1.0e-05", "eps"),
                   f"      %v = arith.addf %x1, %eps : {t}",
                   f"      %r = math.rsqrt %v : {t}",
                   f"      %y = arith.mulf %x0, %r : {t}"]
    if op == "clamp":
        return 1, [c("2.0", "k"), c("-1.0", "lo"), c("1.0", "hi"),
                   f"      %s = arith.mulf %x0, %k : {t}",
                   f"      %m = arith.maximumf %s, %lo : {t}",
                   f"      %y = arith.minimumf %m, %hi : {t}"]
    raise ValueError(op)


def load(width, elem, src, idx, dst):
    if width == 1:
        return f"      %{dst} = memref.load %{src}[%{idx}] : memref<?x{elem}>"
    return (f"      %{dst} = vector.load %{src}[%{idx}] : memref<?x{elem}>, "
            f"vector<{width}x{elem}>")


def store(width, elem, val, dst, idx):
    if width == 1:
        return f"      memref.store %{val}, %{dst}[%{idx}] : memref<?x{elem}>"
    return (f"      vector.store %{val}, %{dst}[%{idx}] : memref<?x{elem}>, "
            f"vector<{width}x{elem}>")


def pointwise_kernel(op, width, elem, name):
    n, body = pointwise_body(op, width, elem)
    args = ", ".join(f"%in{i}: memref<?x{elem}>" for i in range(n))
    lines = [f"    gpu.func @{name}({args}, %out: memref<?x{elem}>) kernel {{",
             "      %gid = gpu.global_id x"]
    if width == 1:
        idx = "gid"
    else:
        lines += [f"      %cw = arith.constant {width} : index",
                  "      %idx = arith.muli %gid, %cw : index"]
        idx = "idx"
    lines += [load(width, elem, f"in{i}", idx, f"x{i}") for i in range(n)]
    lines += body
    lines += [store(width, elem, "y", "out", idx), "      gpu.return", "    }"]
    return lines, ["memref<?x%s>" % elem] * (n + 1)


def reduction_kernel(op, elem, name, width=8):
    vec = f"vector<{width}x{elem}>"
    n_in = 2 if op == "dot" else 1
    init = {"sum": "0.0", "sumsq": "0.0", "dot": "0.0",
            "max": "-1.0e+04"}[op]
    kind = "maximumf" if op == "max" else "add"
    args = ", ".join(f"%in{i}: memref<?x{elem}>" for i in range(n_in))
    lines = [
        f"    gpu.func @{name}({args}, %out: memref<?x{elem}>, %cols: index) "
        "kernel {",
        "      %c0 = arith.constant 0 : index",
        f"      %cw = arith.constant {width} : index",
        "      %row = gpu.global_id x",
        "      %base = arith.muli %row, %cols : index",
        f"      %init = arith.constant dense<{init}> : {vec}",
        f"      %acc = scf.for %j = %c0 to %cols step %cw iter_args(%a = %init)"
        f" -> ({vec}) {{",
        "        %off = arith.addi %base, %j : index",
    ]
    for i in range(n_in):
        lines.append(f"        %x{i} = vector.load %in{i}[%off] : "
                     f"memref<?x{elem}>, {vec}")
    if op == "sum":
        lines.append(f"        %n = arith.addf %a, %x0 : {vec}")
    elif op == "max":
        lines.append(f"        %n = arith.maximumf %a, %x0 : {vec}")
    elif op == "sumsq":
        lines.append(f"        %n = math.fma %x0, %x0, %a : {vec}")
    else:
        lines.append(f"        %n = math.fma %x0, %x1, %a : {vec}")
    lines += [f"        scf.yield %n : {vec}", "      }",
              f"      %r = vector.reduction <{kind}>, %acc : {vec} into "
              f"{elem}",
              f"      memref.store %r, %out[%row] : memref<?x{elem}>",
              "      gpu.return", "    }"]
    return lines, [f"memref<?x{elem}>"] * (n_in + 1) + ["index"]


def heavy_kernel(n, width, elem, name):
    text = gen_accumulate.kernel(n, width, elem, name)
    return text.splitlines(), [f"memref<?x{elem}>"] * 2 + ["index"]


def mix(pointwise=48, reductions=8, heavy=8):
    """[(kind, description, kernel builder(name) -> (lines, arg types))]."""
    specs = []
    pw = [(op, w, e) for e in ELEM_TYPES for w in WIDTHS for op in POINTWISE]
    for op, w, e in pw[:pointwise]:
        specs.append(("pointwise", f"{op}_{e}_w{w}",
                      lambda name, op=op, w=w, e=e:
                      pointwise_kernel(op, w, e, name)))
    red = [(op, e) for e in ELEM_TYPES for op in REDUCTIONS]
    for op, e in red[:reductions]:
        specs.append(("reduction", f"{op}_{e}",
                      lambda name, op=op, e=e: reduction_kernel(op, e, name)))
    for n, w, e in HEAVY[:heavy]:
        specs.append(("heavy", f"acc{n}_{e}_w{w}",
                      lambda name, n=n, w=w, e=e:
                      heavy_kernel(n, w, e, name)))
    if len(specs) != pointwise + reductions + heavy:
        sys.exit(f"gen_inputs.py: at most {len(pw)} pointwise, {len(red)} "
                 f"reductions and {len(HEAVY)} heavy kernels")
    return specs


def module_text(module, kernel, host, lines, arg_types):
    """One gpu.module with one kernel, and a host function launching it."""
    params = ", ".join(f"%h{i}: {t}" for i, t in enumerate(arg_types))
    launch_args = ", ".join(f"%h{i} : {t}" for i, t in enumerate(arg_types))
    out = [f"  gpu.module @{module} {{"] + lines + ["  }"]
    out += [
        f"  func.func @{host}({params}, %blocks: index) {{",
        "    %c1 = arith.constant 1 : index",
        "    %c128 = arith.constant 128 : index",
        f"    gpu.launch_func @{module}::@{kernel} blocks in (%blocks, %c1, "
        f"%c1) threads in (%c128, %c1, %c1) args({launch_args})",
        "    return",
        "  }",
    ]
    return "\n".join(out)


def document(modules):
    return ("module attributes {gpu.container_module} {\n" +
            "\n".join(modules) + "\n}\n")


def mix_modules(specs):
    """(module name, kind, original name, text) for the mix, in order."""
    out = []
    for i, (kind, desc, build) in enumerate(specs):
        module = f"{kind}_{desc}"
        lines, types = build("kernel")
        out.append((module, kind, module,
                    module_text(module, "kernel", f"launch_{module}", lines,
                                types)))
    return out


def renamed_modules(specs, modules, unique, seed=1):
    """`modules` copies of `unique` kernels of the mix (the same share of
    each kind), each renamed: m<i> / k<i> / launch_m<i>, shuffled."""
    kinds = {}
    for s in specs:
        kinds.setdefault(s[0], []).append(s)
    # Take from each kind in proportion, at least one of each.
    total = len(specs)
    count = {k: max(1, round(unique * len(g) / total))
             for k, g in kinds.items()}
    while sum(count.values()) > unique:
        count[max(count, key=count.get)] -= 1
    while sum(count.values()) < unique:
        room = [k for k in count if count[k] < len(kinds[k])]
        if not room:
            sys.exit(f"gen_inputs.py: only {total} kernels, {unique} unique "
                     "wanted")
        count[max(room, key=lambda k: len(kinds[k]) - count[k])] += 1
    picked = [s for k, g in kinds.items() for s in g[:count[k]]]
    order = [picked[i % len(picked)] for i in range(modules)]
    random.Random(seed).shuffle(order)
    out = []
    for i, (kind, desc, build) in enumerate(order):
        lines, types = build(f"k{i}")
        out.append((f"m{i}", kind, f"{kind}_{desc}",
                    module_text(f"m{i}", f"k{i}", f"launch_m{i}", lines,
                                types)))
    return out


def distinct_modules(specs, modules):
    """`modules` pointwise modules that all differ: the mix's pointwise
    kernels in turn, the i-th reading its inputs i elements further on,
    so that no two are equal up to names (nothing folds) and each compiles
    as fast as its pointwise kernel."""
    pointwise = [s for s in specs if s[0] == "pointwise"]
    if not pointwise:
        sys.exit("gen_inputs.py: distinct needs pointwise kernels")
    out = []
    for i in range(modules):
        kind, desc, build = pointwise[i % len(pointwise)]
        lines, types = build(f"k{i}")
        # After `%gid = gpu.global_id x`: this module's own offset.
        at = next(j for j, line in enumerate(lines) if "gpu.global_id" in line)
        lines[at] = lines[at].replace("%gid =", "%gid0 =")
        lines[at + 1:at + 1] = [
            f"      %off = arith.constant {i} : index",
            "      %gid = arith.addi %gid0, %off : index"]
        out.append((f"m{i}", kind, f"{kind}_{desc}+{i}",
                    module_text(f"m{i}", f"k{i}", f"launch_m{i}", lines,
                                types)))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=["mix", "renamed", "distinct"])
    parser.add_argument("--pointwise", type=int, default=48)
    parser.add_argument("--reductions", type=int, default=8)
    parser.add_argument("--heavy", type=int, default=8)
    parser.add_argument("--modules", type=int, default=1000)
    parser.add_argument("--unique", type=int, default=50)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    specs = mix(args.pointwise, args.reductions, args.heavy)
    if args.set == "mix":
        mods = mix_modules(specs)
    elif args.set == "renamed":
        mods = renamed_modules(specs, args.modules, args.unique)
    else:
        mods = distinct_modules(specs, args.modules)
    if args.list:
        for name, kind, original, _ in mods:
            print(name, kind, original)
    else:
        sys.stdout.write(document([m[3] for m in mods]))


if __name__ == "__main__":
    main()
