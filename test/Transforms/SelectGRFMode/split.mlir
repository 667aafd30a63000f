// RUN: xpu-opt %s --xpu-select-grf-mode | FileCheck %s

// Kernels resolve to three modes: the target-following group stays in
// @kernels, the others move to @kernels_large and @kernels_small; the helper
// function is copied into every part and launches are redirected.

// CHECK-LABEL: gpu.module @kernels [#xpu.target<arch = "pvc", grf_mode = auto>] {
// CHECK-NEXT:    func.func @helper
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.func @follows_target() kernel
// CHECK-NOT:     gpu.func
// CHECK:       gpu.module @kernels_large [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
// CHECK-NEXT:    func.func @helper
// CHECK:         gpu.func @big() kernel attributes {intel_reqd_sub_group_size = 16 : i32, xpu.grf_mode = #xpu.grf_mode<large>}
// CHECK:         gpu.func @bigger() kernel attributes {intel_reqd_sub_group_size = 16 : i32, xpu.grf_mode = #xpu.grf_mode<large>}
// CHECK-NOT:     gpu.func
// CHECK:       gpu.module @kernels_small [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.grf_mode = #xpu.grf_mode<small>} {
// CHECK-NEXT:    func.func @helper
// CHECK:         gpu.func @tiny() kernel attributes {intel_reqd_sub_group_size = 16 : i32, xpu.grf_mode = #xpu.grf_mode<small>}
// CHECK-NOT:     gpu.func
// CHECK:       gpu.module @other [#xpu.target<arch = "pvc", grf_mode = auto>] {

// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @kernels_large::@big
// CHECK: gpu.launch_func  @kernels::@follows_target
// CHECK: gpu.launch_func  @kernels_small::@tiny
// CHECK: gpu.launch_func  @kernels_large::@bigger
// CHECK: gpu.launch_func  @other::@big

module attributes {gpu.container_module} {
  gpu.module @kernels [#xpu.target<arch = "pvc", grf_mode = auto>] {
    func.func @helper() { return }
    gpu.func @big() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>} { gpu.return }
    gpu.func @follows_target() kernel { gpu.return }
    gpu.func @tiny() kernel attributes {xpu.grf_mode = #xpu.grf_mode<small>} { gpu.return }
    gpu.func @bigger() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>} { gpu.return }
  }
  gpu.module @other [#xpu.target<arch = "pvc", grf_mode = auto>] {
    gpu.func @big() kernel { gpu.return }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@big blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@follows_target blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@tiny blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @kernels::@bigger blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @other::@big blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
