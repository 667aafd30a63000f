//===- WorkerLimits.cpp - The limits workers run under --------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The bounds of a pool's per-worker limits, checked before any worker
// starts, and the start-up limit of the shared pools.
//
//===----------------------------------------------------------------------===//

#include "WorkerProcess.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace llvm;

namespace mlir::xpu {

using namespace detail;

Error checkWorkerLimits(const WorkerLimits &limits) {
  if (limits.memoryMiB > kMaxMemoryMiB)
    return makeError(formatv("memory limit of {0} MiB is out of range (at "
                             "most {1}; 0: none)",
                             limits.memoryMiB, kMaxMemoryMiB));
  if (limits.timeoutMs > kMaxTimeoutMs)
    return makeError(formatv("time limit of {0} ms is out of range (at most "
                             "{1}; 0: none)",
                             limits.timeoutMs, kMaxTimeoutMs));
  return Error::success();
}

uint64_t detail::getSharedStartupMs() {
  uint64_t value;
  if (const char *env = std::getenv("XPU_CODEGEN_WORKER_STARTUP_MS");
      env && !StringRef(env).getAsInteger(10, value) && value <= kMaxTimeoutMs)
    return value;
  return kDefaultStartupMs;
}

} // namespace mlir::xpu
