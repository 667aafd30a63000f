// RUN: not xpu-opt %s --xpu-emit-spirv=validate-spirv=strict -split-input-file -verify-diagnostics

// expected-error @+1 {{xpu-emit-spirv: cannot mix #xpu.target with #nvvm.target; use gpu-module-to-binary for other targets}}
gpu.module @mixed [#xpu.target<arch = "pvc", grf_mode = auto>, #nvvm.target] {
}

// -----

gpu.module @unlowered [#xpu.target<arch = "pvc", grf_mode = auto>] {
  // expected-error @+1 {{xpu-emit-spirv: 'gpu.func' is not in the LLVM, XeVM or SPIR-V dialect; lower the gpu.module first (xpu-lower-to-xevm lowers what upstream's gpu-lower-to-xevm-pipeline lowers)}}
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// expected-error @+1 {{xpu-emit-spirv: expected at most one spirv.module in the gpu.module, found 2}}
gpu.module @two [#xpu.target<arch = "pvc", grf_mode = auto>] {
  spirv.module Physical64 OpenCL {
  }
  spirv.module Physical64 OpenCL {
  }
}

// -----

// With validate-spirv=strict the serializer's output is validated: a module
// missing a capability is an error (SPIRV-Tools counts instructions).
// expected-error @+1 {{xpu-emit-spirv: SPIRV-Tools rejects the SPIR-V of this module: invalid SPIR-V: instruction 5: Using a 64-bit integer type requires the Int64 capability}}
gpu.module @bad [#xpu.target<arch = "pvc", grf_mode = auto>] {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
    spirv.func @f(%arg0: i64) "None" {
      spirv.Return
    }
  }
}
