// A gpu.module holding a spirv.module goes through MLIR's SPIR-V serializer.
// RUN: xpu-opt %s --xpu-emit-spirv | FileCheck %s

// CHECK: gpu.binary @spv  [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, assembly = "\03\02#\07
module attributes {gpu.container_module} {
  gpu.module @spv [#xpu.target<arch = "pvc", grf_mode = small>] {
    spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, Int64], []> {
      spirv.func @empty() "None" {
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @empty
    }
  }
}
