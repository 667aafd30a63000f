//===- SharedCacheBudget.cpp - What the shared tier may cost --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Cache/SharedCacheBudget.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mlir::xpu;
using Clock = SharedCacheBudget::Clock;

SharedCacheBudget::SharedCacheBudget(std::chrono::milliseconds allowance)
    : allowance(allowance) {}

Clock::duration SharedCacheBudget::getLeft(Clock::time_point now) const {
  // Commands in flight count from their start: those that hang use up the
  // budget while they hang, not only when they end.
  Clock::duration inFlightSoFar =
      now.time_since_epoch() * inFlight - inFlightStarts;
  return allowance + saved + storedBuilds / kStoredBuildShare - charged -
         inFlightSoFar;
}

std::optional<std::chrono::milliseconds>
SharedCacheBudget::begin(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex);
  Clock::duration left = getLeft(now);
  if (spent || left <= Clock::duration::zero())
    return std::nullopt;
  ++inFlight;
  inFlightStarts += now.time_since_epoch();
  // Rounded up: a command that runs into this limit has spent the budget.
  return std::chrono::ceil<std::chrono::milliseconds>(left);
}

bool SharedCacheBudget::end(Clock::time_point start, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex);
  --inFlight;
  inFlightStarts -= start.time_since_epoch();
  charged += now - start;
  ++commands;
  if (spent || getLeft(now) > Clock::duration::zero())
    return false;
  spent = true;
  return true;
}

void SharedCacheBudget::creditHit(Clock::duration saved) {
  std::lock_guard<std::mutex> lock(mutex);
  this->saved += std::max(saved, Clock::duration::zero());
}

void SharedCacheBudget::creditStoredBuild(Clock::duration built) {
  std::lock_guard<std::mutex> lock(mutex);
  storedBuilds += std::max(built, Clock::duration::zero());
}

bool SharedCacheBudget::isSpent() const {
  std::lock_guard<std::mutex> lock(mutex);
  return spent;
}

std::string SharedCacheBudget::describe() const {
  std::lock_guard<std::mutex> lock(mutex);
  auto seconds = [](Clock::duration d) {
    return std::chrono::duration<double>(d).count();
  };
  return formatv("its {0} command{7} took {1:f2} s, more than the {2:f2} s "
                 "allowance + {3:f2} s of builds its hits saved + {4:f2} s "
                 "(1/{5}) of the {6:f2} s of builds it keeps for others",
                 commands, seconds(charged), seconds(allowance), seconds(saved),
                 seconds(storedBuilds / kStoredBuildShare), kStoredBuildShare,
                 seconds(storedBuilds), commands == 1 ? "" : "s")
      .str();
}
