// Every diagnostic about a kernel is located at that kernel's own gpu.func,
// with its column, whatever the pipeline did to the module that held it
// (issue 40; KernelOrigins.h): three modules with the same spilling kernel,
// forced to small mode, each warned about at its own line when
// xpu-dedupe-modules folds h2 and h3 (h3's kernel renamed) into h1, when
// xpu-link-modules links them, when neither runs, and when a module cache
// hit replays the warnings (the second run of the same cache).
// REQUIRES: ocloc
// RUN: xpu-opt %s -verify-diagnostics -o /dev/null --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=none"
// RUN: xpu-opt %s -verify-diagnostics -o /dev/null --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=none dedupe=false"
// RUN: xpu-opt %s -verify-diagnostics -o /dev/null --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=none dedupe=false link=false"
// RUN: rm -rf %t.cache %t.cache-linked
// RUN: xpu-opt %s -verify-diagnostics -o /dev/null --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=%t.cache"
// RUN: xpu-opt %s -verify-diagnostics -o /dev/null --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=%t.cache report=%t.warm.json"
// RUN: FileCheck %s --check-prefix=WARM < %t.warm.json
// RUN: xpu-opt %s -verify-diagnostics -o /dev/null --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=%t.cache-linked dedupe=false"
// RUN: xpu-opt %s -verify-diagnostics -o /dev/null --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=%t.cache-linked dedupe=false"
// WARM: "cache": "hit",

module attributes {gpu.container_module} {
  gpu.module @h1 {
    // expected-warning@+1 {{kernel 'acc16' spills}}
    gpu.func @acc16(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:16 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant 1.0 : f32
        %s0 = vector.broadcast %k0 : f32 to vector<8xf32>
        %m0 = arith.mulf %x, %s0 : vector<8xf32>
        %n0 = arith.addf %a0, %m0 : vector<8xf32>
        %q0 = math.sqrt %n0 : vector<8xf32>
        %k1 = arith.constant 2.0 : f32
        %s1 = vector.broadcast %k1 : f32 to vector<8xf32>
        %m1 = arith.mulf %x, %s1 : vector<8xf32>
        %n1 = arith.addf %a1, %m1 : vector<8xf32>
        %q1 = math.sqrt %n1 : vector<8xf32>
        %k2 = arith.constant 3.0 : f32
        %s2 = vector.broadcast %k2 : f32 to vector<8xf32>
        %m2 = arith.mulf %x, %s2 : vector<8xf32>
        %n2 = arith.addf %a2, %m2 : vector<8xf32>
        %q2 = math.sqrt %n2 : vector<8xf32>
        %k3 = arith.constant 4.0 : f32
        %s3 = vector.broadcast %k3 : f32 to vector<8xf32>
        %m3 = arith.mulf %x, %s3 : vector<8xf32>
        %n3 = arith.addf %a3, %m3 : vector<8xf32>
        %q3 = math.sqrt %n3 : vector<8xf32>
        %k4 = arith.constant 5.0 : f32
        %s4 = vector.broadcast %k4 : f32 to vector<8xf32>
        %m4 = arith.mulf %x, %s4 : vector<8xf32>
        %n4 = arith.addf %a4, %m4 : vector<8xf32>
        %q4 = math.sqrt %n4 : vector<8xf32>
        %k5 = arith.constant 6.0 : f32
        %s5 = vector.broadcast %k5 : f32 to vector<8xf32>
        %m5 = arith.mulf %x, %s5 : vector<8xf32>
        %n5 = arith.addf %a5, %m5 : vector<8xf32>
        %q5 = math.sqrt %n5 : vector<8xf32>
        %k6 = arith.constant 7.0 : f32
        %s6 = vector.broadcast %k6 : f32 to vector<8xf32>
        %m6 = arith.mulf %x, %s6 : vector<8xf32>
        %n6 = arith.addf %a6, %m6 : vector<8xf32>
        %q6 = math.sqrt %n6 : vector<8xf32>
        %k7 = arith.constant 8.0 : f32
        %s7 = vector.broadcast %k7 : f32 to vector<8xf32>
        %m7 = arith.mulf %x, %s7 : vector<8xf32>
        %n7 = arith.addf %a7, %m7 : vector<8xf32>
        %q7 = math.sqrt %n7 : vector<8xf32>
        %k8 = arith.constant 9.0 : f32
        %s8 = vector.broadcast %k8 : f32 to vector<8xf32>
        %m8 = arith.mulf %x, %s8 : vector<8xf32>
        %n8 = arith.addf %a8, %m8 : vector<8xf32>
        %q8 = math.sqrt %n8 : vector<8xf32>
        %k9 = arith.constant 10.0 : f32
        %s9 = vector.broadcast %k9 : f32 to vector<8xf32>
        %m9 = arith.mulf %x, %s9 : vector<8xf32>
        %n9 = arith.addf %a9, %m9 : vector<8xf32>
        %q9 = math.sqrt %n9 : vector<8xf32>
        %k10 = arith.constant 11.0 : f32
        %s10 = vector.broadcast %k10 : f32 to vector<8xf32>
        %m10 = arith.mulf %x, %s10 : vector<8xf32>
        %n10 = arith.addf %a10, %m10 : vector<8xf32>
        %q10 = math.sqrt %n10 : vector<8xf32>
        %k11 = arith.constant 12.0 : f32
        %s11 = vector.broadcast %k11 : f32 to vector<8xf32>
        %m11 = arith.mulf %x, %s11 : vector<8xf32>
        %n11 = arith.addf %a11, %m11 : vector<8xf32>
        %q11 = math.sqrt %n11 : vector<8xf32>
        %k12 = arith.constant 13.0 : f32
        %s12 = vector.broadcast %k12 : f32 to vector<8xf32>
        %m12 = arith.mulf %x, %s12 : vector<8xf32>
        %n12 = arith.addf %a12, %m12 : vector<8xf32>
        %q12 = math.sqrt %n12 : vector<8xf32>
        %k13 = arith.constant 14.0 : f32
        %s13 = vector.broadcast %k13 : f32 to vector<8xf32>
        %m13 = arith.mulf %x, %s13 : vector<8xf32>
        %n13 = arith.addf %a13, %m13 : vector<8xf32>
        %q13 = math.sqrt %n13 : vector<8xf32>
        %k14 = arith.constant 15.0 : f32
        %s14 = vector.broadcast %k14 : f32 to vector<8xf32>
        %m14 = arith.mulf %x, %s14 : vector<8xf32>
        %n14 = arith.addf %a14, %m14 : vector<8xf32>
        %q14 = math.sqrt %n14 : vector<8xf32>
        %k15 = arith.constant 16.0 : f32
        %s15 = vector.broadcast %k15 : f32 to vector<8xf32>
        %m15 = arith.mulf %x, %s15 : vector<8xf32>
        %n15 = arith.addf %a15, %m15 : vector<8xf32>
        %q15 = math.sqrt %n15 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3, %q4, %q5, %q6, %q7, %q8, %q9, %q10, %q11, %q12, %q13, %q14, %q15 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf32>, vector<8xf32>
      %o1 = arith.constant 8 : index
      %p1 = arith.addi %base, %o1 : index
      vector.store %r#1, %out[%p1] : memref<?xf32>, vector<8xf32>
      %o2 = arith.constant 16 : index
      %p2 = arith.addi %base, %o2 : index
      vector.store %r#2, %out[%p2] : memref<?xf32>, vector<8xf32>
      %o3 = arith.constant 24 : index
      %p3 = arith.addi %base, %o3 : index
      vector.store %r#3, %out[%p3] : memref<?xf32>, vector<8xf32>
      %o4 = arith.constant 32 : index
      %p4 = arith.addi %base, %o4 : index
      vector.store %r#4, %out[%p4] : memref<?xf32>, vector<8xf32>
      %o5 = arith.constant 40 : index
      %p5 = arith.addi %base, %o5 : index
      vector.store %r#5, %out[%p5] : memref<?xf32>, vector<8xf32>
      %o6 = arith.constant 48 : index
      %p6 = arith.addi %base, %o6 : index
      vector.store %r#6, %out[%p6] : memref<?xf32>, vector<8xf32>
      %o7 = arith.constant 56 : index
      %p7 = arith.addi %base, %o7 : index
      vector.store %r#7, %out[%p7] : memref<?xf32>, vector<8xf32>
      %o8 = arith.constant 64 : index
      %p8 = arith.addi %base, %o8 : index
      vector.store %r#8, %out[%p8] : memref<?xf32>, vector<8xf32>
      %o9 = arith.constant 72 : index
      %p9 = arith.addi %base, %o9 : index
      vector.store %r#9, %out[%p9] : memref<?xf32>, vector<8xf32>
      %o10 = arith.constant 80 : index
      %p10 = arith.addi %base, %o10 : index
      vector.store %r#10, %out[%p10] : memref<?xf32>, vector<8xf32>
      %o11 = arith.constant 88 : index
      %p11 = arith.addi %base, %o11 : index
      vector.store %r#11, %out[%p11] : memref<?xf32>, vector<8xf32>
      %o12 = arith.constant 96 : index
      %p12 = arith.addi %base, %o12 : index
      vector.store %r#12, %out[%p12] : memref<?xf32>, vector<8xf32>
      %o13 = arith.constant 104 : index
      %p13 = arith.addi %base, %o13 : index
      vector.store %r#13, %out[%p13] : memref<?xf32>, vector<8xf32>
      %o14 = arith.constant 112 : index
      %p14 = arith.addi %base, %o14 : index
      vector.store %r#14, %out[%p14] : memref<?xf32>, vector<8xf32>
      %o15 = arith.constant 120 : index
      %p15 = arith.addi %base, %o15 : index
      vector.store %r#15, %out[%p15] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @h2 {
    // expected-warning@+1 {{kernel 'acc16' spills}}
    gpu.func @acc16(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:16 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant 1.0 : f32
        %s0 = vector.broadcast %k0 : f32 to vector<8xf32>
        %m0 = arith.mulf %x, %s0 : vector<8xf32>
        %n0 = arith.addf %a0, %m0 : vector<8xf32>
        %q0 = math.sqrt %n0 : vector<8xf32>
        %k1 = arith.constant 2.0 : f32
        %s1 = vector.broadcast %k1 : f32 to vector<8xf32>
        %m1 = arith.mulf %x, %s1 : vector<8xf32>
        %n1 = arith.addf %a1, %m1 : vector<8xf32>
        %q1 = math.sqrt %n1 : vector<8xf32>
        %k2 = arith.constant 3.0 : f32
        %s2 = vector.broadcast %k2 : f32 to vector<8xf32>
        %m2 = arith.mulf %x, %s2 : vector<8xf32>
        %n2 = arith.addf %a2, %m2 : vector<8xf32>
        %q2 = math.sqrt %n2 : vector<8xf32>
        %k3 = arith.constant 4.0 : f32
        %s3 = vector.broadcast %k3 : f32 to vector<8xf32>
        %m3 = arith.mulf %x, %s3 : vector<8xf32>
        %n3 = arith.addf %a3, %m3 : vector<8xf32>
        %q3 = math.sqrt %n3 : vector<8xf32>
        %k4 = arith.constant 5.0 : f32
        %s4 = vector.broadcast %k4 : f32 to vector<8xf32>
        %m4 = arith.mulf %x, %s4 : vector<8xf32>
        %n4 = arith.addf %a4, %m4 : vector<8xf32>
        %q4 = math.sqrt %n4 : vector<8xf32>
        %k5 = arith.constant 6.0 : f32
        %s5 = vector.broadcast %k5 : f32 to vector<8xf32>
        %m5 = arith.mulf %x, %s5 : vector<8xf32>
        %n5 = arith.addf %a5, %m5 : vector<8xf32>
        %q5 = math.sqrt %n5 : vector<8xf32>
        %k6 = arith.constant 7.0 : f32
        %s6 = vector.broadcast %k6 : f32 to vector<8xf32>
        %m6 = arith.mulf %x, %s6 : vector<8xf32>
        %n6 = arith.addf %a6, %m6 : vector<8xf32>
        %q6 = math.sqrt %n6 : vector<8xf32>
        %k7 = arith.constant 8.0 : f32
        %s7 = vector.broadcast %k7 : f32 to vector<8xf32>
        %m7 = arith.mulf %x, %s7 : vector<8xf32>
        %n7 = arith.addf %a7, %m7 : vector<8xf32>
        %q7 = math.sqrt %n7 : vector<8xf32>
        %k8 = arith.constant 9.0 : f32
        %s8 = vector.broadcast %k8 : f32 to vector<8xf32>
        %m8 = arith.mulf %x, %s8 : vector<8xf32>
        %n8 = arith.addf %a8, %m8 : vector<8xf32>
        %q8 = math.sqrt %n8 : vector<8xf32>
        %k9 = arith.constant 10.0 : f32
        %s9 = vector.broadcast %k9 : f32 to vector<8xf32>
        %m9 = arith.mulf %x, %s9 : vector<8xf32>
        %n9 = arith.addf %a9, %m9 : vector<8xf32>
        %q9 = math.sqrt %n9 : vector<8xf32>
        %k10 = arith.constant 11.0 : f32
        %s10 = vector.broadcast %k10 : f32 to vector<8xf32>
        %m10 = arith.mulf %x, %s10 : vector<8xf32>
        %n10 = arith.addf %a10, %m10 : vector<8xf32>
        %q10 = math.sqrt %n10 : vector<8xf32>
        %k11 = arith.constant 12.0 : f32
        %s11 = vector.broadcast %k11 : f32 to vector<8xf32>
        %m11 = arith.mulf %x, %s11 : vector<8xf32>
        %n11 = arith.addf %a11, %m11 : vector<8xf32>
        %q11 = math.sqrt %n11 : vector<8xf32>
        %k12 = arith.constant 13.0 : f32
        %s12 = vector.broadcast %k12 : f32 to vector<8xf32>
        %m12 = arith.mulf %x, %s12 : vector<8xf32>
        %n12 = arith.addf %a12, %m12 : vector<8xf32>
        %q12 = math.sqrt %n12 : vector<8xf32>
        %k13 = arith.constant 14.0 : f32
        %s13 = vector.broadcast %k13 : f32 to vector<8xf32>
        %m13 = arith.mulf %x, %s13 : vector<8xf32>
        %n13 = arith.addf %a13, %m13 : vector<8xf32>
        %q13 = math.sqrt %n13 : vector<8xf32>
        %k14 = arith.constant 15.0 : f32
        %s14 = vector.broadcast %k14 : f32 to vector<8xf32>
        %m14 = arith.mulf %x, %s14 : vector<8xf32>
        %n14 = arith.addf %a14, %m14 : vector<8xf32>
        %q14 = math.sqrt %n14 : vector<8xf32>
        %k15 = arith.constant 16.0 : f32
        %s15 = vector.broadcast %k15 : f32 to vector<8xf32>
        %m15 = arith.mulf %x, %s15 : vector<8xf32>
        %n15 = arith.addf %a15, %m15 : vector<8xf32>
        %q15 = math.sqrt %n15 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3, %q4, %q5, %q6, %q7, %q8, %q9, %q10, %q11, %q12, %q13, %q14, %q15 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf32>, vector<8xf32>
      %o1 = arith.constant 8 : index
      %p1 = arith.addi %base, %o1 : index
      vector.store %r#1, %out[%p1] : memref<?xf32>, vector<8xf32>
      %o2 = arith.constant 16 : index
      %p2 = arith.addi %base, %o2 : index
      vector.store %r#2, %out[%p2] : memref<?xf32>, vector<8xf32>
      %o3 = arith.constant 24 : index
      %p3 = arith.addi %base, %o3 : index
      vector.store %r#3, %out[%p3] : memref<?xf32>, vector<8xf32>
      %o4 = arith.constant 32 : index
      %p4 = arith.addi %base, %o4 : index
      vector.store %r#4, %out[%p4] : memref<?xf32>, vector<8xf32>
      %o5 = arith.constant 40 : index
      %p5 = arith.addi %base, %o5 : index
      vector.store %r#5, %out[%p5] : memref<?xf32>, vector<8xf32>
      %o6 = arith.constant 48 : index
      %p6 = arith.addi %base, %o6 : index
      vector.store %r#6, %out[%p6] : memref<?xf32>, vector<8xf32>
      %o7 = arith.constant 56 : index
      %p7 = arith.addi %base, %o7 : index
      vector.store %r#7, %out[%p7] : memref<?xf32>, vector<8xf32>
      %o8 = arith.constant 64 : index
      %p8 = arith.addi %base, %o8 : index
      vector.store %r#8, %out[%p8] : memref<?xf32>, vector<8xf32>
      %o9 = arith.constant 72 : index
      %p9 = arith.addi %base, %o9 : index
      vector.store %r#9, %out[%p9] : memref<?xf32>, vector<8xf32>
      %o10 = arith.constant 80 : index
      %p10 = arith.addi %base, %o10 : index
      vector.store %r#10, %out[%p10] : memref<?xf32>, vector<8xf32>
      %o11 = arith.constant 88 : index
      %p11 = arith.addi %base, %o11 : index
      vector.store %r#11, %out[%p11] : memref<?xf32>, vector<8xf32>
      %o12 = arith.constant 96 : index
      %p12 = arith.addi %base, %o12 : index
      vector.store %r#12, %out[%p12] : memref<?xf32>, vector<8xf32>
      %o13 = arith.constant 104 : index
      %p13 = arith.addi %base, %o13 : index
      vector.store %r#13, %out[%p13] : memref<?xf32>, vector<8xf32>
      %o14 = arith.constant 112 : index
      %p14 = arith.addi %base, %o14 : index
      vector.store %r#14, %out[%p14] : memref<?xf32>, vector<8xf32>
      %o15 = arith.constant 120 : index
      %p15 = arith.addi %base, %o15 : index
      vector.store %r#15, %out[%p15] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @h3 {
    // expected-warning@+1 {{kernel 'acc16_copy' spills}}
    gpu.func @acc16_copy(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:16 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant 1.0 : f32
        %s0 = vector.broadcast %k0 : f32 to vector<8xf32>
        %m0 = arith.mulf %x, %s0 : vector<8xf32>
        %n0 = arith.addf %a0, %m0 : vector<8xf32>
        %q0 = math.sqrt %n0 : vector<8xf32>
        %k1 = arith.constant 2.0 : f32
        %s1 = vector.broadcast %k1 : f32 to vector<8xf32>
        %m1 = arith.mulf %x, %s1 : vector<8xf32>
        %n1 = arith.addf %a1, %m1 : vector<8xf32>
        %q1 = math.sqrt %n1 : vector<8xf32>
        %k2 = arith.constant 3.0 : f32
        %s2 = vector.broadcast %k2 : f32 to vector<8xf32>
        %m2 = arith.mulf %x, %s2 : vector<8xf32>
        %n2 = arith.addf %a2, %m2 : vector<8xf32>
        %q2 = math.sqrt %n2 : vector<8xf32>
        %k3 = arith.constant 4.0 : f32
        %s3 = vector.broadcast %k3 : f32 to vector<8xf32>
        %m3 = arith.mulf %x, %s3 : vector<8xf32>
        %n3 = arith.addf %a3, %m3 : vector<8xf32>
        %q3 = math.sqrt %n3 : vector<8xf32>
        %k4 = arith.constant 5.0 : f32
        %s4 = vector.broadcast %k4 : f32 to vector<8xf32>
        %m4 = arith.mulf %x, %s4 : vector<8xf32>
        %n4 = arith.addf %a4, %m4 : vector<8xf32>
        %q4 = math.sqrt %n4 : vector<8xf32>
        %k5 = arith.constant 6.0 : f32
        %s5 = vector.broadcast %k5 : f32 to vector<8xf32>
        %m5 = arith.mulf %x, %s5 : vector<8xf32>
        %n5 = arith.addf %a5, %m5 : vector<8xf32>
        %q5 = math.sqrt %n5 : vector<8xf32>
        %k6 = arith.constant 7.0 : f32
        %s6 = vector.broadcast %k6 : f32 to vector<8xf32>
        %m6 = arith.mulf %x, %s6 : vector<8xf32>
        %n6 = arith.addf %a6, %m6 : vector<8xf32>
        %q6 = math.sqrt %n6 : vector<8xf32>
        %k7 = arith.constant 8.0 : f32
        %s7 = vector.broadcast %k7 : f32 to vector<8xf32>
        %m7 = arith.mulf %x, %s7 : vector<8xf32>
        %n7 = arith.addf %a7, %m7 : vector<8xf32>
        %q7 = math.sqrt %n7 : vector<8xf32>
        %k8 = arith.constant 9.0 : f32
        %s8 = vector.broadcast %k8 : f32 to vector<8xf32>
        %m8 = arith.mulf %x, %s8 : vector<8xf32>
        %n8 = arith.addf %a8, %m8 : vector<8xf32>
        %q8 = math.sqrt %n8 : vector<8xf32>
        %k9 = arith.constant 10.0 : f32
        %s9 = vector.broadcast %k9 : f32 to vector<8xf32>
        %m9 = arith.mulf %x, %s9 : vector<8xf32>
        %n9 = arith.addf %a9, %m9 : vector<8xf32>
        %q9 = math.sqrt %n9 : vector<8xf32>
        %k10 = arith.constant 11.0 : f32
        %s10 = vector.broadcast %k10 : f32 to vector<8xf32>
        %m10 = arith.mulf %x, %s10 : vector<8xf32>
        %n10 = arith.addf %a10, %m10 : vector<8xf32>
        %q10 = math.sqrt %n10 : vector<8xf32>
        %k11 = arith.constant 12.0 : f32
        %s11 = vector.broadcast %k11 : f32 to vector<8xf32>
        %m11 = arith.mulf %x, %s11 : vector<8xf32>
        %n11 = arith.addf %a11, %m11 : vector<8xf32>
        %q11 = math.sqrt %n11 : vector<8xf32>
        %k12 = arith.constant 13.0 : f32
        %s12 = vector.broadcast %k12 : f32 to vector<8xf32>
        %m12 = arith.mulf %x, %s12 : vector<8xf32>
        %n12 = arith.addf %a12, %m12 : vector<8xf32>
        %q12 = math.sqrt %n12 : vector<8xf32>
        %k13 = arith.constant 14.0 : f32
        %s13 = vector.broadcast %k13 : f32 to vector<8xf32>
        %m13 = arith.mulf %x, %s13 : vector<8xf32>
        %n13 = arith.addf %a13, %m13 : vector<8xf32>
        %q13 = math.sqrt %n13 : vector<8xf32>
        %k14 = arith.constant 15.0 : f32
        %s14 = vector.broadcast %k14 : f32 to vector<8xf32>
        %m14 = arith.mulf %x, %s14 : vector<8xf32>
        %n14 = arith.addf %a14, %m14 : vector<8xf32>
        %q14 = math.sqrt %n14 : vector<8xf32>
        %k15 = arith.constant 16.0 : f32
        %s15 = vector.broadcast %k15 : f32 to vector<8xf32>
        %m15 = arith.mulf %x, %s15 : vector<8xf32>
        %n15 = arith.addf %a15, %m15 : vector<8xf32>
        %q15 = math.sqrt %n15 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3, %q4, %q5, %q6, %q7, %q8, %q9, %q10, %q11, %q12, %q13, %q14, %q15 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf32>, vector<8xf32>
      %o1 = arith.constant 8 : index
      %p1 = arith.addi %base, %o1 : index
      vector.store %r#1, %out[%p1] : memref<?xf32>, vector<8xf32>
      %o2 = arith.constant 16 : index
      %p2 = arith.addi %base, %o2 : index
      vector.store %r#2, %out[%p2] : memref<?xf32>, vector<8xf32>
      %o3 = arith.constant 24 : index
      %p3 = arith.addi %base, %o3 : index
      vector.store %r#3, %out[%p3] : memref<?xf32>, vector<8xf32>
      %o4 = arith.constant 32 : index
      %p4 = arith.addi %base, %o4 : index
      vector.store %r#4, %out[%p4] : memref<?xf32>, vector<8xf32>
      %o5 = arith.constant 40 : index
      %p5 = arith.addi %base, %o5 : index
      vector.store %r#5, %out[%p5] : memref<?xf32>, vector<8xf32>
      %o6 = arith.constant 48 : index
      %p6 = arith.addi %base, %o6 : index
      vector.store %r#6, %out[%p6] : memref<?xf32>, vector<8xf32>
      %o7 = arith.constant 56 : index
      %p7 = arith.addi %base, %o7 : index
      vector.store %r#7, %out[%p7] : memref<?xf32>, vector<8xf32>
      %o8 = arith.constant 64 : index
      %p8 = arith.addi %base, %o8 : index
      vector.store %r#8, %out[%p8] : memref<?xf32>, vector<8xf32>
      %o9 = arith.constant 72 : index
      %p9 = arith.addi %base, %o9 : index
      vector.store %r#9, %out[%p9] : memref<?xf32>, vector<8xf32>
      %o10 = arith.constant 80 : index
      %p10 = arith.addi %base, %o10 : index
      vector.store %r#10, %out[%p10] : memref<?xf32>, vector<8xf32>
      %o11 = arith.constant 88 : index
      %p11 = arith.addi %base, %o11 : index
      vector.store %r#11, %out[%p11] : memref<?xf32>, vector<8xf32>
      %o12 = arith.constant 96 : index
      %p12 = arith.addi %base, %o12 : index
      vector.store %r#12, %out[%p12] : memref<?xf32>, vector<8xf32>
      %o13 = arith.constant 104 : index
      %p13 = arith.addi %base, %o13 : index
      vector.store %r#13, %out[%p13] : memref<?xf32>, vector<8xf32>
      %o14 = arith.constant 112 : index
      %p14 = arith.addi %base, %o14 : index
      vector.store %r#14, %out[%p14] : memref<?xf32>, vector<8xf32>
      %o15 = arith.constant 120 : index
      %p15 = arith.addi %base, %o15 : index
      vector.store %r#15, %out[%p15] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
