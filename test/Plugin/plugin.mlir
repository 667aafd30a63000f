// Debian's stock mlir-opt loads the plugin, parses xpu IR and runs
// xpu-attach-target. mlir-opt exits 0 even when a plugin fails to load, so
// the checks are on the output: without the plugin neither the dialect nor
// the pass exists and the CHECK lines cannot match.
//
// RUN: %mlir_opt --load-dialect-plugin=%xpu_plugin --load-pass-plugin=%xpu_plugin \
// RUN:   --pass-pipeline="builtin.module(xpu-attach-target{arch=acm-g10 grf-mode=large})" %s 2>&1 \
// RUN:   | FileCheck %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-NOT: Failed to load
// CHECK: gpu.module @kernels [#xpu.target<arch = "pvc", grf_mode = small>, #xpu.target<arch = "acm-g10", grf_mode = large>] attributes {xpu.grf_mode = #xpu.grf_mode<small>}
// NOPLUGIN: attribute created with unregistered dialect

module attributes {gpu.container_module} {
  gpu.module @kernels [#xpu.target<arch = "pvc", grf_mode = small>]
      attributes {xpu.grf_mode = #xpu.grf_mode<small>} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
