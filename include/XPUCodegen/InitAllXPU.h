//===- InitAllXPU.h - Register everything XPUCodegen provides ----*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// One place that registers the xpu dialect, its external interface models
// and its passes, shared by xpu-opt, the mlir-opt plugin and the Python
// package so that they cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_INITALLXPU_H
#define XPUCODEGEN_INITALLXPU_H

#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Pipeline/Passes.h"
#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir::xpu {

/// Registers the xpu dialect and the interface models it promises.
inline void registerXPUDialectAndModels(DialectRegistry &registry) {
  registry.insert<XPUDialect>();
  registerXPUTargetInterfaceExternalModels(registry);
}

/// Registers every xpu pass (and pass pipeline) with the global registry.
inline void registerAllXPUPasses() {
  registerXPUPasses();
  registerCodegenPipeline();
}

} // namespace mlir::xpu

#endif // XPUCODEGEN_INITALLXPU_H
