// gpu.shuffle in a kernel that states no sub-group size: the device default
// (16 on pvc) applies, so the shuffles lower and the kernel runs SIMD16.
// Upstream's gpu-lower-to-xevm-pipeline rejects this input ("failed to
// legalize operation 'gpu.shuffle'": MLIR 22's shuffle lowering needs a
// required size, and upstream sets its 16 only later, when it serializes).
// Down, up and indexed shuffles.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @stencil {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}neighbours = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "neighbours",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "stencil",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @stencil {
    gpu.func @neighbours(%in: memref<?xf32>, %idx: memref<?xi32>, %out: memref<?xf32>) kernel {
      %gid = gpu.global_id x
      %w = arith.constant 16 : i32
      %one = arith.constant 1 : i32
      %x = memref.load %in[%gid] : memref<?xf32>
      %lane = memref.load %idx[%gid] : memref<?xi32>
      %right, %rv = gpu.shuffle down %x, %one, %w : f32
      %left, %lv = gpu.shuffle up %x, %one, %w : f32
      %picked, %pv = gpu.shuffle idx %x, %lane, %w : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %rv, %right, %zero : f32
      %l = arith.select %lv, %left, %zero : f32
      %sum = arith.addf %r, %l : f32
      %res = arith.addf %sum, %picked : f32
      memref.store %res, %out[%gid] : memref<?xf32>
      gpu.return
    }
  }
}
