// Validation is a warning by default (SPIRV-Tools 2023.1 rejects SPIR-V that
// IGC compiles): the module is still emitted. strict makes it an error and
// the module stays, marked; off skips the check.
// RUN: xpu-opt %s --xpu-emit-spirv -verify-diagnostics | FileCheck %s --check-prefix=WARN
// RUN: not xpu-opt %s --xpu-emit-spirv=validate-spirv=strict 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: xpu-opt %s --xpu-emit-spirv=validate-spirv=off | FileCheck %s --check-prefix=WARN
// RUN: not xpu-opt %s --xpu-emit-spirv=validate-spirv=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS

// WARN: gpu.binary @bad [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, assembly = "
// STRICT: error: xpu-emit-spirv: SPIRV-Tools rejects the SPIR-V of this module: invalid SPIR-V: instruction 5:
// STRICT: gpu.module @bad [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.error = #xpu.failure<stage = emit, message = "xpu-emit-spirv: SPIRV-Tools rejects
// BOGUS: for the --validate-spirv option: Cannot find option named 'bogus'

// expected-warning @+1 {{xpu-emit-spirv: SPIRV-Tools rejects the SPIR-V of this module (IGC may still accept it; it is compiled in an isolated worker; validate-spirv=strict makes this an error): invalid SPIR-V: instruction 5:}}
gpu.module @bad [#xpu.target<arch = "pvc", grf_mode = auto>] {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
    spirv.func @f(%arg0: i64) "None" {
      spirv.Return
    }
  }
}
