//===- WorkerStartFailures.h - When a pool stops starting workers -*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Compiler/Worker: the worker pool's record of failed starts,
// its circuit breaker.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_TARGET_WORKER_WORKERSTARTFAILURES_H
#define XPUCODEGEN_LIB_TARGET_WORKER_WORKERSTARTFAILURES_H

#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <optional>
#include <string>

namespace mlir::xpu::detail {

/// The failed starts of one pool. A failed start is replaced by a retry;
/// only when a retry (a start launched after a failure) fails too are
/// further starts blocked for a while, and jobs that no live worker can take
/// then fail at once with the error. So one lost start (a worker killed or
/// stalled before its hello) never fails a job, and a worker that cannot
/// start costs two start-ups, not one per job. A successful start unblocks.
/// Not thread-safe: the pool guards it with its mutex.
class WorkerStartFailures {
public:
  using Clock = std::chrono::steady_clock;

  /// How long starts stay blocked after a retry failed.
  static constexpr std::chrono::seconds kBlockTime{10};

  /// Whether a start launched now replaces a failed one.
  bool isRetry() const { return failuresInARow > 0; }

  bool isBlocked(Clock::time_point now) const {
    return blockedUntil && now < *blockedUntil;
  }
  /// When starts are allowed again (only while isBlocked()).
  Clock::time_point getBlockedUntil() const { return *blockedUntil; }

  void recordSuccess() {
    failuresInARow = 0;
    blockedUntil.reset();
  }

  void recordFailure(std::string error, bool wasRetry) {
    ++failuresInARow;
    lastError = std::move(error);
    if (wasRetry)
      blockedUntil = Clock::now() + kBlockTime;
  }

  /// The error of a job that found starts blocked and no worker to wait for.
  std::string describe() const {
    return llvm::formatv("{0} ({1} starts failed in a row, a retry among "
                         "them; no new start for {2} s)",
                         lastError, failuresInARow, kBlockTime.count());
  }

private:
  unsigned failuresInARow = 0;
  std::string lastError;
  std::optional<Clock::time_point> blockedUntil;
};

} // namespace mlir::xpu::detail

#endif // XPUCODEGEN_LIB_TARGET_WORKER_WORKERSTARTFAILURES_H
