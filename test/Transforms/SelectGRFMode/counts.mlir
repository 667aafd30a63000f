// RUN: not xpu-opt %s --xpu-select-grf-mode -split-input-file -verify-diagnostics | FileCheck %s
// Register counts of Xe3's variable register file (ptl: 10 threads per
// vector engine up to 96 registers, 8 at 128, 6 at 160, 5 at 192, 4 at 256)
// as forced modes: the launch limits use the count's own threads.

// 160 registers run 8 x 6 x 16 = 768 work-items at SIMD16.
gpu.module @forced_160 [#xpu.target<arch = "ptl", grf_mode = 160>] {
  // expected-error @+1 {{xpu-select-grf-mode: 160-register count cannot launch: kernel 'k' has a work-group of 1024 work-items; 160-register GRF mode on ptl runs at most 768 at SIMD16 (8 vector engines x 6 threads x 16 lanes, device limit 1024)}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} { gpu.return }
}

// -----

// The same work-group fits 128 (8 threads) and 96 (10 threads), and 160 at
// SIMD32.
// CHECK-LABEL: gpu.module @forced_128
// CHECK-LABEL: gpu.module @forced_96
// CHECK-SAME: attributes {xpu.grf_mode = #xpu.grf_mode<96>}
// CHECK-LABEL: gpu.module @simd32
gpu.module @forced_128 [#xpu.target<arch = "ptl", grf_mode = 128>] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} { gpu.return }
}
gpu.module @forced_96 [#xpu.target<arch = "ptl", grf_mode = auto>] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>, xpu.grf_mode = #xpu.grf_mode<96>} { gpu.return }
}
gpu.module @simd32 [#xpu.target<arch = "ptl", grf_mode = 160, subgroup_size = 32>] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} { gpu.return }
}

// -----

// A kernel's count the target's device does not have.
gpu.module @bmg [#xpu.target<arch = "bmg", grf_mode = auto>] {
  // expected-error @+1 {{xpu-select-grf-mode: 192-register count requested, but arch 'bmg' does not have it (its counts: 32, 64, 96, 128, 256)}}
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<192>} { gpu.return }
}

// -----

// Kernels with different counts get modules of their own, named after them.
// CHECK-LABEL: gpu.module @mixed [#xpu.target<arch = "cri", grf_mode = auto>] attributes {xpu.grf_mode = #xpu.grf_mode<64>}
// CHECK: gpu.func @a()
// CHECK-LABEL: gpu.module @mixed_192 [#xpu.target<arch = "cri", grf_mode = auto>] attributes {xpu.grf_mode = #xpu.grf_mode<192>}
// CHECK: gpu.func @b()
gpu.module @mixed [#xpu.target<arch = "cri", grf_mode = auto>] {
  gpu.func @a() kernel attributes {xpu.grf_mode = #xpu.grf_mode<64>} { gpu.return }
  gpu.func @b() kernel attributes {xpu.grf_mode = #xpu.grf_mode<192>} { gpu.return }
}
