//===- TargetAttrInterface.h - #xpu.target as a GPU target -------*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_TARGETATTRINTERFACE_H
#define XPUCODEGEN_TARGET_TARGETATTRINTERFACE_H

namespace mlir {
class DialectRegistry;
namespace xpu {

/// Attaches the gpu::TargetAttrInterface model to #xpu.target, so upstream
/// gpu-module-to-binary can serialize gpu.module ops that target it.
void registerXPUTargetInterfaceExternalModels(DialectRegistry &registry);

} // namespace xpu
} // namespace mlir

#endif // XPUCODEGEN_TARGET_TARGETATTRINTERFACE_H
