#!/usr/bin/env python3
"""Generates the second GRF-decision family: OpenCL C kernels compiled to
SPIR-V by clang's SPIR-V backend, built differently from gen_family.py's
MLIR kernels (no MLIR lowering, no sub-group size, IGC's own SIMD choice).

The search in docs/NativeCodegen.md was designed on gen_family.py; this
family checks its rules on kernels it was not tuned on:

* `gemm`: register-tiled GEMM in CLBlast's xgemm shape, each work-item an
  M x N tile of accumulators walking K in steps of KWI: f32, f16 (half
  accumulators) and bf16 (16-bit storage widened to f32 by a shift, as
  bf16 kernels load it);
* `reduce`: each work-item sums rows into V accumulators, then a
  work-group tree reduction through local memory (f32 and f16).

Each kernel is its own SPIR-V module (build flags apply per module).

Usage: gen_cl_family.py OUTDIR [--llvm DIR] [--only NAME,...]
Writes OUTDIR/<name>.spv and OUTDIR/family.json ([{name, shape, type,
params}]).
"""
import argparse
import json
import os
import subprocess
import sys

GEMM = {
    "f32": [(4, 4, 1), (4, 8, 1), (8, 4, 2), (6, 6, 1), (8, 8, 1), (8, 8, 2),
            (4, 16, 1), (16, 4, 1), (10, 10, 1), (12, 8, 1), (8, 12, 2),
            (12, 12, 1), (16, 8, 1), (16, 16, 1)],
    "f16": [(8, 8, 1), (8, 16, 1), (16, 8, 2), (12, 12, 1), (16, 16, 1),
            (16, 16, 2), (24, 16, 1), (24, 24, 1)],
    "bf16": [(4, 8, 1), (8, 8, 1), (8, 8, 2), (12, 8, 1), (12, 12, 1),
             (16, 8, 1), (16, 12, 1), (16, 16, 1)],
}
REDUCE = {
    "f32": [4, 8, 16, 24, 32, 48, 64, 96],
    "f16": [8, 16, 32, 48, 64, 96],
}
# Storage and accumulator types, and how a loaded element is widened.
TYPES = {
    "f32": ("float", "float", "{}"),
    "f16": ("half", "half", "{}"),
    "bf16": ("ushort", "float", "as_float(((uint){}) << 16)"),
}


def gemm(name, elem, m, n, kwi):
    store, acc, widen = TYPES[elem]
    out = "half" if elem == "f16" else "float"
    lines = [f"__kernel void {name}(int M, int N, int K, __global const "
             f"{store} *A,", f"    __global const {store} *B, __global "
             f"{out} *C) {{",
             "  int gm = get_global_id(0);", "  int gn = get_global_id(1);"]
    lines += [f"  {acc} c{i}_{j} = 0;" for i in range(m) for j in range(n)]
    lines.append(f"  for (int k = 0; k < K; k += {kwi}) {{")
    for kk in range(kwi):
        lines += [f"    {acc} a{i}_{kk} = " +
                  widen.format(f"A[(gm * {m} + {i}) * K + k + {kk}]") + ";"
                  for i in range(m)]
        lines += [f"    {acc} b{j}_{kk} = " +
                  widen.format(f"B[(k + {kk}) * N + gn * {n} + {j}]") + ";"
                  for j in range(n)]
        lines += [f"    c{i}_{j} = mad(a{i}_{kk}, b{j}_{kk}, c{i}_{j});"
                  for i in range(m) for j in range(n)]
    lines.append("  }")
    lines += [f"  C[(gm * {m} + {i}) * N + gn * {n} + {j}] = c{i}_{j};"
              for i in range(m) for j in range(n)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def reduce(name, elem, v):
    store, acc, _ = TYPES[elem]
    lines = [f"__kernel void {name}(int rows, __global const {store} *in,",
             f"    __global {acc} *out, __local {acc} *scratch) {{",
             "  int lid = get_local_id(0);",
             "  int lsz = get_local_size(0);",
             "  int base = get_group_id(0) * lsz * " + str(v) + " + lid;"]
    lines += [f"  {acc} s{i} = 0;" for i in range(v)]
    lines.append("  for (int r = 0; r < rows; ++r) {")
    lines += [f"    s{i} += in[r * get_global_size(0) * {v} + base + "
              f"{i} * lsz];" for i in range(v)]
    lines.append("  }")
    # Pairwise, so the accumulators stay live until the end of the loop.
    live = [f"s{i}" for i in range(v)]
    while len(live) > 1:
        nxt = []
        for a, b in zip(live[::2], live[1::2]):
            lines.append(f"  {a} += {b};")
            nxt.append(a)
        if len(live) % 2:
            nxt.append(live[-1])
        live = nxt
    lines += ["  scratch[lid] = s0;", "  barrier(CLK_LOCAL_MEM_FENCE);",
              "  for (int step = lsz / 2; step > 0; step /= 2) {",
              "    if (lid < step)",
              "      scratch[lid] += scratch[lid + step];",
              "    barrier(CLK_LOCAL_MEM_FENCE);", "  }",
              "  if (lid == 0)", "    out[get_group_id(0)] = scratch[0];",
              "}"]
    return "\n".join(lines) + "\n"


def family():
    """[(name, shape, type, params, source)]."""
    kernels = []
    for elem, tiles in GEMM.items():
        for m, n, kwi in tiles:
            name = f"gemm_{elem}_{m}x{n}_k{kwi}"
            kernels.append((name, "gemm", elem, [m, n, kwi],
                            gemm(name, elem, m, n, kwi)))
    for elem, counts in REDUCE.items():
        for v in counts:
            name = f"reduce_{elem}_v{v}"
            kernels.append((name, "reduce", elem, [v], reduce(name, elem, v)))
    return kernels


def to_spirv(llvm, source, name, outdir):
    cl = os.path.join(outdir, name + ".cl")
    ll = os.path.join(outdir, name + ".ll")
    spv = os.path.join(outdir, name + ".spv")
    with open(cl, "w") as f:
        f.write("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" + source)
    subprocess.run([os.path.join(llvm, "clang"), "-cl-std=CL2.0", "-target",
                    "spir64", "-O2", "-emit-llvm", "-S", "-Xclang",
                    "-finclude-default-header", cl, "-o", ll], check=True)
    subprocess.run([os.path.join(llvm, "llc"),
                    "-mtriple=spirv64-unknown-unknown", "-filetype=obj", ll,
                    "-o", spv], check=True)
    return spv


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--llvm", default="/usr/lib/llvm-22/bin")
    parser.add_argument("--only", default="",
                        help="comma-separated kernel names")
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    manifest = []
    for name, shape, elem, params, source in family():
        if only and name not in only:
            continue
        to_spirv(args.llvm, source, name, args.outdir)
        manifest.append({"name": name, "shape": shape, "type": elem,
                         "params": params})
    with open(os.path.join(args.outdir, "family.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(manifest)} kernels in {args.outdir}", file=sys.stderr)


if __name__ == "__main__":
    main()
