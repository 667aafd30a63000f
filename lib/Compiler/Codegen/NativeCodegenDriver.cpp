//===- NativeCodegenDriver.cpp - SPIR-V modules to native code ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The driver's entry points and one compile() call: each module prepared
// (ModulePreparation.cpp), its plan chosen, its GRF decided over shared
// builds (SharedBuilds.cpp) or as a linked module (LinkedBuild.cpp), then
// described for the report in input order.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"

#include "NativeCodegenDriverImpl.h"
#include "XPUCodegen/Compiler/Codegen/CodegenOptionDefaults.h"
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.h"
#include "XPUCodegen/Support/CheckedThread.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/Process.h"

#include <atomic>
#include <mutex>
#include <numeric>

using namespace mlir::xpu;
using namespace mlir::xpu::detail;

llvm::StringRef mlir::xpu::stringifyBackendKind(BackendKind kind) {
  // The spelling the backend= option accepts (CodegenOptions.cpp).
  for (const CodegenOptionChoice &choice :
       getCodegenOptionChoices<BackendKind>())
    if (choice.value == static_cast<unsigned>(kind))
      return choice.name;
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
  case BuildGRF::Regs32:
  case BuildGRF::Regs64:
  case BuildGRF::Regs96:
  case BuildGRF::Regs160:
  case BuildGRF::Regs192:
    return stringifyBuildGRF(attempt.mode);
  case BuildGRF::IGCAuto:
    break;
  }
  // The GRF mode attribute's class of the count the binary has.
  int64_t most = 0;
  for (const KernelMeasurement &kernel : attempt.kernels)
    most = std::max(most, kernel.grfCount);
  return most > 256 ? "xlarge" : most > 128 ? "large" : "small";
}

std::string
mlir::xpu::detail::getIdentityContext(WorkerBackend backend,
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

bool mlir::xpu::detail::isPortableIdentity(WorkerBackend backend) {
  return backend == WorkerBackend::Ocloc;
}

void NativeCodegenDriver::Impl::noteCacheStore(llvm::Error error) {
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

void NativeCodegenDriver::Impl::addWarning(std::string warning) {
  std::lock_guard<std::mutex> lock(warningMutex);
  warnings.push_back(std::move(warning));
}

llvm::Expected<CompilerIdentity>
NativeCodegenDriver::Impl::getCompilerIdentity(WorkerBackend backend) {
  std::lock_guard<std::mutex> lock(identityMutex);
  std::optional<CompilerIdentity> &memo = identities[unsigned(backend)];
  if (memo)
    return *memo;
  std::string context;
  bool portable = detail::isPortableIdentity(backend);
  if (cache) {
    context = detail::getIdentityContext(backend, pool->getCompiler());
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
        context, *identity, pool->getCompilerIdentityFiles(backend), portable));
  memo = parseCompilerIdentity(*identity);
  return *memo;
}

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

uint64_t mlir::xpu::getDefaultCacheMaxSize() {
  return llvm::cantFail(
      parseCacheMaxSize(codegen_option_default::cacheMaxSize));
}

llvm::Expected<std::unique_ptr<NativeCodegenDriver>>
NativeCodegenDriver::create(const NativeCodegenOptions &options) {
  return create(CompileSession::create(options));
}

llvm::Expected<std::unique_ptr<NativeCodegenDriver>>
NativeCodegenDriver::create(std::shared_ptr<CompileSession> session) {
  const NativeCodegenOptions &options = session->getOptions();
  return create(std::move(session), options);
}

llvm::Expected<std::unique_ptr<NativeCodegenDriver>>
NativeCodegenDriver::create(std::shared_ptr<CompileSession> session,
                            const NativeCodegenOptions &options) {
  assert(CompileSession::getSessionKey(options) ==
             CompileSession::getSessionKey(session->getOptions()) &&
         "the session resolved other options");
  llvm::Expected<WorkerPool &> pool = session->getPool(options);
  if (!pool)
    return pool.takeError();
  llvm::Expected<CompileCache *> cache = session->openCache();
  if (!cache)
    return cache.takeError();
  std::unique_ptr<NativeCodegenDriver> driver(new NativeCodegenDriver(options));
  driver->impl->pool = &*pool;
  driver->impl->cache = *cache;
  driver->impl->session = std::move(session);
  return driver;
}

std::vector<llvm::Expected<ModuleCompileResult>>
NativeCodegenDriver::compile(llvm::ArrayRef<ModuleCompileRequest> requests) {
  return Batch(options, *impl, requests).run();
}

std::vector<llvm::Expected<ModuleCompileResult>>
NativeCodegenDriver::Batch::run() {
  // Largest SPIR-V first: the longest builds (linked modules, register-heavy
  // kernels) start at once instead of last, which shortens the critical
  // path; results stay in input order.
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return requests[a].spirv.size() > requests[b].spirv.size();
  });
  forEachIndex(order.size(), [&](size_t i) { compileModule(order[i]); });
  markReusedBuilds();
  if (impl.cache)
    impl.cache->prune(options.cacheMaxSize);

  std::vector<llvm::Expected<ModuleCompileResult>> ordered;
  ordered.reserve(results.size());
  for (auto &result : results)
    ordered.push_back(std::move(*result));
  return ordered;
}

void NativeCodegenDriver::Batch::forEachIndex(
    size_t count, llvm::function_ref<void(size_t)> body) {
  // The shared pool may have grown for an earlier caller: `jobs` still
  // bounds this batch.
  unsigned threads = options.jobs ? options.jobs : impl.pool->getMaxWorkers();
  if (threads <= 1 || count <= 1) {
    for (size_t i = 0; i < count; ++i)
      body(i);
    return;
  }
  // This thread and up to threads - 1 helpers take indices in order. A
  // helper that cannot be created (a pids limit) only means fewer at once,
  // never an abort: this thread alone still runs every index.
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++)
      body(i);
  };
  std::vector<CheckedThread> helpers;
  for (size_t i = 1, e = std::min<size_t>(threads, count); i < e; ++i) {
    llvm::Expected<CheckedThread> helper = CheckedThread::start(work);
    if (!helper) {
      llvm::consumeError(helper.takeError());
      break;
    }
    helpers.push_back(std::move(*helper));
  }
  work();
  for (CheckedThread &helper : helpers)
    helper.join();
}

void NativeCodegenDriver::Batch::compileModule(size_t index) {
  const ModuleCompileRequest &request = requests[index];
  llvm::Expected<PreparedModule> module = prepare(
      request, options, impl.pool->getCompiler(),
      [&](WorkerBackend backend) { return impl.getCompilerIdentity(backend); });
  if (!module) {
    results[index] = module.takeError();
    return;
  }
  std::string planNote;
  AutoPlan plan = choosePlan(request, *module, planNote);
  if (!request.parts.empty()) {
    results[index] = compileLinked(index, *module, plan, planNote);
    return;
  }
  llvm::Expected<GRFDecision> decision = decideLaunchableGRF(
      module->policy, options.autoStrategy, options.spillThreshold, plan,
      getBuildLadder(*module->device),
      getLaunchLimits(request, options, *module), options.strictLaunch,
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
  if (plan == AutoPlan::Speculate) {
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
AutoPlan
NativeCodegenDriver::Batch::choosePlan(const ModuleCompileRequest &request,
                                       const PreparedModule &module,
                                       std::string &note) const {
  if (module.policy != GRFMode::Auto ||
      options.autoStrategy != AutoStrategy::Measure)
    return AutoPlan::Measure;
  AutoPlan plan = request.plan;
  if (plan == AutoPlan::PredictLarge && !options.verifyPredictedLarge)
    return AutoPlan::PredictLargeUnverified;
  if (plan == AutoPlan::Speculate && impl.pool->getMaxWorkers() < 2) {
    note = "one worker, no speculation; ";
    return AutoPlan::Measure;
  }
  return plan;
}

ModuleCompileResult NativeCodegenDriver::Batch::describe(
    const ModuleCompileRequest &request, const PreparedModule &module,
    AutoPlan plan, llvm::StringRef planNote, GRFDecision decision) const {
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
        result.decision.registers
            ? result.decision.registers
            : getNRegs(result.decision.getChosen().mode, options.nRegsDefault);
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
