// A kernel that arrives already in the LLVM dialect, as Triton's Intel
// backend emits it: llvm.func spir_kernelcc with its own
// intel_reqd_sub_group_size, OpenCL builtins for the ids, 1-element vectors
// and a masked tail done with a branch. The required size is kept (16).
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @triton_like {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}add_kernel = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "add_kernel",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "triton_like",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @triton_like {
    llvm.func spir_funccc @_Z12get_local_idj(i32) -> i64 attributes {no_unwind, will_return}
    llvm.func spir_funccc @_Z12get_group_idj(i32) -> i64 attributes {no_unwind, will_return}
    llvm.func spir_kernelcc @add_kernel(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32) attributes {intel_reqd_sub_group_size = 16 : i32} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c128 = llvm.mlir.constant(128 : i32) : i32
      %lid64 = llvm.call spir_funccc @_Z12get_local_idj(%c0) : (i32) -> i64
      %gid64 = llvm.call spir_funccc @_Z12get_group_idj(%c0) : (i32) -> i64
      %lid = llvm.trunc %lid64 : i64 to i32
      %gid = llvm.trunc %gid64 : i64 to i32
      %start = llvm.mul %gid, %c128 : i32
      %i = llvm.add %start, %lid : i32
      %in = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %in, ^body, ^done
    ^body:
      %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %vx = llvm.load %px {alignment = 4 : i64} : !llvm.ptr<1> -> vector<1xf32>
      %vy = llvm.load %py {alignment = 4 : i64} : !llvm.ptr<1> -> vector<1xf32>
      %s = llvm.fadd %vx, %vy : vector<1xf32>
      %po = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %s, %po {alignment = 4 : i64} : vector<1xf32>, !llvm.ptr<1>
      llvm.br ^done
    ^done:
      llvm.return
    }
  }
}
