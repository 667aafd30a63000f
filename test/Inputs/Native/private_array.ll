target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)

define spir_kernel void @private_array(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %idx) {
entry:
  %arr = alloca [256 x float], align 4
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
  %jm = and i32 %j, 255
  %j64 = zext i32 %jm to i64
  %pf = getelementptr [256 x float], ptr %arr, i64 0, i64 %j64
  store float %v.in, ptr %pf, align 4
  %i.next = add i32 %i, 1
  %fdone = icmp eq i32 %i.next, 256
  br i1 %fdone, label %read, label %fill
read:
  %k2 = mul i32 %k, 7
  %km = and i32 %k2, 255
  %k64 = zext i32 %km to i64
  %pr = getelementptr [256 x float], ptr %arr, i64 0, i64 %k64
  %v = load float, ptr %pr, align 4
  %po = getelementptr float, ptr addrspace(1) %out, i64 %gid
  store float %v, ptr addrspace(1) %po, align 4
  ret void
}
