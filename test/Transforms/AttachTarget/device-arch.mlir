// A gpu.module's `xpu.device_arch` names the device it is compiled for:
// xpu-attach-target gives it a target of that arch instead of the pass's
// `arch` (the other options still apply); modules without one get `arch`.
// RUN: xpu-opt %s --xpu-attach-target="arch=pvc grf-mode=auto" | FileCheck %s
// RUN: xpu-opt %s --xpu-attach-target="arch=pvc grf-mode=auto" --xpu-attach-target="arch=pvc grf-mode=auto" | FileCheck %s
// The device must have what the options ask for, as for `arch`.
// RUN: not xpu-opt %s --xpu-attach-target="arch=pvc grf-mode=large" 2>&1 | FileCheck %s --check-prefix=LARGE

// CHECK: gpu.module @on_dg2 [#xpu.target<arch = "dg2-g10", grf_mode = auto>] attributes {xpu.device_arch = "dg2-g10"} {
// CHECK: gpu.module @on_tgl [#xpu.target<arch = "tgllp", grf_mode = auto>] attributes {xpu.device_arch = "tgllp"} {
// CHECK: gpu.module @default [#xpu.target<arch = "pvc", grf_mode = auto>] {

// LARGE: device-arch.mlir:[[@LINE+8]]:3: error: xpu-attach-target: arch 'tgllp' does not support large GRF mode (256 registers per thread: IGC would ignore the flag and build 128); use small, auto or default

module attributes {gpu.container_module} {
  gpu.module @on_dg2 attributes {xpu.device_arch = "dg2-g10"} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @on_tgl attributes {xpu.device_arch = "tgllp"} {
  }
  gpu.module @default {
  }
}
