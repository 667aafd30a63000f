// RUN: xpu-opt %s --xpu-select-grf-mode=predict=true | FileCheck %s
// RUN: xpu-opt %s --xpu-select-grf-mode | FileCheck %s --check-prefix=OFF

// The register-pressure estimate on small handwritten kernels: peak live
// bytes per lane from Liveness and the value types, against the budget at
// each kernel's sub-group size. pvc at SIMD32: small budget 128 x 64 / 32 =
// 256 bytes per lane; at SIMD16 (the default): 512; acm-g10 at SIMD8:
// 128 x 32 / 8 = 512 bytes per lane. Constants and kernel arguments are free.

// OFF-NOT: xpu.pressure
// OFF-NOT: xpu.auto_plan

// Two vector<8xf32> accumulators carried by a loop: at the addf, %a (dying),
// %x, %s and %b are live: 4 x 32 = 128 bytes (50% of 256).
// CHECK-LABEL: gpu.module @loop
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<predict_small>
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 128, simd = 32, small_budget = 256, prediction = small>
// CHECK: gpu.func @two_acc
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 128, simd = 32, small_budget = 256, prediction = small>
gpu.module @loop [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 32>] {
  gpu.func @two_acc(%in: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<8xf32>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z, %b = %z)
        -> (vector<8xf32>, vector<8xf32>) {
      %x = vector.load %in[%i] : memref<?xf32>, vector<8xf32>
      %s = arith.addf %a, %x : vector<8xf32>
      %t = arith.mulf %b, %x : vector<8xf32>
      scf.yield %s, %t : vector<8xf32>, vector<8xf32>
    }
    vector.store %r#0, %in[%c0] : memref<?xf32>, vector<8xf32>
    vector.store %r#1, %in[%c1] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
}

// Values live across the loop (loaded before, used after) count inside the
// body: %v (vector<16xf32>, 64 bytes), %u (vector<8xf32>, 32) and %tid
// (index, 8 bytes), plus %a, %x and %s (3 x 64) at the addf: 296 bytes,
// 115.6% of 256: uncertain (between 110% and 117%), so the plan is
// measurement.
// CHECK-LABEL: gpu.module @across
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<measure>
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 296, simd = 32, small_budget = 256, prediction = uncertain>
gpu.module @across [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 32>] {
  gpu.func @k(%in: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<16xf32>
    %tid = gpu.global_id x
    %v = vector.load %in[%tid] : memref<?xf32>, vector<16xf32>
    %u = vector.load %in[%c1] : memref<?xf32>, vector<8xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (vector<16xf32>) {
      %x = vector.load %in[%i] : memref<?xf32>, vector<16xf32>
      %s = arith.addf %a, %x : vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    %w = arith.addf %r, %v : vector<16xf32>
    vector.store %w, %in[%tid] : memref<?xf32>, vector<16xf32>
    vector.store %u, %in[%c0] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
}

// Eight vector<16xf32> accumulators (64 bytes each) plus %x and one sum:
// 640 bytes per lane. 250% of pvc's 256-byte budget (SIMD32): large; 125%
// of acm-g10's 512 bytes (SIMD8): large too.
// CHECK-LABEL: gpu.module @wide_pvc
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<predict_large>
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 640, simd = 32, small_budget = 256, prediction = large>
// CHECK-LABEL: gpu.module @wide_acm
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<predict_large>
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 640, simd = 8, small_budget = 512, prediction = large>
gpu.module @wide_pvc [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 32>] {
  gpu.func @k(%in: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<16xf32>
    %r:8 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z)
        -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
      %x = vector.load %in[%i] : memref<?xf32>, vector<16xf32>
      %s0 = arith.addf %a0, %x : vector<16xf32>
      %s1 = arith.addf %a1, %x : vector<16xf32>
      %s2 = arith.addf %a2, %x : vector<16xf32>
      %s3 = arith.addf %a3, %x : vector<16xf32>
      %s4 = arith.addf %a4, %x : vector<16xf32>
      %s5 = arith.addf %a5, %x : vector<16xf32>
      %s6 = arith.addf %a6, %x : vector<16xf32>
      %s7 = arith.addf %a7, %x : vector<16xf32>
      scf.yield %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
    }
    vector.store %r#0, %in[%c0] : memref<?xf32>, vector<16xf32>
    vector.store %r#7, %in[%c1] : memref<?xf32>, vector<16xf32>
    gpu.return
  }
}

gpu.module @wide_acm [#xpu.target<arch = "acm-g10", grf_mode = auto, subgroup_size = 8>] {
  gpu.func @k(%in: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<16xf32>
    %r:8 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z)
        -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
      %x = vector.load %in[%i] : memref<?xf32>, vector<16xf32>
      %s0 = arith.addf %a0, %x : vector<16xf32>
      %s1 = arith.addf %a1, %x : vector<16xf32>
      %s2 = arith.addf %a2, %x : vector<16xf32>
      %s3 = arith.addf %a3, %x : vector<16xf32>
      %s4 = arith.addf %a4, %x : vector<16xf32>
      %s5 = arith.addf %a5, %x : vector<16xf32>
      %s6 = arith.addf %a6, %x : vector<16xf32>
      %s7 = arith.addf %a7, %x : vector<16xf32>
      scf.yield %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
    }
    vector.store %r#0, %in[%c0] : memref<?xf32>, vector<16xf32>
    vector.store %r#7, %in[%c1] : memref<?xf32>, vector<16xf32>
    gpu.return
  }
}

// The default sub-group size (16 on pvc) doubles the budget per lane: the
// same two accumulators are 25% of 512. A kernel's own size wins over the
// target's: at SIMD16 inside a SIMD32 target, the budget is 512 too.
// CHECK-LABEL: gpu.module @loop_default
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 128, simd = 16, small_budget = 512, prediction = small>
// CHECK: gpu.func @two_acc
// CHECK-SAME: intel_reqd_sub_group_size = 16 : i32
// CHECK-LABEL: gpu.module @kernel_size
// CHECK: gpu.func @k
// CHECK-SAME: intel_reqd_sub_group_size = 16 : i32
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 264, simd = 16, small_budget = 512, prediction = small>
gpu.module @loop_default [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @two_acc(%in: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<8xf32>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z, %b = %z)
        -> (vector<8xf32>, vector<8xf32>) {
      %x = vector.load %in[%i] : memref<?xf32>, vector<8xf32>
      %s = arith.addf %a, %x : vector<8xf32>
      %t = arith.mulf %b, %x : vector<8xf32>
      scf.yield %s, %t : vector<8xf32>, vector<8xf32>
    }
    vector.store %r#0, %in[%c0] : memref<?xf32>, vector<8xf32>
    vector.store %r#1, %in[%c1] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
}
gpu.module @kernel_size [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 32>] {
  gpu.func @k(%in: memref<?xf32>, %n: index) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<16xf32>
    %tid = gpu.global_id x
    %v = vector.load %in[%tid] : memref<?xf32>, vector<16xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (vector<16xf32>) {
      %x = vector.load %in[%i] : memref<?xf32>, vector<16xf32>
      %s = arith.addf %a, %x : vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    %w = arith.addf %r, %v : vector<16xf32>
    vector.store %w, %in[%tid] : memref<?xf32>, vector<16xf32>
    gpu.return
  }
}

// Integers and floats narrower than 32 bits take a 32-bit slot per lane (IGC
// at SIMD16 spills f16 kernels where f32 kernels of the same element count
// spill): the two-accumulator loop in vector<8xf16> is 4 x 8 x 4 = 128
// bytes, as in f32, and an i1 or i8 scalar live across the loop 4 each.
// CHECK-LABEL: gpu.module @narrow
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 136, simd = 16, small_budget = 512, prediction = small>
gpu.module @narrow [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @two_acc(%in: memref<?xf16>, %flags: memref<?xi8>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<8xf16>
    %f = memref.load %flags[%c0] : memref<?xi8>
    %b = arith.trunci %f : i8 to i1
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z, %c = %z)
        -> (vector<8xf16>, vector<8xf16>) {
      %x = vector.load %in[%i] : memref<?xf16>, vector<8xf16>
      %s = arith.addf %a, %x : vector<8xf16>
      %t = arith.mulf %c, %x : vector<8xf16>
      scf.yield %s, %t : vector<8xf16>, vector<8xf16>
    }
    %y = arith.select %b, %r#0, %r#1 : vector<8xf16>
    memref.store %f, %flags[%c1] : memref<?xi8>
    vector.store %y, %in[%c0] : memref<?xf16>, vector<8xf16>
    gpu.return
  }
}

// Nested loops: the inner loop takes the outer accumulators as inits and
// returns them in the same registers, so at the inner scf.for only the
// larger of the two sets counts: 2 x 32 bytes plus %i (8), not 4 x 32 + 8 =
// 136. The peak is then the inner body's, as in @loop_default: %c, %x, %s
// and %d at the addf, 4 x 32 = 128 bytes.
// CHECK-LABEL: gpu.module @nested
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 128, simd = 16, small_budget = 512, prediction = small>
gpu.module @nested [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @two_acc(%in: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<8xf32>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z, %b = %z)
        -> (vector<8xf32>, vector<8xf32>) {
      %t:2 = scf.for %j = %c0 to %n step %c1 iter_args(%c = %a, %d = %b)
          -> (vector<8xf32>, vector<8xf32>) {
        %o = arith.addi %i, %j : index
        %x = vector.load %in[%o] : memref<?xf32>, vector<8xf32>
        %s = arith.addf %c, %x : vector<8xf32>
        %m = arith.mulf %d, %x : vector<8xf32>
        scf.yield %s, %m : vector<8xf32>, vector<8xf32>
      }
      scf.yield %t#0, %t#1 : vector<8xf32>, vector<8xf32>
    }
    vector.store %r#0, %in[%c0] : memref<?xf32>, vector<8xf32>
    vector.store %r#1, %in[%c1] : memref<?xf32>, vector<8xf32>
    gpu.return
  }
}

// Only kernels that resolve to auto are estimated; a forced module is not,
// nor a device without large GRF (nothing to predict).
// CHECK-LABEL: gpu.module @forced
// CHECK-NOT: xpu.pressure
// CHECK: gpu.return
gpu.module @forced [#xpu.target<arch = "pvc", grf_mode = small>] {
  gpu.func @k() kernel {
    gpu.return
  }
}
// CHECK-LABEL: gpu.module @tgl
// CHECK-NOT: xpu.pressure
// CHECK: gpu.return
gpu.module @tgl [#xpu.target<arch = "tgllp", grf_mode = auto>] {
  gpu.func @k() kernel {
    gpu.return
  }
}

// The thresholds are options: with both bounds at 100%, @across
// (115.6%) becomes predicted large; with speculation, uncertain modules
// speculate.
// RUN: xpu-opt %s --xpu-select-grf-mode="predict=true predict-small-below=100 predict-large-above=100" | FileCheck %s --check-prefix=BOUND
// BOUND-LABEL: gpu.module @across
// BOUND-SAME: xpu.auto_plan = #xpu.auto_plan<predict_large>
// RUN: xpu-opt %s --xpu-select-grf-mode="predict=true speculative=true" | FileCheck %s --check-prefix=SPEC
// SPEC-LABEL: gpu.module @across
// SPEC-SAME: xpu.auto_plan = #xpu.auto_plan<speculate>
// SPEC-LABEL: gpu.module @wide_acm
// SPEC-SAME: xpu.auto_plan = #xpu.auto_plan<predict_large>

// An inverted band would predict a module both small and large: refused by
// the pass, the pipeline and Python alike.
// RUN: not xpu-opt %s --xpu-select-grf-mode="predict=true predict-small-below=120 predict-large-above=110" 2>&1 | FileCheck %s --check-prefix=INVERTED
// RUN: not xpu-opt %s --xpu-codegen-pipeline="arch=pvc predict=true predict-small-below=120 predict-large-above=110" 2>&1 | FileCheck %s --check-prefix=INVERTED
// INVERTED: predict-small-below (120) must not exceed predict-large-above (110)
