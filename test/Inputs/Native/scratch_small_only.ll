target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)

define spir_kernel void @scratch_small_only(ptr addrspace(1) %acc, ptr addrspace(1) %x, i32 %iters, ptr addrspace(1) %idx) {
entry:
  %arr = alloca [2048 x float], align 4
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
  %jm = and i32 %j, 2047
  %j64 = zext i32 %jm to i64
  %pf = getelementptr [2048 x float], ptr %arr, i64 0, i64 %j64
  store float %v.in, ptr %pf, align 4
  %fi.next = add i32 %fi, 1
  %fdone = icmp eq i32 %fi.next, 2048
  br i1 %fdone, label %start, label %fill
start:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = mul i64 %gid, 8
  %ai0 = add i64 %base, 0
  %pi0 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai0
  %init0 = load <8 x float>, ptr addrspace(1) %pi0, align 32
  %ai1 = add i64 %base, 1
  %pi1 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai1
  %init1 = load <8 x float>, ptr addrspace(1) %pi1, align 32
  %ai2 = add i64 %base, 2
  %pi2 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai2
  %init2 = load <8 x float>, ptr addrspace(1) %pi2, align 32
  %ai3 = add i64 %base, 3
  %pi3 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai3
  %init3 = load <8 x float>, ptr addrspace(1) %pi3, align 32
  %ai4 = add i64 %base, 4
  %pi4 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai4
  %init4 = load <8 x float>, ptr addrspace(1) %pi4, align 32
  %ai5 = add i64 %base, 5
  %pi5 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai5
  %init5 = load <8 x float>, ptr addrspace(1) %pi5, align 32
  %ai6 = add i64 %base, 6
  %pi6 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai6
  %init6 = load <8 x float>, ptr addrspace(1) %pi6, align 32
  %ai7 = add i64 %base, 7
  %pi7 = getelementptr <8 x float>, ptr addrspace(1) %acc, i64 %ai7
  %init7 = load <8 x float>, ptr addrspace(1) %pi7, align 32
  br label %loop
loop:
  %iv = phi i32 [ 0, %start ], [ %iv.next, %loop ]
  %a0 = phi <8 x float> [ %init0, %start ], [ %n0, %loop ]
  %a1 = phi <8 x float> [ %init1, %start ], [ %n1, %loop ]
  %a2 = phi <8 x float> [ %init2, %start ], [ %n2, %loop ]
  %a3 = phi <8 x float> [ %init3, %start ], [ %n3, %loop ]
  %a4 = phi <8 x float> [ %init4, %start ], [ %n4, %loop ]
  %a5 = phi <8 x float> [ %init5, %start ], [ %n5, %loop ]
  %a6 = phi <8 x float> [ %init6, %start ], [ %n6, %loop ]
  %a7 = phi <8 x float> [ %init7, %start ], [ %n7, %loop ]
  %iv64 = zext i32 %iv to i64
  %xrow = mul i64 %iv64, 8
  %xi0 = add i64 %xrow, 0
  %px0 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi0
  %x0 = load <8 x float>, ptr addrspace(1) %px0, align 32
  %m0 = fmul <8 x float> %a0, %x0
  %n0 = fadd <8 x float> %m0, %a1
  %xi1 = add i64 %xrow, 1
  %px1 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi1
  %x1 = load <8 x float>, ptr addrspace(1) %px1, align 32
  %m1 = fmul <8 x float> %a1, %x1
  %n1 = fadd <8 x float> %m1, %a2
  %xi2 = add i64 %xrow, 2
  %px2 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi2
  %x2 = load <8 x float>, ptr addrspace(1) %px2, align 32
  %m2 = fmul <8 x float> %a2, %x2
  %n2 = fadd <8 x float> %m2, %a3
  %xi3 = add i64 %xrow, 3
  %px3 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi3
  %x3 = load <8 x float>, ptr addrspace(1) %px3, align 32
  %m3 = fmul <8 x float> %a3, %x3
  %n3 = fadd <8 x float> %m3, %a4
  %xi4 = add i64 %xrow, 4
  %px4 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi4
  %x4 = load <8 x float>, ptr addrspace(1) %px4, align 32
  %m4 = fmul <8 x float> %a4, %x4
  %n4 = fadd <8 x float> %m4, %a5
  %xi5 = add i64 %xrow, 5
  %px5 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi5
  %x5 = load <8 x float>, ptr addrspace(1) %px5, align 32
  %m5 = fmul <8 x float> %a5, %x5
  %n5 = fadd <8 x float> %m5, %a6
  %xi6 = add i64 %xrow, 6
  %px6 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi6
  %x6 = load <8 x float>, ptr addrspace(1) %px6, align 32
  %m6 = fmul <8 x float> %a6, %x6
  %n6 = fadd <8 x float> %m6, %a7
  %xi7 = add i64 %xrow, 7
  %px7 = getelementptr <8 x float>, ptr addrspace(1) %x, i64 %xi7
  %x7 = load <8 x float>, ptr addrspace(1) %px7, align 32
  %m7 = fmul <8 x float> %a7, %x7
  %n7 = fadd <8 x float> %m7, %a0
  %iv.next = add i32 %iv, 1
  %done = icmp sge i32 %iv.next, %iters
  br i1 %done, label %exit, label %loop
exit:
  %k2 = mul i32 %k, 7
  %km = and i32 %k2, 2047
  %k64 = zext i32 %km to i64
  %pr = getelementptr [2048 x float], ptr %arr, i64 0, i64 %k64
  %pv = load float, ptr %pr, align 4
  store float %pv, ptr addrspace(1) %idx, align 4
  store <8 x float> %n0, ptr addrspace(1) %pi0, align 32
  store <8 x float> %n1, ptr addrspace(1) %pi1, align 32
  store <8 x float> %n2, ptr addrspace(1) %pi2, align 32
  store <8 x float> %n3, ptr addrspace(1) %pi3, align 32
  store <8 x float> %n4, ptr addrspace(1) %pi4, align 32
  store <8 x float> %n5, ptr addrspace(1) %pi5, align 32
  store <8 x float> %n6, ptr addrspace(1) %pi6, align 32
  store <8 x float> %n7, ptr addrspace(1) %pi7, align 32
  ret void
}
