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
#include "llvm/Support/FormatVariadic.h"
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
  case BuildGRF::XLarge:
    return "xlarge";
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
  case BuildGRF::XLarge:
    return levelZero ? "-ze-intel-512-GRF-per-thread"
                     : "-cl-intel-512-GRF-per-thread";
  case BuildGRF::IGCAuto:
    return levelZero ? "-ze-intel-enable-auto-large-GRF-mode"
                     : "-cl-intel-enable-auto-large-GRF-mode";
  case BuildGRF::Default:
    return "";
  }
  return "";
}

std::optional<BuildGRF> mlir::xpu::getBuildGRFForRegisters(unsigned registers) {
  switch (registers) {
  case 128:
    return BuildGRF::Small;
  case 256:
    return BuildGRF::Large;
  case 512:
    return BuildGRF::XLarge;
  default:
    return std::nullopt;
  }
}

SmallVector<BuildGRF, 3> mlir::xpu::getBuildLadder(const DeviceInfo &device) {
  SmallVector<BuildGRF, 3> ladder;
  for (const GRFModeInfo &mode : device.grfModes)
    if (std::optional<BuildGRF> build = getBuildGRFForRegisters(mode.registers))
      ladder.push_back(*build);
  return ladder;
}

bool mlir::xpu::isGRFFlag(StringRef flag) {
  for (BuildGRF mode :
       {BuildGRF::Small, BuildGRF::Large, BuildGRF::XLarge, BuildGRF::IGCAuto})
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
  case BuildGRF::XLarge:
    return 512;
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

  /// The spill of `mode`'s usable build (0 when there is none).
  int64_t spillOf(BuildGRF mode) {
    std::lock_guard<std::mutex> lock(mutex);
    Outcome &outcome = outcomes[static_cast<unsigned>(mode)];
    return outcome.attempt ? outcome.attempt->spillSize : 0;
  }

  /// Whether IGC narrowed `mode`'s SIMD width to fit the per-thread scratch.
  bool narrowed(BuildGRF mode) {
    std::lock_guard<std::mutex> lock(mutex);
    Outcome &outcome = outcomes[static_cast<unsigned>(mode)];
    return outcome.attempt && !parseSIMDDrops(outcome.attempt->log).empty();
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
  Outcome outcomes[5];
};

} // namespace

namespace {
/// The measured `auto` policy over a device's ladder of GRF modes (its
/// rungs, smallest first). A walk builds rungs upwards and narrates each
/// one into the reason; a rung that cannot launch above a usable one ends
/// the ladder below it, and the walk runs again on the shorter ladder (its
/// builds are remembered, so nothing is built twice).
class Ladder {
public:
  Ladder(BuildMemo &memo, const LaunchLimits &limits, ArrayRef<BuildGRF> ladder,
         int64_t threshold, BuildPlan plan)
      : memo(memo), rungs(ladder), threshold(threshold), plan(plan) {
    // Each larger rung halves the threads again: the first rung a
    // work-group cannot run in rules out every rung above it unbuilt.
    for (size_t i = 1; i < rungs.size(); ++i)
      if (std::optional<WorkGroupLimit> why =
              limits.checkBeforeBuild(rungs[i])) {
        endBelow(i, why->message, /*workgroup=*/true,
                 "cannot run the work-group: ");
        break;
      }
  }

  /// Measured auto under the plan.
  Expected<GRFDecision> decide() {
    return run([&] { return walkPlan(); });
  }

  /// `failed` (default or IGC's auto flag) overflowed the per-thread
  /// scratch: climb the rungs above the smallest.
  Expected<GRFDecision> climbAfterOverflow(BuildGRF failed, Error failure) {
    std::string message = toString(std::move(failure));
    std::optional<OutOfResourcesError> first;
    if (const OutOfResourcesError *resources = memo.getResourceFailure(failed))
      first = *resources;
    return run([&] {
      recordOverflow(failed, message, first);
      return climb(1);
    });
  }

private:
  /// Runs `walk` until no rung above a usable one is found unusable.
  Expected<GRFDecision> run(function_ref<Error()> walk) {
    for (;;) {
      text.clear();
      best.reset();
      cut.reset();
      overflows.clear();
      firstOverflow.reset();
      source = "measured";
      if (Error error = walk())
        return std::move(error);
      if (!cut)
        return finish();
      endBelow(cut->index, cut->why, cut->workgroup, "");
    }
  }

  /// Which walk the plan asks for (one rung leaves nothing to plan).
  Error walkPlan() {
    if (rungs.size() < 2 || plan == BuildPlan::Measure)
      return climb(0);
    if (plan == BuildPlan::Speculate)
      return speculate();
    if (plan == BuildPlan::PredictSmall) {
      if (Error error = climb(0))
        return error;
      bool held = best == 0u;
      text.insert(0, held ? "predicted small; "
                          : "predicted small, measurement overrode: ");
      source = held ? "predicted" : "measured";
      return Error::success();
    }
    return predictLarge();
  }

  /// Builds rungs from `from` up while the last one spills more than the
  /// threshold (or overflows the scratch with nothing kept yet).
  Error climb(size_t from) {
    for (size_t i = from; i < rungs.size(); ++i) {
      Expected<BuildAttempt> attempt = memo.get(rungs[i]);
      if (!attempt) {
        bool climbOn = false;
        if (Error error = unusable(i, attempt.takeError(), climbOn))
          return error;
        if (!climbOn)
          return Error::success();
        continue;
      }
      if (!note(i, attempt->spillSize))
        return Error::success();
    }
    return Error::success();
  }

  /// Whether rung `a`'s build beats rung `b`'s: a build whose SIMD width IGC
  /// narrowed to fit the per-thread scratch (IGC 2.x; 1.0.12504 overflowed)
  /// loses to one it did not narrow, else the strictly smaller spill wins.
  bool beats(size_t a, size_t b) {
    bool narrowedA = memo.narrowed(rungs[a]);
    if (narrowedA != memo.narrowed(rungs[b]))
      return !narrowedA;
    return memo.spillOf(rungs[a]) < memo.spillOf(rungs[b]);
  }

  /// Whether rung `i` asks for a larger one: it spills over the threshold,
  /// or IGC narrowed its SIMD width (a scratch overflow, as on 1.0.12504).
  bool wantsMore(size_t i, int64_t spill) {
    return spill > threshold || memo.narrowed(rungs[i]);
  }

  /// Narrates rung `i`'s spill and keeps it when it beats the best so far;
  /// returns whether to climb on.
  bool note(size_t i, int64_t spill) {
    StringRef name = stringifyBuildGRF(rungs[i]);
    bool top = i + 1 == rungs.size();
    bool narrowed = memo.narrowed(rungs[i]);
    text += (name + " spilled " + Twine(spill) + " bytes").str();
    if (narrowed)
      text += " at a SIMD width IGC narrowed to fit the per-thread scratch";
    bool first = !best;
    bool less = first || beats(i, *best);
    if (less)
      best = i;
    if (first && !overflows.empty())
      text += " and fits";
    if (!top && wantsMore(i, spill)) {
      text += narrowed ? std::string(less ? "; " : ", not better; ")
                       : (Twine(less ? "" : ", not less") + " > threshold " +
                          Twine(threshold) + "; ")
                             .str();
      return true;
    }
    if (!top)
      text += " <= threshold " + std::to_string(threshold);
    text += less
                ? (": kept " + name).str()
                : (", not less: kept " + stringifyBuildGRF(rungs[*best])).str();
    return false;
  }

  /// Rung `i` did not build or cannot launch: a build error stops the
  /// decision; above a usable rung the ladder ends below it; with nothing
  /// kept yet a scratch overflow climbs on (more registers, fewer spills).
  Error unusable(size_t i, Error error, bool &climbOn) {
    const OutOfResourcesError *failure = memo.getResourceFailure(rungs[i]);
    if (!failure)
      return error;
    // The first rung's work-group: no larger rung runs more work-items.
    if (!best && overflows.empty() && failure->resource != kScratchResource)
      return error;
    std::string message = toString(std::move(error));
    if (best) {
      cut = Cut{i, message, failure->resource == kWorkGroupResource};
      return Error::success();
    }
    recordOverflow(rungs[i], message, *failure);
    climbOn = failure->resource == kScratchResource;
    return Error::success();
  }

  void recordOverflow(BuildGRF mode, StringRef message,
                      std::optional<OutOfResourcesError> failure) {
    text += (stringifyBuildGRF(mode) + " GRF mode ran out of resources (" +
             message + "); ")
                .str();
    overflows.push_back(
        (stringifyBuildGRF(mode) + " GRF mode: " + message).str());
    if (!firstOverflow)
      firstOverflow = std::move(failure);
  }

  /// The plan Speculate: the two lowest rungs at once, compared, then the
  /// climb goes on as measured.
  Error speculate() {
    std::future<Expected<BuildAttempt>> second =
        std::async(std::launch::async, [&] { return memo.get(rungs[1]); });
    Expected<BuildAttempt> low = memo.get(rungs[0]);
    Expected<BuildAttempt> high = second.get();
    // A build error is the answer (the smaller build's first); resource
    // trouble is what the plain walk handles, on the remembered builds.
    bool lowFailed = !low && !memo.getResourceFailure(rungs[0]);
    if (lowFailed || (!high && !memo.getResourceFailure(rungs[1]))) {
      Error keep = lowFailed ? low.takeError() : high.takeError();
      consumeError(lowFailed ? high.takeError() : low.takeError());
      return keep;
    }
    if (!low || !high) {
      consumeError(low.takeError());
      consumeError(high.takeError());
      return climb(0);
    }
    text = "speculated (uncertain estimate), built both: ";
    source = "speculated";
    return compareLowest(low->spillSize, high->spillSize) ? climb(2)
                                                          : Error::success();
  }

  /// The plans PredictLarge(Unverified): the second rung first; the first
  /// only when it spills, and the climb goes on from there.
  Error predictLarge() {
    Expected<BuildAttempt> high = memo.get(rungs[1]);
    if (!high) {
      const OutOfResourcesError *failure = memo.getResourceFailure(rungs[1]);
      if (!failure)
        return high.takeError();
      cut = Cut{1, toString(high.takeError()),
                failure->resource == kWorkGroupResource};
      return Error::success();
    }
    std::string name = stringifyBuildGRF(rungs[1]).str();
    int64_t spill = high->spillSize;
    source = "predicted";
    best = 1;
    if (!wantsMore(1, spill)) {
      text = formatv("predicted {0}; {0} spilled {1} bytes <= threshold {2}: "
                     "kept {0}, small build skipped",
                     name, spill, threshold);
      return Error::success();
    }
    if (plan == BuildPlan::PredictLargeUnverified)
      return trustLarge(name, spill);
    Expected<BuildAttempt> low = memo.get(rungs[0]);
    if (!low) {
      if (!memo.getResourceFailure(rungs[0]))
        return low.takeError();
      // Small overflows the scratch: the measured walk, from the bottom.
      consumeError(low.takeError());
      best.reset();
      source = "measured";
      return climb(0);
    }
    text = formatv("{0} spilled {1} bytes > threshold {2}, so small was built "
                   "too: ",
                   name, spill, threshold);
    bool climbOn = compareLowest(low->spillSize, spill);
    if (climbOn)
      if (Error error = climb(2))
        return error;
    text.insert(0, best == 1u
                       ? "predicted " + name + "; "
                       : "predicted " + name + ", measurement overrode: ");
    source = best == 1u ? "predicted" : "measured";
    return Error::success();
  }

  /// verify-predicted-large=false: the spilling second rung is kept without
  /// the first; a larger rung is still measured.
  Error trustLarge(StringRef name, int64_t spill) {
    if (rungs.size() < 3) {
      text = formatv("predicted {0}; {0} spilled {1} bytes, kept without a "
                     "small build (verify-predicted-large off)",
                     name, spill);
      return Error::success();
    }
    text = formatv("predicted {0}; {0} spilled {1} bytes > threshold {2}, "
                   "small build skipped (verify-predicted-large off); ",
                   name, spill, threshold);
    Error error = climb(2);
    if (best != 1u)
      source = "measured";
    return error;
  }

  /// The two lowest rungs, both built: the second is kept only when the
  /// first spills more than the threshold and it spills strictly less.
  /// Returns whether to climb on (both spill over the threshold).
  bool compareLowest(int64_t lowSpill, int64_t highSpill) {
    StringRef low = stringifyBuildGRF(rungs[0]);
    StringRef high = stringifyBuildGRF(rungs[1]);
    bool lowOver = wantsMore(0, lowSpill);
    bool keepHigh = lowOver && beats(1, 0);
    best = keepHigh ? 1 : 0;
    text += formatv("{0} spilled {1} bytes, {2} spilled {3} bytes", low,
                    lowSpill, high, highSpill)
                .str();
    if (lowOver && wantsMore(1, highSpill) && rungs.size() > 2) {
      text += formatv("{0} > threshold {1}; ", keepHigh ? "" : ", not less",
                      threshold)
                  .str();
      return true;
    }
    if (keepHigh)
      text += (": kept " + high).str();
    else if (!lowOver)
      text += formatv(": {0} <= threshold {1}, kept {0}", low, threshold).str();
    else
      text += (", not less: kept " + low).str();
    return false;
  }

  /// The ladder ends below rung `i`, which `why` rules out.
  void endBelow(size_t i, StringRef why, bool workgroup, StringRef what) {
    std::string name = stringifyBuildGRF(rungs[i]).str();
    prefix = name + " GRF ruled out (" + why.str() + "); ";
    ending = name + " GRF mode " + what.str() + why.str();
    if (workgroup)
      workgroupLimit = why.str();
    rungs = rungs.take_front(i);
  }

  /// The decision of a finished walk, or the error when no rung fits.
  Expected<GRFDecision> finish() {
    if (!best) {
      std::string message =
          join(overflows, "; ") + "; " +
          (ending.empty() ? "no larger GRF mode on this device" : ending);
      if (firstOverflow)
        return make_error<OutOfResourcesError>(firstOverflow->resource,
                                               firstOverflow->required,
                                               firstOverflow->limit, message);
      return createStringError(inconvertibleErrorCode(), message);
    }
    GRFDecision decision =
        memo.keep(rungs[*best], prefix + text, std::move(source));
    decision.workgroupLimit = workgroupLimit;
    return decision;
  }

  struct Cut {
    size_t index;
    std::string why;
    bool workgroup;
  };
  BuildMemo &memo;
  ArrayRef<BuildGRF> rungs;
  int64_t threshold;
  BuildPlan plan;
  /// Why the ladder ends where it does (the rung above its top): as the
  /// reason's prefix, as the end of an error, and as the work-group limit.
  std::string prefix, ending, workgroupLimit;
  // The state of one walk.
  std::string text, source;
  std::optional<size_t> best;
  std::optional<Cut> cut;
  std::vector<std::string> overflows;
  std::optional<OutOfResourcesError> firstOverflow;
};
} // namespace

/// One build in `mode` (a forced mode, default or IGC's auto flag).
static Expected<GRFDecision> buildOnce(BuildMemo &memo, BuildGRF mode) {
  Expected<BuildAttempt> only = memo.get(mode);
  if (!only)
    return only.takeError();
  int64_t registers = getMaxGRFCount(*only);
  std::string reason =
      mode == BuildGRF::IGCAuto
          ? formatv("IGC's auto mode chose {0} GRF", registers).str()
      : mode == BuildGRF::Default
          ? formatv("default mode (no GRF flag) built with {0} GRF", registers)
                .str()
          : formatv("forced {0} mode built with {1} GRF",
                    stringifyBuildGRF(mode), registers)
                .str();
  reason += formatv(" and spilled {0} bytes", only->spillSize).str();
  return memo.keep(mode, std::move(reason),
                   mode == BuildGRF::IGCAuto ? "igc" : "forced");
}

/// Default or IGC's auto flag, and what follows a build that cannot run: a
/// scratch overflow climbs the ladder; IGC choosing a mode the work-group
/// cannot run in falls back to the smallest rung.
static Expected<GRFDecision> buildUnpinned(BuildMemo &memo, Ladder &ladder,
                                           BuildGRF mode, BuildGRF smallest) {
  Expected<GRFDecision> decision = buildOnce(memo, mode);
  if (decision)
    return decision;
  const OutOfResourcesError *failure = memo.getResourceFailure(mode);
  if (!failure)
    return decision.takeError();
  if (failure->resource == kScratchResource)
    return ladder.climbAfterOverflow(mode, decision.takeError());
  std::string why = failure->message;
  consumeError(decision.takeError());
  Expected<BuildAttempt> small = memo.get(smallest);
  if (!small)
    return small.takeError();
  GRFDecision fallback = memo.keep(
      smallest,
      formatv("IGC's auto mode chose a mode that cannot launch ({0}); {1} "
              "spilled {2} bytes: kept {1}",
              why, stringifyBuildGRF(smallest), small->spillSize),
      "measured");
  fallback.workgroupLimit = why;
  return fallback;
}

static constexpr BuildGRF kNoDeviceLadder[] = {BuildGRF::Small,
                                               BuildGRF::Large};

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
  return decideGRF(policy, strategy, spillThreshold, plan, kNoDeviceLadder,
                   LaunchLimits(), build);
}

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFPolicy policy, AutoStrategy strategy,
                     int64_t spillThreshold, BuildPlan plan,
                     const LaunchLimits &limits,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  if (!limits.device)
    return decideGRF(policy, strategy, spillThreshold, plan, kNoDeviceLadder,
                     limits, build);
  return decideGRF(policy, strategy, spillThreshold, plan,
                   getBuildLadder(*limits.device), limits, build);
}

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFPolicy policy, AutoStrategy strategy,
                     int64_t spillThreshold, BuildPlan plan,
                     ArrayRef<BuildGRF> ladder, const LaunchLimits &limits,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  assert(!ladder.empty() && "a device has at least one GRF mode");
  BuildMemo memo(limits, build);
  bool measured =
      policy == GRFPolicy::Auto && strategy == AutoStrategy::Measure;
  memo.concurrent = measured && plan == BuildPlan::Speculate;
  Ladder walk(memo, limits, ladder, spillThreshold,
              measured ? plan : BuildPlan::Measure);
  switch (policy) {
  case GRFPolicy::Auto:
    if (strategy == AutoStrategy::IGC)
      return buildUnpinned(memo, walk, BuildGRF::IGCAuto, ladder.front());
    return walk.decide();
  case GRFPolicy::Default:
    return buildUnpinned(memo, walk, BuildGRF::Default, ladder.front());
  case GRFPolicy::Small:
  case GRFPolicy::Large:
  case GRFPolicy::XLarge:
    break;
  }
  // Forced: one build, and never one that cannot launch.
  BuildGRF mode = policy == GRFPolicy::Small   ? BuildGRF::Small
                  : policy == GRFPolicy::Large ? BuildGRF::Large
                                               : BuildGRF::XLarge;
  if (std::optional<WorkGroupLimit> limit = limits.checkBeforeBuild(mode))
    return make_error<OutOfResourcesError>(
        kWorkGroupResource, limit->required, limit->limit,
        "forced " + stringifyBuildGRF(mode) +
            " GRF mode cannot launch: " + limit->message);
  return buildOnce(memo, mode);
}
