//===- GRFLadder.cpp - The measured GRF ladder walk -----------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The measured `auto` policy and the plans that predict or speculate: a walk
// up the device's GRF modes that narrates every build into the decision's
// reason (the reason strings are part of the reports and tests).
//
//===----------------------------------------------------------------------===//

#include "GRFLadder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <future>

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

Ladder::Ladder(BuildMemo &memo, const LaunchLimits &limits,
               ArrayRef<BuildGRF> ladder, int64_t threshold, AutoPlan plan)
    : memo(memo), rungs(ladder), threshold(threshold), plan(plan) {
  // Each larger rung halves the threads again: the first rung a
  // work-group cannot run in rules out every rung above it unbuilt.
  for (size_t i = 1; i < rungs.size(); ++i)
    if (std::optional<WorkGroupLimit> why = limits.checkBeforeBuild(rungs[i])) {
      endBelow(i, why->message, /*workgroup=*/true,
               "cannot run the work-group: ");
      break;
    }
}

Expected<GRFDecision> Ladder::decide() {
  return run([&] { return walkPlan(); });
}

Expected<GRFDecision> Ladder::climbAfterOverflow(BuildGRF failed,
                                                 Error failure) {
  std::string message = toString(std::move(failure));
  std::optional<OutOfResourcesError> first;
  if (const OutOfResourcesError *resources = memo.getResourceFailure(failed))
    first = *resources;
  return run([&] {
    recordOverflow(failed, message, first);
    return climb(1);
  });
}

Expected<GRFDecision> Ladder::run(function_ref<Error()> walk) {
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

Error Ladder::walkPlan() {
  if (rungs.size() < 2 || plan == AutoPlan::Measure)
    return climb(0);
  if (plan == AutoPlan::Speculate)
    return speculate();
  if (plan == AutoPlan::PredictSmall) {
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

Error Ladder::climb(size_t from) {
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

bool Ladder::beats(size_t a, size_t b) {
  bool narrowedA = memo.narrowed(rungs[a]);
  if (narrowedA != memo.narrowed(rungs[b]))
    return !narrowedA;
  return memo.spillOf(rungs[a]) < memo.spillOf(rungs[b]);
}

bool Ladder::wantsMore(size_t i, int64_t spill) {
  return spill > threshold || memo.narrowed(rungs[i]);
}

bool Ladder::note(size_t i, int64_t spill) {
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
  text += less ? (": kept " + name).str()
               : (", not less: kept " + stringifyBuildGRF(rungs[*best])).str();
  return false;
}

Error Ladder::unusable(size_t i, Error error, bool &climbOn) {
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

void Ladder::recordOverflow(BuildGRF mode, StringRef message,
                            std::optional<OutOfResourcesError> failure) {
  text += (stringifyBuildGRF(mode) + " GRF mode ran out of resources (" +
           message + "); ")
              .str();
  overflows.push_back(
      (stringifyBuildGRF(mode) + " GRF mode: " + message).str());
  if (!firstOverflow)
    firstOverflow = std::move(failure);
}

Error Ladder::speculate() {
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

Error Ladder::predictLarge() {
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
  if (plan == AutoPlan::PredictLargeUnverified)
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
  text.insert(0, best == 1u ? "predicted " + name + "; "
                            : "predicted " + name + ", measurement overrode: ");
  source = best == 1u ? "predicted" : "measured";
  return Error::success();
}

Error Ladder::trustLarge(StringRef name, int64_t spill) {
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

bool Ladder::compareLowest(int64_t lowSpill, int64_t highSpill) {
  StringRef low = stringifyBuildGRF(rungs[0]);
  StringRef high = stringifyBuildGRF(rungs[1]);
  bool lowOver = wantsMore(0, lowSpill);
  bool keepHigh = lowOver && beats(1, 0);
  best = keepHigh ? 1 : 0;
  text += formatv("{0} spilled {1} bytes, {2} spilled {3} bytes", low, lowSpill,
                  high, highSpill)
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

void Ladder::endBelow(size_t i, StringRef why, bool workgroup, StringRef what) {
  std::string name = stringifyBuildGRF(rungs[i]).str();
  prefix = name + " GRF ruled out (" + why.str() + "); ";
  ending = name + " GRF mode " + what.str() + why.str();
  if (workgroup)
    workgroupLimit = why.str();
  rungs = rungs.take_front(i);
}

Expected<GRFDecision> Ladder::finish() {
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
