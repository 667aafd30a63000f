//===- NativeCodegenDriver.cpp - SPIR-V modules to native code ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Target/Cache/CompileCache.h"
#include "XPUCodegen/Target/Codegen/BackendSelection.h"
#include "XPUCodegen/Target/Device/DeviceTable.h"
#include "XPUCodegen/Target/SPIRV/SPIRVModuleInfo.h"
#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/ThreadPool.h"

#include <future>
#include <mutex>

using namespace mlir::xpu;

llvm::StringRef mlir::xpu::stringifyBackendKind(BackendKind kind) {
  switch (kind) {
  case BackendKind::Auto:
    return "auto";
  case BackendKind::Ocloc:
    return "ocloc";
  case BackendKind::LevelZero:
    return "level-zero";
  }
  llvm_unreachable("unknown backend kind");
}

std::optional<uint32_t>
mlir::xpu::getCommonRequiredSubgroupSize(const ModuleCompileResult &result) {
  return getCommonRequiredSubgroupSize(result.spirvKernels);
}

llvm::StringRef mlir::xpu::getEffectiveGRFMode(const BuildAttempt &attempt) {
  switch (attempt.mode) {
  case BuildGRF::Small:
    return "small";
  case BuildGRF::Large:
    return "large";
  case BuildGRF::XLarge:
    return "xlarge";
  case BuildGRF::Default:
    return "default";
  case BuildGRF::IGCAuto:
    break;
  }
  int64_t most = 0;
  for (const KernelMeasurement &kernel : attempt.kernels)
    most = std::max(most, kernel.grfCount);
  return most > 256 ? "xlarge" : most > 128 ? "large" : "small";
}

namespace {
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
  GRFPolicy policy = GRFPolicy::Auto;
  std::string policyNote;
  /// SPIRV-Tools' rejection, when validation only warns.
  std::string validation;
  std::vector<SPIRVKernelInfo> spirvKernels;
};
} // namespace

/// What selects the compiler behind `backend` besides the files the worker
/// maps: the worker and the environment it inherits.
static std::string getIdentityContext(WorkerBackend backend,
                                      const CompilerInstallation &compiler) {
  std::string context =
      backend == WorkerBackend::Ocloc ? "ocloc" : "level-zero";
  context += '\0';
  context += findWorkerExecutable();
  context += '\0';
  context += compiler.root;
  for (const char *name : {"XPU_CODEGEN_OCLOC_LIBRARY", "LD_LIBRARY_PATH",
                           "LD_PRELOAD", "ZE_ENABLE_ALT_DRIVERS"}) {
    context += '\0';
    context += name;
    context += '=';
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(name))
      context += *value;
  }
  return context;
}

/// An ocloc identity depends only on the compiler's files, so the shared
/// tier may hand it to another machine that has the same ones; a Level Zero
/// identity also names the machine's devices.
static bool isPortableIdentity(WorkerBackend backend) {
  return backend == WorkerBackend::Ocloc;
}

std::optional<CachedCompilerIdentity> mlir::xpu::lookupCachedCompilerIdentity(
    const CompileCache &cache, BackendKind backend, const DeviceInfo &device,
    llvm::StringRef compilerRoot) {
  llvm::Expected<BackendChoice> choice = selectBackend(backend, device);
  if (!choice) {
    llvm::consumeError(choice.takeError());
    return std::nullopt;
  }
  // A broken root is the driver's located error, not the cache's.
  llvm::Expected<CompilerInstallation> compiler =
      resolveCompilerRoot(getRequestedCompilerRoot(compilerRoot));
  if (!compiler) {
    llvm::consumeError(compiler.takeError());
    return std::nullopt;
  }
  std::optional<std::string> identity = cache.lookupCompilerIdentity(
      getIdentityContext(choice->worker, *compiler),
      isPortableIdentity(choice->worker));
  if (!identity)
    return std::nullopt;
  return CachedCompilerIdentity{choice->name.str(),
                                parseCompilerIdentity(*identity).text};
}

struct NativeCodegenDriver::Impl {
  WorkerPool *pool = nullptr;
  /// Warnings for takeWarnings(); cacheWriteFailed makes the cache's one.
  std::mutex warningMutex;
  std::vector<std::string> warnings;
  bool cacheWriteFailed = false;

  /// A cache that cannot be written costs time, not output: one warning.
  void noteCacheStore(llvm::Error error) {
    if (!error)
      return;
    std::string message = llvm::toString(std::move(error));
    std::lock_guard<std::mutex> lock(warningMutex);
    if (std::exchange(cacheWriteFailed, true))
      return;
    warnings.push_back("cannot write the compile cache in '" +
                       cache->getDirectory().str() + "' (" + message +
                       "): builds are not cached");
  }

  /// The persistent cache; std::nullopt when disabled.
  std::optional<CompileCache> cache;
  std::mutex mutex;
  /// Builds started in this driver, by build key: identical builds run once.
  llvm::StringMap<SharedBuildFuture> builds;
  std::mutex identityMutex;
  std::optional<CompilerIdentity> identities[2];

  /// The compiler identity for cache keys. Asking a worker starts IGC, so
  /// the persistent cache keeps the answer, valid while the files the
  /// worker had mapped are unchanged: a fully cached run starts no worker.
  llvm::Expected<CompilerIdentity> getCompilerIdentity(WorkerBackend backend) {
    std::lock_guard<std::mutex> lock(identityMutex);
    std::optional<CompilerIdentity> &memo = identities[unsigned(backend)];
    if (memo)
      return *memo;
    std::string context;
    bool portable = isPortableIdentity(backend);
    if (cache) {
      context = getIdentityContext(backend, pool->getCompiler());
      if (std::optional<std::string> identity =
              cache->lookupCompilerIdentity(context, portable)) {
        memo = parseCompilerIdentity(*identity);
        return *memo;
      }
    }
    llvm::Expected<std::string> identity = pool->getCompilerIdentity(backend);
    if (!identity)
      return identity.takeError();
    // Best effort: a cache that cannot be written costs time, not output.
    if (cache)
      noteCacheStore(cache->storeCompilerIdentity(
          context, *identity, pool->getCompilerIdentityFiles(backend),
          portable));
    memo = parseCompilerIdentity(*identity);
    return *memo;
  }
};

NativeCodegenDriver::NativeCodegenDriver(const NativeCodegenOptions &options)
    : options(options), impl(std::make_unique<Impl>()) {}

NativeCodegenDriver::~NativeCodegenDriver() = default;

std::vector<std::string> NativeCodegenDriver::takeWarnings() {
  std::vector<std::string> warnings;
  {
    std::lock_guard<std::mutex> lock(impl->warningMutex);
    warnings = std::exchange(impl->warnings, {});
  }
  // The shared tier's one warning per process.
  if (impl->cache)
    llvm::append_range(warnings, impl->cache->takeWarnings());
  return warnings;
}

llvm::Expected<uint64_t> mlir::xpu::parseCacheMaxSize(llvm::StringRef text) {
  llvm::Expected<llvm::CachePruningPolicy> policy =
      llvm::parseCachePruningPolicy(("cache_size_bytes=" + text.trim()).str());
  if (!policy)
    return llvm::createStringError(
        "invalid cache-max-size '" + text +
        "': expected bytes with an optional k, m or g suffix (" +
        llvm::toString(policy.takeError()) + ")");
  return policy->MaxSizeBytes;
}

llvm::Expected<std::unique_ptr<NativeCodegenDriver>>
NativeCodegenDriver::create(const NativeCodegenOptions &options) {
  llvm::Expected<WorkerPool &> pool = WorkerPool::getShared(
      options.jobs, options.limits, WorkerProgram::CompileWorker,
      /*maxJobsPerWorker=*/0, options.compilerRoot);
  if (!pool)
    return pool.takeError();
  std::unique_ptr<NativeCodegenDriver> driver(new NativeCodegenDriver(options));
  driver->impl->pool = &*pool;
  llvm::Expected<std::optional<CompileCache>> cache =
      CompileCache::open(options.cacheDir, options.cacheUrl);
  if (!cache)
    return cache.takeError();
  driver->impl->cache = std::move(*cache);
  return driver;
}

/// The content address of one build: everything that can change its output.
static std::string getBuildKey(const PreparedModule &module,
                               llvm::StringRef buildFlags) {
  // Bump when the meaning of a cached build changes.
  static constexpr llvm::StringLiteral kFormatVersion = "xpu-build-v1";
  llvm::SHA256 hash;
  for (llvm::StringRef part :
       {llvm::StringRef(kFormatVersion), llvm::StringRef(module.spirvDigest),
        llvm::StringRef(module.device->name), buildFlags, module.backend.name,
        llvm::StringRef(module.compilerIdentity)}) {
    hash.update(part);
    hash.update(llvm::ArrayRef<uint8_t>{0});
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

/// What the module's binaries must fit to launch: the work-group sizes and
/// required SIMD widths its SPIR-V declares (SPIR-V that does not parse has
/// none: its binary is still checked against the default size), the size the
/// caller launches the others with, and the device.
static LaunchLimits getLaunchLimits(const ModuleCompileRequest &request,
                                    const NativeCodegenOptions &options,
                                    const PreparedModule &module) {
  LaunchLimits limits;
  limits.device = module.device;
  limits.defaultWorkGroupSize = request.maxWorkGroupSize
                                    ? request.maxWorkGroupSize
                                    : options.maxWorkGroupSize;
  for (const SPIRVKernelInfo &kernel : module.spirvKernels) {
    KernelWorkGroup workGroup;
    workGroup.name = kernel.name;
    if (kernel.localSize)
      workGroup.size = uint64_t((*kernel.localSize)[0]) *
                       (*kernel.localSize)[1] * (*kernel.localSize)[2];
    workGroup.requiredSimd = kernel.subgroupSize.value_or(0);
    limits.kernels.push_back(std::move(workGroup));
  }
  return limits;
}

/// The checks of the SPIR-V itself: structure always, SPIRV-Tools per the
/// validation mode (a warning is kept in the module), and the kernels'
/// declared sub-group and work-group sizes.
static llvm::Error checkSPIRV(const ModuleCompileRequest &request,
                              const NativeCodegenOptions &options,
                              PreparedModule &module) {
  if (!isSPIRV(request.spirv))
    return llvm::createStringError("not a SPIR-V module");
  // Structural, whatever the validation mode: IGC reads whole words.
  if (request.spirv.size() % 4 != 0)
    return llvm::createStringError(llvm::formatv(
        "truncated SPIR-V module: {0} bytes is not a whole number of words",
        request.spirv.size()));
  if (options.validation != SPIRVValidation::Off) {
    if (llvm::Error error = validateSPIRV(request.spirv)) {
      if (options.validation == SPIRVValidation::Strict)
        return error;
      module.validation = llvm::toString(std::move(error));
    }
  }
  // Best effort: the widths IGC was asked for, for the report. SPIR-V that
  // does not parse still goes to the isolated worker, which decides.
  if (llvm::Expected<SPIRVModuleInfo> info = readSPIRVModuleInfo(request.spirv))
    module.spirvKernels = std::move(info->kernels);
  else
    llvm::consumeError(info.takeError());
  return llvm::Error::success();
}

/// The policy the device can honour: large is an error without a large
/// register file, and measured auto there is small (measuring a large build
/// would measure a small one twice).
static llvm::Error resolvePolicy(const ModuleCompileRequest &request,
                                 const NativeCodegenOptions &options,
                                 PreparedModule &module) {
  module.policy = request.policy;
  if (request.policy == GRFPolicy::XLarge &&
      !module.device->supportsXLargeGRF())
    return llvm::createStringError(llvm::formatv(
        "arch '{0}' does not support xlarge GRF mode (512 registers per "
        "thread): its GRF modes are {1} registers",
        request.arch, module.device->getGRFModeList()));
  if (module.device->supportsLargeGRF())
    return llvm::Error::success();
  if (request.policy == GRFPolicy::Large)
    return llvm::createStringError(llvm::formatv(
        "arch '{0}' does not support large GRF mode: IGC would silently "
        "ignore the flag and build 128 registers",
        request.arch));
  if (request.policy == GRFPolicy::Auto &&
      options.autoStrategy == AutoStrategy::Measure) {
    module.policy = GRFPolicy::Small;
    module.policyNote =
        llvm::formatv("arch '{0}' has no large GRF mode; ", module.device->name)
            .str();
  }
  return llvm::Error::success();
}

/// A device the compiler does not know would only fail inside IGC with a
/// terse message: name the compiler and the devices it does know. A compiler
/// that did not list its devices (Level Zero) is not checked here.
static llvm::Error checkCompilerKnowsDevice(const CompilerIdentity &identity,
                                            const DeviceInfo &device,
                                            llvm::StringRef arch) {
  // By name or alias: IGC 2.40 lists lnl-m, not lnl, though it takes both.
  if (isKnownToCompiler(device, identity.devices))
    return llvm::Error::success();
  std::vector<std::string> known;
  for (const DeviceInfo &candidate : getDevices())
    if (isKnownToCompiler(candidate, identity.devices))
      known.push_back(candidate.name.str());
  return llvm::createStringError(llvm::formatv(
      "arch '{0}' is not known to the selected compiler ({1}); it knows: "
      "{2} (select another with compiler-root=DIR or {3})",
      arch, identity.text, llvm::join(known, ", "), kCompilerRootEnvVar));
}

/// A request after the checks that need no compiler, with its backend,
/// compiler identity and SPIR-V digest.
static llvm::Expected<PreparedModule>
prepare(const ModuleCompileRequest &request,
        const NativeCodegenOptions &options,
        llvm::function_ref<llvm::Expected<CompilerIdentity>(WorkerBackend)>
            getCompilerIdentity) {
  PreparedModule module;
  module.device = lookupDevice(request.arch);
  if (!module.device)
    return llvm::createStringError(describeUnknownDevice(request.arch));
  if (llvm::Error error = checkExtraFlags(request.extraFlags))
    return error;
  if (llvm::Error error = checkSPIRV(request, options, module))
    return error;
  if (llvm::Error error = resolvePolicy(request, options, module))
    return error;

  llvm::Expected<BackendChoice> backend =
      selectBackend(options.backend, *module.device);
  if (!backend)
    return backend.takeError();
  module.backend = *backend;

  llvm::Expected<CompilerIdentity> identity =
      getCompilerIdentity(module.backend.worker);
  if (!identity)
    return identity.takeError();
  if (llvm::Error error =
          checkCompilerKnowsDevice(*identity, *module.device, request.arch))
    return error;
  module.compilerIdentity = identity->text;

  module.spirvDigest = llvm::toHex(
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(
          llvm::StringRef(request.spirv.data(), request.spirv.size()))),
      /*LowerCase=*/true);
  return module;
}

//===----------------------------------------------------------------------===//
// One batch
//===----------------------------------------------------------------------===//

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
  BuildPlan choosePlan(const ModuleCompileRequest &request,
                       const PreparedModule &module, std::string &note) const;
  llvm::Expected<BuildAttempt> build(size_t index, const PreparedModule &module,
                                     BuildGRF mode);
  llvm::Expected<BuildAttempt> buildShared(const ModuleCompileRequest &request,
                                           const PreparedModule &module,
                                           BuildGRF mode,
                                           std::vector<std::string> *keys);
  ModuleCompileResult compileLinked(size_t index, const PreparedModule &module,
                                    BuildPlan plan, llvm::StringRef planNote);
  LinkedPartResult compilePart(size_t index, size_t part,
                               const PreparedModule &module, BuildPlan plan,
                               llvm::StringRef planNote, BuildGRF linkedMode,
                               const std::optional<BuildAttempt> &linked,
                               bool &linkedCounted);
  std::shared_ptr<SharedBuild>
  runSharedBuild(const ModuleCompileRequest &, const PreparedModule &module,
                 BuildGRF mode, llvm::StringRef flags, llvm::StringRef key);
  std::optional<BuildAttempt> lookupCachedBuild(const PreparedModule &module,
                                                BuildGRF mode,
                                                llvm::StringRef flags,
                                                llvm::StringRef key) const;
  llvm::Expected<BuildAttempt>
  compileOnWorker(const ModuleCompileRequest &request,
                  const PreparedModule &module, BuildGRF mode,
                  llvm::StringRef flags) const;
  ModuleCompileResult describe(const ModuleCompileRequest &request,
                               const PreparedModule &module, BuildPlan plan,
                               llvm::StringRef planNote,
                               GRFDecision decision) const;
  void markReusedBuilds();

  const NativeCodegenOptions &options;
  Impl &impl;
  llvm::ArrayRef<ModuleCompileRequest> requests;
  std::vector<std::optional<llvm::Expected<ModuleCompileResult>>> results;
  /// Build keys per module, in the order its builds ran.
  std::vector<std::vector<std::string>> moduleKeys;
};

std::vector<llvm::Expected<ModuleCompileResult>>
NativeCodegenDriver::compile(llvm::ArrayRef<ModuleCompileRequest> requests) {
  return Batch(options, *impl, requests).run();
}

std::vector<llvm::Expected<ModuleCompileResult>>
NativeCodegenDriver::Batch::run() {
  // The shared pool may have grown for an earlier caller: `jobs` still
  // bounds this batch.
  unsigned threads = options.jobs ? options.jobs : impl.pool->getMaxWorkers();
  if (threads <= 1 || requests.size() <= 1) {
    for (size_t i = 0, e = requests.size(); i < e; ++i)
      compileModule(i);
  } else {
    llvm::StdThreadPool threadPool(llvm::hardware_concurrency(threads));
    for (size_t i = 0, e = requests.size(); i < e; ++i)
      threadPool.async([this, i] { compileModule(i); });
    threadPool.wait();
  }
  markReusedBuilds();
  if (impl.cache)
    impl.cache->prune(options.cacheMaxSize);

  std::vector<llvm::Expected<ModuleCompileResult>> ordered;
  ordered.reserve(results.size());
  for (auto &result : results)
    ordered.push_back(std::move(*result));
  return ordered;
}

void NativeCodegenDriver::Batch::compileModule(size_t index) {
  const ModuleCompileRequest &request = requests[index];
  llvm::Expected<PreparedModule> module =
      prepare(request, options, [&](WorkerBackend backend) {
        return impl.getCompilerIdentity(backend);
      });
  if (!module) {
    results[index] = module.takeError();
    return;
  }
  std::string planNote;
  BuildPlan plan = choosePlan(request, *module, planNote);
  if (!request.parts.empty()) {
    results[index] = compileLinked(index, *module, plan, planNote);
    return;
  }
  llvm::Expected<GRFDecision> decision = decideLaunchableGRF(
      module->policy, options.autoStrategy, options.spillThreshold, plan,
      getBuildLadder(*module->device),
      getLaunchLimits(request, options, *module),
      [&](BuildGRF mode) { return build(index, *module, mode); });
  if (!decision) {
    // The validator's verdict is the likeliest explanation: keep it (but
    // not over a resource limit, which callers act on).
    llvm::Error error = decision.takeError();
    if (!module->validation.empty() && !error.isA<OutOfResourcesError>())
      results[index] = llvm::createStringError(
          llvm::toString(std::move(error)) +
          "\n(SPIRV-Tools also rejects this SPIR-V: " + module->validation +
          ")");
    else
      results[index] = std::move(error);
    return;
  }
  if (plan == BuildPlan::Speculate) {
    // The two builds ran concurrently: list their keys in attempt order.
    std::lock_guard<std::mutex> lock(impl.mutex);
    moduleKeys[index].clear();
    for (const BuildAttempt &attempt : decision->attempts)
      moduleKeys[index].push_back(getBuildKey(*module, attempt.buildFlags));
  }
  results[index] =
      describe(request, *module, plan, planNote, std::move(*decision));
}

/// The plan from the static estimate applies to measured auto only (not to a
/// device whose auto prepare turned into small). Speculation needs a second
/// free worker; with one, measuring costs no more time.
BuildPlan
NativeCodegenDriver::Batch::choosePlan(const ModuleCompileRequest &request,
                                       const PreparedModule &module,
                                       std::string &note) const {
  if (module.policy != GRFPolicy::Auto ||
      options.autoStrategy != AutoStrategy::Measure)
    return BuildPlan::Measure;
  BuildPlan plan = request.plan;
  if (plan == BuildPlan::PredictLarge && !options.verifyPredictedLarge)
    return BuildPlan::PredictLargeUnverified;
  if (plan == BuildPlan::Speculate && impl.pool->getMaxWorkers() < 2) {
    note = "one worker, no speculation; ";
    return BuildPlan::Measure;
  }
  return plan;
}

/// One build of a module, deduplicated across the driver: the first asker
/// of a build key runs it, the others wait for its outcome.
llvm::Expected<BuildAttempt>
NativeCodegenDriver::Batch::build(size_t index, const PreparedModule &module,
                                  BuildGRF mode) {
  return buildShared(requests[index], module, mode, &moduleKeys[index]);
}

/// build() for any request (a part of a linked module built alone has no
/// index); its key is appended to `keys` when given.
llvm::Expected<BuildAttempt> NativeCodegenDriver::Batch::buildShared(
    const ModuleCompileRequest &request, const PreparedModule &module,
    BuildGRF mode, std::vector<std::string> *keys) {
  std::string flags =
      getBuildFlags(mode, module.backend.worker, request.extraFlags);
  std::string key = getBuildKey(module, flags);

  std::promise<std::shared_ptr<SharedBuild>> promise;
  SharedBuildFuture future;
  bool owner = false;
  {
    std::lock_guard<std::mutex> lock(impl.mutex);
    // Under the lock: a speculative module runs two builds at once.
    if (keys)
      keys->push_back(key);
    auto [it, inserted] = impl.builds.try_emplace(key);
    if (inserted) {
      it->second = promise.get_future().share();
      owner = true;
    }
    future = it->second;
  }
  if (owner)
    promise.set_value(runSharedBuild(request, module, mode, flags, key));
  std::shared_ptr<SharedBuild> outcome = future.get();
  if (!outcome->attempt)
    return llvm::createStringError(outcome->error);
  BuildAttempt attempt = *outcome->attempt;
  attempt.cache = outcome->cache;
  return attempt;
}

/// A build's outcome: from the persistent cache, else compiled on the worker
/// pool and stored. Failed builds are not cached; a store that fails (read-
/// only or full disk) only costs the next run a compile.
std::shared_ptr<SharedBuild> NativeCodegenDriver::Batch::runSharedBuild(
    const ModuleCompileRequest &request, const PreparedModule &module,
    BuildGRF mode, llvm::StringRef flags, llvm::StringRef key) {
  auto outcome = std::make_shared<SharedBuild>();
  if (impl.cache) {
    outcome->cache = "miss";
    if (std::optional<BuildAttempt> cached =
            lookupCachedBuild(module, mode, flags, key)) {
      outcome->attempt = std::move(*cached);
      outcome->cache = "hit";
      return outcome;
    }
  }
  llvm::Expected<BuildAttempt> attempt =
      compileOnWorker(request, module, mode, flags);
  if (!attempt) {
    outcome->error = llvm::toString(attempt.takeError());
    // Processes waiting for this build on the shared tier stop waiting.
    if (impl.cache)
      impl.cache->releaseClaim(key);
    return outcome;
  }
  outcome->attempt = std::move(*attempt);
  if (impl.cache)
    impl.noteCacheStore(
        impl.cache->store(key, serializeBuildAttempt(*outcome->attempt)));
  return outcome;
}

/// The cached build under `key`, if it decodes and its facts are possible on
/// the device. The key already pins mode and flags; checking them again is
/// free and keeps a mislabeled entry from ever being used.
std::optional<BuildAttempt> NativeCodegenDriver::Batch::lookupCachedBuild(
    const PreparedModule &module, BuildGRF mode, llvm::StringRef flags,
    llvm::StringRef key) const {
  // With a shared tier, this may wait (bounded) for another process that
  // builds the same key, or claim the key for this one (see CompileCache).
  std::optional<std::string> payload = impl.cache->lookupOrClaim(key);
  if (!payload)
    return std::nullopt;
  llvm::Expected<BuildAttempt> cached = deserializeBuildAttempt(*payload);
  if (!cached) {
    llvm::consumeError(cached.takeError());
    return std::nullopt;
  }
  if (cached->mode != mode || cached->buildFlags != flags ||
      llvm::errorToBool(checkBuildFacts(*cached, getGRFCounts(*module.device))))
    return std::nullopt;
  cached->compileMs = 0;
  return std::move(*cached);
}

/// Compiles on the worker pool. The worker's binary is untrusted: its facts
/// must be possible on the device.
llvm::Expected<BuildAttempt> NativeCodegenDriver::Batch::compileOnWorker(
    const ModuleCompileRequest &request, const PreparedModule &module,
    BuildGRF mode, llvm::StringRef flags) const {
  WorkerRequest job;
  job.backend = module.backend.worker;
  job.device = module.device->name.str();
  job.options = flags.str();
  job.spirv = request.spirv;
  llvm::Expected<WorkerResponse> response = impl.pool->run(job);
  if (!response)
    return response.takeError();
  llvm::Expected<BuildAttempt> attempt =
      measureBuild(mode, flags.str(), *response, module.device->grfBytes);
  if (!attempt)
    return attempt.takeError();
  if (llvm::Error error =
          checkBuildFacts(*attempt, getGRFCounts(*module.device)))
    return std::move(error);
  return attempt;
}

ModuleCompileResult NativeCodegenDriver::Batch::describe(
    const ModuleCompileRequest &request, const PreparedModule &module,
    BuildPlan plan, llvm::StringRef planNote, GRFDecision decision) const {
  ModuleCompileResult result;
  result.name = request.name;
  result.arch = module.device->name.str();
  result.decision = std::move(decision);
  result.decision.reason =
      module.policyNote + planNote.str() + result.decision.reason;
  result.plan = plan;
  result.pressure = request.pressure;
  result.backend = module.backend.name.str();
  result.backendReason = module.backend.reason;
  result.compilerIdentity = module.compilerIdentity;
  result.validation = module.validation;
  result.spirvKernels = module.spirvKernels;
  // A linked module whose one build failed has none (its parts built alone).
  if (!result.decision.attempts.empty())
    result.nRegs =
        getNRegs(result.decision.getChosen().mode, options.nRegsDefault);
  result.cache = "off";
  if (impl.cache) {
    bool allHit =
        llvm::all_of(result.decision.attempts, [](const BuildAttempt &attempt) {
          return attempt.cache == "hit";
        });
    result.cache = allHit ? "hit" : "miss";
  }
  return result;
}

/// The mode of the first build decideGRF asks for under `policy`: a linked
/// module builds once in that mode, and each part's decision reuses it.
static BuildGRF getFirstBuildMode(GRFPolicy policy, AutoStrategy strategy,
                                  BuildPlan plan) {
  switch (policy) {
  case GRFPolicy::Small:
    return BuildGRF::Small;
  case GRFPolicy::Large:
    return BuildGRF::Large;
  case GRFPolicy::XLarge:
    return BuildGRF::XLarge;
  case GRFPolicy::Default:
    return BuildGRF::Default;
  case GRFPolicy::Auto:
    break;
  }
  if (strategy == AutoStrategy::IGC)
    return BuildGRF::IGCAuto;
  return plan == BuildPlan::PredictLarge ||
                 plan == BuildPlan::PredictLargeUnverified
             ? BuildGRF::Large
             : BuildGRF::Small;
}

/// `attempt` as far as `kernels` are concerned: their measurements, and the
/// largest of their spills as the build's (the flags apply to the whole
/// module, so a module's spill is its worst kernel's).
static BuildAttempt restrictToKernels(const BuildAttempt &attempt,
                                      llvm::ArrayRef<std::string> kernels) {
  BuildAttempt part;
  part.mode = attempt.mode;
  part.buildFlags = attempt.buildFlags;
  part.log = attempt.log;
  part.compileMs = attempt.compileMs;
  part.cache = attempt.cache;
  part.reused = attempt.reused;
  for (const KernelMeasurement &kernel : attempt.kernels) {
    if (!llvm::is_contained(kernels, kernel.name))
      continue;
    part.spillSize = std::max(part.spillSize, kernel.spillSize);
    part.kernels.push_back(kernel);
  }
  return part;
}

/// A linked module: one build in the mode every part's decision starts
/// with, then per part the decision an unlinked run would make, from the
/// linked build restricted to the part's kernels and, where the decision
/// asks for another mode (or the linked build failed), from builds of the
/// part alone.
ModuleCompileResult NativeCodegenDriver::Batch::compileLinked(
    size_t index, const PreparedModule &module, BuildPlan plan,
    llvm::StringRef planNote) {
  const ModuleCompileRequest &request = requests[index];
  BuildGRF linkedMode =
      getFirstBuildMode(module.policy, options.autoStrategy, plan);
  std::optional<BuildAttempt> linked;
  std::string linkedError;
  if (llvm::Expected<BuildAttempt> attempt = build(index, module, linkedMode)) {
    attempt->mode = linkedMode;
    linked = std::move(*attempt);
  } else {
    linkedError = llvm::toString(attempt.takeError());
    std::lock_guard<std::mutex> lock(impl.mutex);
    moduleKeys[index].clear();
  }

  GRFDecision decision;
  decision.source = "linked";
  decision.reason =
      llvm::formatv("{0} modules linked into one {1} build",
                    request.parts.size(), stringifyBuildGRF(linkedMode));
  if (linked)
    decision.attempts.push_back(*linked);
  else
    decision.reason += " that failed, so each was built alone: " + linkedError;
  ModuleCompileResult result =
      describe(request, module, plan, planNote, std::move(decision));
  bool linkedCounted = false;
  for (size_t part = 0, e = request.parts.size(); part < e; ++part)
    result.parts.push_back(compilePart(index, part, module, plan, planNote,
                                       linkedMode, linked, linkedCounted));
  return result;
}

/// One part's decision (see compileLinked). Its own SPIR-V is emitted only
/// when a build of the part alone is needed.
LinkedPartResult NativeCodegenDriver::Batch::compilePart(
    size_t index, size_t partIndex, const PreparedModule &module,
    BuildPlan plan, llvm::StringRef planNote, BuildGRF linkedMode,
    const std::optional<BuildAttempt> &linked, bool &linkedCounted) {
  const ModuleCompileRequest &request = requests[index];
  const LinkedPart &part = request.parts[partIndex];
  ModuleCompileRequest partRequest;
  partRequest.name = part.name;
  partRequest.arch = request.arch;
  partRequest.policy = request.policy;
  partRequest.plan = request.plan;
  partRequest.pressure = part.pressure;
  partRequest.extraFlags = request.extraFlags;
  partRequest.maxWorkGroupSize = request.maxWorkGroupSize;

  // The part as the linked build sees it: its kernels only.
  PreparedModule partModule = module;
  llvm::erase_if(partModule.spirvKernels, [&](const SPIRVKernelInfo &kernel) {
    return !llvm::is_contained(part.kernels, kernel.name);
  });
  LaunchLimits limits = getLaunchLimits(partRequest, options, partModule);

  // The part alone, emitted and prepared on first use (a speculative plan
  // asks from two threads).
  std::mutex aloneMutex;
  std::optional<llvm::Expected<PreparedModule>> alone;
  auto buildAlone = [&](BuildGRF mode) -> llvm::Expected<BuildAttempt> {
    {
      std::lock_guard<std::mutex> lock(aloneMutex);
      if (!alone) {
        llvm::Expected<std::vector<char>> spirv =
            request.emitPart
                ? request.emitPart(partIndex)
                : llvm::Expected<std::vector<char>>(
                      llvm::createStringError("no way to emit the part alone"));
        if (!spirv) {
          alone.emplace(spirv.takeError());
        } else {
          partRequest.spirv = std::move(*spirv);
          alone.emplace(
              prepare(partRequest, options, [&](WorkerBackend backend) {
                return impl.getCompilerIdentity(backend);
              }));
        }
      }
      if (!*alone)
        return llvm::createStringError("building '" + part.name + "' alone: " +
                                       llvm::toString((*alone).takeError()));
    }
    return buildShared(partRequest, **alone, mode, /*keys=*/nullptr);
  };
  auto partBuild = [&](BuildGRF mode) -> llvm::Expected<BuildAttempt> {
    if (mode != linkedMode || !linked)
      return buildAlone(mode);
    BuildAttempt attempt = restrictToKernels(*linked, part.kernels);
    // The linked build's time counts once, for its first part.
    if (std::exchange(linkedCounted, true)) {
      attempt.reused = true;
      attempt.compileMs = 0;
    }
    return attempt;
  };

  LinkedPartResult result;
  llvm::Expected<GRFDecision> decision = decideLaunchableGRF(
      module.policy, options.autoStrategy, options.spillThreshold, plan,
      getBuildLadder(*module.device), limits, partBuild);
  if (!decision) {
    result.error = llvm::toString(decision.takeError());
    return result;
  }
  const BuildAttempt &chosen = decision->getChosen();
  result.split = !linked || chosen.mode != linkedMode;
  if (!result.split)
    decision->reason += " (linked build)";
  result.result =
      describe(partRequest, partModule, plan, planNote, std::move(*decision));
  return result;
}

/// Marks deduplicated builds in input order, whichever thread ran them, so
/// the report is the same for any `jobs`; compile_ms then sums to the time
/// really spent in the compiler.
void NativeCodegenDriver::Batch::markReusedBuilds() {
  llvm::StringSet<> seenKeys;
  for (size_t i = 0, e = results.size(); i < e; ++i) {
    if (!*results[i])
      continue;
    std::vector<BuildAttempt> &attempts = (*results[i])->decision.attempts;
    if (attempts.size() != moduleKeys[i].size())
      continue;
    for (size_t j = 0, n = attempts.size(); j < n; ++j) {
      if (!seenKeys.insert(moduleKeys[i][j]).second) {
        attempts[j].reused = true;
        attempts[j].compileMs = 0;
      }
    }
  }
}
