// RUN: xpu-opt %s --pass-pipeline="builtin.module(gpu.module(convert-gpu-to-llvm-spv{use-64bit-index=true}),convert-scf-to-cf,gpu.module(convert-to-llvm),reconcile-unrealized-casts,xpu-emit-spirv)" | FileCheck %s

// Each #xpu.target module becomes a gpu.binary of validated SPIR-V (the
// magic number 0x07230203, little endian), one object per target; the
// module's xpu.grf_mode moves to the binary. Several modules in one input
// each get their own, valid, SPIR-V.

// CHECK-LABEL: gpu.binary @first {xpu.grf_mode = #xpu.grf_mode<large>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, assembly = "\03\02#\07
// CHECK-SAME: #gpu.object<#xpu.target<arch = "acm-g10", grf_mode = small>, assembly = "\03\02#\07
// CHECK-LABEL: gpu.binary @second  [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, assembly = "\03\02#\07
// CHECK-LABEL: gpu.binary @third  [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, assembly = "\03\02#\07
// A module without #xpu.target is left alone.
// CHECK-LABEL: gpu.module @untargeted
module attributes {gpu.container_module} {
  gpu.module @first [#xpu.target<arch = "pvc", grf_mode = auto>, #xpu.target<arch = "acm-g10", grf_mode = small>]
      attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
    gpu.func @k(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }
  gpu.module @second [#xpu.target<arch = "pvc", grf_mode = auto>] {
    gpu.func @k(%buf: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      %d = arith.mulf %v, %v : f32
      memref.store %d, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }
  gpu.module @third [#xpu.target<arch = "pvc", grf_mode = small>] {
    gpu.func @other(%buf: memref<16xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xi32>
      %d = arith.addi %v, %v : i32
      memref.store %d, %buf[%i] : memref<16xi32>
      gpu.return
    }
  }
  gpu.module @untargeted {
  }
}
