// RUN: xpu-opt %s --xpu-attach-target="arch=pvc grf-mode=auto" | FileCheck %s --check-prefix=ALL
// RUN: xpu-opt %s --xpu-attach-target="arch=pvc grf-mode=auto" --xpu-attach-target="arch=pvc grf-mode=auto" | FileCheck %s --check-prefix=ALL
// RUN: xpu-opt %s --xpu-attach-target="arch=dg2-g10 grf-mode=large module=^main_" | FileCheck %s --check-prefix=REGEX
// RUN: xpu-opt %s --xpu-attach-target="arch=pvc grf-mode=small" --xpu-attach-target="arch=acm-g10 grf-mode=large flags=-cl-fast-relaxed-math" | FileCheck %s --check-prefix=MULTI
// RUN: xpu-opt %s --xpu-attach-target="arch=tgllp grf-mode=default" | FileCheck %s --check-prefix=TGL

// Idempotent: running twice attaches one target.
// ALL: gpu.module @main_kernels [#xpu.target<arch = "pvc", grf_mode = auto>] {
// ALL: gpu.module @other [#xpu.target<arch = "pvc", grf_mode = auto>] {
// ALL: gpu.module @existing [#xpu.target<arch = "acm-g11", grf_mode = small>, #xpu.target<arch = "pvc", grf_mode = auto>] {

// REGEX: gpu.module @main_kernels [#xpu.target<arch = "dg2-g10", grf_mode = large>] {
// REGEX: gpu.module @other {
// REGEX: gpu.module @existing [#xpu.target<arch = "acm-g11", grf_mode = small>] {

// MULTI: gpu.module @main_kernels [#xpu.target<arch = "pvc", grf_mode = small>, #xpu.target<arch = "acm-g10", grf_mode = large, flags = "-cl-fast-relaxed-math">] {

// TGL: gpu.module @main_kernels [#xpu.target<arch = "tgllp", grf_mode = default>] {

module attributes {gpu.container_module} {
  gpu.module @main_kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @other {
  }
  gpu.module @existing [#xpu.target<arch = "acm-g11", grf_mode = small>] {
  }
}
