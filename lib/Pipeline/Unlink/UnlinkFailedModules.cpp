//===- UnlinkFailedModules.cpp - Take failed linked modules apart ---------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Linking must not make one module's failure its neighbours': a linked module
// that a stage marked failed is replaced by its original modules, so the
// stages that follow retry each alone.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Pipeline/Link/LinkedParts.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUUNLINKFAILEDMODULES
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

namespace {
struct UnlinkFailedModulesPass
    : public xpu::impl::XPUUnlinkFailedModulesBase<UnlinkFailedModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::GPUModuleOp> failed;
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      countVisitedOps();
      if (module->hasAttr(XPUDialect::kLinkedAttrName) &&
          getModuleFailure(module))
        failed.push_back(module);
    }
    // The parts are clones: the failure mark must not come with them.
    for (gpu::GPUModuleOp module : failed)
      module->removeAttr(XPUDialect::kErrorAttrName);
    numParts += unlinkModules(failed).size();
    numUnlinked += failed.size();
  }
};
} // namespace
