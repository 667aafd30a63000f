// RUN: xpu-opt %s -split-input-file | FileCheck %s
// RUN: xpu-opt %s -split-input-file --mlir-print-op-generic | xpu-opt -split-input-file | FileCheck %s

// The 512-register mode: a value of #xpu.grf_mode, on a target whose device
// has it (cri), on modules, kernels and spill measurements.

// CHECK-LABEL: gpu.module @xlarge [#xpu.target<arch = "cri", grf_mode = xlarge>]
// CHECK-SAME: xpu.grf_mode = #xpu.grf_mode<xlarge>
// CHECK-SAME: xpu.spill = #xpu.spill<grf_mode = xlarge, spill_size = 0, grf_count = 512, simd = 16>
// CHECK: gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<xlarge>}
gpu.module @xlarge [#xpu.target<arch = "cri", grf_mode = xlarge>]
    attributes {xpu.grf_mode = #xpu.grf_mode<xlarge>,
                xpu.spill = #xpu.spill<grf_mode = xlarge, spill_size = 0, grf_count = 512, simd = 16>} {
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<xlarge>} { gpu.return }
}

// -----

// The alias of cri's family resolves to it.
// CHECK-LABEL: gpu.module @family [#xpu.target<arch = "xe3p-xpc", grf_mode = xlarge>]
gpu.module @family [#xpu.target<arch = "xe3p-xpc", grf_mode = xlarge>] {}
