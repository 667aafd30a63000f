// A module that cannot be lowered is not linked (xpu-link-modules lowers each
// candidate alone on a copy first): it fails alone with its own located
// error, and the modules it would have joined are linked and compiled.
// check-lowering=false shows what the check prevents: the bad module is
// linked and its lowering error fails the linked module with every part.
// REQUIRES: ocloc
// RUN: not xpu-opt %s -allow-unregistered-dialect --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=none link=true report=%t.json" -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc grf-mode=small},xpu-link-modules{check-lowering=false})" | FileCheck %s --check-prefix=UNCHECKED
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc grf-mode=small},xpu-link-modules)" | FileCheck %s --check-prefix=CHECKED

// CHECK: gpu.binary @xpu_linked {xpu.linked = [{kernels = {copy = "copy"}, module = "first"}, {kernels = {copy = "copy_third"}, module = "third"}]} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>
// CHECK: gpu.module @bad
// CHECK-SAME: xpu.error = "xpu-lower-to-xevm: 'vendor.sync' has no lowering
// CHECK: "vendor.sync"
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked::@copy blocks
// CHECK: gpu.launch_func  @bad::@sync blocks
// CHECK: gpu.launch_func  @xpu_linked::@copy_third blocks

// ERR: lowering-isolation.mlir:[[@LINE+31]]:7: error: xpu-lower-to-xevm: 'vendor.sync' has no lowering
// ERR-NOT: module 'first'
// ERR-NOT: module 'third'

// REPORT: "linked_into": "xpu_linked",
// REPORT-NEXT: "module": "first"
// REPORT: "linked_into": "xpu_linked",
// REPORT-NEXT: "module": "third"
// REPORT: "error": "xpu-lower-to-xevm: 'vendor.sync' has no lowering
// REPORT: "module": "bad"

// UNCHECKED: gpu.module @xpu_linked {{.*}}module = "bad"

// CHECKED: gpu.module @xpu_linked [#xpu.target<arch = "pvc", grf_mode = small>] attributes {xpu.linked = [{kernels = {copy = "copy"}, module = "first"}, {kernels = {copy = "copy_third"}, module = "third"}]}
// CHECKED: gpu.module @bad
// CHECKED-NOT: xpu.error
// CHECKED-NOT: __xpu_link_check

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
