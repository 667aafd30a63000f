//===- NativeObject.cpp - Native code results as #gpu.object --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Target/Codegen/ResultFields.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::xpu;

static GRFPolicy toPolicy(GRFMode mode) {
  switch (mode) {
  case GRFMode::Small:
    return GRFPolicy::Small;
  case GRFMode::Large:
    return GRFPolicy::Large;
  case GRFMode::Auto:
    return GRFPolicy::Auto;
  case GRFMode::Default:
    return GRFPolicy::Default;
  case GRFMode::XLarge:
    return GRFPolicy::XLarge;
  case GRFMode::Regs32:
    return GRFPolicy::Regs32;
  case GRFMode::Regs64:
    return GRFPolicy::Regs64;
  case GRFMode::Regs96:
    return GRFPolicy::Regs96;
  case GRFMode::Regs160:
    return GRFPolicy::Regs160;
  case GRFMode::Regs192:
    return GRFPolicy::Regs192;
  }
  llvm_unreachable("unknown GRF mode");
}

GRFPolicy mlir::xpu::getGRFPolicy(Operation *op, TargetAttr target) {
  if (auto mode = op->getAttrOfType<GRFModeAttr>(XPUDialect::kGRFModeAttrName))
    return toPolicy(mode.getValue());
  return toPolicy(target.getGrfMode());
}

PressureEstimate mlir::xpu::getPressureEstimate(PressureAttr pressure) {
  PressureEstimate estimate;
  estimate.liveBytes = pressure.getLiveBytes();
  estimate.simd = pressure.getSimd();
  estimate.smallBudget = pressure.getSmallBudget();
  estimate.prediction = stringifyGRFPrediction(pressure.getPrediction()).str();
  return estimate;
}

ModuleCompileRequest mlir::xpu::getCompileRequest(Operation *op, StringRef name,
                                                  TargetAttr target,
                                                  ArrayRef<char> spirv,
                                                  StringRef extraFlags) {
  ModuleCompileRequest request;
  request.name = name.str();
  request.arch = target.getArch().str();
  request.policy = getGRFPolicy(op, target);
  // xpu-select-grf-mode{predict=true}'s plan and estimate for an auto module.
  if (auto plan =
          op->getAttrOfType<AutoPlanAttr>(XPUDialect::kAutoPlanAttrName)) {
    switch (plan.getValue()) {
    case AutoPlan::Measure:
      request.plan = BuildPlan::Measure;
      break;
    case AutoPlan::PredictSmall:
      request.plan = BuildPlan::PredictSmall;
      break;
    case AutoPlan::PredictLarge:
      request.plan = BuildPlan::PredictLarge;
      break;
    case AutoPlan::Speculate:
      request.plan = BuildPlan::Speculate;
      break;
    }
  }
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

  GRFMode mode =
      symbolizeGRFMode(getEffectiveGRFMode(chosen)).value_or(GRFMode::Default);
  SmallVector<NamedAttribute> properties({
      builder.getNamedAttr(fields::kGRFMode, GRFModeAttr::get(context, mode)),
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
        fields::kPrediction,
        builder.getStringAttr(result.pressure->prediction)));
  }
  return builder.getDictionaryAttr(properties);
}
