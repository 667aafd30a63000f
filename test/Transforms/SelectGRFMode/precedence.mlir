// RUN: xpu-opt %s --xpu-select-grf-mode --split-input-file | FileCheck %s

// Every kernel follows the module's mode: no split, the module keeps it.
// CHECK-LABEL: gpu.module @module_mode
// CHECK-SAME: xpu.grf_mode = #xpu.grf_mode<large>
// CHECK-NOT: gpu.module @module_mode_
module attributes {gpu.container_module} {
  gpu.module @module_mode [#xpu.target<arch = "pvc", grf_mode = small>]
      attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
    gpu.func @a() kernel { gpu.return }
    gpu.func @b() kernel { gpu.return }
  }
}

// -----

// A kernel's own mode beats the module's; all kernels agree, so the module
// takes the kernels' mode.
// CHECK-LABEL: gpu.module @kernel_beats_module
// CHECK-SAME: xpu.grf_mode = #xpu.grf_mode<small>
module attributes {gpu.container_module} {
  gpu.module @kernel_beats_module [#xpu.target<arch = "pvc", grf_mode = auto>]
      attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
    gpu.func @a() kernel attributes {xpu.grf_mode = #xpu.grf_mode<small>} { gpu.return }
  }
}

// -----

// Nothing explicit: the target's mode applies and nothing is stamped.
// CHECK-LABEL: gpu.module @target_mode [#xpu.target<arch = "pvc", grf_mode = auto>] {
module attributes {gpu.container_module} {
  gpu.module @target_mode [#xpu.target<arch = "pvc", grf_mode = auto>] {
    gpu.func @a() kernel { gpu.return }
  }
}

// -----

// Modules without an #xpu.target are not touched.
// CHECK-LABEL: gpu.module @untargeted {
// CHECK: gpu.func @a() kernel attributes {xpu.grf_mode = #xpu.grf_mode<small>}
// CHECK: gpu.func @b() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>}
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @untargeted {
    gpu.func @a() kernel attributes {xpu.grf_mode = #xpu.grf_mode<small>} { gpu.return }
    gpu.func @b() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>} { gpu.return }
  }
}
