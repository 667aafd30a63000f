// A module that cannot be lowered fails alone with its own located error.
// xpu-codegen-pipeline links optimistically: the linked module does not
// lower (a warning naming its modules), xpu-unlink-failed-modules takes it
// apart, and each module is lowered alone: 'bad' fails, 'first' and
// 'third' compile as with link=false. xpu-link-modules alone (its default
// check-lowering) lowers each candidate on a copy first, so the bad module
// is not linked at all; check-lowering=false links it.
// REQUIRES: ocloc
// RUN: not xpu-opt %s -allow-unregistered-dialect --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=none link=true report=%t.json" -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc grf-mode=small},xpu-link-modules{check-lowering=false})" | FileCheck %s --check-prefix=UNCHECKED
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc grf-mode=small},xpu-link-modules)" | FileCheck %s --check-prefix=CHECKED

// CHECK: gpu.binary @first {xpu.spill = #xpu.spill<{{[^>]+}}>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>
// CHECK: gpu.module @bad
// CHECK-SAME: xpu.error = #xpu.failure<stage = lower, message = "xpu-lower-to-xevm: 'vendor.sync' has no lowering
// CHECK: "vendor.sync"
// CHECK: gpu.binary @third {xpu.spill = #xpu.spill<{{[^>]+}}>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @first::@copy blocks
// CHECK: gpu.launch_func  @bad::@sync blocks
// CHECK: gpu.launch_func  @third::@copy blocks

// ERR: lowering-isolation.mlir:[[@LINE+18]]:3: warning: xpu-lower-to-xevm: linked module 'xpu_linked' does not lower ({{.*}}); its modules 'first', 'bad', 'third' are lowered alone (xpu-unlink-failed-modules)
// ERR: lowering-isolation.mlir:[[@LINE+29]]:7: error: xpu-lower-to-xevm: 'vendor.sync' has no lowering
// ERR-NOT: error:

// REPORT: "module": "first"
// REPORT: "error": "xpu-lower-to-xevm: 'vendor.sync' has no lowering
// REPORT: "module": "bad"
// REPORT: "module": "third"
// REPORT-NOT: linked_into

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
