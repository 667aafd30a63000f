// Modules with the same targets and GRF policy are merged into one; colliding
// symbols are renamed, launches follow, and xpu.linked records the parts.
// RUN: xpu-opt %s --split-input-file --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc module=^[a-z]},xpu-select-grf-mode,xpu-link-modules)" | FileCheck %s

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xpu_linked [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.linked = [
// CHECK-SAME: {kernels = {scale = "scale"}, module = "a"},
// CHECK-SAME: {duplicates = ["b_twin"], kernels = {scale = "scale_b"}, module = "b"},
// CHECK-SAME: {kernels = {add = "add", scale = "scale_c"}, module = "c"}]}
// CHECK: func.func @helper(
// CHECK: gpu.func @scale(
// CHECK: func.call @helper(
// CHECK: func.func @helper_b(
// CHECK: gpu.func @scale_b(
// CHECK: func.call @helper_b(
// CHECK: gpu.func @scale_c(
// CHECK: gpu.func @add(
// CHECK-NOT: gpu.module @a
// CHECK-NOT: gpu.module @b
// CHECK-NOT: gpu.module @c
// Not linked: another mode, another target, a failed module.
// CHECK: gpu.module @big {{.*}}xpu.grf_mode = #xpu.grf_mode<large>
// CHECK: gpu.module @Tgl [#xpu.target<arch = "tgllp"
// CHECK: gpu.module @failed {{.*}}xpu.error
// CHECK: gpu.module @Untargeted {
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked::@scale blocks
// CHECK: gpu.launch_func  @xpu_linked::@scale_b blocks
// CHECK: gpu.launch_func  @xpu_linked::@scale_c blocks
// CHECK: gpu.launch_func  @xpu_linked::@add blocks
// CHECK: gpu.launch_func  @big::@scale blocks

module attributes {gpu.container_module} {
  gpu.module @a {
    func.func @helper(%x: f32) -> f32 {
      %y = arith.mulf %x, %x : f32
      return %y : f32
    }
    gpu.func @scale(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = func.call @helper(%v) : (f32) -> f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @b attributes {xpu.duplicates = ["b_twin"]} {
    func.func @helper(%x: f32) -> f32 {
      %y = arith.addf %x, %x : f32
      return %y : f32
    }
    gpu.func @scale(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = func.call @helper(%v) : (f32) -> f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @big attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
    gpu.func @scale(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @c {
    gpu.func @scale(%buf: memref<64xf32>) kernel {
      gpu.return
    }
    gpu.func @add(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @Tgl [#xpu.target<arch = "tgllp", grf_mode = small>] {
    gpu.func @scale(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @failed attributes {xpu.error = #xpu.failure<stage = lower, message = "lowering failed">} {
    gpu.func @scale(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @Untargeted {
    gpu.func @scale(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%buf: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @a::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @b::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @c::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @c::@add blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @big::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    return
  }
}
