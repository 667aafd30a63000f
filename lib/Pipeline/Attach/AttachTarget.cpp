//===- AttachTarget.cpp - Attach #xpu.target to gpu.module ops ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Regex.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUATTACHTARGET
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

namespace {
struct AttachTargetPass
    : public xpu::impl::XPUAttachTargetBase<AttachTargetPass> {
  XPU_ATTACH_TARGET_OPTIONS(XPU_DECLARE_PASS_OPTION)

  AttachTargetPass() = default;
  /// A clone: the options are copied by the pass manager.
  AttachTargetPass(const AttachTargetPass &other) : Base(other) {}
  explicit AttachTargetPass(const CodegenPipelineOptions &options) {
    XPU_ATTACH_TARGET_OPTIONS(XPU_COPY_OPTION)
  }

  void runOnOperation() override {
    const std::string &moduleMatcher = module;
    llvm::Regex matcher(moduleMatcher);
    std::string regexError;
    if (!moduleMatcher.empty() && !matcher.isValid(regexError)) {
      getOperation().emitError() << "xpu-attach-target: invalid module regex '"
                                 << moduleMatcher << "': " << regexError;
      return signalPassFailure();
    }

    MLIRContext *context = &getContext();
    for (auto gpuModule : getOperation().getOps<gpu::GPUModuleOp>()) {
      countVisitedOps();
      if (!moduleMatcher.empty() && !matcher.match(gpuModule.getName()))
        continue;
      auto emitError = [&] {
        return gpuModule.emitError() << "xpu-attach-target: ";
      };
      std::optional<unsigned> size;
      if (subgroupSize >= 0)
        size = static_cast<unsigned>(subgroupSize);
      // A module that names its own device is compiled for that one.
      StringRef moduleArch = arch;
      if (auto deviceArch = gpuModule->getAttrOfType<StringAttr>(
              XPUDialect::kDeviceArchAttrName))
        moduleArch = deviceArch.getValue();
      TargetAttr target =
          TargetAttr::getChecked(emitError, context, moduleArch,
                                 grfMode.getValue(), size, StringRef(flags));
      if (!target)
        return signalPassFailure();

      SmallVector<Attribute> targets;
      if (ArrayAttr existing = gpuModule.getTargetsAttr())
        llvm::append_range(targets, existing.getValue());
      if (llvm::is_contained(targets, target))
        continue;
      targets.push_back(target);
      gpuModule.setTargetsAttr(ArrayAttr::get(context, targets));
    }
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPUAttachTarget(const CodegenPipelineOptions &options) {
  return std::make_unique<AttachTargetPass>(options);
}
