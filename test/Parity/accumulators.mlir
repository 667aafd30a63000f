// Register pressure that decides the GRF mode: sixteen vector<8xf32>
// accumulators live across a loop (the shape of reduction and moment
// kernels). At SIMD16 it spills in small GRF mode and fits in large, so
// grf-mode=auto builds small, measures the spill, builds large and keeps it.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @accumulators {{.*}}attempts = [{build_flags = "-cl-intel-128-GRF-per-thread", grf_mode = "small", spill_size = {{[1-9][0-9]*}} : i64}, {build_flags = "-cl-intel-256-GRF-per-thread", grf_mode = "large", spill_size = 0 : i64}]
// CHECK-SAME: grf_mode = #xpu.grf_mode<large>, kernels = {{{.*}}moments16 = {grf_count = 256 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 256 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "decision": "small spilled {{[0-9]+}} bytes > threshold 0; large spilled 0 bytes: kept large",
// REPORT: "name": "moments16",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "accumulators",
// REPORT-NEXT: "n_regs": 256,

module attributes {gpu.container_module} {
  gpu.module @accumulators {
    gpu.func @moments16(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %z = arith.constant dense<0.0> : vector<8xf32>
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c8 : index
      %r:16 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant dense<1.25> : vector<8xf32>
        %p0 = math.fma %x, %k0, %a0 : vector<8xf32>
        %q0 = math.sqrt %p0 : vector<8xf32>
        %k1 = arith.constant dense<2.25> : vector<8xf32>
        %p1 = math.fma %x, %k1, %a1 : vector<8xf32>
        %q1 = math.sqrt %p1 : vector<8xf32>
        %k2 = arith.constant dense<3.25> : vector<8xf32>
        %p2 = math.fma %x, %k2, %a2 : vector<8xf32>
        %q2 = math.sqrt %p2 : vector<8xf32>
        %k3 = arith.constant dense<4.25> : vector<8xf32>
        %p3 = math.fma %x, %k3, %a3 : vector<8xf32>
        %q3 = math.sqrt %p3 : vector<8xf32>
        %k4 = arith.constant dense<5.25> : vector<8xf32>
        %p4 = math.fma %x, %k4, %a4 : vector<8xf32>
        %q4 = math.sqrt %p4 : vector<8xf32>
        %k5 = arith.constant dense<6.25> : vector<8xf32>
        %p5 = math.fma %x, %k5, %a5 : vector<8xf32>
        %q5 = math.sqrt %p5 : vector<8xf32>
        %k6 = arith.constant dense<7.25> : vector<8xf32>
        %p6 = math.fma %x, %k6, %a6 : vector<8xf32>
        %q6 = math.sqrt %p6 : vector<8xf32>
        %k7 = arith.constant dense<8.25> : vector<8xf32>
        %p7 = math.fma %x, %k7, %a7 : vector<8xf32>
        %q7 = math.sqrt %p7 : vector<8xf32>
        %k8 = arith.constant dense<9.25> : vector<8xf32>
        %p8 = math.fma %x, %k8, %a8 : vector<8xf32>
        %q8 = math.sqrt %p8 : vector<8xf32>
        %k9 = arith.constant dense<10.25> : vector<8xf32>
        %p9 = math.fma %x, %k9, %a9 : vector<8xf32>
        %q9 = math.sqrt %p9 : vector<8xf32>
        %k10 = arith.constant dense<11.25> : vector<8xf32>
        %p10 = math.fma %x, %k10, %a10 : vector<8xf32>
        %q10 = math.sqrt %p10 : vector<8xf32>
        %k11 = arith.constant dense<12.25> : vector<8xf32>
        %p11 = math.fma %x, %k11, %a11 : vector<8xf32>
        %q11 = math.sqrt %p11 : vector<8xf32>
        %k12 = arith.constant dense<13.25> : vector<8xf32>
        %p12 = math.fma %x, %k12, %a12 : vector<8xf32>
        %q12 = math.sqrt %p12 : vector<8xf32>
        %k13 = arith.constant dense<14.25> : vector<8xf32>
        %p13 = math.fma %x, %k13, %a13 : vector<8xf32>
        %q13 = math.sqrt %p13 : vector<8xf32>
        %k14 = arith.constant dense<15.25> : vector<8xf32>
        %p14 = math.fma %x, %k14, %a14 : vector<8xf32>
        %q14 = math.sqrt %p14 : vector<8xf32>
        %k15 = arith.constant dense<16.25> : vector<8xf32>
        %p15 = math.fma %x, %k15, %a15 : vector<8xf32>
        %q15 = math.sqrt %p15 : vector<8xf32>
        %y0 = arith.addf %q0, %q1 : vector<8xf32>
        %y1 = arith.addf %q1, %q2 : vector<8xf32>
        %y2 = arith.addf %q2, %q3 : vector<8xf32>
        %y3 = arith.addf %q3, %q4 : vector<8xf32>
        %y4 = arith.addf %q4, %q5 : vector<8xf32>
        %y5 = arith.addf %q5, %q6 : vector<8xf32>
        %y6 = arith.addf %q6, %q7 : vector<8xf32>
        %y7 = arith.addf %q7, %q8 : vector<8xf32>
        %y8 = arith.addf %q8, %q9 : vector<8xf32>
        %y9 = arith.addf %q9, %q10 : vector<8xf32>
        %y10 = arith.addf %q10, %q11 : vector<8xf32>
        %y11 = arith.addf %q11, %q12 : vector<8xf32>
        %y12 = arith.addf %q12, %q13 : vector<8xf32>
        %y13 = arith.addf %q13, %q14 : vector<8xf32>
        %y14 = arith.addf %q14, %q15 : vector<8xf32>
        %y15 = arith.addf %q15, %q0 : vector<8xf32>
        scf.yield %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7, %y8, %y9, %y10, %y11, %y12, %y13, %y14, %y15 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      %t1 = arith.addf %r#0, %r#1 : vector<8xf32>
      %t2 = arith.addf %t1, %r#2 : vector<8xf32>
      %t3 = arith.addf %t2, %r#3 : vector<8xf32>
      %t4 = arith.addf %t3, %r#4 : vector<8xf32>
      %t5 = arith.addf %t4, %r#5 : vector<8xf32>
      %t6 = arith.addf %t5, %r#6 : vector<8xf32>
      %t7 = arith.addf %t6, %r#7 : vector<8xf32>
      %t8 = arith.addf %t7, %r#8 : vector<8xf32>
      %t9 = arith.addf %t8, %r#9 : vector<8xf32>
      %t10 = arith.addf %t9, %r#10 : vector<8xf32>
      %t11 = arith.addf %t10, %r#11 : vector<8xf32>
      %t12 = arith.addf %t11, %r#12 : vector<8xf32>
      %t13 = arith.addf %t12, %r#13 : vector<8xf32>
      %t14 = arith.addf %t13, %r#14 : vector<8xf32>
      %t15 = arith.addf %t14, %r#15 : vector<8xf32>
      vector.store %t15, %out[%base] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
