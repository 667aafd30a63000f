// With strict-launch=true, a kernel whose work-group no GRF mode runs (pvc:
// at most 1024 work-items) fails its module, whose kernels share one binary
// (without it, a warning: unlaunchable-attributions.mlir): the error is at the
// kernel, the module's report entry names it, says that the module's other
// kernels were not built with it and how to split the module, and the other
// modules compile (the tool exits non-zero).
// REQUIRES: ocloc
// RUN: not xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none strict-launch=true report=%t.json" -verify-diagnostics -o %t.out
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.out

// Without xpu-select-grf-mode (as for SPIR-V made elsewhere, whose LocalSize
// says the same), xpu-native-codegen finds it before building anything: an
// error at the kernel it names (its gpu.func, line and column) with the same
// message, and "out_of_resources".
// RUN: not xpu-opt %s --xpu-attach-target=arch=pvc --xpu-lower-to-xevm --xpu-emit-spirv --xpu-native-codegen="backend=ocloc cache-dir=none strict-launch=true report=%t.spirv.json" -o /dev/null 2> %t.spirv.err
// RUN: FileCheck %s --check-prefix=SPIRV < %t.spirv.err
// RUN: FileCheck %s --check-prefix=SPIRV-REPORT < %t.spirv.json
// Linked with the other module first, the part's error is at the same kernel.
// RUN: not xpu-opt %s --xpu-attach-target=arch=pvc --xpu-link-modules --xpu-lower-to-xevm --xpu-emit-spirv --xpu-native-codegen="backend=ocloc cache-dir=none strict-launch=true" -o /dev/null 2> %t.linked.err
// RUN: FileCheck %s --check-prefix=LINKED < %t.linked.err

// REPORT:      "error": "xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'reduce_2048' has a work-group of 2048 work-items; 128-register GRF mode on pvc runs at most 1024 at SIMD16 (8 vector engines x 8 threads x 16 lanes, device limit 1024), the most of any mode; the module's other kernels ('scale', 'copy') were not built with it: they share its binary. Move 'reduce_2048' into a module of its own (a gpu.module of its own) to build them",
// REPORT-NEXT: "module": "shared"
// REPORT:      "module": "separate",
// REPORT-NOT:  "error"
// REPORT:      "version": 1

// IR: gpu.module @shared [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.error = #xpu.failure<stage = select, message = "xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'reduce_2048'
// IR: gpu.binary @separate  {xpu.spill = #xpu.spill<{{[^>]+}}>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, properties = {{{.*}}bin = "\7FELF

// SPIRV: unlaunchable-kernel.mlir:[[# @LINE + 20]]:5: error: xpu-native-codegen: module 'shared' for arch 'pvc' failed: cannot launch in any GRF mode: kernel 'reduce_2048' has a work-group of 2048 work-items; {{.*}}, the most of any mode; the module's other kernels ('scale', 'copy') were not built with it: they share its binary. Move 'reduce_2048' into a module of its own (a gpu.module of its own) to build them
// LINKED: unlaunchable-kernel.mlir:[[# @LINE + 19]]:5: error: xpu-native-codegen: module 'shared' (linked into 'xpu_linked') for arch 'pvc' failed: cannot launch in any GRF mode: kernel 'reduce_2048'
// SPIRV-REPORT:      "module": "shared",
// SPIRV-REPORT-NEXT: "out_of_resources": {
// SPIRV-REPORT-NEXT:   "limit": 1024,
// SPIRV-REPORT-NEXT:   "required": 2048,
// SPIRV-REPORT-NEXT:   "resource": "work-group size"
// SPIRV-REPORT:      "module": "separate",

module attributes {gpu.container_module} {
  // expected-note @+1 {{module 'shared' for arch 'pvc' is not built}}
  gpu.module @shared {
    gpu.func @scale(%buf: memref<?xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.global_id x
      %v = memref.load %buf[%i] : memref<?xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<?xf32>
      gpu.return
    }
    // expected-error @+1 {{xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'reduce_2048' has a work-group of 2048 work-items}}
    gpu.func @reduce_2048(%buf: memref<?xf32>) kernel attributes {known_block_size = array<i32: 2048, 1, 1>} {
      %i = gpu.global_id x
      %v = memref.load %buf[%i] : memref<?xf32>
      memref.store %v, %buf[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @copy(%buf: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %buf[%i] : memref<?xf32>
      memref.store %v, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }
  // The split the message asks for: in a module of their own, the other
  // kernels compile.
  gpu.module @separate {
    gpu.func @scale(%buf: memref<?xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.global_id x
      %v = memref.load %buf[%i] : memref<?xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }
}
