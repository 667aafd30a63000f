// RUN: not xpu-opt %s --xpu-select-grf-mode -split-input-file -verify-diagnostics | FileCheck %s
// A forced large GRF mode whose work-group (known_block_size) cannot run in
// it is an error at the kernel: on pvc large mode has 4 threads per vector
// engine, 8 x 4 x 16 = 512 work-items at SIMD16 (the device's default
// sub-group size, or the kernel's own).

gpu.module @target_large [#xpu.target<arch = "pvc", grf_mode = large>] {
  // expected-error @+1 {{xpu-select-grf-mode: large GRF mode cannot launch: kernel 'k' has a work-group of 1024 work-items; 256-register GRF mode on pvc runs at most 512 at SIMD16 (8 vector engines x 4 threads x 16 lanes, device limit 1024)}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 64, 16, 1>} { gpu.return }
}

// -----

gpu.module @kernel_large [#xpu.target<arch = "acm-g10", grf_mode = auto>] {
  // expected-error @+1 {{kernel 'k' has a work-group of 1024 work-items; 256-register GRF mode on acm-g10 runs at most 512 at SIMD8 (16 vector engines x 4 threads x 8 lanes, device limit 1024)}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>, intel_reqd_sub_group_size = 8 : i32, xpu.grf_mode = #xpu.grf_mode<large>} { gpu.return }
}

// -----

// Fits: 512 work-items, or SIMD32 (the target's sub-group size), or auto
// (decided by xpu-native-codegen, which never keeps large here).
// CHECK-LABEL: gpu.module @fits
// CHECK-LABEL: gpu.module @simd32
// CHECK-LABEL: gpu.module @auto
gpu.module @fits [#xpu.target<arch = "pvc", grf_mode = large>] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 512, 1, 1>} { gpu.return }
}
gpu.module @simd32 [#xpu.target<arch = "pvc", grf_mode = large, subgroup_size = 32>] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} { gpu.return }
}
gpu.module @auto [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} { gpu.return }
}
