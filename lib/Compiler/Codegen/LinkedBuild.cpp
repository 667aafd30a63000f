//===- LinkedBuild.cpp - One build for a linked module's parts ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A linked module is built once, in the mode every part's decision starts
// with; each part then gets the decision an unlinked run would make, from
// that build restricted to its kernels, or from builds of the part alone
// where the decision asks for another mode or the linked build failed.
//
//===----------------------------------------------------------------------===//

#include "NativeCodegenDriverImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <mutex>

using namespace mlir::xpu;
using namespace mlir::xpu::detail;

/// The mode of the first build decideGRF asks for under `policy`: a linked
/// module builds once in that mode, and each part's decision reuses it.
static BuildGRF getFirstBuildMode(GRFMode policy, AutoStrategy strategy,
                                  AutoPlan plan, const DeviceInfo &device) {
  if (std::optional<BuildGRF> forced = getForcedBuildGRF(policy))
    return *forced;
  if (policy == GRFMode::Default)
    return BuildGRF::Default;
  if (strategy == AutoStrategy::IGC)
    return BuildGRF::IGCAuto;
  // The register-count search starts from IGC's default build.
  if (device.hasVariableRegisterFile())
    return BuildGRF::Default;
  return plan == AutoPlan::PredictLarge ||
                 plan == AutoPlan::PredictLargeUnverified
             ? BuildGRF::Large
             : BuildGRF::Small;
}

/// `attempt` as far as `kernels` are concerned: their measurements, and the
/// largest of their spills as the build's (the flags apply to the whole
/// module, so a module's spill is its worst kernel's).
static BuildAttempt restrictToKernels(const BuildAttempt &attempt,
                                      llvm::ArrayRef<std::string> kernels) {
  BuildAttempt part;
  part.mode = attempt.mode;
  part.buildFlags = attempt.buildFlags;
  part.log = attempt.log;
  part.compileMs = attempt.compileMs;
  part.cache = attempt.cache;
  part.reused = attempt.reused;
  for (const KernelMeasurement &kernel : attempt.kernels) {
    if (!llvm::is_contained(kernels, kernel.name))
      continue;
    part.spillSize = std::max(part.spillSize, kernel.spillSize);
    part.kernels.push_back(kernel);
  }
  return part;
}

/// A linked module: one build in the mode every part's decision starts
/// with, then per part the decision an unlinked run would make, from the
/// linked build restricted to the part's kernels and, where the decision
/// asks for another mode (or the linked build failed), from builds of the
/// part alone.
ModuleCompileResult NativeCodegenDriver::Batch::compileLinked(
    size_t index, const PreparedModule &module, AutoPlan plan,
    llvm::StringRef planNote) {
  const ModuleCompileRequest &request = requests[index];
  BuildGRF linkedMode = getFirstBuildMode(module.policy, options.autoStrategy,
                                          plan, *module.device);
  std::optional<BuildAttempt> linked;
  std::string linkedError;
  if (llvm::Expected<BuildAttempt> attempt = build(index, module, linkedMode)) {
    attempt->mode = linkedMode;
    linked = std::move(*attempt);
  } else {
    linkedError = llvm::toString(attempt.takeError());
    std::lock_guard<std::mutex> lock(impl.mutex);
    moduleKeys[index].clear();
  }

  GRFDecision decision;
  decision.source = "linked";
  decision.reason =
      llvm::formatv("{0} modules linked into one {1} build",
                    request.parts.size(), stringifyBuildGRF(linkedMode));
  if (linked)
    decision.attempts.push_back(*linked);
  else
    decision.reason += " that failed, so each was built alone: " + linkedError;
  ModuleCompileResult result =
      describe(request, module, plan, planNote, std::move(decision));
  // Parts whose decision needs builds of their own run them in parallel.
  std::vector<std::optional<LinkedPartResult>> parts(request.parts.size());
  forEachIndex(parts.size(), [&](size_t part) {
    parts[part] =
        compilePart(index, part, module, plan, planNote, linkedMode, linked);
  });
  for (std::optional<LinkedPartResult> &part : parts)
    result.parts.push_back(std::move(*part));
  return result;
}

/// The request of `part` of a linked module's `request`, as a module alone
/// would make it (its SPIR-V is emitted only when needed).
static ModuleCompileRequest getPartRequest(const ModuleCompileRequest &request,
                                           const LinkedPart &part) {
  ModuleCompileRequest partRequest;
  partRequest.name = part.name;
  partRequest.arch = request.arch;
  partRequest.policy = request.policy;
  partRequest.plan = request.plan;
  partRequest.pressure = part.pressure;
  partRequest.extraFlags = request.extraFlags;
  partRequest.maxWorkGroupSize = request.maxWorkGroupSize;
  return partRequest;
}

/// One part's decision (see compileLinked). Its own SPIR-V is emitted only
/// when a build of the part alone is needed.
LinkedPartResult NativeCodegenDriver::Batch::compilePart(
    size_t index, size_t partIndex, const PreparedModule &module, AutoPlan plan,
    llvm::StringRef planNote, BuildGRF linkedMode,
    const std::optional<BuildAttempt> &linked) {
  const ModuleCompileRequest &request = requests[index];
  const LinkedPart &part = request.parts[partIndex];
  ModuleCompileRequest partRequest = getPartRequest(request, part);

  // The part as the linked build sees it: its kernels only.
  PreparedModule partModule = module;
  llvm::erase_if(partModule.spirvKernels, [&](const SPIRVKernelInfo &kernel) {
    return !llvm::is_contained(part.kernels, kernel.name);
  });
  LaunchLimits limits = getLaunchLimits(partRequest, options, partModule);

  // The part alone, emitted and prepared on first use (a speculative plan
  // asks from two threads).
  std::mutex aloneMutex;
  std::optional<llvm::Expected<PreparedModule>> alone;
  auto buildAlone = [&](BuildGRF mode) -> llvm::Expected<BuildAttempt> {
    {
      std::lock_guard<std::mutex> lock(aloneMutex);
      if (!alone) {
        llvm::Expected<std::vector<char>> spirv =
            request.emitPart
                ? request.emitPart(partIndex)
                : llvm::Expected<std::vector<char>>(
                      llvm::createStringError("no way to emit the part alone"));
        if (!spirv) {
          alone.emplace(spirv.takeError());
        } else {
          partRequest.spirv = std::move(*spirv);
          alone.emplace(prepare(partRequest, options, impl.pool->getCompiler(),
                                [&](WorkerBackend backend) {
                                  return impl.getCompilerIdentity(backend);
                                }));
        }
      }
      if (!*alone)
        return llvm::createStringError("building '" + part.name + "' alone: " +
                                       llvm::toString((*alone).takeError()));
    }
    return buildShared(partRequest, **alone, mode, /*keys=*/nullptr);
  };
  // The linked build's time counts once, for the first part (every part's
  // decision starts with that build), whatever order parts finish in.
  std::atomic<bool> linkedCounted = partIndex != 0;
  auto partBuild = [&](BuildGRF mode) -> llvm::Expected<BuildAttempt> {
    if (mode != linkedMode || !linked)
      return buildAlone(mode);
    BuildAttempt attempt = restrictToKernels(*linked, part.kernels);
    // The linked binary holds every part's entry points; each part's share
    // must be exactly its own.
    if (llvm::Error error = checkBuildKernels(attempt, part.kernels))
      return std::move(error);
    if (linkedCounted.exchange(true)) {
      attempt.reused = true;
      attempt.compileMs = 0;
    }
    return attempt;
  };

  LinkedPartResult result;
  llvm::Expected<GRFDecision> decision = decideLaunchableGRF(
      module.policy, options.autoStrategy, options.spillThreshold, plan,
      getBuildLadder(*module.device), limits, options.strictLaunch, partBuild);
  if (!decision) {
    result.error = llvm::toString(decision.takeError());
    return result;
  }
  const BuildAttempt &chosen = decision->getChosen();
  // The decision reads as an unlinked run's; `linked_into` says how.
  result.split = !linked || chosen.mode != linkedMode;
  result.result =
      describe(partRequest, partModule, plan, planNote, std::move(*decision));
  return result;
}
