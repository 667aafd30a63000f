// Issue 26 item 3: unlinking after a failure gives every original module its
// own name and its launches their original references, whatever the names
// alias. Group `small`: @xpu_linked_0 (named like a linked module; its
// kernel @k fails to lower) and @add (its kernel named like itself and like
// no other); group `large`, linked after the first and not failed: @b::@b
// and @c::@k. The second linked module must not take the name
// `xpu_linked_0` that the first one's part left free: unlinking gives it
// back to the part.
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-link-modules{check-lowering=false},gpu.module(xpu-lower-to-xevm{keep-going=true}),xpu-unlink-failed-modules)" 2>/dev/null | FileCheck %s

// CHECK: gpu.module @xpu_linked_0 [#xpu.target<arch = "pvc", grf_mode = small>] {
// CHECK-NEXT: gpu.func @k(
// CHECK: gpu.module @add [#xpu.target<arch = "pvc", grf_mode = small>] {
// CHECK-NEXT: gpu.func @add(
// CHECK: gpu.module @xpu_linked_1 [#xpu.target<arch = "pvc", grf_mode = large>] attributes {xpu.linked = [{kernels = {b = "b"}, module = "b"}, {kernels = {k = "k"}, module = "c"}]}
// CHECK-NOT: gpu.module @xpu_linked {
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked_0::@k blocks
// CHECK: gpu.launch_func  @add::@add blocks
// CHECK: gpu.launch_func  @xpu_linked_1::@b blocks
// CHECK: gpu.launch_func  @xpu_linked_1::@k blocks

module attributes {gpu.container_module} {
  gpu.module @xpu_linked_0 [#xpu.target<arch = "pvc", grf_mode = small>] {
    gpu.func @k(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      "vendor.sync"(%v) : (f32) -> ()
      gpu.return
    }
  }
  gpu.module @add [#xpu.target<arch = "pvc", grf_mode = small>] {
    gpu.func @add(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @b [#xpu.target<arch = "pvc", grf_mode = large>] {
    gpu.func @b(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @c [#xpu.target<arch = "pvc", grf_mode = large>] {
    gpu.func @k(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @xpu_linked_0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    gpu.launch_func @add::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    gpu.launch_func @b::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    gpu.launch_func @c::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}
