// Masks as a tail loop produces them: vector.constant_mask for the fixed
// part of a row, a dynamic vector.create_mask for the remainder (1-D and
// 2-D), applied with arith.select and reduced. Masked memory operations
// (vector.maskedload / maskedstore) are in masked_memory.mlir.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @tails {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}masked_axpy = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "masked_axpy",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "tails",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @tails {
    gpu.func @masked_axpy(%x: memref<?xf32>, %y: memref<?xf32>, %t: memref<?x8xf32>, %n: index, %alpha: f32) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %left = arith.subi %n, %base : index
      %zero = arith.constant dense<0.0> : vector<8xf32>
      // Lanes past the end of the row are zeroed, the first two are kept
      // out of the update.
      %dyn = vector.create_mask %left : vector<8xi1>
      %head = vector.constant_mask [2] : vector<8xi1>
      %xv = vector.load %x[%base] : memref<?xf32>, vector<8xf32>
      %yv = vector.load %y[%base] : memref<?xf32>, vector<8xf32>
      %a = vector.broadcast %alpha : f32 to vector<8xf32>
      %r = vector.fma %a, %xv, %yv : vector<8xf32>
      %upd = arith.select %head, %yv, %r : vector<8xi1>, vector<8xf32>
      %res = arith.select %dyn, %upd, %zero : vector<8xi1>, vector<8xf32>
      vector.store %res, %y[%base] : memref<?xf32>, vector<8xf32>
      // A 2-D triangle-like mask over a 4x8 tile: constant and dynamic.
      %tile = vector.load %t[%base, %c0] : memref<?x8xf32>, vector<8xf32>
      %tile2 = vector.broadcast %tile : vector<8xf32> to vector<4x8xf32>
      %m2c = vector.constant_mask [3, 6] : vector<4x8xi1>
      %rows = arith.remui %left, %c8 : index
      %m2d = vector.create_mask %rows, %left : vector<4x8xi1>
      %m2 = arith.andi %m2c, %m2d : vector<4x8xi1>
      %zero2 = arith.constant dense<0.0> : vector<4x8xf32>
      %masked = arith.select %m2, %tile2, %zero2 : vector<4x8xi1>, vector<4x8xf32>
      %r0 = vector.extract %masked[0] : vector<8xf32> from vector<4x8xf32>
      %r1 = vector.extract %masked[1] : vector<8xf32> from vector<4x8xf32>
      %r2 = vector.extract %masked[2] : vector<8xf32> from vector<4x8xf32>
      %r3 = vector.extract %masked[3] : vector<8xf32> from vector<4x8xf32>
      %s01 = arith.addf %r0, %r1 : vector<8xf32>
      %s23 = arith.addf %r2, %r3 : vector<8xf32>
      %sum = arith.addf %s01, %s23 : vector<8xf32>
      %total = vector.reduction <add>, %sum : vector<8xf32> into f32
      memref.store %total, %x[%gid] : memref<?xf32>
      gpu.return
    }
  }
}
