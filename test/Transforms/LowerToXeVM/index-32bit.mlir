// use-64bit-index=false is upstream's limitation, not this project's: in
// LLVM 22, convert-gpu-to-llvm-spv builds the kernel's memref descriptors
// with i32 fields, but the later memref/vector lowerings (convert-to-llvm,
// convert-vector-to-llvm) and convert-xegpu-to-xevm's loop types are fixed
// at 64 bits, so the descriptor casts between them are left over. Upstream's
// own gpu-lower-to-xevm-pipeline fails the same way; when this stops failing,
// revisit the use-64bit-index description in CodegenOptions.def.
// RUN: not %mlir_opt %s --gpu-lower-to-xevm-pipeline="use-64bit-index=false xegpu-op-level=lane zebin-chip=pvc binary-format=llvm" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: not xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none use-64bit-index=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=XPU
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none use-64bit-index=true" -o /dev/null

// UPSTREAM: error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast
// UPSTREAM: (!llvm.struct<(ptr<1>, ptr<1>, i32, array<1 x i32>, array<1 x i32>)>) -> memref<?xf32, 1>
// XPU: error: xpu-lower-to-xevm: a type conversion to or from a non-LLVM type is left over (use-64bit-index=false: upstream's memref and vector lowerings keep 64-bit descriptors, so upstream's own gpu-lower-to-xevm-pipeline fails the same way)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<?xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }
}
