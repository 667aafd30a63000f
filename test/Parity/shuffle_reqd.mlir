// gpu.shuffle needs a sub-group size to lower (convert-gpu-to-llvm-spv):
// here the kernel requires it, as Triton and SYCL kernels do. A sub-group
// sum with xor butterflies at width 16, and the same at width 32 in a kernel
// that requires 32: each kernel keeps its own size (SIMD16 and SIMD32).
// (Upstream's XeVM path overwrites the 32 with 16: its SPIR-V says
// SubgroupSize 16 while the shuffles assume 32 lanes.)
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// With linking on (the default) the modules share one build; each
// module's report entry is the same as with link=false.
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.linked.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.linked.json

// CHECK: gpu.binary @reduce16 {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}row_sum16 = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}
// CHECK: gpu.binary @reduce32 {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}row_sum32 = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 32 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 32 : i32}
// REPORT: "name": "row_sum16",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "reduce16",
// REPORT-NEXT: "n_regs": 128,
// REPORT: "name": "row_sum32",
// REPORT: "simd": 32,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 32
// REPORT: "module": "reduce32",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @reduce16 {
    gpu.func @row_sum16(%in: memref<?xf32>, %out: memref<?xf32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
      %gid = gpu.global_id x
      %x = memref.load %in[%gid] : memref<?xf32>
      %w = arith.constant 16 : i32
      %o1 = arith.constant 1 : i32
      %o2 = arith.constant 2 : i32
      %o4 = arith.constant 4 : i32
      %o8 = arith.constant 8 : i32
      %s1, %v1 = gpu.shuffle xor %x, %o8, %w : f32
      %x1 = arith.addf %x, %s1 : f32
      %s2, %v2 = gpu.shuffle xor %x1, %o4, %w : f32
      %x2 = arith.addf %x1, %s2 : f32
      %s3, %v3 = gpu.shuffle xor %x2, %o2, %w : f32
      %x3 = arith.addf %x2, %s3 : f32
      %s4, %v4 = gpu.shuffle xor %x3, %o1, %w : f32
      %x4 = arith.addf %x3, %s4 : f32
      memref.store %x4, %out[%gid] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @reduce32 {
    gpu.func @row_sum32(%in: memref<?xf32>, %out: memref<?xf32>) kernel attributes {intel_reqd_sub_group_size = 32 : i32} {
      %gid = gpu.global_id x
      %x = memref.load %in[%gid] : memref<?xf32>
      %w = arith.constant 32 : i32
      %o1 = arith.constant 1 : i32
      %o2 = arith.constant 2 : i32
      %o4 = arith.constant 4 : i32
      %o8 = arith.constant 8 : i32
      %o16 = arith.constant 16 : i32
      %s0, %v0 = gpu.shuffle xor %x, %o16, %w : f32
      %x0 = arith.addf %x, %s0 : f32
      %s1, %v1 = gpu.shuffle xor %x0, %o8, %w : f32
      %x1 = arith.addf %x0, %s1 : f32
      %s2, %v2 = gpu.shuffle xor %x1, %o4, %w : f32
      %x2 = arith.addf %x1, %s2 : f32
      %s3, %v3 = gpu.shuffle xor %x2, %o2, %w : f32
      %x3 = arith.addf %x2, %s3 : f32
      %s4, %v4 = gpu.shuffle xor %x3, %o1, %w : f32
      %x4 = arith.addf %x3, %s4 : f32
      memref.store %x4, %out[%gid] : memref<?xf32>
      gpu.return
    }
  }
}
