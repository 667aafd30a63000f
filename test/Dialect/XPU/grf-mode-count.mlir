// RUN: xpu-opt %s -split-input-file | FileCheck %s
// RUN: xpu-opt %s -split-input-file --mlir-print-op-generic | xpu-opt -split-input-file | FileCheck %s

// Register counts of Xe3/Xe3P's variable register file are values of
// #xpu.grf_mode, written as numbers, on targets, modules, kernels and spill
// measurements; 128, 256 and 512 (Triton's spellings) are the modes.

// CHECK-LABEL: gpu.module @count [#xpu.target<arch = "ptl", grf_mode = 160>]
// CHECK-SAME: xpu.grf_mode = #xpu.grf_mode<96>
// CHECK-SAME: xpu.spill = #xpu.spill<grf_mode = 192, spill_size = 64, grf_count = 192, simd = 16>
// CHECK: gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<32>}
// CHECK: gpu.func @l() kernel attributes {xpu.grf_mode = #xpu.grf_mode<64>}
gpu.module @count [#xpu.target<arch = "ptl", grf_mode = 160>]
    attributes {xpu.grf_mode = #xpu.grf_mode<96>,
                xpu.spill = #xpu.spill<grf_mode = 192, spill_size = 64, grf_count = 192, simd = 16>} {
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<32>} { gpu.return }
  gpu.func @l() kernel attributes {xpu.grf_mode = #xpu.grf_mode<"64">} { gpu.return }
}

// -----

// Triton's spellings of the modes print as the modes.
// CHECK-LABEL: gpu.module @modes [#xpu.target<arch = "cri", grf_mode = xlarge>]
// CHECK-SAME: xpu.grf_mode = #xpu.grf_mode<small>
// CHECK: gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>}
gpu.module @modes [#xpu.target<arch = "cri", grf_mode = 512>]
    attributes {xpu.grf_mode = #xpu.grf_mode<128>} {
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<256>} { gpu.return }
}
