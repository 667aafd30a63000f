//===- CompileSession.cpp - What one compile run uses, resolved once ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/CompileSession.h"

#include "NativeCodegenDriverImpl.h"

#include "XPUCodegen/Compiler/Cache/SharedCacheConfig.h"
#include "XPUCodegen/Compiler/Codegen/BackendSelection.h"
#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace mlir::xpu;

std::shared_ptr<CompileSession>
CompileSession::create(const NativeCodegenOptions &options) {
  return std::shared_ptr<CompileSession>(new CompileSession(options));
}

/// Prints to `os` each option of `options` whose row in CodegenOptions.def
/// says where inputs and results are (role Location): the compiler, the
/// cache and its shared tier, whatever rows are added later.
template <typename Options>
static void printLocationOptions(llvm::raw_ostream &os,
                                 const Options &options) {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  if constexpr (CodegenOptionRole::ROLE == CodegenOptionRole::Location &&      \
                detail::HoldsOption_##FIELD<Options>::value)                   \
    os << '\0' << options.FIELD;
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
}

std::string CompileSession::getSessionKey(const NativeCodegenOptions &options) {
  // What the constructor, openCacheOnce and lookupCachedCompilerIdentity
  // read; a pool's jobs and limits are its user's (getPool).
  std::string key;
  llvm::raw_string_ostream os(key);
  os << stringifyBackendKind(options.backend);
  printLocationOptions(os, options);
  return key;
}

std::shared_ptr<CompileSession>
CompileSession::getShared(const NativeCodegenOptions &options) {
  // Weak: a session ends with the last pass manager holding it, so runs
  // that follow (another xpu-opt input, a changed environment) resolve
  // afresh.
  static std::mutex mutex;
  static llvm::StringMap<std::weak_ptr<CompileSession>> live;
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = live.begin(); it != live.end();) {
    auto entry = it++;
    if (entry->second.expired())
      live.erase(entry);
  }
  std::weak_ptr<CompileSession> &slot = live[getSessionKey(options)];
  if (std::shared_ptr<CompileSession> session = slot.lock())
    return session;
  std::shared_ptr<CompileSession> session = create(options);
  slot = session;
  return session;
}

CompileSession::CompileSession(const NativeCodegenOptions &options)
    : options(options) {
  // The one place a run resolves its compiler: the pools, the cache keys
  // and the identity all take this installation.
  llvm::Expected<CompilerInstallation> resolved =
      resolveCompilerRoot(getRequestedCompilerRoot(options.compilerRoot));
  if (resolved)
    compiler = std::move(*resolved);
  else
    compilerError = llvm::toString(resolved.takeError());
}

llvm::Expected<const CompilerInstallation &>
CompileSession::getCompiler() const {
  if (!compiler)
    return llvm::createStringError(compilerError);
  return *compiler;
}

SharedCacheSecurity
mlir::xpu::getSharedCacheSecurity(const NativeCodegenOptions &options) {
  SharedCacheSecurity security;
  security.passwordFile = options.cachePasswordFile;
  security.tls = {options.cacheTlsCa, options.cacheTlsCert,
                  options.cacheTlsKey};
  security.signKeyFile = options.cacheSignKey;
  security.trustFiles = splitKeyFileList(options.cacheTrust);
  return security;
}

llvm::Error
mlir::xpu::checkSharedCacheOptions(const NativeCodegenOptions &options) {
  llvm::Expected<std::optional<SharedCacheConfig>> shared =
      resolveSharedCache(options.cacheUrl, getSharedCacheSecurity(options));
  return shared ? llvm::Error::success() : shared.takeError();
}

void CompileSession::openCacheOnce() {
  std::call_once(cacheOnce, [&] {
    llvm::Expected<std::optional<CompileCache>> opened = CompileCache::open(
        options.cacheDir, options.cacheUrl, getSharedCacheSecurity(options));
    if (opened) {
      cache = std::move(*opened);
      return;
    }
    cacheError = llvm::toString(opened.takeError());
    // The local tier still serves the stages that only read the cache.
    llvm::Expected<std::optional<CompileCache>> local =
        CompileCache::open(options.cacheDir, "none");
    if (local)
      cache = std::move(*local);
    else
      llvm::consumeError(local.takeError());
  });
}

void CompileSession::openCacheAhead() {
  std::string url = getSharedCacheURLText(options.cacheUrl);
  if (cacheOpener.joinable() || url.empty() || url == "none")
    return;
  cacheOpenerPid = ::getpid();
  // Without a thread, the cache is opened when first used.
  llvm::Expected<CheckedThread> opener = CheckedThread::start([this] {
    if (CompileCache *opened = getCache())
      opened->connectSharedAhead();
  });
  if (opener)
    cacheOpener = std::move(*opener);
  else
    llvm::consumeError(opener.takeError());
}

CompileSession::~CompileSession() {
  if (!cacheOpener.joinable())
    return;
  // A forked child has the object but not the thread.
  if (cacheOpenerPid == ::getpid())
    cacheOpener.join();
  else
    cacheOpener.detach();
}

CompileCache *CompileSession::getCache() {
  openCacheOnce();
  return cache ? &*cache : nullptr;
}

llvm::Expected<CompileCache *> CompileSession::openCache() {
  openCacheOnce();
  if (!cacheError.empty())
    return llvm::createStringError(cacheError);
  return cache ? &*cache : nullptr;
}

llvm::Expected<WorkerPool &>
CompileSession::getPool(const NativeCodegenOptions &user) {
  llvm::Expected<const CompilerInstallation &> resolved = getCompiler();
  if (!resolved)
    return resolved.takeError();
  return WorkerPool::getShared(user.jobs, user.limits,
                               WorkerProgram::CompileWorker,
                               /*maxJobsPerWorker=*/0, &*resolved);
}

std::optional<CachedCompilerIdentity>
CompileSession::lookupCachedCompilerIdentity(const DeviceInfo &device) {
  std::lock_guard<std::mutex> lock(identityMutex);
  // Only what was found is kept: the native compile caches an identity
  // the module cache looked for in vain, and stores under it afterwards.
  if (auto found = identities.find(device.name); found != identities.end())
    return found->second;
  CompileCache *opened = getCache();
  // A broken root is the driver's located error, not the cache's.
  if (!opened || !compiler)
    return std::nullopt;
  llvm::Expected<BackendChoice> choice =
      selectBackend(options.backend, device, *compiler);
  if (!choice) {
    llvm::consumeError(choice.takeError());
    return std::nullopt;
  }
  std::optional<std::string> identity = opened->lookupCompilerIdentity(
      detail::getIdentityContext(choice->worker, *compiler),
      detail::isPortableIdentity(choice->worker));
  if (!identity)
    return std::nullopt;
  CachedCompilerIdentity cached{choice->name.str(),
                                parseCompilerIdentity(*identity).text};
  identities.try_emplace(device.name, cached);
  return cached;
}

bool CompileSession::prestartWorkers(const NativeCodegenOptions &user,
                                     size_t builds) {
  std::optional<WorkerBackend> backend =
      selectBackendWithoutProbe(options.backend);
  if (!backend)
    return false;
  // Errors are the driver's to report when it starts, as without this.
  llvm::Expected<WorkerPool &> pool = getPool(user);
  if (!pool) {
    llvm::consumeError(pool.takeError());
    return false;
  }
  CompileCache *opened = getCache();
  // A cached identity is read from the cache by the driver, not asked.
  bool identityCached =
      opened && opened->lookupCompilerIdentity(
                    detail::getIdentityContext(*backend, pool->getCompiler()),
                    detail::isPortableIdentity(*backend));
  return pool->prestart(identityCached ? std::nullopt : std::optional(*backend),
                        builds);
}

void CompileSession::addResults(std::vector<ModuleReport> reports) {
  std::lock_guard<std::mutex> lock(resultsMutex);
  results.insert(results.end(), std::make_move_iterator(reports.begin()),
                 std::make_move_iterator(reports.end()));
}

std::vector<ModuleReport> CompileSession::takeResults() {
  std::lock_guard<std::mutex> lock(resultsMutex);
  return std::exchange(results, {});
}
