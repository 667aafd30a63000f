//===- NativeCodegenDriverImpl.h - Driver internals -------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Compiler/Codegen: the driver's state (Impl), one compile()
// call (Batch) and the module preparation they share. The steps live in
// NativeCodegenDriver.cpp (the batch and its report), ModulePreparation.cpp
// (checks that need no compiler, launch limits), SharedBuilds.cpp (builds
// deduplicated by key: cache, else worker) and LinkedBuild.cpp (a linked
// module's one build and its parts' decisions).
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_TARGET_CODEGEN_NATIVECODEGENDRIVERIMPL_H
#define XPUCODEGEN_LIB_TARGET_CODEGEN_NATIVECODEGENDRIVERIMPL_H

#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Codegen/BackendSelection.h"
#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/SPIRV/SPIRVModuleInfo.h"
#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/StringMap.h"

#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu {
namespace detail {

/// The outcome of one unique build, shared by every module that asked for it.
struct SharedBuild {
  std::optional<BuildAttempt> attempt;
  std::string error;
  /// "hit", "miss" or "off", the same for every module sharing the build.
  std::string cache = "off";
};
using SharedBuildFuture = std::shared_future<std::shared_ptr<SharedBuild>>;

/// A request after the checks that need no compiler.
struct PreparedModule {
  const DeviceInfo *device = nullptr;
  /// Hex SHA-256 of the SPIR-V, computed once per module.
  std::string spirvDigest;
  BackendChoice backend;
  std::string compilerIdentity;
  GRFMode policy = GRFMode::Auto;
  std::string policyNote;
  /// SPIRV-Tools' rejection, when validation only warns.
  std::string validation;
  std::vector<SPIRVKernelInfo> spirvKernels;
};

/// The content address of one build: everything that can change its output.
std::string getBuildKey(const PreparedModule &module,
                        llvm::StringRef buildFlags);

/// What the module's binaries must fit to launch: the work-group sizes and
/// required SIMD widths its SPIR-V declares (SPIR-V that does not parse has
/// none: its binary is still checked against the default size), the size the
/// caller launches the others with, and the device.
LaunchLimits getLaunchLimits(const ModuleCompileRequest &request,
                             const NativeCodegenOptions &options,
                             const PreparedModule &module);

/// A request after the checks that need no compiler, with its backend (a
/// Level Zero probe runs on the run's `compiler`), compiler identity and
/// SPIR-V digest.
llvm::Expected<PreparedModule>
prepare(const ModuleCompileRequest &request,
        const NativeCodegenOptions &options,
        const CompilerInstallation &compiler,
        llvm::function_ref<llvm::Expected<CompilerIdentity>(WorkerBackend)>
            getCompilerIdentity);

} // namespace detail

namespace detail {
/// What selects the compiler behind `backend` besides the files the worker
/// maps: the worker and the environment it inherits.
std::string getIdentityContext(WorkerBackend backend,
                               const CompilerInstallation &compiler);
/// An ocloc identity depends only on the compiler's files, so the shared
/// tier may hand it to another machine that has the same ones; a Level Zero
/// identity also names the machine's devices.
bool isPortableIdentity(WorkerBackend backend);
} // namespace detail

/// The driver's state across compile() calls.
struct NativeCodegenDriver::Impl {
  /// What the run resolved once: the compiler, the cache, the pool.
  std::shared_ptr<CompileSession> session;
  WorkerPool *pool = nullptr;
  /// Warnings for takeWarnings(); cacheWriteFailed makes the cache's one.
  std::mutex warningMutex;
  std::vector<std::string> warnings;
  bool cacheWriteFailed = false;

  /// A cache that cannot be written costs time, not output: one warning.
  void noteCacheStore(llvm::Error error);
  /// Adds a warning for takeWarnings (from any thread).
  void addWarning(std::string warning);

  /// The session's persistent cache; nullptr when disabled.
  CompileCache *cache = nullptr;
  std::mutex mutex;
  /// Builds started in this driver, by build key: identical builds run once.
  llvm::StringMap<detail::SharedBuildFuture> builds;
  std::mutex identityMutex;
  /// One per backend, indexed by unsigned(WorkerBackend).
  std::optional<CompilerIdentity> identities[kNumWorkerBackends];

  /// The compiler identity for cache keys. Asking a worker starts IGC, so
  /// the persistent cache keeps the answer, valid while the files the
  /// worker had mapped are unchanged: a fully cached run starts no worker.
  llvm::Expected<CompilerIdentity> getCompilerIdentity(WorkerBackend backend);
};

/// One compile() call. Each module goes through named steps: prepare (checks
/// that need no compiler), choosePlan (how auto runs its builds), decideGRF
/// (whose builds go through runSharedBuild: cache, else worker, then store)
/// and describe; markReusedBuilds then fixes the report's view of builds
/// shared between modules in input order, so output is the same for any
/// `jobs`.
class NativeCodegenDriver::Batch {
public:
  Batch(const NativeCodegenOptions &options, Impl &impl,
        llvm::ArrayRef<ModuleCompileRequest> requests)
      : options(options), impl(impl), requests(requests),
        results(requests.size()), moduleKeys(requests.size()) {}

  std::vector<llvm::Expected<ModuleCompileResult>> run();

private:
  void compileModule(size_t index);
  AutoPlan choosePlan(const ModuleCompileRequest &request,
                      const detail::PreparedModule &module,
                      std::string &note) const;
  llvm::Expected<BuildAttempt>
  build(size_t index, const detail::PreparedModule &module, BuildGRF mode);
  llvm::Expected<BuildAttempt> buildShared(const ModuleCompileRequest &request,
                                           const detail::PreparedModule &module,
                                           BuildGRF mode,
                                           std::vector<std::string> *keys);
  ModuleCompileResult compileLinked(size_t index,
                                    const detail::PreparedModule &module,
                                    AutoPlan plan, llvm::StringRef planNote);
  LinkedPartResult compilePart(size_t index, size_t part,
                               const detail::PreparedModule &module,
                               AutoPlan plan, llvm::StringRef planNote,
                               BuildGRF linkedMode,
                               const std::optional<BuildAttempt> &linked);
  /// Runs `body` for 0..count-1, `jobs` at a time.
  void forEachIndex(size_t count, llvm::function_ref<void(size_t)> body);
  std::shared_ptr<detail::SharedBuild>
  runSharedBuild(const ModuleCompileRequest &,
                 const detail::PreparedModule &module, BuildGRF mode,
                 llvm::StringRef flags, llvm::StringRef key);
  std::optional<BuildAttempt>
  lookupCachedBuild(const detail::PreparedModule &module, BuildGRF mode,
                    llvm::StringRef flags, llvm::StringRef key) const;
  void verifyDeterminism(const ModuleCompileRequest &request,
                         const detail::PreparedModule &module,
                         const BuildAttempt &kept, bool cached) const;
  llvm::Expected<BuildAttempt>
  compileOnWorker(const ModuleCompileRequest &request,
                  const detail::PreparedModule &module, BuildGRF mode,
                  llvm::StringRef flags) const;
  ModuleCompileResult describe(const ModuleCompileRequest &request,
                               const detail::PreparedModule &module,
                               AutoPlan plan, llvm::StringRef planNote,
                               GRFDecision decision) const;
  void markReusedBuilds();

  const NativeCodegenOptions &options;
  Impl &impl;
  llvm::ArrayRef<ModuleCompileRequest> requests;
  std::vector<std::optional<llvm::Expected<ModuleCompileResult>>> results;
  /// Build keys per module, in the order its builds ran.
  std::vector<std::vector<std::string>> moduleKeys;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_LIB_TARGET_CODEGEN_NATIVECODEGENDRIVERIMPL_H
