// RUN: xpu-opt %s --xpu-export-xevm-objects | FileCheck %s
// A module that failed in an earlier stage was never compiled: it keeps its
// #xpu.target, its error and its attributes; the others are exported.

// CHECK-LABEL: gpu.binary @good [#gpu.object<#xevm.target<chip = "pvc">
// CHECK-LABEL: gpu.module @failed [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.error = #xpu.failure<stage = lower, message = "lowering failed">}
// CHECK:         gpu.func @bad() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>}

module attributes {gpu.container_module} {
  gpu.binary @good [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, bin = "\7FELFabcd">]
  gpu.module @failed [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.error = #xpu.failure<stage = lower, message = "lowering failed">} {
    gpu.func @bad() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>} { gpu.return }
  }
}
