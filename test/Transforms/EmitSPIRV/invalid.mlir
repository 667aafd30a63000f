// RUN: xpu-opt %s --xpu-emit-spirv -split-input-file -verify-diagnostics

// expected-error @+1 {{xpu-emit-spirv: cannot mix #xpu.target with #nvvm.target; use gpu-module-to-binary for other targets}}
gpu.module @mixed [#xpu.target<arch = "pvc", grf_mode = auto>, #nvvm.target] {
}

// -----

gpu.module @unlowered [#xpu.target<arch = "pvc", grf_mode = auto>] {
  // expected-error @+1 {{xpu-emit-spirv: 'gpu.func' is not in the LLVM or SPIR-V dialect; lower the gpu.module first (e.g. with xpu-codegen-pipeline)}}
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

// The serializer's output is validated: a kernel module without an entry
// point's requirements is rejected before it reaches IGC.
// expected-error @+1 {{xpu-emit-spirv: the SPIR-V of this module is invalid: invalid SPIR-V:}}
gpu.module @bad [#xpu.target<arch = "pvc", grf_mode = auto>] {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
    spirv.func @f(%arg0: i64) "None" {
      spirv.Return
    }
  }
}
