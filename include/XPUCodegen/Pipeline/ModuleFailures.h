//===- ModuleFailures.h - Per-module errors across the passes ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Errors are per module at every stage: a gpu.module that fails to lower or
// emit is marked `xpu.error = #xpu.failure<...>` (after its located error) and
// skipped by later stages; the other modules still compile, and
// xpu-native-codegen lists every module in its report. A stage that saw
// failures then fails the pass, so the host exits non-zero, unless:
//  * its `keep-going` option is set (a later stage will account for them, as
//    inside xpu-codegen-pipeline), or
//  * the driver defers module failures (xpu-opt): it still prints the IR of
//    the good modules and sets its own exit status from the count.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_MODULEFAILURES_H
#define XPUCODEGEN_PIPELINE_MODULEFAILURES_H

#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <thread>

namespace mlir::xpu {

/// Records the first error diagnosed on this thread while it lives, for a
/// module's `xpu.error`; every diagnostic still reaches the host's handlers,
/// unless `swallow` is set (the caller retries the work in smaller pieces,
/// which diagnose for themselves). Per thread, because modules are lowered
/// and emitted in parallel.
class FirstErrorRecorder {
public:
  explicit FirstErrorRecorder(MLIRContext *context, bool swallow = false);
  ~FirstErrorRecorder();
  FirstErrorRecorder(const FirstErrorRecorder &) = delete;
  FirstErrorRecorder &operator=(const FirstErrorRecorder &) = delete;

  /// The first error's message, or `fallback` when there was none.
  std::string getMessage(StringRef fallback) const;

private:
  MLIRContext *context;
  DiagnosticEngine::HandlerID id;
  std::thread::id thread;
  std::string message;
};

/// Marks `module` (a gpu.module or gpu.binary) as failed at `stage` with
/// `message` (`xpu.error = #xpu.failure<...>`).
void markModuleFailed(Operation *module, FailureStage stage, StringRef message);

/// The message of a module an earlier stage marked failed.
std::optional<StringRef> getModuleFailure(Operation *module);

/// For drivers that write the IR of the good modules even when others
/// failed: passes then count module failures instead of failing.
void setDeferModuleFailures(bool defer);

/// Module failures counted while deferring, over the process's lifetime.
unsigned getNumDeferredModuleFailures();

/// Ends a stage in which `numFailed` modules failed: success when there
/// were none, when `keepGoing` hands them to a later stage, or when the
/// driver defers them (they are counted); failure when the pass must fail.
LogicalResult finishModuleStage(unsigned numFailed, bool keepGoing);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_MODULEFAILURES_H
