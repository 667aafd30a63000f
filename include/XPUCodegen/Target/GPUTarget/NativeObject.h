//===- NativeObject.h - Native code results as #gpu.object ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The one place that turns a native compile result into IR, shared by
// xpu-native-codegen and the gpu::TargetAttrInterface model so both produce
// the same properties.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_GPUTARGET_NATIVEOBJECT_H
#define XPUCODEGEN_TARGET_GPUTARGET_NATIVEOBJECT_H

#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::xpu {

/// The GRF mode requested for `target` on `op` (a gpu.module or gpu.binary):
/// the op's `xpu.grf_mode` if present, else the target's grf_mode.
GRFMode getRequestedGRFMode(Operation *op, TargetAttr target);

/// The `properties` dictionary of DESIGN.md's output contract.
DictionaryAttr getNativeObjectProperties(MLIRContext *context,
                                         const ModuleCompileResult &result);

/// The kept build of `result` as `#xpu.spill` (xpu.spill on its binary):
/// the module's worst case over its kernels (most spill, registers and
/// private memory, narrowest SIMD, fewest threads per vector engine). Null
/// when the build has no kernels, or facts out of range (then reported
/// through `emitError`).
SpillAttr getNativeSpillAttr(MLIRContext *context,
                             const ModuleCompileResult &result,
                             function_ref<InFlightDiagnostic()> emitError);

/// The estimate an `xpu.pressure` attribute records.
PressureEstimate getPressureEstimate(PressureAttr pressure);

/// A compile request for the SPIR-V `spirv` of `op` (named `name`) and
/// `target`; `extraFlags` is appended to the target's flags.
ModuleCompileRequest getCompileRequest(Operation *op, StringRef name,
                                       TargetAttr target, ArrayRef<char> spirv,
                                       StringRef extraFlags = {});

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_GPUTARGET_NATIVEOBJECT_H
