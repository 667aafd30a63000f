//===- SelectGRFMode.cpp - Resolve GRF modes, split mixed modules ---------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/LaunchLimits.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/Analysis/RegisterPressure.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"
#include "XPUCodegen/Pipeline/Select/LaunchChecks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUSELECTGRFMODE
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// The SIMD width a kernel will be compiled for, once sub-group sizes are
/// applied; std::nullopt when IGC picks.
static std::optional<unsigned> getRequiredSubgroupSize(Operation *kernel) {
  if (auto size = kernel->getAttrOfType<IntegerAttr>(kReqdSubgroupSizeAttrName))
    return static_cast<unsigned>(size.getInt());
  return std::nullopt;
}

static std::optional<GRFMode> getExplicitMode(Operation *op) {
  if (auto mode = op->getAttrOfType<GRFModeAttr>(XPUDialect::kGRFModeAttrName))
    return mode.getValue();
  return std::nullopt;
}

namespace {
/// Kernels grouped by resolved mode, in first-seen order; std::nullopt is the
/// group that follows the target's grf_mode.
using ModeGroups =
    llvm::MapVector<std::optional<GRFMode>, SmallVector<StringAttr>>;

struct SelectGRFModePass
    : public xpu::impl::XPUSelectGRFModeBase<SelectGRFModePass> {
  XPU_SELECT_GRF_MODE_OPTIONS(XPU_DECLARE_PASS_OPTION)

  SelectGRFModePass() = default;
  explicit SelectGRFModePass(const XPUSelectGRFModeOptions &options)
      : Base(options) {}
  /// A clone: the options are copied by the pass manager.
  SelectGRFModePass(const SelectGRFModePass &other) : Base(other) {}
  SelectGRFModePass(const CodegenPipelineOptions &options, bool keepGoing) {
    XPU_SELECT_GRF_MODE_OPTIONS(XPU_COPY_OPTION)
    this->keepGoing = keepGoing;
  }

  void runOnOperation() override {
    ModuleOp top = getOperation();
    if (llvm::Error error =
            checkPredictionBand(predictSmallBelow, predictLargeAbove)) {
      emitError(top.getLoc())
          << "xpu-select-grf-mode: " << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    countSymbolScan(top);
    SymbolTable symbols(top);
    moduleFailures = 0;
    movedKernels.clear();
    for (auto module :
         llvm::make_early_inc_range(top.getOps<gpu::GPUModuleOp>())) {
      countVisitedOps();
      SmallVector<gpu::GPUModuleOp> parts;
      // A mode the module cannot have is that module's error only: it is
      // marked and skipped by the later stages, the others go on.
      FirstErrorRecorder recorder(&getContext());
      if (mlir::failed(selectModule(module, symbols, parts))) {
        markModuleFailed(module, FailureStage::Select,
                         recorder.getMessage("xpu-select-grf-mode: no GRF mode "
                                             "could be selected"));
        ++moduleFailures;
        continue;
      }
      if (predict)
        for (gpu::GPUModuleOp part : parts)
          planAutoModule(part);
    }
    redirectMovedLaunches();
    if (mlir::failed(finishModuleStage(moduleFailures, keepGoing)))
      signalPassFailure();
  }

  /// (module, kernel) -> the module a split moved the kernel to.
  llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> movedKernels;

  /// Points the launches of every moved kernel at its new module, in one
  /// walk of the program.
  void redirectMovedLaunches() {
    if (movedKernels.empty())
      return;
    walkCounted<gpu::LaunchFuncOp>(
        getOperation(), [&](gpu::LaunchFuncOp launch) {
          StringAttr target = movedKernels.lookup(
              {launch.getKernelModuleName(), launch.getKernelName()});
          if (!target)
            return;
          launch.setKernelAttr(SymbolRefAttr::get(
              target, {FlatSymbolRefAttr::get(launch.getKernelName())}));
          ++numRewrittenLaunches;
        });
  }

  /// Modules marked failed in this run (their kernel cannot launch).
  unsigned moduleFailures = 0;

  /// With strict-launch, fails `module` when one of its kernels cannot
  /// launch in any GRF mode of a target's device: an error at that kernel,
  /// and `xpu.error` on the module (its kernels share that kernel's binary,
  /// so none is built). Returns whether it did. Without, xpu-native-codegen
  /// builds the kernel and warns.
  bool failUnlaunchable(gpu::GPUModuleOp module, ArrayRef<TargetAttr> targets) {
    if (!strictLaunch)
      return false;
    for (TargetAttr target : targets) {
      const DeviceInfo *device = lookupDevice(target.getArch());
      std::optional<UnlaunchableKernel> unlaunchable =
          device ? checkAnyModeWorkGroups(module, *device) : std::nullopt;
      if (!unlaunchable)
        continue;
      std::string message =
          "xpu-select-grf-mode: " + unlaunchable->limit.message;
      Operation *kernel = lookupSymbolCounted(
          module, StringAttr::get(&getContext(), unlaunchable->kernel));
      (kernel ? kernel : module.getOperation())
              ->emitError(message)
              .attachNote(module.getLoc())
          << "module '" << module.getName() << "' for arch '"
          << target.getArch() << "' is not built";
      markModuleFailed(module, FailureStage::Select, message);
      ++moduleFailures;
      return true;
    }
    return false;
  }

  /// The single #xpu.target of `module` whose device has a large GRF mode,
  /// or null: with several targets one plan cannot fit them all.
  static const DeviceInfo *getPredictableDevice(gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || targets.size() != 1)
      return nullptr;
    auto target = dyn_cast<TargetAttr>(targets[0]);
    if (!target)
      return nullptr;
    const DeviceInfo *device = lookupDevice(target.getArch());
    return device && device->supportsLargeGRF() ? device : nullptr;
  }

  /// The mode `module` builds with: its xpu.grf_mode, else the target's.
  static GRFMode getModuleMode(gpu::GPUModuleOp module) {
    if (std::optional<GRFMode> mode = getExplicitMode(module))
      return *mode;
    return cast<TargetAttr>(module.getTargetsAttr()[0]).getGrfMode();
  }

  /// Records the register-pressure estimate on every kernel of an auto
  /// module and on the module (its highest-pressure kernel: build flags
  /// apply per module), and the plan for xpu-native-codegen.
  void planAutoModule(gpu::GPUModuleOp module) {
    const DeviceInfo *device = getPredictableDevice(module);
    if (!device || getModuleMode(module) != GRFMode::Auto)
      return;
    MLIRContext *context = &getContext();
    PredictionThresholds thresholds;
    thresholds.smallBelowPercent = predictSmallBelow;
    thresholds.largeAbovePercent = predictLargeAbove;

    // The module's estimate is its kernel with the highest pressure relative
    // to its own budget (kernels may require different SIMD widths).
    PressureAttr pressure;
    AnalysisManager moduleAnalyses = getAnalysisManager().nest(module);
    for (Operation &op : module.getBody()->getOperations()) {
      if (!isGPUKernel(&op))
        continue;
      GRFBudget budget = getGRFBudget(*device, getRequiredSubgroupSize(&op));
      int64_t bytes = moduleAnalyses.nest(&op)
                          .getAnalysis<RegisterPressureAnalysis>()
                          .getPeakLiveBytes();
      PressureAttr kernelPressure =
          getPressureAttr(context, bytes, budget, thresholds);
      op.setAttr(XPUDialect::kPressureAttrName, kernelPressure);
      if (!pressure ||
          kernelPressure.getLiveBytes() * pressure.getSmallBudget() >
              pressure.getLiveBytes() * kernelPressure.getSmallBudget())
        pressure = kernelPressure;
    }
    if (!pressure)
      return;
    AutoPlan plan = AutoPlan::Measure;
    switch (pressure.getPrediction()) {
    case GRFPrediction::Small:
      plan = AutoPlan::PredictSmall;
      ++numPredictedSmall;
      break;
    case GRFPrediction::Large:
      plan = AutoPlan::PredictLarge;
      ++numPredictedLarge;
      break;
    case GRFPrediction::Uncertain:
      plan = speculative ? AutoPlan::Speculate : AutoPlan::Measure;
      ++numUncertain;
      break;
    }
    module->setAttr(XPUDialect::kPressureAttrName, pressure);
    module->setAttr(XPUDialect::kAutoPlanAttrName,
                    AutoPlanAttr::get(context, plan));
  }

  /// A register count (`xpu.grf_mode = #xpu.grf_mode<160>`) that a target's
  /// device does not have is an error at `requester`.
  static bool checkForcedCount(Operation *requester, GRFMode mode,
                               ArrayRef<TargetAttr> targets) {
    if (!isGRFCount(mode))
      return true;
    bool ok = true;
    unsigned registers = getGRFModeRegisters(mode);
    for (TargetAttr target : targets) {
      const DeviceInfo *device = lookupDevice(target.getArch());
      if (device->getThreadsPerEU(registers))
        continue;
      requester->emitError()
          << "xpu-select-grf-mode: " << registers
          << "-register count requested, but arch '" << target.getArch()
          << "' does not have it (its counts: " << device->getGRFCountList()
          << ")";
      ok = false;
    }
    return ok;
  }

  LogicalResult selectModule(gpu::GPUModuleOp module, SymbolTable &symbols,
                             SmallVectorImpl<gpu::GPUModuleOp> &parts) {
    parts.push_back(module);
    ArrayAttr targets = module.getTargetsAttr();
    SmallVector<TargetAttr> xpuTargets;
    if (targets)
      for (Attribute target : targets)
        if (auto xpuTarget = dyn_cast<TargetAttr>(target))
          xpuTargets.push_back(xpuTarget);
    if (xpuTargets.empty())
      return success();
    // Before any split, so every part keeps its kernels' widths.
    if (failed(applySubgroupSizes(module, xpuTargets)))
      return failure();
    if (failUnlaunchable(module, xpuTargets)) {
      parts.clear();
      return success();
    }

    std::optional<GRFMode> moduleMode = getExplicitMode(module);
    ModeGroups groups;
    bool failed = false;
    for (Operation &op : module.getBody()->getOperations()) {
      if (!isGPUKernel(&op))
        continue;
      std::optional<GRFMode> mode = getExplicitMode(&op);
      Operation *requester = mode ? &op : module.getOperation();
      if (!mode)
        mode = moduleMode;
      if (mode == GRFMode::Large || mode == GRFMode::XLarge)
        for (TargetAttr target : xpuTargets) {
          const DeviceInfo *device = lookupDevice(target.getArch());
          if (!device->getGRFMode(getGRFModeRegisters(*mode))) {
            requester->emitError()
                << "xpu-select-grf-mode: " << stringifyGRFMode(*mode)
                << " GRF mode requested, but arch '" << target.getArch()
                << "' does not support it (its GRF modes: "
                << device->getGRFModeList() << " registers)";
            failed = true;
          }
        }
      if (mode && !checkForcedCount(requester, *mode, xpuTargets))
        failed = true;
      // A forced mode or count with fewer threads than the device's most,
      // which the kernel's work-group cannot run in.
      for (TargetAttr target : xpuTargets) {
        const DeviceInfo *device = lookupDevice(target.getArch());
        GRFMode forced = mode.value_or(target.getGrfMode());
        unsigned registers = getGRFModeRegisters(forced);
        unsigned threads =
            registers ? device->getLaunchThreadsPerEU(registers) : 0;
        if (!threads || threads >= device->getLaunchThreadsPerEU(
                                       device->getMostThreadsRegisters()))
          continue;
        if (std::optional<WorkGroupLimit> limit = checkForcedWorkGroup(
                &op, *device, *getBuildGRFForRegisters(registers),
                strictLaunch)) {
          op.emitError() << "xpu-select-grf-mode: " << stringifyGRFMode(forced)
                         << (isGRFCount(forced) ? "-register count"
                                                : " GRF mode")
                         << " cannot launch: " << limit->message;
          failed = true;
        }
      }
      groups[mode].push_back(SymbolTable::getSymbolName(&op));
    }
    if (failed)
      return failure();
    if (groups.size() <= 1) {
      if (!groups.empty() && groups.front().first)
        module->setAttr(XPUDialect::kGRFModeAttrName,
                        GRFModeAttr::get(&getContext(), *groups.front().first));
      return success();
    }
    splitModule(module, groups, symbols, parts);
    return success();
  }

  /// Keeps the target-following group (or the first) in `module` and moves
  /// every other group to a copy of the module named after its mode.
  void splitModule(gpu::GPUModuleOp module, ModeGroups &groups,
                   SymbolTable &symbols,
                   SmallVectorImpl<gpu::GPUModuleOp> &parts) {
    MLIRContext *context = &getContext();
    auto primary = groups.find(std::nullopt);
    if (primary == groups.end())
      primary = groups.begin();

    OpBuilder builder(context);
    builder.setInsertionPointAfter(module);
    for (auto group = groups.begin(); group != groups.end(); ++group) {
      if (group == primary)
        continue;
      GRFMode mode = *group->first;
      auto part = cast<gpu::GPUModuleOp>(builder.clone(*module));
      // SymbolTable::insert renames on a clash, keeping names unique.
      part.setName((module.getName() + "_" + stringifyGRFMode(mode)).str());
      symbols.insert(part, builder.getInsertionPoint());
      builder.setInsertionPointAfter(part);
      part->setAttr(XPUDialect::kGRFModeAttrName,
                    GRFModeAttr::get(context, mode));
      parts.push_back(part);

      llvm::SmallDenseSet<StringAttr> keep(group->second.begin(),
                                           group->second.end());
      for (Operation &op :
           llvm::make_early_inc_range(part.getBody()->getOperations()))
        if (isGPUKernel(&op) && !keep.contains(SymbolTable::getSymbolName(&op)))
          op.erase();
      for (StringAttr kernel : group->second) {
        lookupSymbolCounted(module, kernel)->erase();
        movedKernels[{module.getNameAttr(), kernel}] = part.getNameAttr();
      }
      ++numSplitModules;
    }
    if (primary->first)
      module->setAttr(XPUDialect::kGRFModeAttrName,
                      GRFModeAttr::get(context, *primary->first));
    else
      module->removeAttr(XPUDialect::kGRFModeAttrName);
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPUSelectGRFMode(const CodegenPipelineOptions &options,
                                  bool keepGoing) {
  return std::make_unique<SelectGRFModePass>(options, keepGoing);
}
