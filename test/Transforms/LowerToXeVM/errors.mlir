// A module that cannot be lowered (here: an op of a vendor dialect nobody
// lowers) is that module's error, located at the op
// that has no lowering; it is restored to its input and marked xpu.error,
// and the other modules are lowered. Without keep-going the pass fails
// (xpu-opt still prints the IR and exits 1).
// RUN: not xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(gpu.module(xpu-lower-to-xevm))" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(gpu.module(xpu-lower-to-xevm{keep-going=true}))" -o /dev/null
// RUN: not xpu-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(gpu.module(xpu-lower-to-xevm{xegpu-op-level=bogus}))" 2>&1 | FileCheck %s --check-prefix=LEVEL

// ERR: errors.mlir:[[@LINE+11]]:5: error: xpu-lower-to-xevm: 'vendor.sync' has no lowering to the LLVM or XeVM dialect (nor in upstream's gpu-lower-to-xevm-pipeline); rewrite it into ops that have one
// CHECK-LABEL: gpu.module @bad
// CHECK-SAME: xpu.error = #xpu.failure<stage = lower, message = "xpu-lower-to-xevm: 'vendor.sync' has no lowering
// CHECK: gpu.func @k
// CHECK: "vendor.sync"(%{{.*}}) : (f32) -> ()
// CHECK-LABEL: gpu.module @good
// CHECK: llvm.func spir_kernelcc @k
gpu.module @bad [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @k(%buf: memref<16xf32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %buf[%i] : memref<16xf32>
    "vendor.sync"(%v) : (f32) -> ()
    gpu.return
  }
}
gpu.module @good [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @k(%buf: memref<16xf32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %buf[%i] : memref<16xf32>
    memref.store %v, %buf[%i] : memref<16xf32>
    gpu.return
  }
}
// LEVEL: error: xpu-lower-to-xevm: xegpu-op-level must be one of workgroup, subgroup, lane, got 'bogus'
