//===- TargetAttrInterface.cpp - #xpu.target as a GPU target --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::xpu;

namespace {
class XPUTargetAttrModel
    : public gpu::TargetAttrInterface::FallbackModel<XPUTargetAttrModel> {
public:
  std::optional<SmallVector<char, 0>>
  serializeToObject(Attribute attribute, Operation *module,
                    const gpu::TargetOptions &options) const {
    module->emitError("#xpu.target serialization is not available yet");
    return std::nullopt;
  }

  Attribute createObject(Attribute attribute, Operation *module,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const {
    return {};
  }
};
} // namespace

void mlir::xpu::registerXPUTargetInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, XPUDialect *dialect) {
    TargetAttr::attachInterface<XPUTargetAttrModel>(*context);
  });
}
