//===- EmitSPIRV.cpp - #xpu.target gpu.module ops to SPIR-V binaries ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Dialect/XPU/Transforms/ModuleFailures.h"
#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"
#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUEMITSPIRV
#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

namespace {
struct EmitSPIRVPass : public xpu::impl::XPUEmitSPIRVBase<EmitSPIRVPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Hosts that load only the pass plugin still need the translations.
    registerXPUTargetInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    unsigned numFailed = 0;
    for (auto module :
         llvm::make_early_inc_range(getOperation().getOps<gpu::GPUModuleOp>()))
      if (!getModuleFailure(module) && failed(emitOrMark(module)))
        ++numFailed;
    if (failed(finishModuleStage(numFailed, keepGoing)))
      signalPassFailure();
  }

  /// Emits `module`; when that fails, the module stays and is marked.
  LogicalResult emitOrMark(gpu::GPUModuleOp module) {
    FirstErrorRecorder recorder(&getContext());
    if (succeeded(emitModule(module)))
      return success();
    markModuleFailed(module,
                     recorder.getMessage("xpu-emit-spirv: emission failed"));
    return failure();
  }

  LogicalResult emitModule(gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || llvm::none_of(targets, llvm::IsaPred<TargetAttr>))
      return success();
    for (Attribute target : targets)
      if (!isa<TargetAttr>(target))
        return module.emitError()
               << "xpu-emit-spirv: cannot mix #xpu.target with " << target
               << "; use gpu-module-to-binary for other targets";

    // Kernels lowered elsewhere get their sub-group size here at the latest.
    if (failed(applySubgroupSizes(module, getXPUTargets(module))))
      return failure();
    FailureOr<SmallVector<char, 0>> spirv = emitSPIRV(module, optLevel);
    if (failed(spirv) ||
        failed(checkSPIRV(module, *spirv, validateSPIRV, "xpu-emit-spirv")))
      return failure();

    MLIRContext *context = &getContext();
    auto payload =
        StringAttr::get(context, StringRef(spirv->data(), spirv->size()));
    SmallVector<Attribute> objects;
    for (Attribute target : targets)
      objects.push_back(gpu::ObjectAttr::get(
          context, target, gpu::CompilationTarget::Assembly, payload,
          /*properties=*/nullptr, /*kernels=*/nullptr));

    OpBuilder builder(module);
    auto binary = gpu::BinaryOp::create(builder, module.getLoc(),
                                        module.getName(), /*handler=*/nullptr,
                                        builder.getArrayAttr(objects));
    // The GRF decision's inputs move with the code: the mode, and for auto
    // modules the pressure estimate and the plan of xpu-select-grf-mode;
    // also the module cache's digest, under which xpu-native-codegen stores
    // the outcome.
    for (StringRef name :
         {XPUDialect::kGRFModeAttrName, XPUDialect::kPressureAttrName,
          XPUDialect::kAutoPlanAttrName, XPUDialect::kDuplicatesAttrName,
          XPUDialect::kModuleCacheKeyAttrName, XPUDialect::kLinkedAttrName})
      if (Attribute attr = module->getAttr(name))
        binary->setAttr(name, attr);
    if (module->hasAttr(XPUDialect::kLinkedAttrName))
      keepAsLinkSource(module, binary);
    else
      module.erase();
    return success();
  }

  /// Keeps the lowered linked `module` (without targets, so no stage
  /// compiles it) for xpu-native-codegen to build parts alone from (a part
  /// whose decision asks for another mode than the linked build's, or every
  /// part when the linked build fails); that pass removes it.
  void keepAsLinkSource(gpu::GPUModuleOp module, gpu::BinaryOp binary) {
    Builder builder(&getContext());
    // Made unique by the insertion (the binary holds the original name).
    SymbolTable symbols(getOperation());
    module.setName((binary.getName() + "_link_source").str());
    symbols.insert(module);
    module.setTargetsAttr(nullptr);
    module->setAttr(
        XPUDialect::kLinkSourceAttrName,
        builder.getDictionaryAttr(
            {builder.getNamedAttr("binary", binary.getNameAttr()),
             builder.getNamedAttr("opt_level",
                                  builder.getI32IntegerAttr(optLevel))}));
  }
};
} // namespace
