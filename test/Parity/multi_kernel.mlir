// A module of several kernels, and a second module: every kernel of every
// module gets the sub-group size (16), not only the first. Upstream's XeVM
// path sets intel_reqd_sub_group_size on the first kernel of a module only
// (XeVM target serialization), so IGC picks the width of the others itself
// (SIMD32 on pvc); the project compiles all of them SIMD16. The second
// kernel keeps eight vector<8xf32> accumulators live across a loop: it fits
// 128 registers at SIMD16, so the module stays in small GRF mode.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// With linking on (the default) the modules share one build; each
// module's report entry is the same as with link=false.
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.linked.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.linked.json

// CHECK: gpu.binary @pointwise {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}copy_rows = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}, moments = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}, scale_rows = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// CHECK: gpu.binary @reductions {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}dot8 = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "decision": "small spilled 0 bytes <= threshold 0: kept small",
// REPORT: "name": "copy_rows",
// REPORT: "simd": 16,
// REPORT: "name": "moments",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "name": "scale_rows",
// REPORT: "simd": 16,
// REPORT: "module": "pointwise",
// REPORT-NEXT: "n_regs": 128,
// REPORT: "name": "dot8",
// REPORT: "simd": 16,
// REPORT: "module": "reductions",

module attributes {gpu.container_module} {
  gpu.module @pointwise {
    gpu.func @copy_rows(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %c8 = arith.constant 8 : index
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %v = vector.load %x[%base] : memref<?xf32>, vector<8xf32>
      vector.store %v, %y[%base] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
    gpu.func @moments(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %z = arith.constant dense<0.0> : vector<8xf32>
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %r:8 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant dense<1.5> : vector<8xf32>
        %p0 = math.fma %x, %k0, %a0 : vector<8xf32>
        %q0 = math.sqrt %p0 : vector<8xf32>
        %k1 = arith.constant dense<2.5> : vector<8xf32>
        %p1 = math.fma %x, %k1, %a1 : vector<8xf32>
        %q1 = math.sqrt %p1 : vector<8xf32>
        %k2 = arith.constant dense<3.5> : vector<8xf32>
        %p2 = math.fma %x, %k2, %a2 : vector<8xf32>
        %q2 = math.sqrt %p2 : vector<8xf32>
        %k3 = arith.constant dense<4.5> : vector<8xf32>
        %p3 = math.fma %x, %k3, %a3 : vector<8xf32>
        %q3 = math.sqrt %p3 : vector<8xf32>
        %k4 = arith.constant dense<5.5> : vector<8xf32>
        %p4 = math.fma %x, %k4, %a4 : vector<8xf32>
        %q4 = math.sqrt %p4 : vector<8xf32>
        %k5 = arith.constant dense<6.5> : vector<8xf32>
        %p5 = math.fma %x, %k5, %a5 : vector<8xf32>
        %q5 = math.sqrt %p5 : vector<8xf32>
        %k6 = arith.constant dense<7.5> : vector<8xf32>
        %p6 = math.fma %x, %k6, %a6 : vector<8xf32>
        %q6 = math.sqrt %p6 : vector<8xf32>
        %k7 = arith.constant dense<8.5> : vector<8xf32>
        %p7 = math.fma %x, %k7, %a7 : vector<8xf32>
        %q7 = math.sqrt %p7 : vector<8xf32>
        %y0 = arith.addf %q0, %q1 : vector<8xf32>
        %y1 = arith.addf %q1, %q2 : vector<8xf32>
        %y2 = arith.addf %q2, %q3 : vector<8xf32>
        %y3 = arith.addf %q3, %q4 : vector<8xf32>
        %y4 = arith.addf %q4, %q5 : vector<8xf32>
        %y5 = arith.addf %q5, %q6 : vector<8xf32>
        %y6 = arith.addf %q6, %q7 : vector<8xf32>
        %y7 = arith.addf %q7, %q0 : vector<8xf32>
        scf.yield %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      %t1 = arith.addf %r#0, %r#1 : vector<8xf32>
      %t2 = arith.addf %t1, %r#2 : vector<8xf32>
      %t3 = arith.addf %t2, %r#3 : vector<8xf32>
      %t4 = arith.addf %t3, %r#4 : vector<8xf32>
      %t5 = arith.addf %t4, %r#5 : vector<8xf32>
      %t6 = arith.addf %t5, %r#6 : vector<8xf32>
      %t7 = arith.addf %t6, %r#7 : vector<8xf32>
      vector.store %t7, %out[%base] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
    gpu.func @scale_rows(%x: memref<?xf32>, %s: f32) kernel {
      %c8 = arith.constant 8 : index
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %v = vector.load %x[%base] : memref<?xf32>, vector<8xf32>
      %b = vector.broadcast %s : f32 to vector<8xf32>
      %r = arith.mulf %v, %b : vector<8xf32>
      vector.store %r, %x[%base] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @reductions {
    gpu.func @dot8(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c8 = arith.constant 8 : index
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %a = vector.load %x[%base] : memref<?xf32>, vector<8xf32>
      %b = vector.load %y[%base] : memref<?xf32>, vector<8xf32>
      %p = arith.mulf %a, %b : vector<8xf32>
      %s = vector.reduction <add>, %p : vector<8xf32> into f32
      memref.store %s, %out[%gid] : memref<?xf32>
      gpu.return
    }
  }
}
