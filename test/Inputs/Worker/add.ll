target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)

define spir_kernel void @add(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %id
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %id
  %pc = getelementptr inbounds float, ptr addrspace(1) %c, i64 %id
  %va = load float, ptr addrspace(1) %pa, align 4
  %vb = load float, ptr addrspace(1) %pb, align 4
  %s = fadd float %va, %vb
  store float %s, ptr addrspace(1) %pc, align 4
  ret void
}
