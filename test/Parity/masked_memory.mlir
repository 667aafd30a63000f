// Masked memory operations (vector.maskedload / vector.maskedstore, what a
// tail loop's masked transfers become) would lower to llvm.intr.masked.load /
// .store, which LLVM 22's SPIR-V backend cannot select ("incompatible result
// and operand types in a bitcast", an abort): upstream's path fails on this
// module. xpu-lower-to-xevm first rewrites them into per-lane scf.if +
// memref accesses (vector's masked load/store emulation), so both modules
// compile at SIMD16 without spills.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false cache-dir=none report=%t.json" -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// With linking on (the default) the modules share one build; each
// module's report entry is the same as with link=false.
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.linked.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.linked.json

// CHECK: gpu.binary @masked_tail {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}axpy_tail = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK: gpu.binary @full_rows {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}copy_rows = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT-NOT: "error"
// REPORT: "module": "masked_tail"
// REPORT: "module": "full_rows",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @masked_tail {
    gpu.func @axpy_tail(%x: memref<?xf32>, %y: memref<?xf32>, %n: index, %alpha: f32) kernel {
      %c8 = arith.constant 8 : index
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %left = arith.subi %n, %base : index
      %pass = arith.constant dense<0.0> : vector<8xf32>
      %mask = vector.create_mask %left : vector<8xi1>
      %xv = vector.maskedload %x[%base], %mask, %pass : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
      %yv = vector.maskedload %y[%base], %mask, %pass : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
      %a = vector.broadcast %alpha : f32 to vector<8xf32>
      %r = vector.fma %a, %xv, %yv : vector<8xf32>
      vector.maskedstore %y[%base], %mask, %r : memref<?xf32>, vector<8xi1>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @full_rows {
    gpu.func @copy_rows(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %c8 = arith.constant 8 : index
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %v = vector.load %x[%base] : memref<?xf32>, vector<8xf32>
      vector.store %v, %y[%base] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
