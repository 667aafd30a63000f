//===- CompileSession.h - What a compile run resolves once ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A compile session is what a run resolves once at its edge and every stage
// shares: the compiler installation (the `compiler-root` option, else
// $XPU_CODEGEN_COMPILER_ROOT, else the system's) and the identities the
// cache holds for it, the persistent cache with its shared tier, the worker
// pool and the backend, and what the run made of each module (its
// ModuleReport). The pipeline builder or the Python binding makes one;
// passes run alone share one per run through getShared(). xpu-module-cache,
// xpu-start-workers and xpu-native-codegen share it (docs/Rationale.md,
// "Compile session"). No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_CODEGEN_COMPILESESSION_H
#define XPUCODEGEN_COMPILER_CODEGEN_COMPILESESSION_H

#include "XPUCodegen/Compiler/Cache/CompileCache.h"
#include "XPUCodegen/Compiler/Cache/SharedCacheConfig.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Compiler/Worker/CompilerInstallation.h"
#include "XPUCodegen/Support/CheckedThread.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mlir::xpu {

struct DeviceInfo;

/// The shared tier's security as `options` give it; resolveSharedCache
/// falls back to the environment for what they leave empty.
SharedCacheSecurity getSharedCacheSecurity(const NativeCodegenOptions &options);

/// Resolves the shared tier `options` name as opening the cache will: an
/// invalid URL or timeout variable, or a password file, TLS key, signing
/// key or trust list that cannot be used, is an error naming the option
/// or the variable it fell back to. Variables an option overrides are not
/// read.
llvm::Error checkSharedCacheOptions(const NativeCodegenOptions &options);

class CompileSession : public std::enable_shared_from_this<CompileSession> {
public:
  /// A session for a run with `options`: the compiler root is resolved
  /// here, once; the cache is opened and the workers start on first use.
  static std::shared_ptr<CompileSession>
  create(const NativeCodegenOptions &options);

  /// The session of passes run alone (xpu-opt with a pass list): the live
  /// session whose run-level options (getSessionKey) equal `options`', else
  /// a new one. Passes hold their session while their pass manager lives,
  /// so the passes of one run share it: the compiler root is resolved and
  /// the cache opened once.
  static std::shared_ptr<CompileSession>
  getShared(const NativeCodegenOptions &options);

  /// The options a session resolves (compiler, cache, workers, backend),
  /// printed: sessions with equal keys are interchangeable.
  static std::string getSessionKey(const NativeCodegenOptions &options);

  const NativeCodegenOptions &getOptions() const { return options; }

  /// The compiler the run's workers load, or why it cannot be used (the
  /// first build's error, as a broken root always was).
  llvm::Expected<const CompilerInstallation &> getCompiler() const;

  /// The persistent cache with its shared tier (a shared tier that cannot
  /// be used leaves the local one); nullptr when disabled or the directory
  /// cannot be used.
  CompileCache *getCache();

  /// The cache as the native compile needs it: the error that kept it from
  /// opening as asked (e.g. a bad `cache-url`), else the cache or nullptr.
  llvm::Expected<CompileCache *> openCache();

  /// The shared pool of compile workers for the run's compiler, with the
  /// jobs and limits of `user` (the options of the pass that asks: passes
  /// run alone may share a session but set their own).
  llvm::Expected<WorkerPool &> getPool(const NativeCodegenOptions &user);
  llvm::Expected<WorkerPool &> getPool() { return getPool(options); }

  /// The identity of the compiler that the backend resolves to for
  /// `device`, as the driver would read it from the cache, without starting
  /// a compiler: std::nullopt when the cache does not hold it (or it is
  /// stale) or no backend can be chosen. Found once per device and run.
  std::optional<CachedCompilerIdentity>
  lookupCachedCompilerIdentity(const DeviceInfo &device);

  /// Starts the compiler workers the run is about to need in the
  /// background, so that they load IGC (and answer the compiler identity
  /// when the cache does not hold it yet) while modules are still lowered.
  /// Only for a backend known without probing (ocloc). Starts no more than
  /// `builds`, the builds the run has ahead (its modules). Returns whether
  /// it started them; the pool is that of `user`'s jobs and limits.
  bool prestartWorkers(const NativeCodegenOptions &user, size_t builds);

  /// Records what the run made of some modules, in input order; any
  /// stage's thread may call it.
  void addResults(std::vector<ModuleReport> reports);

  /// Hands over every result recorded so far (in the order recorded).
  std::vector<ModuleReport> takeResults();

  /// Opens the cache and connects to its shared tier on another thread,
  /// so that the key loading and the TLS handshake of a shared tier overlap
  /// the passes before the first lookup. Without a shared tier, nothing;
  /// once per session.
  void openCacheAhead();

  ~CompileSession();

private:
  explicit CompileSession(const NativeCodegenOptions &options);
  void openCacheOnce();

  NativeCodegenOptions options;
  /// The compiler the options name, resolved once (or the error as text:
  /// llvm::Error is not copyable).
  std::optional<CompilerInstallation> compiler;
  std::string compilerError;

  std::once_flag cacheOnce;
  std::optional<CompileCache> cache;
  std::string cacheError;
  /// openCacheAhead's thread, joined by the process that started it.
  CheckedThread cacheOpener;
  int cacheOpenerPid = 0;

  std::mutex identityMutex;
  llvm::StringMap<CachedCompilerIdentity> identities;

  std::mutex resultsMutex;
  std::vector<ModuleReport> results;
};

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_CODEGEN_COMPILESESSION_H
