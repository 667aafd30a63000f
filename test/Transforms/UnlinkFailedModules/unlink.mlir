// xpu-unlink-failed-modules takes a linked module that an earlier stage
// marked failed apart again: each original module comes back under its own
// name, with its kernels under their original names ('third''s @copy was
// renamed @copy_third when linked), its location and no failure mark, and
// the launches go back to it. A linked module that did not fail, and
// modules that are not linked, are left alone.
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc grf-mode=small},xpu-link-modules{check-lowering=false},gpu.module(xpu-lower-to-xevm{keep-going=true}),xpu-unlink-failed-modules)" -mlir-print-debuginfo 2>/dev/null | FileCheck %s
// Without a failure nothing changes.
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc grf-mode=small},xpu-link-modules,xpu-unlink-failed-modules)" | FileCheck %s --check-prefix=KEPT

// CHECK: gpu.module @first [#xpu.target<arch = "pvc", grf_mode = small>] {
// CHECK-NEXT: gpu.func @copy(
// CHECK: gpu.return
// CHECK-NEXT: } loc(
// CHECK-NEXT: } loc(#[[FIRST:loc[0-9]*]])
// CHECK: gpu.module @bad [#xpu.target<arch = "pvc", grf_mode = small>] {
// CHECK-NEXT: gpu.func @sync(
// CHECK: "vendor.sync"
// CHECK: gpu.return
// CHECK-NEXT: } loc(
// CHECK-NEXT: } loc(#[[BAD:loc[0-9]*]])
// CHECK: gpu.module @third [#xpu.target<arch = "pvc", grf_mode = small>] {
// CHECK-NEXT: gpu.func @copy(
// CHECK: gpu.return
// CHECK-NEXT: } loc(
// CHECK-NEXT: } loc(#[[THIRD:loc[0-9]*]])
// CHECK-NOT: xpu_linked
// CHECK: gpu.launch_func  @first::@copy
// CHECK: gpu.launch_func  @bad::@sync
// CHECK: gpu.launch_func  @third::@copy
// CHECK-DAG: #[[FIRST]] = loc("{{.*}}unlink.mlir":[[@LINE+10]]:3)
// CHECK-DAG: #[[BAD]] = loc("{{.*}}unlink.mlir":[[@LINE+17]]:3)
// CHECK-DAG: #[[THIRD]] = loc("{{.*}}unlink.mlir":[[@LINE+24]]:3)

// KEPT: gpu.module @xpu_linked {{.*}}module = "first"{{.*}}module = "third"
// KEPT: gpu.module @bad
// KEPT: gpu.launch_func  @xpu_linked::@copy
// KEPT: gpu.launch_func  @xpu_linked::@copy_third

module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @copy(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      memref.store %v, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }
  gpu.module @bad {
    gpu.func @sync(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      "vendor.sync"(%v) : (f32) -> ()
      gpu.return
    }
  }
  gpu.module @third {
    gpu.func @copy(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @host(%buf: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @first::@copy blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%buf : memref<16xf32>)
    gpu.launch_func @bad::@sync blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%buf : memref<16xf32>)
    gpu.launch_func @third::@copy blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%buf : memref<16xf32>)
    return
  }
}
