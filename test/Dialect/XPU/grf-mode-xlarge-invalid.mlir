// RUN: xpu-opt %s -split-input-file -verify-diagnostics

// 512 registers per thread where the device has no such mode (IGC 2.40:
// "512-grf-per-thread option is not supported on this platform" on pvc,
// bmg, ptl; IGC 1.0.12504 has no 512 mode at all): a located error naming
// the device's modes.

// expected-error @+1 {{arch 'pvc' does not support xlarge GRF mode (512 registers per thread); its modes: 128, 256 registers (use small, large, auto or default)}}
gpu.module @pvc [#xpu.target<arch = "pvc", grf_mode = xlarge>] {}

// -----

// expected-error @+1 {{arch 'bmg' does not support xlarge GRF mode (512 registers per thread); its modes: 128, 256 registers}}
gpu.module @bmg [#xpu.target<arch = "bmg", grf_mode = xlarge>] {}

// -----

// expected-error @+1 {{arch 'tgllp' does not support xlarge GRF mode (512 registers per thread); its modes: 128 registers}}
gpu.module @tgllp [#xpu.target<arch = "tgllp", grf_mode = xlarge>] {}

// -----

// A spill measurement in 512-register mode is fine on its own.
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = xlarge, spill_size = 64, grf_count = 512, simd = 16>} {}
