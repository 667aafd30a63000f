//===- GRFBuild.cpp - GRF build modes, flags and the auto decision --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Native/GRFBuild.h"
#include "XPUCodegen/Target/Native/Zebin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <future>
#include <mutex>

using namespace llvm;
using namespace mlir::xpu;

StringRef mlir::xpu::stringifyBuildGRF(BuildGRF mode) {
  switch (mode) {
  case BuildGRF::Small:
    return "small";
  case BuildGRF::Large:
    return "large";
  case BuildGRF::Default:
    return "default";
  case BuildGRF::IGCAuto:
    return "igc-auto";
  }
  return "unknown";
}

StringRef mlir::xpu::getGRFFlag(BuildGRF mode, WorkerBackend backend) {
  bool levelZero = backend == WorkerBackend::LevelZero;
  switch (mode) {
  case BuildGRF::Small:
    return levelZero ? "-ze-intel-128-GRF-per-thread"
                     : "-cl-intel-128-GRF-per-thread";
  case BuildGRF::Large:
    return levelZero ? "-ze-opt-large-register-file"
                     : "-cl-intel-256-GRF-per-thread";
  case BuildGRF::IGCAuto:
    return levelZero ? "-ze-intel-enable-auto-large-GRF-mode"
                     : "-cl-intel-enable-auto-large-GRF-mode";
  case BuildGRF::Default:
    return "";
  }
  return "";
}

bool mlir::xpu::isGRFFlag(StringRef flag) {
  for (BuildGRF mode : {BuildGRF::Small, BuildGRF::Large, BuildGRF::IGCAuto})
    for (WorkerBackend backend :
         {WorkerBackend::Ocloc, WorkerBackend::LevelZero})
      if (flag == getGRFFlag(mode, backend))
        return true;
  return false;
}

bool mlir::xpu::pinsGRFOrThreads(StringRef flag) {
  std::string lower = flag.lower();
  StringRef text = lower;
  return text.contains("grf") || text.contains("register-file") ||
         text.contains("thread-per-eu") || text.contains("threads-per-eu");
}

Error mlir::xpu::checkExtraFlags(StringRef flags) {
  SmallVector<StringRef> parts;
  SplitString(flags, parts);
  for (StringRef flag : parts)
    if (pinsGRFOrThreads(flag))
      return createStringError(
          inconvertibleErrorCode(),
          "build option '" + flag +
              "' pins the register file or the thread count; the GRF mode "
              "alone decides them (use grf_mode small, large, default or "
              "auto)");
  return Error::success();
}

std::string mlir::xpu::getBuildFlags(BuildGRF mode, WorkerBackend backend,
                                     StringRef extraFlags) {
  SmallVector<StringRef> flags;
  if (StringRef grf = getGRFFlag(mode, backend); !grf.empty())
    flags.push_back(grf);
  SmallVector<StringRef> extra;
  SplitString(extraFlags, extra);
  // The mode alone decides the GRF flag: a stray one in the extra flags would
  // silently override the decision (IGC takes the last one it sees).
  for (StringRef flag : extra)
    if (!isGRFFlag(flag))
      flags.push_back(flag);
  return join(flags, " ");
}

int64_t mlir::xpu::getNRegs(BuildGRF mode) {
  switch (mode) {
  case BuildGRF::Small:
    return 128;
  case BuildGRF::Large:
    return 256;
  case BuildGRF::Default:
  case BuildGRF::IGCAuto:
    return 0;
  }
  return 0;
}

int64_t mlir::xpu::getNRegs(BuildGRF mode, int64_t defaultNRegs) {
  int64_t pinned = getNRegs(mode);
  return pinned ? pinned : defaultNRegs;
}

/// The largest grf_count of any kernel: what IGC picked for the module.
static int64_t getMaxGRFCount(const BuildAttempt &attempt) {
  int64_t result = 0;
  for (const KernelMeasurement &kernel : attempt.kernels)
    result = std::max(result, kernel.grfCount);
  return result;
}

StringRef mlir::xpu::stringifyBuildPlan(BuildPlan plan) {
  switch (plan) {
  case BuildPlan::Measure:
    return "measure";
  case BuildPlan::PredictSmall:
    return "predict_small";
  case BuildPlan::PredictLarge:
    return "predict_large";
  case BuildPlan::PredictLargeUnverified:
    return "predict_large_unverified";
  case BuildPlan::Speculate:
    return "speculate";
  }
  return "unknown";
}

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFPolicy policy, AutoStrategy strategy,
                     int64_t spillThreshold,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  return decideGRF(policy, strategy, spillThreshold, BuildPlan::Measure, build);
}

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFPolicy policy, AutoStrategy strategy,
                     int64_t spillThreshold, BuildPlan plan,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  GRFDecision decision;
  auto measured = [&](BuildGRF mode) -> Expected<BuildAttempt> {
    Expected<BuildAttempt> attempt = build(mode);
    if (attempt)
      attempt->mode = mode;
    return attempt;
  };
  auto runBuild = [&](BuildGRF mode) -> Error {
    Expected<BuildAttempt> attempt = measured(mode);
    if (!attempt)
      return attempt.takeError();
    decision.attempts.push_back(std::move(*attempt));
    return Error::success();
  };
  std::string reason;
  raw_string_ostream os(reason);

  if (policy != GRFPolicy::Auto || strategy == AutoStrategy::IGC) {
    BuildGRF mode = policy == GRFPolicy::Small   ? BuildGRF::Small
                    : policy == GRFPolicy::Large ? BuildGRF::Large
                    : policy == GRFPolicy::Auto  ? BuildGRF::IGCAuto
                                                 : BuildGRF::Default;
    if (Error err = runBuild(mode))
      return std::move(err);
    const BuildAttempt &only = decision.attempts.front();
    decision.source = mode == BuildGRF::IGCAuto ? "igc" : "forced";
    if (mode == BuildGRF::IGCAuto)
      os << "IGC's auto mode chose " << getMaxGRFCount(only) << " GRF";
    else if (mode == BuildGRF::Default)
      os << "default mode (no GRF flag) built with " << getMaxGRFCount(only)
         << " GRF";
    else
      os << "forced " << stringifyBuildGRF(mode) << " mode built with "
         << getMaxGRFCount(only) << " GRF";
    os << " and spilled " << only.spillSize << " bytes";
    decision.reason = std::move(reason);
    return decision;
  }

  // The measured rule once both builds are in attempts: large only when
  // small spills more than the threshold and large spills strictly less.
  auto keepLesser = [&](size_t smallIndex, size_t largeIndex) {
    int64_t smallSpill = decision.attempts[smallIndex].spillSize;
    int64_t largeSpill = decision.attempts[largeIndex].spillSize;
    bool keepLarge = smallSpill > spillThreshold && largeSpill < smallSpill;
    decision.chosen = keepLarge ? largeIndex : smallIndex;
    os << "small spilled " << smallSpill << " bytes, large spilled "
       << largeSpill << " bytes"
       << (keepLarge ? ": kept large"
           : smallSpill <= spillThreshold
               ? ": small <= threshold " + std::to_string(spillThreshold) +
                     ", kept small"
               : ", not less: kept small");
  };

  if (plan == BuildPlan::Speculate) {
    // Both builds at once: the large one on a second thread.
    std::future<Expected<BuildAttempt>> large = std::async(
        std::launch::async, [&] { return measured(BuildGRF::Large); });
    Expected<BuildAttempt> small = measured(BuildGRF::Small);
    Expected<BuildAttempt> largeAttempt = large.get();
    if (!small) {
      consumeError(largeAttempt.takeError());
      return small.takeError();
    }
    if (!largeAttempt)
      return largeAttempt.takeError();
    decision.attempts.push_back(std::move(*small));
    decision.attempts.push_back(std::move(*largeAttempt));
    decision.source = "speculated";
    os << "speculated (uncertain estimate), built both: ";
    keepLesser(0, 1);
    decision.reason = std::move(reason);
    return decision;
  }

  if (plan == BuildPlan::PredictLarge ||
      plan == BuildPlan::PredictLargeUnverified) {
    if (Error err = runBuild(BuildGRF::Large))
      return std::move(err);
    int64_t largeSpill = decision.attempts[0].spillSize;
    if (plan == BuildPlan::PredictLargeUnverified &&
        largeSpill > spillThreshold) {
      decision.source = "predicted";
      os << "predicted large; large spilled " << largeSpill
         << " bytes, kept without a small build (verify-predicted-large off)";
      decision.reason = std::move(reason);
      return decision;
    }
    if (largeSpill <= spillThreshold) {
      decision.source = "predicted";
      os << "predicted large; large spilled " << largeSpill
         << " bytes <= threshold " << spillThreshold
         << ": kept large, small build skipped";
      decision.reason = std::move(reason);
      return decision;
    }
    // Large spills too: small may spill as little; measure it and compare.
    if (Error err = runBuild(BuildGRF::Small))
      return std::move(err);
    size_t start = reason.size();
    os << "large spilled " << largeSpill << " bytes > threshold "
       << spillThreshold << ", so small was built too: ";
    keepLesser(/*smallIndex=*/1, /*largeIndex=*/0);
    reason.insert(start, decision.chosen == 0
                             ? "predicted large; "
                             : "predicted large, measurement overrode: ");
    decision.source = decision.chosen == 0 ? "predicted" : "measured";
    decision.reason = std::move(reason);
    return decision;
  }

  // Measure and PredictSmall: small first; large only when small spills more
  // than the threshold, and kept only when it really spills less.
  bool predicted = plan == BuildPlan::PredictSmall;
  if (Error err = runBuild(BuildGRF::Small))
    return std::move(err);
  int64_t smallSpill = decision.attempts[0].spillSize;
  if (predicted)
    os << "predicted small; ";
  os << "small spilled " << smallSpill << " bytes";
  if (smallSpill <= spillThreshold) {
    os << " <= threshold " << spillThreshold << ": kept small";
    decision.source = predicted ? "predicted" : "measured";
    decision.reason = std::move(reason);
    return decision;
  }
  if (Error err = runBuild(BuildGRF::Large))
    return std::move(err);
  int64_t largeSpill = decision.attempts[1].spillSize;
  bool keepLarge = largeSpill < smallSpill;
  decision.chosen = keepLarge ? 1 : 0;
  if (predicted && keepLarge) {
    // The prediction was wrong: the measurement decided.
    reason = "predicted small, measurement overrode: small spilled " +
             std::to_string(smallSpill) + " bytes";
  }
  // The prediction stands when large turns out no better.
  decision.source = predicted && !keepLarge ? "predicted" : "measured";
  os << " > threshold " << spillThreshold << "; large spilled " << largeSpill
     << " bytes" << (keepLarge ? ": kept large" : ", not less: kept small");
  decision.reason = std::move(reason);
  return decision;
}

namespace {
/// One build per mode, remembered: the decision may look at a mode twice
/// (first as part of the measured rule, then alone once another mode was
/// ruled out). Thread-safe for the speculative plan.
class BuildMemo {
public:
  BuildMemo(const LaunchLimits &limits,
            function_ref<Expected<BuildAttempt>(BuildGRF)> build)
      : limits(limits), build(build) {}

  /// The build of `mode`, checked against the launch limits.
  Expected<BuildAttempt> get(BuildGRF mode) {
    Outcome *outcome;
    {
      std::lock_guard<std::mutex> lock(mutex);
      outcome = &outcomes[static_cast<unsigned>(mode)];
    }
    std::call_once(outcome->once, [&] {
      {
        std::lock_guard<std::mutex> lock(mutex);
        order.push_back(mode);
      }
      Expected<BuildAttempt> attempt = build(mode);
      if (attempt) {
        attempt->mode = mode;
        if (Error error = limits.checkBuild(*attempt)) {
          // Kept for the record: it compiled, it cannot be used.
          outcome->rejected = *attempt;
          std::optional<OutOfResourcesError> resources;
          handleAllErrors(
              std::move(error),
              [&](const OutOfResourcesError &e) { resources.emplace(e); },
              [&](const ErrorInfoBase &e) {
                resources.emplace(kScratchResource, 0, 0, e.message());
              });
          outcome->rejected->unusable = resources->message;
          attempt = make_error<OutOfResourcesError>(*resources);
        }
      }
      if (attempt) {
        outcome->attempt = std::move(*attempt);
        return;
      }
      handleAllErrors(
          attempt.takeError(),
          [&](const OutOfResourcesError &error) {
            outcome->resources.emplace(error.resource, error.required,
                                       error.limit, error.message);
          },
          [&](const ErrorInfoBase &error) {
            outcome->error = error.message();
          });
    });
    if (outcome->attempt)
      return *outcome->attempt;
    if (outcome->resources)
      return make_error<OutOfResourcesError>(*outcome->resources);
    return createStringError(inconvertibleErrorCode(), outcome->error);
  }

  /// Whether `mode` was built and ran out of a resource.
  const OutOfResourcesError *getResourceFailure(BuildGRF mode) {
    std::lock_guard<std::mutex> lock(mutex);
    Outcome &outcome = outcomes[static_cast<unsigned>(mode)];
    return outcome.resources ? &*outcome.resources : nullptr;
  }

  /// The decision that keeps `kept`'s build, listing every build that
  /// produced a binary in the order they ran (unusable ones marked).
  GRFDecision keep(BuildGRF kept, std::string reason, std::string source) {
    GRFDecision decision;
    std::lock_guard<std::mutex> lock(mutex);
    // Concurrent builds start in any order: list them small first, so the
    // report does not depend on thread timing.
    std::vector<BuildGRF> listed = order;
    if (concurrent)
      llvm::sort(listed);
    for (BuildGRF mode : listed) {
      Outcome &outcome = outcomes[static_cast<unsigned>(mode)];
      if (mode == kept && outcome.attempt) {
        decision.chosen = decision.attempts.size();
        decision.attempts.push_back(*outcome.attempt);
      } else if (outcome.attempt) {
        decision.attempts.push_back(*outcome.attempt);
      } else if (outcome.rejected) {
        decision.attempts.push_back(*outcome.rejected);
      }
    }
    decision.reason = std::move(reason);
    decision.source = std::move(source);
    return decision;
  }

private:
  struct Outcome {
    std::once_flag once;
    std::optional<BuildAttempt> attempt;
    /// A build that compiled but cannot launch.
    std::optional<BuildAttempt> rejected;
    std::optional<OutOfResourcesError> resources;
    std::string error;
  };
  /// Modes in the order their builds started.
  std::vector<BuildGRF> order;

public:
  /// Set when builds may run concurrently (the speculative plan).
  bool concurrent = false;

private:
  const LaunchLimits &limits;
  function_ref<Expected<BuildAttempt>(BuildGRF)> build;
  std::mutex mutex;
  Outcome outcomes[4];
};

} // namespace

/// Tries the large mode after `failed` ran out of a resource in a smaller
/// one: large's build is kept when it fits, else the error names both.
static Expected<GRFDecision> retryLarge(BuildMemo &memo,
                                        const LaunchLimits &limits,
                                        BuildGRF failed, Error failure) {
  std::string failedMessage = toString(std::move(failure));
  std::optional<WorkGroupLimit> why = limits.checkBeforeBuild(BuildGRF::Large);
  bool hasLarge = !limits.device || limits.device->supportsLargeGRF();
  const OutOfResourcesError *first = memo.getResourceFailure(failed);
  auto giveUp = [&](const Twine &large) -> Error {
    std::string message = (Twine(stringifyBuildGRF(failed)) +
                           " GRF mode: " + failedMessage + "; " + large)
                              .str();
    if (first)
      return make_error<OutOfResourcesError>(first->resource, first->required,
                                             first->limit, message);
    return createStringError(inconvertibleErrorCode(), message);
  };
  if (!hasLarge)
    return giveUp("no larger GRF mode on this device");
  if (why)
    return giveUp("large GRF mode cannot run the work-group: " + why->message);
  Expected<BuildAttempt> large = memo.get(BuildGRF::Large);
  if (!large)
    return giveUp("large GRF mode: " + toString(large.takeError()));
  std::string reason =
      (Twine(stringifyBuildGRF(failed)) + " GRF mode ran out of resources (" +
       failedMessage + "); large spilled " + Twine(large->spillSize) +
       " bytes and fits: kept large")
          .str();
  return memo.keep(BuildGRF::Large, std::move(reason), "measured");
}

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFPolicy policy, AutoStrategy strategy,
                     int64_t spillThreshold, BuildPlan plan,
                     const LaunchLimits &limits,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  BuildMemo memo(limits, build);
  memo.concurrent = plan == BuildPlan::Speculate;
  auto memoBuild = [&](BuildGRF mode) { return memo.get(mode); };

  // Forced modes: one build, and never one that cannot launch.
  if (policy == GRFPolicy::Small || policy == GRFPolicy::Large) {
    BuildGRF mode =
        policy == GRFPolicy::Small ? BuildGRF::Small : BuildGRF::Large;
    if (std::optional<WorkGroupLimit> limit = limits.checkBeforeBuild(mode))
      return make_error<OutOfResourcesError>(
          kWorkGroupResource, limit->required, limit->limit,
          "forced " + stringifyBuildGRF(mode) +
              " GRF mode cannot launch: " + limit->message);
    return decideGRF(policy, strategy, spillThreshold, plan, memoBuild);
  }

  // Default and IGC's auto flag: one build; over the scratch limit, large.
  if (policy == GRFPolicy::Default || strategy == AutoStrategy::IGC) {
    BuildGRF mode =
        policy == GRFPolicy::Default ? BuildGRF::Default : BuildGRF::IGCAuto;
    Expected<GRFDecision> decision =
        decideGRF(policy, strategy, spillThreshold, plan, memoBuild);
    if (decision)
      return decision;
    Error error = decision.takeError();
    const OutOfResourcesError *failure = memo.getResourceFailure(mode);
    if (!failure)
      return std::move(error);
    if (failure->resource == kScratchResource)
      return retryLarge(memo, limits, mode, std::move(error));
    // IGC's auto flag chose a mode the work-group cannot run in: build small.
    std::string why = failure->message;
    consumeError(std::move(error));
    Expected<BuildAttempt> small = memo.get(BuildGRF::Small);
    if (!small)
      return small.takeError();
    GRFDecision fallback =
        memo.keep(BuildGRF::Small,
                  "IGC's auto mode chose a mode that cannot launch (" + why +
                      "); small spilled " + std::to_string(small->spillSize) +
                      " bytes: kept small",
                  "measured");
    fallback.workgroupLimit = why;
    return fallback;
  }

  // Measured auto. Large is not even built when the work-groups rule it out.
  std::optional<WorkGroupLimit> largeWhy =
      limits.checkBeforeBuild(BuildGRF::Large);
  auto smallOnly = [&](const std::string &why,
                       bool workgroup) -> Expected<GRFDecision> {
    Expected<BuildAttempt> small = memo.get(BuildGRF::Small);
    if (!small)
      return small.takeError();
    GRFDecision decision =
        memo.keep(BuildGRF::Small,
                  "large GRF ruled out (" + why + "); small spilled " +
                      std::to_string(small->spillSize) + " bytes: kept small",
                  "measured");
    if (workgroup)
      decision.workgroupLimit = why;
    return decision;
  };
  if (largeWhy)
    return smallOnly(largeWhy->message, /*workgroup=*/true);

  Expected<GRFDecision> decision =
      decideGRF(policy, strategy, spillThreshold, plan, memoBuild);
  if (decision)
    return decision;
  Error error = decision.takeError();
  if (const OutOfResourcesError *failure =
          memo.getResourceFailure(BuildGRF::Small);
      failure && failure->resource == kScratchResource)
    return retryLarge(memo, limits, BuildGRF::Small, std::move(error));
  if (const OutOfResourcesError *failure =
          memo.getResourceFailure(BuildGRF::Large)) {
    // Large cannot launch or overflows: the measured rule without it.
    std::string why = failure->message;
    bool workgroup = failure->resource == kWorkGroupResource;
    consumeError(std::move(error));
    return smallOnly(why, workgroup);
  }
  return std::move(error);
}
