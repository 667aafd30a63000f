//===- NativeObject.cpp - Native code results as #gpu.object --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Support/ResultFields.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::xpu;

GRFMode mlir::xpu::getRequestedGRFMode(Operation *op, TargetAttr target) {
  if (auto mode = op->getAttrOfType<GRFModeAttr>(XPUDialect::kGRFModeAttrName))
    return mode.getValue();
  return target.getGrfMode();
}

PressureEstimate mlir::xpu::getPressureEstimate(PressureAttr pressure) {
  PressureEstimate estimate;
  estimate.liveBytes = pressure.getLiveBytes();
  estimate.simd = pressure.getSimd();
  estimate.smallBudget = pressure.getSmallBudget();
  estimate.prediction = pressure.getPrediction();
  return estimate;
}

ModuleCompileRequest mlir::xpu::getCompileRequest(Operation *op, StringRef name,
                                                  TargetAttr target,
                                                  ArrayRef<char> spirv,
                                                  StringRef extraFlags) {
  ModuleCompileRequest request;
  request.name = name.str();
  request.arch = target.getArch().str();
  request.policy = getRequestedGRFMode(op, target);
  // xpu-select-grf-mode{predict=true}'s plan and estimate for an auto module.
  if (auto plan =
          op->getAttrOfType<AutoPlanAttr>(XPUDialect::kAutoPlanAttrName))
    request.plan = plan.getValue();
  if (auto pressure =
          op->getAttrOfType<PressureAttr>(XPUDialect::kPressureAttrName))
    request.pressure = getPressureEstimate(pressure);
  SmallVector<StringRef, 2> flags;
  for (StringRef part : {target.getFlags(), extraFlags})
    if (!part.trim().empty())
      flags.push_back(part.trim());
  request.extraFlags = llvm::join(flags, " ");
  request.spirv.assign(spirv.begin(), spirv.end());
  return request;
}

/// The GRF mode of the kept build as the IR names it (IGC's auto flag: the
/// mode of the count it chose).
static GRFMode getKeptGRFMode(const BuildAttempt &chosen) {
  return symbolizeGRFMode(getEffectiveGRFMode(chosen))
      .value_or(GRFMode::Default);
}

DictionaryAttr
mlir::xpu::getNativeObjectProperties(MLIRContext *context,
                                     const ModuleCompileResult &result) {
  Builder builder(context);
  const BuildAttempt &chosen = result.decision.getChosen();

  SmallVector<NamedAttribute> kernels;
  for (const KernelMeasurement &kernel : chosen.kernels)
    kernels.push_back(builder.getNamedAttr(
        kernel.name,
        builder.getDictionaryAttr({
            builder.getNamedAttr(fields::kGRFCount,
                                 builder.getI64IntegerAttr(kernel.grfCount)),
            builder.getNamedAttr(fields::kSimd,
                                 builder.getI64IntegerAttr(kernel.simd)),
            builder.getNamedAttr(fields::kSpillSize,
                                 builder.getI64IntegerAttr(kernel.spillSize)),
            builder.getNamedAttr(fields::kPrivateSize,
                                 builder.getI64IntegerAttr(kernel.privateSize)),
            builder.getNamedAttr(fields::kNSpills,
                                 builder.getI64IntegerAttr(kernel.nSpills)),
        })));

  SmallVector<Attribute> attempts;
  for (const BuildAttempt &attempt : result.decision.attempts) {
    SmallVector<NamedAttribute> fields({
        builder.getNamedAttr(
            fields::kGRFMode,
            builder.getStringAttr(stringifyBuildGRF(attempt.mode))),
        builder.getNamedAttr(fields::kBuildFlags,
                             builder.getStringAttr(attempt.buildFlags)),
        builder.getNamedAttr(fields::kSpillSize,
                             builder.getI64IntegerAttr(attempt.spillSize)),
    });
    // A build that compiled but cannot launch (and so was not kept).
    if (!attempt.unusable.empty())
      fields.push_back(builder.getNamedAttr(
          fields::kUnusable, builder.getStringAttr(attempt.unusable)));
    attempts.push_back(builder.getDictionaryAttr(fields));
  }

  SmallVector<NamedAttribute> properties({
      builder.getNamedAttr(fields::kGRFMode,
                           GRFModeAttr::get(context, getKeptGRFMode(chosen))),
      builder.getNamedAttr(fields::kNRegs,
                           builder.getI32IntegerAttr(result.nRegs)),
      builder.getNamedAttr(fields::kSpillSize,
                           builder.getI64IntegerAttr(chosen.spillSize)),
      builder.getNamedAttr(fields::kBuildFlags,
                           builder.getStringAttr(chosen.buildFlags)),
      builder.getNamedAttr(fields::kBackend,
                           builder.getStringAttr(result.backend)),
      builder.getNamedAttr(fields::kArch, builder.getStringAttr(result.arch)),
      builder.getNamedAttr(fields::kDecision,
                           builder.getStringAttr(result.decision.reason)),
      builder.getNamedAttr(fields::kDecisionSource,
                           builder.getStringAttr(result.decision.source)),
      builder.getNamedAttr(fields::kAttempts, builder.getArrayAttr(attempts)),
      builder.getNamedAttr(fields::kKernels,
                           builder.getDictionaryAttr(kernels)),
  });
  // The sub-group size the kernels' SPIR-V requires, when they agree
  // (0: none); each kernel's `simd` is what IGC compiled.
  if (std::optional<uint32_t> size = getCommonRequiredSubgroupSize(result))
    properties.push_back(builder.getNamedAttr(
        fields::kSubgroupSize, builder.getI32IntegerAttr(*size)));
  if (result.pressure) {
    properties.push_back(builder.getNamedAttr(
        fields::kEstimatedLiveBytes,
        builder.getI64IntegerAttr(result.pressure->liveBytes)));
    properties.push_back(builder.getNamedAttr(
        fields::kPrediction, builder.getStringAttr(stringifyGRFPrediction(
                                 result.pressure->prediction))));
  }
  return builder.getDictionaryAttr(properties);
}

SpillAttr
mlir::xpu::getNativeSpillAttr(MLIRContext *context,
                              const ModuleCompileResult &result,
                              function_ref<InFlightDiagnostic()> emitError) {
  const BuildAttempt &chosen = result.decision.getChosen();
  if (chosen.kernels.empty())
    return {};
  // Flags apply per module: its worst case over the kernels.
  const DeviceInfo *device = lookupDevice(result.arch);
  int64_t grfCount = 0, privateSize = 0;
  int64_t simd = std::numeric_limits<int64_t>::max();
  std::optional<int64_t> threads = std::numeric_limits<int64_t>::max();
  for (const KernelMeasurement &kernel : chosen.kernels) {
    grfCount = std::max(grfCount, kernel.grfCount);
    simd = std::min(simd, kernel.simd);
    privateSize = std::max(privateSize, kernel.privateSize);
    unsigned kernelThreads =
        device ? device->getThreadsPerEU(kernel.grfCount) : 0;
    if (!kernelThreads)
      threads = std::nullopt;
    else if (threads)
      threads = std::min<int64_t>(*threads, kernelThreads);
  }
  return SpillAttr::getChecked(emitError, context, getKeptGRFMode(chosen),
                               chosen.spillSize, grfCount, simd, privateSize,
                               threads);
}
