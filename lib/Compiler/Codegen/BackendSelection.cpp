//===- BackendSelection.cpp - Choose the native compiler ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Level Zero is probed in a compiler worker, never in the host: zeInit loads
// GPU drivers into the calling process, and after a failed zeInit loader
// 1.8.12 crashes on the next call. The probe is a Level Zero job without
// SPIR-V (see tools/xpu-compile-worker/LevelZeroBackend.cpp); its answer is
// cached per process and arch, since drivers are fixed at the first zeInit
// of a process anyway.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/BackendSelection.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <mutex>

using namespace mlir::xpu;

namespace {
struct ProbeResult {
  bool found = false;
  /// The devices found, or why none could be looked for (zeInit failed).
  std::string detail;
  /// True when Level Zero itself is unusable (detail is the error).
  bool unavailable = false;
};
} // namespace

static ProbeResult probeLevelZero(const DeviceInfo &device,
                                  const CompilerInstallation &compiler) {
  static std::mutex mutex;
  static llvm::StringMap<ProbeResult> cache;
  std::lock_guard<std::mutex> lock(mutex);
  // Per compiler too: a worker that cannot start for one compiler says
  // nothing of another's.
  std::string key = (device.name + "\0" + compiler.root).str();
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;

  ProbeResult result;
  llvm::Expected<WorkerPool &> pool = WorkerPool::getShared(
      /*maxWorkers=*/1, /*limits=*/{}, WorkerProgram::CompileWorker,
      /*maxJobsPerWorker=*/0, &compiler);
  if (!pool) {
    result.unavailable = true;
    result.detail = "cannot start a compiler worker to probe Level Zero: " +
                    llvm::toString(pool.takeError());
  } else {
    WorkerRequest probe;
    probe.backend = WorkerBackend::LevelZero;
    probe.device = device.name.str();
    probe.options = " ";
    llvm::Expected<WorkerResponse> response = pool->run(probe);
    if (!response) {
      // zeInit failed (the worker's Level Zero backend could not load), or
      // the probe took the worker down.
      result.unavailable = true;
      result.detail = llvm::toString(response.takeError());
    } else {
      result.found = response->succeeded;
      result.detail = response->log;
    }
  }
  cache[key] = result;
  return result;
}

/// Whether a Level Zero device can exist here: a GPU driver needs a DRM
/// render node; the offline driver is named in ZE_ENABLE_ALT_DRIVERS.
static bool mayHaveLevelZeroDevice() {
  if (llvm::sys::Process::GetEnv("ZE_ENABLE_ALT_DRIVERS"))
    return true;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it("/dev/dri", error), end;
       !error && it != end; it.increment(error))
    if (llvm::sys::path::filename(it->path()).starts_with("renderD"))
      return true;
  return false;
}

llvm::Expected<BackendChoice>
mlir::xpu::selectBackend(BackendKind requested, const DeviceInfo &device,
                         const CompilerInstallation &compiler) {
  switch (requested) {
  case BackendKind::Ocloc:
    return BackendChoice{WorkerBackend::Ocloc, "ocloc", "requested"};
  case BackendKind::LevelZero: {
    ProbeResult probe = probeLevelZero(device, compiler);
    if (probe.unavailable)
      return llvm::createStringError("backend=level-zero: " + probe.detail);
    if (!probe.found)
      return llvm::createStringError(
          llvm::formatv("backend=level-zero: no Level Zero device for arch "
                        "'{0}'; devices found: {1}",
                        device.name, probe.detail)
              .str());
    return BackendChoice{
        WorkerBackend::LevelZero, "level-zero",
        llvm::formatv("requested; Level Zero devices: {0}", probe.detail)};
  }
  case BackendKind::Auto: {
    // Probing starts a worker process; without a GPU render node or an
    // alternative driver there is nothing Level Zero could find.
    if (!mayHaveLevelZeroDevice())
      return BackendChoice{WorkerBackend::Ocloc, "ocloc",
                           "auto: no GPU render node (/dev/dri/renderD*) and "
                           "no ZE_ENABLE_ALT_DRIVERS; using ocloc"};
    ProbeResult probe = probeLevelZero(device, compiler);
    if (probe.found)
      return BackendChoice{
          WorkerBackend::LevelZero, "level-zero",
          llvm::formatv("auto: Level Zero device for arch '{0}' found "
                        "(devices: {1}); using level-zero",
                        device.name, probe.detail)};
    if (probe.unavailable)
      return BackendChoice{
          WorkerBackend::Ocloc, "ocloc",
          llvm::formatv("auto: no Level Zero driver/device ({0}); using ocloc",
                        probe.detail)};
    return BackendChoice{
        WorkerBackend::Ocloc, "ocloc",
        llvm::formatv("auto: no Level Zero device for arch '{0}' (devices "
                      "found: {1}); using ocloc",
                      device.name, probe.detail)};
  }
  }
  llvm_unreachable("unknown backend kind");
}

std::optional<WorkerBackend>
mlir::xpu::selectBackendWithoutProbe(BackendKind requested) {
  if (requested == BackendKind::Ocloc ||
      (requested == BackendKind::Auto && !mayHaveLevelZeroDevice()))
    return WorkerBackend::Ocloc;
  return std::nullopt;
}
