//===- SharedBuilds.cpp - Builds deduplicated by content address ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Every build a decision asks for goes through here: keyed by everything
// that can change its output, run once per driver whoever asks, read from
// the persistent cache when there, else compiled on the worker pool,
// checked and stored.
//
//===----------------------------------------------------------------------===//

#include "NativeCodegenDriverImpl.h"

#include "XPUCodegen/Compiler/Native/Zebin.h"
#include "XPUCodegen/Compiler/Native/ZebinTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <future>
#include <mutex>

using namespace mlir::xpu;
using namespace mlir::xpu::detail;

/// The content address of one build: everything that can change its output.
std::string mlir::xpu::detail::getBuildKey(const PreparedModule &module,
                                           llvm::StringRef buildFlags) {
  // Bump when the meaning of a cached build changes.
  static constexpr llvm::StringLiteral kFormatVersion = "xpu-build-v2";
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

/// What a binary must be, whether from the cache or a worker: its facts
/// possible on the device, its kernels exactly the module's entry points
/// (when the SPIR-V could be read), and built for the device asked for. A
/// compiler that answers with another build's binary fails here.
static llvm::Error checkBuild(const BuildAttempt &attempt,
                              const PreparedModule &module) {
  if (llvm::Error error =
          checkBuildFacts(attempt, getGRFCounts(*module.device)))
    return error;
  if (!module.spirvKernels.empty()) {
    std::vector<std::string> entryPoints;
    for (const SPIRVKernelInfo &kernel : module.spirvKernels)
      entryPoints.push_back(kernel.name);
    if (llvm::Error error = checkBuildKernels(attempt, entryPoints))
      return error;
  }
  // A Level Zero driver builds for the stepping of the GPU present.
  bool exactRevision = module.backend.worker == WorkerBackend::Ocloc;
  if (llvm::Error error = checkZebinDevice(
          llvm::StringRef(attempt.binary.data(), attempt.binary.size()),
          *module.device, exactRevision))
    return llvm::createStringError(
        stringifyBuildGRF(attempt.mode) +
        " build: " + llvm::toString(std::move(error)));
  return llvm::Error::success();
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
      if (options.verifyDeterminism)
        verifyDeterminism(request, module, *outcome->attempt, /*cached=*/true);
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
  if (impl.cache) {
    impl.cache->creditStoredBuild(outcome->attempt->compileMs);
    impl.noteCacheStore(
        impl.cache->store(key, serializeBuildAttempt(*outcome->attempt)));
  }
  if (options.verifyDeterminism)
    verifyDeterminism(request, module, *outcome->attempt, /*cached=*/false);
  return outcome;
}

/// verify-determinism: builds `kept` again and warns when the compiler
/// answers differently. The kept result is never changed.
void NativeCodegenDriver::Batch::verifyDeterminism(
    const ModuleCompileRequest &request, const PreparedModule &module,
    const BuildAttempt &kept, bool cached) const {
  llvm::Expected<BuildAttempt> again =
      compileOnWorker(request, module, kept.mode, kept.buildFlags);
  std::string prefix =
      llvm::formatv("verify-determinism: module '{0}', {1} build: ",
                    request.name, stringifyBuildGRF(kept.mode))
          .str();
  if (!again)
    return impl.addWarning(prefix + "the second build failed: " +
                           llvm::toString(again.takeError()));
  if (again->binary == kept.binary)
    return;
  llvm::Expected<std::vector<std::string>> differing = getDifferingSections(
      llvm::StringRef(kept.binary.data(), kept.binary.size()),
      llvm::StringRef(again->binary.data(), again->binary.size()));
  std::string sections = differing ? llvm::join(*differing, ", ")
                                   : llvm::toString(differing.takeError());
  impl.addWarning(prefix + "a second build of the same SPIR-V differs in " +
                  sections + " (the first is kept" +
                  (cached ? ", as the cache holds it" : "") + ")");
}

/// The cached build under `key`, if it decodes and its facts are possible on
/// the device. The key already pins mode and flags; checking them again is
/// free and keeps a mislabeled entry from ever being used.
std::optional<BuildAttempt> NativeCodegenDriver::Batch::lookupCachedBuild(
    const PreparedModule &module, BuildGRF mode, llvm::StringRef flags,
    llvm::StringRef key) const {
  // With a shared tier, this may wait (bounded) for another process that
  // builds the same key, or claim the key for this one (see CompileCache).
  bool fromShared = false;
  std::optional<std::string> payload =
      impl.cache->lookupOrClaim(key, &fromShared);
  if (!payload)
    return std::nullopt;
  llvm::Expected<BuildAttempt> cached = deserializeBuildAttempt(*payload);
  if (!cached) {
    llvm::consumeError(cached.takeError());
    return std::nullopt;
  }
  if (cached->mode != mode || cached->buildFlags != flags ||
      llvm::errorToBool(checkBuild(*cached, module)))
    return std::nullopt;
  // What the shared tier may cost is budgeted against what it saves.
  if (fromShared)
    impl.cache->creditSharedHit(cached->compileMs);
  cached->builtMs = cached->compileMs;
  cached->compileMs = 0;
  cached->cacheTier = fromShared ? "shared" : "local";
  return std::move(*cached);
}

/// Compiles on the worker pool. The worker's binary is untrusted: see
/// checkBuild.
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
  if (llvm::Error error = checkBuild(*attempt, module))
    return std::move(error);
  return attempt;
}
