target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)

define spir_kernel void @spill(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %iters) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inext, %loop ]
  %acc0 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc0, %loop ]
  %acc1 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc1, %loop ]
  %acc2 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc2, %loop ]
  %acc3 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc3, %loop ]
  %acc4 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc4, %loop ]
  %acc5 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc5, %loop ]
  %acc6 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc6, %loop ]
  %acc7 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc7, %loop ]
  %acc8 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc8, %loop ]
  %acc9 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc9, %loop ]
  %acc10 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc10, %loop ]
  %acc11 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc11, %loop ]
  %acc12 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc12, %loop ]
  %acc13 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc13, %loop ]
  %acc14 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc14, %loop ]
  %acc15 = phi <8 x float> [ zeroinitializer, %entry ], [ %nacc15, %loop ]
  %i64 = zext i32 %i to i64
  %base = add i64 %i64, %id
  %off0 = add i64 %base, 0
  %p0 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off0
  %v0 = load <8 x float>, ptr addrspace(1) %p0, align 32
  %off1 = add i64 %base, 8
  %p1 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off1
  %v1 = load <8 x float>, ptr addrspace(1) %p1, align 32
  %off2 = add i64 %base, 16
  %p2 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off2
  %v2 = load <8 x float>, ptr addrspace(1) %p2, align 32
  %off3 = add i64 %base, 24
  %p3 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off3
  %v3 = load <8 x float>, ptr addrspace(1) %p3, align 32
  %off4 = add i64 %base, 32
  %p4 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off4
  %v4 = load <8 x float>, ptr addrspace(1) %p4, align 32
  %off5 = add i64 %base, 40
  %p5 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off5
  %v5 = load <8 x float>, ptr addrspace(1) %p5, align 32
  %off6 = add i64 %base, 48
  %p6 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off6
  %v6 = load <8 x float>, ptr addrspace(1) %p6, align 32
  %off7 = add i64 %base, 56
  %p7 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off7
  %v7 = load <8 x float>, ptr addrspace(1) %p7, align 32
  %off8 = add i64 %base, 64
  %p8 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off8
  %v8 = load <8 x float>, ptr addrspace(1) %p8, align 32
  %off9 = add i64 %base, 72
  %p9 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off9
  %v9 = load <8 x float>, ptr addrspace(1) %p9, align 32
  %off10 = add i64 %base, 80
  %p10 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off10
  %v10 = load <8 x float>, ptr addrspace(1) %p10, align 32
  %off11 = add i64 %base, 88
  %p11 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off11
  %v11 = load <8 x float>, ptr addrspace(1) %p11, align 32
  %off12 = add i64 %base, 96
  %p12 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off12
  %v12 = load <8 x float>, ptr addrspace(1) %p12, align 32
  %off13 = add i64 %base, 104
  %p13 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off13
  %v13 = load <8 x float>, ptr addrspace(1) %p13, align 32
  %off14 = add i64 %base, 112
  %p14 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off14
  %v14 = load <8 x float>, ptr addrspace(1) %p14, align 32
  %off15 = add i64 %base, 120
  %p15 = getelementptr inbounds <8 x float>, ptr addrspace(1) %a, i64 %off15
  %v15 = load <8 x float>, ptr addrspace(1) %p15, align 32
  %m0 = fmul <8 x float> %v0, %v1
  %nacc0 = fadd <8 x float> %acc0, %m0
  %m1 = fmul <8 x float> %v1, %v2
  %nacc1 = fadd <8 x float> %acc1, %m1
  %m2 = fmul <8 x float> %v2, %v3
  %nacc2 = fadd <8 x float> %acc2, %m2
  %m3 = fmul <8 x float> %v3, %v4
  %nacc3 = fadd <8 x float> %acc3, %m3
  %m4 = fmul <8 x float> %v4, %v5
  %nacc4 = fadd <8 x float> %acc4, %m4
  %m5 = fmul <8 x float> %v5, %v6
  %nacc5 = fadd <8 x float> %acc5, %m5
  %m6 = fmul <8 x float> %v6, %v7
  %nacc6 = fadd <8 x float> %acc6, %m6
  %m7 = fmul <8 x float> %v7, %v8
  %nacc7 = fadd <8 x float> %acc7, %m7
  %m8 = fmul <8 x float> %v8, %v9
  %nacc8 = fadd <8 x float> %acc8, %m8
  %m9 = fmul <8 x float> %v9, %v10
  %nacc9 = fadd <8 x float> %acc9, %m9
  %m10 = fmul <8 x float> %v10, %v11
  %nacc10 = fadd <8 x float> %acc10, %m10
  %m11 = fmul <8 x float> %v11, %v12
  %nacc11 = fadd <8 x float> %acc11, %m11
  %m12 = fmul <8 x float> %v12, %v13
  %nacc12 = fadd <8 x float> %acc12, %m12
  %m13 = fmul <8 x float> %v13, %v14
  %nacc13 = fadd <8 x float> %acc13, %m13
  %m14 = fmul <8 x float> %v14, %v15
  %nacc14 = fadd <8 x float> %acc14, %m14
  %m15 = fmul <8 x float> %v15, %v0
  %nacc15 = fadd <8 x float> %acc15, %m15
  %inext = add i32 %i, 1
  %done = icmp sge i32 %inext, %iters
  br i1 %done, label %exit, label %loop
exit:
  %o0 = add i64 %id, 0
  %q0 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o0
  store <8 x float> %nacc0, ptr addrspace(1) %q0, align 32
  %o1 = add i64 %id, 1
  %q1 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o1
  store <8 x float> %nacc1, ptr addrspace(1) %q1, align 32
  %o2 = add i64 %id, 2
  %q2 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o2
  store <8 x float> %nacc2, ptr addrspace(1) %q2, align 32
  %o3 = add i64 %id, 3
  %q3 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o3
  store <8 x float> %nacc3, ptr addrspace(1) %q3, align 32
  %o4 = add i64 %id, 4
  %q4 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o4
  store <8 x float> %nacc4, ptr addrspace(1) %q4, align 32
  %o5 = add i64 %id, 5
  %q5 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o5
  store <8 x float> %nacc5, ptr addrspace(1) %q5, align 32
  %o6 = add i64 %id, 6
  %q6 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o6
  store <8 x float> %nacc6, ptr addrspace(1) %q6, align 32
  %o7 = add i64 %id, 7
  %q7 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o7
  store <8 x float> %nacc7, ptr addrspace(1) %q7, align 32
  %o8 = add i64 %id, 8
  %q8 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o8
  store <8 x float> %nacc8, ptr addrspace(1) %q8, align 32
  %o9 = add i64 %id, 9
  %q9 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o9
  store <8 x float> %nacc9, ptr addrspace(1) %q9, align 32
  %o10 = add i64 %id, 10
  %q10 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o10
  store <8 x float> %nacc10, ptr addrspace(1) %q10, align 32
  %o11 = add i64 %id, 11
  %q11 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o11
  store <8 x float> %nacc11, ptr addrspace(1) %q11, align 32
  %o12 = add i64 %id, 12
  %q12 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o12
  store <8 x float> %nacc12, ptr addrspace(1) %q12, align 32
  %o13 = add i64 %id, 13
  %q13 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o13
  store <8 x float> %nacc13, ptr addrspace(1) %q13, align 32
  %o14 = add i64 %id, 14
  %q14 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o14
  store <8 x float> %nacc14, ptr addrspace(1) %q14, align 32
  %o15 = add i64 %id, 15
  %q15 = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %o15
  store <8 x float> %nacc15, ptr addrspace(1) %q15, align 32
  ret void
}
