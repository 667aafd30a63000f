// Forcing 512 registers per thread on a device without that mode is a
// located error naming the device's modes, wherever the mode is asked for:
// the pass option (with Triton's spelling 512), a kernel's or a module's
// xpu.grf_mode.
// RUN: not xpu-opt %s --xpu-attach-target="arch=pvc grf-mode=512" 2>&1 | FileCheck %s --check-prefix=ATTACH
// RUN: xpu-opt %s --xpu-attach-target="arch=cri grf-mode=512" | FileCheck %s --check-prefix=CRI
// RUN: xpu-opt %s --xpu-attach-target="arch=cri grf-mode=256" | FileCheck %s --check-prefix=CRI256
// RUN: not xpu-opt %S/Inputs/select-xlarge.mlir --xpu-select-grf-mode -split-input-file -verify-diagnostics

// ATTACH: force-512.mlir:[[@LINE+4]]:1: error: xpu-attach-target: arch 'pvc' does not support xlarge GRF mode (512 registers per thread); its modes: 128, 256 registers
// CRI: gpu.module @m [#xpu.target<arch = "cri", grf_mode = xlarge>]
// CRI256: gpu.module @m [#xpu.target<arch = "cri", grf_mode = large>]
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k() kernel { gpu.return }
}
}
