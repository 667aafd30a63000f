// Modules equal up to symbol names (module, kernel and helper names) compile
// once: the first is kept, launches of the others are redirected to its
// matching kernels, and the report still lists every original module.
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc},xpu-dedupe-modules)" | FileCheck %s
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false cache-dir=none report=%t.json" | FileCheck %s --check-prefix=NATIVE
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none dedupe=false report=%t.off.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=OFF < %t.off.json
// REQUIRES: ocloc

// CHECK-LABEL: gpu.module @exe_0
// CHECK-SAME: xpu.duplicates = [{kernels = {dispatch_1 = "dispatch_0"}, module = "exe_1"}, {kernels = {yet_another = "dispatch_0"}, module = "exe_3"}]
// CHECK: func.func @helper_0
// CHECK: gpu.func @dispatch_0
// CHECK-NOT: gpu.module @exe_1
// CHECK-LABEL: gpu.module @exe_2
// CHECK-NOT: xpu.duplicates
// CHECK-NOT: gpu.module @exe_3
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @exe_0::@dispatch_0
// CHECK: gpu.launch_func  @exe_0::@dispatch_0
// CHECK: gpu.launch_func  @exe_2::@dispatch_2
// CHECK: gpu.launch_func  @exe_0::@dispatch_0

// NATIVE: gpu.binary @exe_0 {xpu.duplicates = [{kernels = {dispatch_1 = "dispatch_0"}, module = "exe_1"}, {kernels = {yet_another = "dispatch_0"}, module = "exe_3"}], xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 128, simd = 16, threads_per_eu = 8>}
// NATIVE: gpu.binary @exe_2
// NATIVE-NOT: gpu.binary
// NATIVE: gpu.launch_func  @exe_0::@dispatch_0

// REPORT: "module": "exe_0",
// REPORT: "deduplicated_from": "exe_0",
// REPORT: "linked_name": "dispatch_0",
// REPORT: "name": "dispatch_1",
// REPORT: "module": "exe_1",
// REPORT: "deduplicated_from": "exe_0",
// REPORT: "module": "exe_3",
// REPORT: "module": "exe_2",

// OFF-NOT: deduplicated_from
// OFF: "module": "exe_0",
// OFF: "module": "exe_1",
// OFF: "module": "exe_2",
// OFF: "module": "exe_3",

module attributes {gpu.container_module} {
  gpu.module @exe_0 {
    func.func @helper_0(%x: f32) -> f32 {
      %y = arith.mulf %x, %x : f32
      return %y : f32
    }
    gpu.func @dispatch_0(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = func.call @helper_0(%v) : (f32) -> f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @exe_1 {
    func.func @helper_1(%x: f32) -> f32 {
      %y = arith.mulf %x, %x : f32
      return %y : f32
    }
    gpu.func @dispatch_1(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = func.call @helper_1(%v) : (f32) -> f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  // Differs in one constant: not a duplicate.
  gpu.module @exe_2 {
    func.func @helper_2(%x: f32) -> f32 {
      %y = arith.addf %x, %x : f32
      return %y : f32
    }
    gpu.func @dispatch_2(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = func.call @helper_2(%v) : (f32) -> f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @exe_3 {
    func.func @other_name(%x: f32) -> f32 {
      %y = arith.mulf %x, %x : f32
      return %y : f32
    }
    gpu.func @yet_another(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = func.call @other_name(%v) : (f32) -> f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%buf: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @exe_0::@dispatch_0 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @exe_1::@dispatch_1 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @exe_2::@dispatch_2 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @exe_3::@yet_another blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    return
  }
}
