//===- SharedCacheBudget.h - What the shared tier may cost ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A server that answers every command correctly but slowly, just under the
// command deadline, would stretch a run of seconds to minutes. The budget is
// the shared tier's ledger: the wall time its commands take is charged
// against what the tier earned (the build time its hits saved, a share of
// the builds whose entries it keeps for others) plus a fixed allowance. A
// command may take at most what is left, counting commands still in flight
// from their start, so that the callers together never wait longer than
// the budget; once it is spent, the tier is dropped. Thread-safe.
// Independent of MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CACHE_SHAREDCACHEBUDGET_H
#define XPUCODEGEN_COMPILER_CACHE_SHAREDCACHEBUDGET_H

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

namespace mlir::xpu {

class SharedCacheBudget {
public:
  using Clock = std::chrono::steady_clock;

  /// The share of a build's time that storing its entry for others may
  /// cost: 1 / kStoredBuildShare.
  static constexpr unsigned kStoredBuildShare = 4;

  explicit SharedCacheBudget(std::chrono::milliseconds allowance);

  /// Starts a command at `now`: the longest it may take (what is left once
  /// the commands in flight are charged up to `now`, rounded up), or
  /// std::nullopt when nothing is left.
  std::optional<std::chrono::milliseconds> begin(Clock::time_point now);
  /// Ends the command begun at `start` and charges it. True for the one
  /// call that finds the budget spent.
  bool end(Clock::time_point start, Clock::time_point now);

  /// A hit that saved a build of `saved`.
  void creditHit(Clock::duration saved);
  /// A build of `built` whose entry the tier keeps for others.
  void creditStoredBuild(Clock::duration built);

  bool isSpent() const;
  /// The figures, for the warning that drops the tier.
  std::string describe() const;

private:
  Clock::duration getLeft(Clock::time_point now) const;

  mutable std::mutex mutex;
  Clock::duration allowance;
  Clock::duration saved{};
  Clock::duration storedBuilds{};
  Clock::duration charged{};
  unsigned commands = 0;
  /// Commands in flight and the sum of their start times.
  unsigned inFlight = 0;
  Clock::duration inFlightStarts{};
  bool spent = false;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CACHE_SHAREDCACHEBUDGET_H
