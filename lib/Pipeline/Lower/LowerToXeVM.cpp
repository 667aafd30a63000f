//===- LowerToXeVM.cpp - Device code to the LLVM and XeVM dialects --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The device half of upstream's gpu-lower-to-xevm-pipeline, run on one
// gpu.module at a time as a dynamic pipeline, so a module that cannot be
// lowered is that module's error: it is restored and marked, and the others
// go on. A module whose device code is a spirv.module is left as it is, and
// XeGPU code already distributed to lanes gets upstream's lane-level passes
// whatever xegpu-op-level says.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/KernelOrigins.h"
#include "XPUCodegen/Pipeline/Link/LinkedParts.h"
#include "XPUCodegen/Pipeline/Lower/DeviceLowering.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/XeGPU/IR/XeGPU.h"
#include "mlir/Dialect/XeGPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPULOWERTOXEVM
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

using GPUModulePM = OpPassManager;

/// XeGPU at workgroup level: distribute to sub-groups, then block each
/// sub-group's ops into instruction-sized pieces.
static void addXeGPUWorkgroupPasses(GPUModulePM &pm) {
  pm.addPass(xegpu::createXeGPUWgToSgDistribute());
  pm.addPass(createCSEPass());
  xegpu::XeGPUPropagateLayoutOptions instData;
  instData.layoutKind = "inst";
  pm.addPass(xegpu::createXeGPUPropagateLayout(instData));
  pm.addPass(xegpu::createXeGPUBlocking());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// XeGPU at sub-group level: distribute to lanes, then flatten vectors.
static void addXeGPUSubgroupPasses(GPUModulePM &pm) {
  xegpu::XeGPUPropagateLayoutOptions lane;
  lane.layoutKind = "lane";
  pm.addPass(xegpu::createXeGPUPropagateLayout(lane));
  pm.addPass(xegpu::createXeGPUSubgroupDistribute());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCSEPass());
  pm.addPass(xegpu::createXeGPUVectorLinearize());
}

/// Everything to the LLVM and XeVM dialects. Structured control flow is
/// lowered only after the GPU ops: the other order mismatches block
/// argument types.
static void addToLLVMPasses(GPUModulePM &pm, bool use64bitIndex) {
  pm.addPass(createConvertMathToXeVM());
  pm.addPass(createConvertXeGPUToXeVMPass());
  ConvertGpuOpsToLLVMSPVOpsOptions gpuToLLVMSPV;
  gpuToLLVMSPV.use64bitIndex = use64bitIndex;
  pm.addPass(createConvertGpuOpsToLLVMSPVOps(gpuToLLVMSPV));
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

namespace {
/// Rewrites vector.maskedload/maskedstore into per-lane scf.if + memref
/// accesses. Lowered as they are, they become llvm.intr.masked.load/store,
/// which LLVM 22's SPIR-V backend cannot select (it aborts).
struct EmulateMaskedMemoryPass
    : public PassWrapper<EmulateMaskedMemoryPass,
                         OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EmulateMaskedMemoryPass)

  StringRef getArgument() const final { return "xpu-emulate-masked-memory"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<scf::SCFDialect, memref::MemRefDialect, arith::ArithDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMaskedLoadStoreEmulationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::xpu::buildDeviceLoweringPipeline(GPUModulePM &pm,
                                            StringRef xegpuOpLevel,
                                            bool use64bitIndex) {
  pm.addPass(createCSEPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createLowerAffinePass());
  if (xegpuOpLevel == "workgroup")
    addXeGPUWorkgroupPasses(pm);
  if (xegpuOpLevel == "workgroup" || xegpuOpLevel == "subgroup")
    addXeGPUSubgroupPasses(pm);
  pm.addPass(std::make_unique<EmulateMaskedMemoryPass>());
  addToLLVMPasses(pm, use64bitIndex);
}

namespace {
/// The granularity an XeGPU op's types say it is written at.
enum class XeGPUShape { Neutral, Lane, Subgroup };
} // namespace

/// A block access is lane-level when `value` is one lane's share of `tdesc`:
/// 1-D and fewer elements (the criterion of the XeGPU verifiers for SIMT
/// code).
static XeGPUShape getBlockShape(VectorType value, xegpu::TensorDescType tdesc) {
  if (!value)
    return XeGPUShape::Neutral;
  bool lane =
      value.getRank() == 1 &&
      value.getNumElements() < tdesc.getNumElements() * tdesc.getArrayLength();
  return lane ? XeGPUShape::Lane : XeGPUShape::Subgroup;
}

/// Lane-level gathers and scatters take a scalar or one-element mask and
/// carry no layout; a one-element access with a layout belongs to code that
/// is still to be distributed.
static XeGPUShape getGatherScatterShape(Operation *op, Value mask) {
  auto type = dyn_cast<VectorType>(mask.getType());
  if (!type)
    return XeGPUShape::Lane;
  if (type.getNumElements() != 1)
    return XeGPUShape::Subgroup;
  bool hasLayout =
      llvm::any_of(op->getAttrDictionary(), [](NamedAttribute attr) {
        return isa<xegpu::DistributeLayoutAttr>(attr.getValue());
      });
  return hasLayout ? XeGPUShape::Neutral : XeGPUShape::Lane;
}

/// The level `op`'s types say it is written at; ops whose types do not say
/// (descriptors, prefetches, offsets) are neutral.
static XeGPUShape getXeGPUShape(Operation *op) {
  return TypeSwitch<Operation *, XeGPUShape>(op)
      .Case([](xegpu::LoadNdOp load) {
        return getBlockShape(load.getType(), load.getTensorDescType());
      })
      .Case([](xegpu::StoreNdOp store) {
        return getBlockShape(store.getValueType(), store.getTensorDescType());
      })
      .Case([](xegpu::DpasOp dpas) {
        return dpas.getLhsType().getRank() == 1 ? XeGPUShape::Lane
                                                : XeGPUShape::Subgroup;
      })
      .Case<xegpu::LoadGatherOp, xegpu::StoreScatterOp>([](auto access) {
        return getGatherScatterShape(access, access.getMask());
      })
      .Default(XeGPUShape::Neutral);
}

/// The XeGPU level `module` is lowered at. Modules without XeGPU ops, and
/// modules whose XeGPU ops are already distributed to lanes (SIMT), get
/// upstream's `lane` passes whatever `requested` says: the layout
/// propagation of the other levels rejects both. A module that mixes
/// lane-level and sub-group-level XeGPU ops is an error.
FailureOr<StringRef> mlir::xpu::getDeviceXeGPULevel(gpu::GPUModuleOp module,
                                                    StringRef requested) {
  bool hasXeGPU = false;
  Operation *firstLane = nullptr;
  Operation *firstSubgroup = nullptr;
  module.getBody()->walk([&](Operation *op) {
    if (!isa_and_present<xegpu::XeGPUDialect>(op->getDialect()))
      return;
    hasXeGPU = true;
    XeGPUShape shape = getXeGPUShape(op);
    if (shape == XeGPUShape::Lane && !firstLane)
      firstLane = op;
    if (shape == XeGPUShape::Subgroup && !firstSubgroup)
      firstSubgroup = op;
  });
  if (!hasXeGPU || (firstLane && !firstSubgroup))
    return StringRef("lane");
  if (!firstLane)
    return requested;
  InFlightDiagnostic diag = firstSubgroup->emitError()
                            << "xpu-lower-to-xevm: this XeGPU op works on a "
                               "whole sub-group's data, but the module also "
                               "holds XeGPU ops already distributed to lanes "
                               "(SIMT); no xegpu-op-level lowers both, put "
                               "them in gpu.modules of their own";
  diag.attachNote(firstLane->getLoc()) << "first lane-level XeGPU op";
  return failure();
}

/// A module whose device code is a spirv.module compiles to that module
/// alone (xpu-emit-spirv serializes it): every kernel declared beside it
/// must be one of its entry points, or it would be lost.
static LogicalResult checkSPIRVKernels(gpu::GPUModuleOp module,
                                       spirv::ModuleOp spirvModule) {
  llvm::StringSet<> entryPoints;
  for (auto entry : spirvModule.getOps<spirv::EntryPointOp>())
    entryPoints.insert(entry.getFn());
  for (Operation &op : module.getBody()->getOperations()) {
    if (!isGPUKernel(&op))
      continue;
    StringRef name = SymbolTable::getSymbolName(&op).getValue();
    if (!entryPoints.contains(name))
      return op.emitError()
             << "xpu-lower-to-xevm: kernel '" << name
             << "' is not an entry point of the spirv.module beside it, "
                "which is all this gpu.module compiles to; add a "
                "spirv.EntryPoint for it or move it to a gpu.module of its "
                "own";
  }
  return success();
}

/// Whether `op` may reach xpu-emit-spirv: LLVM ops, and XeVM ops, which
/// translate to LLVM IR directly.
static bool isLowered(Operation *op) {
  // Unregistered ops have no dialect.
  return isa_and_present<LLVM::LLVMDialect, xevm::XeVMDialect>(
      op->getDialect());
}

/// A cast between an LLVM type and one LLVM has none for (a memref, an
/// index): no later pass reconciles it, and translation fails on it.
static UnrealizedConversionCastOp
findUntranslatableCast(gpu::GPUModuleOp module) {
  UnrealizedConversionCastOp found;
  module.getBody()->walk([&](UnrealizedConversionCastOp cast) {
    auto isLLVM = [](Type type) { return LLVM::isCompatibleType(type); };
    if (llvm::all_of(cast.getOperandTypes(), isLLVM) &&
        llvm::all_of(cast.getResultTypes(), isLLVM))
      return WalkResult::advance();
    found = cast;
    return WalkResult::interrupt();
  });
  return found;
}

Operation *mlir::xpu::findUnloweredOp(gpu::GPUModuleOp module) {
  Operation *unlowered = nullptr;
  module.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isLowered(op) || isa<UnrealizedConversionCastOp>(op))
      return WalkResult::advance();
    unlowered = op;
    return WalkResult::interrupt();
  });
  return unlowered;
}

namespace {
struct LowerToXeVMPass : public xpu::impl::XPULowerToXeVMBase<LowerToXeVMPass> {
  XPU_LOWER_TO_XEVM_OPTIONS(XPU_DECLARE_PASS_OPTION)

  using Base::Base;
  LowerToXeVMPass() = default;
  /// A clone: the options are copied by the pass manager.
  LowerToXeVMPass(const LowerToXeVMPass &other) : Base(other) {}
  LowerToXeVMPass(const CodegenPipelineOptions &options, bool keepGoing) {
    XPU_LOWER_TO_XEVM_OPTIONS(XPU_COPY_OPTION)
    this->keepGoing = keepGoing;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // The dynamic pipeline's dialects must be loaded before it runs.
    GPUModulePM pm(gpu::GPUModuleOp::getOperationName());
    buildDeviceLoweringPipeline(pm, "workgroup", true);
    pm.getDependentDialects(registry);
    registry.insert<xevm::XeVMDialect>();
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (getXPUTargets(module).empty() || getModuleFailure(module) ||
        !findUnloweredOp(module))
      return;
    // Lowering replaces the kernels: their locations stay with the module
    // for diagnostics about them (KernelOrigins.h).
    recordKernelOrigins(module);
    if (llvm::Error error = checkCodegenOptionValue(
            codegen_option::xegpuOpLevel::check, xegpuOpLevel.getArgStr(),
            xegpuOpLevel.getValue())) {
      module.emitError() << "xpu-lower-to-xevm: "
                         << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    auto spirvModules = module.getOps<spirv::ModuleOp>();
    // Device code already in the SPIR-V dialect is left as it is.
    LogicalResult result =
        spirvModules.empty() ? lower(module)
                             : checkSPIRVModule(module, *spirvModules.begin());
    if (succeeded(result)) {
      ++numLowered;
      return;
    }
    if (module->hasAttr(XPUDialect::kLinkedAttrName))
      mlir::emitWarning(module.getLoc())
          << "xpu-lower-to-xevm: linked module '" << module.getName()
          << "' does not lower (" << *getModuleFailure(module)
          << "); its modules " << getLinkedPartNames(module)
          << " are lowered alone (xpu-unlink-failed-modules)";
    ++numFailed;
    if (failed(finishModuleStage(1, keepGoing)))
      signalPassFailure();
  }

  LogicalResult checkSPIRVModule(gpu::GPUModuleOp module,
                                 spirv::ModuleOp spirvModule) {
    FirstErrorRecorder recorder(&getContext());
    if (succeeded(checkSPIRVKernels(module, spirvModule)))
      return success();
    markModuleFailed(module, FailureStage::Lower,
                     recorder.getMessage("xpu-lower-to-xevm: the "
                                         "spirv.module is incomplete"));
    return failure();
  }

  /// Lowers `module`; on failure restores its input and marks it failed.
  LogicalResult lower(gpu::GPUModuleOp module) {
    OwningOpRef<Operation *> input(module->clone());
    // A linked module's errors are its parts' to report, once each is
    // lowered alone (xpu-unlink-failed-modules); here they are one warning.
    bool linked = module->hasAttr(XPUDialect::kLinkedAttrName);
    FirstErrorRecorder recorder(&getContext(), /*swallow=*/linked);
    FailureOr<StringRef> level = getDeviceXeGPULevel(module, xegpuOpLevel);
    bool lowered = false;
    if (succeeded(level)) {
      GPUModulePM pm(gpu::GPUModuleOp::getOperationName());
      buildDeviceLoweringPipeline(pm, *level, use64bitIndex);
      lowered = succeeded(runPipeline(pm, module));
    }
    // Past the GPU conversion, an op left over is what has no lowering;
    // before it, the failing pass has said what went wrong.
    Operation *unlowered = findUnloweredOp(module);
    bool pastGPUConversion = unlowered && !isa<gpu::GPUFuncOp>(unlowered) &&
                             !unlowered->getParentOfType<gpu::GPUFuncOp>();
    if (lowered && !unlowered) {
      UnrealizedConversionCastOp cast = findUntranslatableCast(module);
      if (!cast)
        return success();
      cast.emitError() << "xpu-lower-to-xevm: a type conversion to or from a "
                          "non-LLVM type is left over"
                       << (use64bitIndex
                               ? ""
                               : " (use-64bit-index=false: upstream's memref "
                                 "and vector lowerings keep 64-bit "
                                 "descriptors, so upstream's own "
                                 "gpu-lower-to-xevm-pipeline fails the same "
                                 "way)");
      lowered = false;
    }

    if (pastGPUConversion || (lowered && unlowered))
      unlowered->emitError()
          << "xpu-lower-to-xevm: '" << unlowered->getName()
          << "' has no lowering to the LLVM or XeVM dialect (nor in upstream's "
             "gpu-lower-to-xevm-pipeline); rewrite it into ops that have one";
    std::string message = recorder.getMessage(
        "xpu-lower-to-xevm: the module could not be lowered to the LLVM and "
        "XeVM dialects");
    // Loses nothing: the module keeps its input for the user to inspect.
    module.getBodyRegion().takeBody((*input)->getRegion(0));
    module->setAttrs((*input)->getAttrDictionary());
    markModuleFailed(module, FailureStage::Lower, message);
    return failure();
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPULowerToXeVM(const CodegenPipelineOptions &options,
                                bool keepGoing) {
  return std::make_unique<LowerToXeVMPass>(options, keepGoing);
}
