#!/usr/bin/env python3
"""Writes the LLVM IR test kernels (see README.md).

accumulate_<N>: N live <8 x float> accumulators updated in a loop. Each
accumulator costs 8 floats per lane, so N sets the register pressure; an
optional sub-group size makes the kernel require that SIMD width.
private_array: a per-work-item float array indexed by data, which IGC keeps
in private (scratch) memory without spilling.
scratch_<N>_<SIZE>: both at once (N accumulators, a SIZE-float array): the
array fills the per-thread scratch and the spills push it over the limit.
"""
import re
import sys

HEADER = """target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)
"""


def accumulate(name, n, subgroup_size=0):
    out = [HEADER]
    # A required sub-group size becomes OpExecutionMode SubgroupSize.
    required = " !intel_reqd_sub_group_size !0" if subgroup_size else ""
    out.append(f"define spir_kernel void @{name}(ptr addrspace(1) %acc, "
               f"ptr addrspace(1) %x, i32 %iters){required} {{")
    out.append("entry:")
    out.append("  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)")
    out.append(f"  %base = mul i64 %gid, {n}")
    for i in range(n):
        out.append(f"  %ai{i} = add i64 %base, {i}")
        out.append(f"  %pi{i} = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai{i}")
        out.append(f"  %init{i} = load <8 x float>, ptr addrspace(1) %pi{i}, align 32")
    out.append("  br label %loop")
    out.append("loop:")
    out.append("  %iv = phi i32 [ 0, %entry ], [ %iv.next, %loop ]")
    for i in range(n):
        out.append(f"  %a{i} = phi <8 x float> [ %init{i}, %entry ], [ %n{i}, %loop ]")
    out.append("  %iv64 = zext i32 %iv to i64")
    out.append(f"  %xrow = mul i64 %iv64, {n}")
    for i in range(n):
        # A distinct load per accumulator keeps every update independent.
        out.append(f"  %xi{i} = add i64 %xrow, {i}")
        out.append(f"  %px{i} = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi{i}")
        out.append(f"  %x{i} = load <8 x float>, ptr addrspace(1) %px{i}, align 32")
        out.append(f"  %m{i} = fmul <8 x float> %a{i}, %x{i}")
        out.append(f"  %n{i} = fadd <8 x float> %m{i}, %a{(i + 1) % n}")
    out.append("  %iv.next = add i32 %iv, 1")
    out.append("  %done = icmp sge i32 %iv.next, %iters")
    out.append("  br i1 %done, label %exit, label %loop")
    out.append("exit:")
    for i in range(n):
        out.append(f"  store <8 x float> %n{i}, ptr addrspace(1) %pi{i}, align 32")
    out.append("  ret void")
    out.append("}")
    if subgroup_size:
        out.append(f"!0 = !{{i32 {subgroup_size}}}")
    return "\n".join(out) + "\n"


def private_array(name, size):
    # Data-dependent stores and loads keep the array out of registers.
    return HEADER + f"""
define spir_kernel void @{name}(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %idx) {{
entry:
  %arr = alloca [{size} x float], align 4
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pidx = getelementptr i32, ptr addrspace(1) %idx, i64 %gid
  %k = load i32, ptr addrspace(1) %pidx, align 4
  br label %fill
fill:
  %i = phi i32 [ 0, %entry ], [ %i.next, %fill ]
  %i64 = zext i32 %i to i64
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %i64
  %v.in = load float, ptr addrspace(1) %pin, align 4
  %j = xor i32 %i, %k
  %jm = and i32 %j, {size - 1}
  %j64 = zext i32 %jm to i64
  %pf = getelementptr [{size} x float], ptr %arr, i64 0, i64 %j64
  store float %v.in, ptr %pf, align 4
  %i.next = add i32 %i, 1
  %fdone = icmp eq i32 %i.next, {size}
  br i1 %fdone, label %read, label %fill
read:
  %k2 = mul i32 %k, 7
  %km = and i32 %k2, {size - 1}
  %k64 = zext i32 %km to i64
  %pr = getelementptr [{size} x float], ptr %arr, i64 0, i64 %k64
  %v = load float, ptr %pr, align 4
  %po = getelementptr float, ptr addrspace(1) %out, i64 %gid
  store float %v, ptr addrspace(1) %po, align 4
  ret void
}}
"""


def scratch(name, n, size):
    """accumulate() with a private array filled before the loop, read after."""
    text = accumulate(name, n)
    signature = (f"define spir_kernel void @{name}(ptr addrspace(1) %acc, "
                 "ptr addrspace(1) %x, i32 %iters) {\nentry:\n")
    prologue = f"""define spir_kernel void @{name}(ptr addrspace(1) %acc, ptr addrspace(1) %x, i32 %iters, ptr addrspace(1) %idx) {{
entry:
  %arr = alloca [{size} x float], align 4
  %gid0 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pidx = getelementptr i32, ptr addrspace(1) %idx, i64 %gid0
  %k = load i32, ptr addrspace(1) %pidx, align 4
  br label %fill
fill:
  %fi = phi i32 [ 0, %entry ], [ %fi.next, %fill ]
  %fi64 = zext i32 %fi to i64
  %pin = getelementptr float, ptr addrspace(1) %x, i64 %fi64
  %v.in = load float, ptr addrspace(1) %pin, align 4
  %j = xor i32 %fi, %k
  %jm = and i32 %j, {size - 1}
  %j64 = zext i32 %jm to i64
  %pf = getelementptr [{size} x float], ptr %arr, i64 0, i64 %j64
  store float %v.in, ptr %pf, align 4
  %fi.next = add i32 %fi, 1
  %fdone = icmp eq i32 %fi.next, {size}
  br i1 %fdone, label %start, label %fill
start:
"""
    epilogue = f"""exit:
  %k2 = mul i32 %k, 7
  %km = and i32 %k2, {size - 1}
  %k64 = zext i32 %km to i64
  %pr = getelementptr [{size} x float], ptr %arr, i64 0, i64 %k64
  %pv = load float, ptr %pr, align 4
  store float %pv, ptr addrspace(1) %idx, align 4
"""
    text = text.replace(signature, prologue).replace("exit:\n", epilogue)
    # The loop's entry edge now comes from %start.
    text = text.replace("%iv = phi i32 [ 0, %entry ]", "%iv = phi i32 [ 0, %start ]")
    return re.sub(r"\[ (%init\d+), %entry \]", r"[ \1, %start ]", text)


if __name__ == "__main__":
    kind, name, arg = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if kind == "accumulate":
        subgroup_size = int(sys.argv[4]) if len(sys.argv) > 4 else 0
        sys.stdout.write(accumulate(name, arg, subgroup_size))
    elif kind == "scratch":
        sys.stdout.write(scratch(name, arg, int(sys.argv[4])))
    else:
        sys.stdout.write(private_array(name, arg))
