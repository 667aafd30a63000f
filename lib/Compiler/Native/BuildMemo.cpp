//===- BuildMemo.cpp - One build per GRF mode, remembered -----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The GRF decision may look at a mode twice; each mode is built once, checked
// against the launch limits, and its outcome (binary, unusable binary,
// resource failure or build error) kept for the decision's record.
//
//===----------------------------------------------------------------------===//

#include "GRFLadder.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

Expected<BuildAttempt> BuildMemo::get(BuildGRF mode) {
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
        [&](const ErrorInfoBase &error) { outcome->error = error.message(); });
  });
  if (outcome->attempt)
    return *outcome->attempt;
  if (outcome->resources)
    return make_error<OutOfResourcesError>(*outcome->resources);
  return createStringError(inconvertibleErrorCode(), outcome->error);
}

int64_t BuildMemo::spillOf(BuildGRF mode) {
  std::lock_guard<std::mutex> lock(mutex);
  Outcome &outcome = outcomes[static_cast<unsigned>(mode)];
  return outcome.attempt ? outcome.attempt->spillSize : 0;
}

bool BuildMemo::narrowed(BuildGRF mode) {
  std::lock_guard<std::mutex> lock(mutex);
  Outcome &outcome = outcomes[static_cast<unsigned>(mode)];
  return outcome.attempt && !parseSIMDDrops(outcome.attempt->log).empty();
}

const OutOfResourcesError *BuildMemo::getResourceFailure(BuildGRF mode) {
  std::lock_guard<std::mutex> lock(mutex);
  Outcome &outcome = outcomes[static_cast<unsigned>(mode)];
  return outcome.resources ? &*outcome.resources : nullptr;
}

GRFDecision BuildMemo::keep(BuildGRF kept, std::string reason,
                            std::string source) {
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
