// Modules with two targets (pvc and acm-g10) link too: the linked binary has
// one object per target, each with every part's decision for its device, and
// the report has one entry per module and arch, each linked_into the binary.
// The per-module facts equal link=false's.
// REQUIRES: ocloc
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=acm-g10},xpu-codegen-pipeline{arch=pvc cache-dir=none report=%t.on.json})" -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: grep -o 'linked_parts = \[{binary = "xpu_linked", [^]]*module = "a"[^]]*module = "b"' %t.mlir | count 2
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=acm-g10},xpu-codegen-pipeline{arch=pvc cache-dir=none link=false report=%t.off.json})" -o /dev/null
// RUN: %python %S/Inputs/compare-reports.py %t.off.json %t.on.json
// RUN: FileCheck %s --check-prefix=REPORT < %t.on.json

// CHECK: gpu.binary @xpu_linked {xpu.linked = [{kernels = {ka = "ka"}, module = "a"}, {kernels = {kb = "kb"}, module = "b"}]} [#gpu.object<#xpu.target<arch = "acm-g10", grf_mode = auto>, properties = {
// CHECK-SAME: #gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, properties = {
// CHECK: gpu.launch_func  @xpu_linked::@ka
// CHECK: gpu.launch_func  @xpu_linked::@kb

// REPORT-COUNT-4: "linked_into": "xpu_linked",
// REPORT-NOT: "error"

module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @ka(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }
  gpu.module @b {
    gpu.func @kb(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }

  func.func @host(%buf: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @a::@ka blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%buf : memref<16xf32>)
    gpu.launch_func @b::@kb blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%buf : memref<16xf32>)
    return
  }
}
