// RUN: xpu-opt %s | FileCheck %s
// RUN: xpu-opt %s | xpu-opt | FileCheck %s
// RUN: xpu-opt %s --mlir-print-op-generic | xpu-opt | FileCheck %s

// CHECK: gpu.module @predicted
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<predict_large>
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 448, simd = 32, small_budget = 256, prediction = large>
gpu.module @predicted [#xpu.target<arch = "pvc", grf_mode = auto>]
    attributes {xpu.auto_plan = #xpu.auto_plan<predict_large>,
                xpu.pressure = #xpu.pressure<live_bytes = 448, simd = 32, small_budget = 256, prediction = large>} {
  // CHECK: gpu.func @k() kernel attributes {xpu.pressure = #xpu.pressure<live_bytes = 448, simd = 32, small_budget = 256, prediction = large>}
  gpu.func @k() kernel attributes {xpu.pressure = #xpu.pressure<live_bytes = 448, simd = 32, small_budget = 256, prediction = large>} {
    gpu.return
  }
}

// CHECK: gpu.binary @speculated {
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<speculate>
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 260, simd = 32, small_budget = 256, prediction = uncertain>
gpu.binary @speculated {
    xpu.auto_plan = #xpu.auto_plan<speculate>,
    xpu.pressure = #xpu.pressure<live_bytes = 260, simd = 32, small_budget = 256, prediction = uncertain>}
    [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, "">]

// CHECK: gpu.module @measured
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<measure>
// CHECK-SAME: xpu.pressure = #xpu.pressure<live_bytes = 0, simd = 8, small_budget = 512, prediction = small>
gpu.module @measured [#xpu.target<arch = "acm-g10", grf_mode = auto>]
    attributes {xpu.auto_plan = #xpu.auto_plan<measure>,
                xpu.pressure = #xpu.pressure<live_bytes = 0, simd = 8, small_budget = 512, prediction = small>} {
}

// The plan xpu-native-codegen{verify-predicted-large=false} runs for a
// predicted-large module is the dialect's own AutoPlan too.
// CHECK: gpu.binary @trusted {
// CHECK-SAME: xpu.auto_plan = #xpu.auto_plan<predict_large_unverified>
gpu.binary @trusted {
    xpu.auto_plan = #xpu.auto_plan<predict_large_unverified>}
    [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, "">]
