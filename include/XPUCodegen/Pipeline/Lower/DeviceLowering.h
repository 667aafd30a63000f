//===- DeviceLowering.h - xpu-lower-to-xevm's device pipeline ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The device half of upstream's gpu-lower-to-xevm-pipeline as
// xpu-lower-to-xevm runs it on one gpu.module. xpu-link-modules runs the same
// pipeline on a copy of each module before linking it, so that a module that
// cannot be lowered fails alone instead of failing the modules linked with
// it.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_LOWER_DEVICELOWERING_H
#define XPUCODEGEN_PIPELINE_LOWER_DEVICELOWERING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::xpu {

/// The XeGPU level `module` is lowered at: `lane` for modules without XeGPU
/// ops or whose XeGPU ops are already distributed to lanes, else
/// `requested`. Mixing lane-level and sub-group-level XeGPU ops is an error
/// (emitted at the first sub-group op).
FailureOr<StringRef> getDeviceXeGPULevel(gpu::GPUModuleOp module,
                                         StringRef requested);

/// Adds the device lowering for XeGPU level `level` to `pm` (anchored on
/// gpu.module).
void buildDeviceLoweringPipeline(OpPassManager &pm, StringRef level,
                                 bool use64bitIndex);

/// The first op of `module` that is neither LLVM nor XeVM nor a conversion
/// cast, after lowering: what has no lowering. Null when there is none.
Operation *findUnloweredOp(gpu::GPUModuleOp module);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_LOWER_DEVICELOWERING_H
