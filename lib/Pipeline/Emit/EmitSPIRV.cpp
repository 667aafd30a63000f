//===- EmitSPIRV.cpp - #xpu.target gpu.module ops to SPIR-V binaries ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/Link/LinkedParts.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"
#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSet.h"

#include <atomic>

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUEMITSPIRV
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// Adds SubgroupDispatch (and SPIR-V 1.1, which it needs) to `module`'s
/// version-capability-extension triple, for a SubgroupSize mode.
static void requireSubgroupDispatch(spirv::ModuleOp module) {
  std::optional<spirv::VerCapExtAttr> vce = module.getVceTriple();
  if (!vce)
    return;
  SmallVector<spirv::Capability> capabilities =
      llvm::to_vector(vce->getCapabilities());
  if (!llvm::is_contained(capabilities, spirv::Capability::SubgroupDispatch))
    capabilities.push_back(spirv::Capability::SubgroupDispatch);
  module.setVceTripleAttr(spirv::VerCapExtAttr::get(
      std::max(vce->getVersion(), spirv::Version::V_1_1), capabilities,
      llvm::to_vector(vce->getExtensions()), module.getContext()));
}

/// A spirv.module (IMEX's shape) is serialized as written, so the sub-group
/// size every other kernel gets is written into it: each Kernel entry point
/// without a SubgroupSize mode gets the size resolved for the kernel
/// declared beside it (its intel_reqd_sub_group_size), else the targets';
/// none for 0.
static LogicalResult applySPIRVSubgroupSizes(gpu::GPUModuleOp module,
                                             ArrayRef<TargetAttr> targets) {
  auto spirvModules = module.getOps<spirv::ModuleOp>();
  if (targets.empty() || spirvModules.empty())
    return success();
  spirv::ModuleOp spirvModule = *spirvModules.begin();
  llvm::StringSet<> sized;
  for (auto mode : spirvModule.getOps<spirv::ExecutionModeOp>())
    if (mode.getExecutionMode() == spirv::ExecutionMode::SubgroupSize)
      sized.insert(mode.getFn());
  OpBuilder builder(module.getContext());
  bool added = false;
  for (auto entry :
       llvm::make_early_inc_range(spirvModule.getOps<spirv::EntryPointOp>())) {
    if (entry.getExecutionModel() != spirv::ExecutionModel::Kernel ||
        sized.contains(entry.getFn()))
      continue;
    Operation *kernel = module.lookupSymbol(entry.getFnAttr().getAttr());
    if (!kernel || !isGPUKernel(kernel))
      kernel = entry; // No declaration: the targets' size.
    FailureOr<std::optional<unsigned>> size =
        resolveSubgroupSize(kernel, targets);
    if (failed(size))
      return failure();
    if (!*size || **size == 0)
      continue;
    builder.setInsertionPointAfter(entry);
    spirv::ExecutionModeOp::create(
        builder, entry.getLoc(), entry.getFnAttr(),
        spirv::ExecutionModeAttr::get(builder.getContext(),
                                      spirv::ExecutionMode::SubgroupSize),
        builder.getI32ArrayAttr({static_cast<int32_t>(**size)}));
    added = true;
  }
  if (added)
    requireSubgroupDispatch(spirvModule);
  return success();
}

namespace {
struct EmitSPIRVPass : public xpu::impl::XPUEmitSPIRVBase<EmitSPIRVPass> {
  XPU_EMIT_SPIRV_OPTIONS(XPU_DECLARE_PASS_OPTION)
  XPU_DECLARE_PASS_OPTION(validateSPIRV)

  using Base::Base;
  EmitSPIRVPass() = default;
  /// A clone: the options are copied by the pass manager.
  EmitSPIRVPass(const EmitSPIRVPass &other) : Base(other) {}
  EmitSPIRVPass(const CodegenPipelineOptions &options,
                SPIRVValidation validation, bool keepGoing) {
    XPU_EMIT_SPIRV_OPTIONS(XPU_COPY_OPTION)
    validateSPIRV = validation;
    this->keepGoing = keepGoing;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Hosts that load only the pass plugin still need the translations.
    registerXPUTargetInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    XPU_CHECK_PASS_OPTIONS(XPU_EMIT_SPIRV_OPTIONS, "xpu-emit-spirv")
    unsigned numFailed = 0;
    SmallVector<gpu::GPUModuleOp> modules;
    takenNames.clear();
    for (Operation &op : getOperation().getBody()->getOperations()) {
      countVisitedOps();
      if (StringAttr name = SymbolTable::getSymbolName(&op))
        takenNames.insert(name.getValue());
      auto module = dyn_cast<gpu::GPUModuleOp>(op);
      if (module && !getModuleFailure(module) && listsXPUTarget(module))
        modules.push_back(module);
    }
    // A linked module that does not emit is taken apart, and its parts are
    // emitted alone: what fails is then that original module's error.
    SmallVector<gpu::GPUModuleOp> parts;
    emitAll(modules, numFailed, &parts);
    emitAll(parts, numFailed, /*unlinked=*/nullptr);
    if (failed(finishModuleStage(numFailed, keepGoing)))
      signalPassFailure();
  }

  /// The names of the top-level symbols, and of those this run added.
  llvm::StringSet<> takenNames;

  static bool listsXPUTarget(gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    return targets && llvm::any_of(targets, llvm::IsaPred<TargetAttr>);
  }

  /// The outcome of one module's emission.
  struct Emission {
    std::optional<SmallVector<char, 0>> spirv;
    std::string error;
  };

  /// Emits `modules`, up to `jobs` at once, and replaces each by its binary.
  /// A module that fails stays, marked; a linked one is replaced by its
  /// parts, added to `unlinked`, when that is given.
  void emitAll(ArrayRef<gpu::GPUModuleOp> modules, unsigned &numFailed,
               SmallVectorImpl<gpu::GPUModuleOp> *unlinked) {
    bool unlinking = unlinked != nullptr;
    SmallVector<Emission> emissions(modules.size());
    for (size_t i = 0, e = modules.size(); i < e; ++i)
      prepare(modules[i], emissions[i], unlinking);
    emitInParallel(modules, emissions, unlinking);
    // Taken apart together: one walk of the program redirects them all.
    SmallVector<gpu::GPUModuleOp> toUnlink;
    for (size_t i = 0, e = modules.size(); i < e; ++i) {
      gpu::GPUModuleOp module = modules[i];
      Emission &emission = emissions[i];
      if (emission.spirv) {
        createBinary(module, *emission.spirv);
        continue;
      }
      if (unlinking && isLinked(module)) {
        mlir::emitWarning(module.getLoc())
            << "xpu-emit-spirv: linked module '" << module.getName()
            << "' does not emit (" << emission.error << "); its modules "
            << getLinkedPartNames(module) << " are emitted alone";
        toUnlink.push_back(module);
        continue;
      }
      markModuleFailed(module, FailureStage::Emit, emission.error);
      ++numFailed;
    }
    if (unlinking)
      llvm::append_range(*unlinked, unlinkModules(toUnlink));
  }

  static bool isLinked(gpu::GPUModuleOp module) {
    return module->hasAttr(XPUDialect::kLinkedAttrName);
  }

  /// What must happen on this thread before emission, because it changes
  /// the module: its kernels' sub-group sizes.
  void prepare(gpu::GPUModuleOp module, Emission &emission, bool unlinking) {
    FirstErrorRecorder recorder(&getContext(), unlinking && isLinked(module));
    if (succeeded(checkTargets(module)) &&
        // Kernels lowered elsewhere get their sub-group size here at the
        // latest.
        succeeded(applySubgroupSizes(module, getXPUTargets(module))) &&
        // A spirv.module is serialized as written: its entry points get
        // the same sizes.
        succeeded(applySPIRVSubgroupSizes(module, getXPUTargets(module))))
      return;
    emission.error = recorder.getMessage("xpu-emit-spirv: emission failed");
  }

  static LogicalResult checkTargets(gpu::GPUModuleOp module) {
    for (Attribute target : module.getTargetsAttr())
      if (!isa<TargetAttr>(target))
        return module.emitError()
               << "xpu-emit-spirv: cannot mix #xpu.target with " << target
               << "; use gpu-module-to-binary for other targets";
    return success();
  }

  /// Emits every prepared module, `jobs` at a time (one at a time when the
  /// context is single-threaded); diagnostics come out in module order.
  void emitInParallel(ArrayRef<gpu::GPUModuleOp> modules,
                      MutableArrayRef<Emission> emissions, bool unlinking) {
    MLIRContext *context = &getContext();
    ParallelDiagnosticHandler ordered(context);
    std::atomic<size_t> next{0};
    auto emitNext = [&](size_t) {
      for (size_t i; (i = next++) < modules.size();) {
        if (!emissions[i].error.empty())
          continue;
        ordered.setOrderIDForThread(i);
        emitOne(modules[i], emissions[i], unlinking && isLinked(modules[i]));
        ordered.eraseOrderIDForThread();
      }
    };
    size_t workers = std::min<size_t>(jobs ? jobs : context->getNumThreads(),
                                      modules.size());
    if (workers > 1 && context->isMultithreadingEnabled())
      parallelFor(context, 0, workers, emitNext);
    else
      emitNext(0);
  }

  /// Emission proper; it reads `module` and changes nothing in the context
  /// but uniqued attributes, so modules emit in parallel.
  void emitOne(gpu::GPUModuleOp module, Emission &emission, bool swallow) {
    FirstErrorRecorder recorder(&getContext(), swallow);
    FailureOr<SmallVector<char, 0>> spirv = emitSPIRV(module, optLevel);
    if (succeeded(spirv) &&
        succeeded(checkSPIRV(module, *spirv, validateSPIRV, "xpu-emit-spirv")))
      emission.spirv = std::move(*spirv);
    else
      emission.error = recorder.getMessage("xpu-emit-spirv: emission failed");
  }

  /// Replaces `module` by a gpu.binary of the same name holding `spirv`
  /// once per target.
  void createBinary(gpu::GPUModuleOp module, ArrayRef<char> spirv) {
    MLIRContext *context = &getContext();
    auto payload =
        StringAttr::get(context, StringRef(spirv.data(), spirv.size()));
    SmallVector<Attribute> objects;
    for (Attribute target : module.getTargetsAttr())
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
    if (isLinked(module))
      keepAsLinkSource(module, binary);
    else
      module.erase();
  }

  /// Keeps the lowered linked `module` (without targets, so no stage
  /// compiles it) for xpu-native-codegen to build parts alone from (a part
  /// whose decision asks for another mode than the linked build's, or every
  /// part when the linked build fails); that pass removes it.
  void keepAsLinkSource(gpu::GPUModuleOp module, gpu::BinaryOp binary) {
    Builder builder(&getContext());
    // A name no top-level symbol has (the binary holds the original one).
    std::string base = (binary.getName() + "_link_source").str();
    std::string name = base;
    for (unsigned i = 0; !takenNames.insert(name).second; ++i)
      name = base + "_" + std::to_string(i);
    module.setName(name);
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

std::unique_ptr<Pass>
mlir::xpu::createXPUEmitSPIRV(const CodegenPipelineOptions &options,
                              SPIRVValidation validation, bool keepGoing) {
  return std::make_unique<EmitSPIRVPass>(options, validation, keepGoing);
}
