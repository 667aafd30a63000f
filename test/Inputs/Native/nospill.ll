target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)

define spir_kernel void @nospill(ptr addrspace(1) %acc, ptr addrspace(1) %x, i32 %iters) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %base = mul i64 %gid, 4
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
  br label %loop
loop:
  %iv = phi i32 [ 0, %entry ], [ %iv.next, %loop ]
  %a0 = phi <8 x float> [ %init0, %entry ], [ %n0, %loop ]
  %a1 = phi <8 x float> [ %init1, %entry ], [ %n1, %loop ]
  %a2 = phi <8 x float> [ %init2, %entry ], [ %n2, %loop ]
  %a3 = phi <8 x float> [ %init3, %entry ], [ %n3, %loop ]
  %iv64 = zext i32 %iv to i64
  %xrow = mul i64 %iv64, 4
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
  %n3 = fadd <8 x float> %m3, %a0
  %iv.next = add i32 %iv, 1
  %done = icmp sge i32 %iv.next, %iters
  br i1 %done, label %exit, label %loop
exit:
  store <8 x float> %n0, ptr addrspace(1) %pi0, align 32
  store <8 x float> %n1, ptr addrspace(1) %pi1, align 32
  store <8 x float> %n2, ptr addrspace(1) %pi2, align 32
  store <8 x float> %n3, ptr addrspace(1) %pi3, align 32
  ret void
}
