#!/usr/bin/env python3
"""Writes spill.ll: a kernel with N live <8 x float> accumulators in a loop,
enough register pressure to make IGC spill in 128-GRF mode."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 24
L = []
w = L.append
w('target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"')
w('target triple = "spirv64-unknown-unknown"')
w('')
w('declare spir_func i64 @_Z13get_global_idj(i32)')
w('')
w('define spir_kernel void @spill(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %iters) {')
w('entry:')
w('  %id = call spir_func i64 @_Z13get_global_idj(i32 0)')
w('  br label %loop')
w('loop:')
w('  %i = phi i32 [ 0, %entry ], [ %inext, %loop ]')
for k in range(n):
    w(f'  %acc{k} = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc{k}, %loop ]')
w('  %i64 = zext i32 %i to i64')
w('  %base = add i64 %i64, %id')
for k in range(n):
    w(f'  %off{k} = add i64 %base, {k * 8}')
    w(f'  %p{k} = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off{k}')
    w(f'  %v{k} = load <8 x float>, ptr addrspace(1) %p{k}, align 32')
for k in range(n):
    w(f'  %m{k} = fmul <8 x float> %v{k}, %v{(k + 1) % n}')
    w(f'  %nacc{k} = fadd <8 x float> %acc{k}, %m{k}')
w('  %inext = add i32 %i, 1')
w('  %done = icmp sge i32 %inext, %iters')
w('  br i1 %done, label %exit, label %loop')
w('exit:')
for k in range(n):
    w(f'  %o{k} = add i64 %id, {k}')
    w(f'  %q{k} = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o{k}')
    w(f'  store <8 x float> %nacc{k}, ptr addrspace(1) %q{k}, align 32')
w('  ret void')
w('}')
print('\n'.join(L))
