// max-kernels bounds a linked module: consecutive compatible modules are cut
// into batches of at most that many kernels; a batch of one stays as it was.
// Modules with other sub-group sizes or flags are not compatible.
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc grf-mode=small module=^[a-z]},xpu-select-grf-mode,xpu-link-modules{max-kernels=3})" | FileCheck %s

// CHECK: gpu.module @xpu_linked [#xpu.target<arch = "pvc", grf_mode = small>] attributes {xpu.linked = [{kernels = {k = "k"}, module = "m0"}, {kernels = {k = "k_m1"}, module = "m1"}, {kernels = {k = "k_m2"}, module = "m2"}]}
// CHECK: gpu.module @xpu_linked_0 [#xpu.target<arch = "pvc", grf_mode = small>] attributes {xpu.linked = [{kernels = {k = "k"}, module = "m3"}, {kernels = {k = "k_m5"}, module = "m5"}]}
// CHECK: gpu.module @Xm4 [#xpu.target<arch = "pvc", grf_mode = small, subgroup_size = 32>
// CHECK: gpu.module @Xm6 [#xpu.target<arch = "pvc", grf_mode = small, flags = "-cl-fast-relaxed-math">
// CHECK: gpu.module @three
// CHECK-NOT: xpu.linked
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked::@k blocks
// CHECK: gpu.launch_func  @xpu_linked::@k_m1 blocks
// CHECK: gpu.launch_func  @xpu_linked::@k_m2 blocks
// CHECK: gpu.launch_func  @xpu_linked_0::@k blocks
// CHECK: gpu.launch_func  @Xm4::@k blocks
// CHECK: gpu.launch_func  @xpu_linked_0::@k_m5 blocks

module attributes {gpu.container_module} {
  gpu.module @m0 {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @m1 {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @m2 {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @m3 {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @Xm4 [#xpu.target<arch = "pvc", grf_mode = small, subgroup_size = 32>] {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @m5 {
    gpu.func @k() kernel { gpu.return }
  }
  gpu.module @Xm6 [#xpu.target<arch = "pvc", grf_mode = small, flags = "-cl-fast-relaxed-math">] {
    gpu.func @k() kernel { gpu.return }
  }
  // As many kernels as max-kernels: alone.
  gpu.module @three {
    gpu.func @k0() kernel { gpu.return }
    gpu.func @k1() kernel { gpu.return }
    gpu.func @k2() kernel { gpu.return }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @m1::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @m2::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @m3::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @Xm4::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @m5::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
