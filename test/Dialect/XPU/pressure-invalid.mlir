// RUN: xpu-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{live_bytes must be >= 0, got -1}}
gpu.module @m attributes {xpu.pressure = #xpu.pressure<live_bytes = -1, simd = 32, small_budget = 256, prediction = small>} {}

// -----

// expected-error @+1 {{simd must be 1, 8, 16 or 32, got 12}}
gpu.module @m attributes {xpu.pressure = #xpu.pressure<live_bytes = 64, simd = 12, small_budget = 256, prediction = small>} {}

// -----

// expected-error @+1 {{small_budget must be > 0 bytes per lane, got 0}}
gpu.module @m attributes {xpu.pressure = #xpu.pressure<live_bytes = 64, simd = 32, small_budget = 0, prediction = small>} {}

// -----

// expected-error @+2 {{expected one of [small, large, uncertain] for GRF mode predicted from a static register-pressure estimate, got: huge}}
// expected-error @+1 {{failed to parse XPU_PressureAttr parameter 'prediction'}}
gpu.module @m attributes {xpu.pressure = #xpu.pressure<live_bytes = 64, simd = 32, small_budget = 256, prediction = huge>} {}

// -----

// expected-error @+1 {{'gpu.module' op 'xpu.pressure' must be a #xpu.pressure attribute, got 448 : i64}}
gpu.module @m attributes {xpu.pressure = 448} {}

// -----

// expected-error @+1 {{'gpu.module' op 'xpu.auto_plan' must be a #xpu.auto_plan attribute, got #xpu.grf_mode<large>}}
gpu.module @m attributes {xpu.auto_plan = #xpu.grf_mode<large>} {}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op 'xpu.auto_plan' only valid on gpu.module and gpu.binary}}
  gpu.func @k() kernel attributes {xpu.auto_plan = #xpu.auto_plan<speculate>} {
    gpu.return
  }
}

// -----

// expected-error @+1 {{'xpu.pressure' only valid on gpu.module, gpu.binary and kernel functions}}
module attributes {xpu.pressure = #xpu.pressure<live_bytes = 64, simd = 32, small_budget = 256, prediction = small>} {}
