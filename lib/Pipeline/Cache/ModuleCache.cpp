//===- ModuleCache.cpp - The cache level before lowering ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A module's entry is keyed on its content before lowering; it holds what
// the cold run produced for the module after native code generation: its
// gpu.binary ops (MLIR bytecode), the launches xpu-native-codegen redirected
// to binaries split from it, and its report entries and diagnostics. A hit
// replays all of that, so a fully warm run lowers, emits and compiles
// nothing: it starts no worker and no child process.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Cache/ModuleCache.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/KernelOrigins.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"
#include "XPUCodegen/Support/BinaryFields.h"
#include "XPUCodegen/Support/BoundedJSON.h"
#include "XPUCodegen/Support/ReportSchema.h"
#include "XPUCodegen/Support/ResultFields.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUMODULECACHE
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

//===----------------------------------------------------------------------===//
// Storing (at the end of xpu-native-codegen)
//===----------------------------------------------------------------------===//

/// Whether every object of `binary` holds native code from
/// xpu-native-codegen (it records `n_regs` on each).
static bool isNative(gpu::BinaryOp binary) {
  return llvm::all_of(binary.getObjects(), [](Attribute attr) {
    auto object = cast<gpu::ObjectAttr>(attr);
    return object.getProperties() &&
           object.getProperties().contains(fields::kNRegs);
  });
}

/// The targets of the objects of `binary`: those of its module, in order.
static SmallVector<TargetAttr> getObjectTargets(gpu::BinaryOp binary) {
  SmallVector<TargetAttr> targets;
  for (Attribute attr : binary.getObjects()) {
    auto target = dyn_cast<TargetAttr>(cast<gpu::ObjectAttr>(attr).getTarget());
    if (!target)
      return {};
    targets.push_back(target);
  }
  return targets;
}

/// The binaries of `record`, read into `holder`: failure (a miss, with
/// nothing said) for bytecode that does not read back or verify, an op that
/// is not a native gpu.binary, or objects that do not match their bytes.
static FailureOr<SmallVector<gpu::BinaryOp>>
readRecordBinaries(const ModuleCacheRecord &record, ModuleOp holder) {
  MLIRContext *context = holder.getContext();
  {
    // A foreign entry is a miss, not an error of this run.
    ScopedDiagnosticHandler silence(context,
                                    [](Diagnostic &) { return success(); });
    ParserConfig config(context);
    for (const ModuleCacheRecord::Binary &binary : record.binaries)
      if (failed(readBytecodeFile(
              llvm::MemoryBufferRef(binary.bytecode, "module-cache"),
              holder.getBody(), config)))
        return failure();
    if (failed(verify(holder)))
      return failure();
  }
  SmallVector<gpu::BinaryOp> binaries;
  for (Operation &op : holder.getBody()->getOperations()) {
    auto binary = dyn_cast<gpu::BinaryOp>(op);
    if (!binary || !isNative(binary))
      return failure();
    binaries.push_back(binary);
  }
  if (binaries.empty() || binaries.size() != record.binaries.size())
    return failure();
  for (auto [binary, entry] : llvm::zip_equal(binaries, record.binaries))
    if (failed(restoreModuleCacheObjects(binary, entry.objects)))
      return failure();
  return binaries;
}

static constexpr StringLiteral kHelperAttrs[] = {
    XPUDialect::kModuleCacheKeyAttrName, XPUDialect::kModuleCacheHitAttrName,
    XPUDialect::kSplitFromAttrName};

/// The entry of the module whose binary is `binary`, or std::nullopt when
/// it cannot be cached (a derived binary failed or is not native).
static std::optional<ModuleCacheRecord>
getRecord(gpu::BinaryOp binary, ArrayRef<gpu::BinaryOp> splits,
          ArrayRef<std::pair<std::string, std::string>> launches,
          const llvm::MapVector<Operation *, BinaryOutcome> &outcomes) {
  ModuleCacheRecord record;
  SmallVector<gpu::BinaryOp> derived{binary};
  llvm::append_range(derived, splits);
  for (gpu::BinaryOp op : derived) {
    auto it = outcomes.find(op);
    if (getModuleFailure(op) || !isNative(op) ||
        (it != outcomes.end() && it->second.failed))
      return std::nullopt;
    ModuleCacheRecord::Binary &entry = record.binaries.emplace_back();
    // Location-free and without helper attributes: a hit gives the binary
    // the location of the module it replaces.
    OwningOpRef<gpu::BinaryOp> copy(cast<gpu::BinaryOp>(op->clone()));
    (*copy)->setLoc(UnknownLoc::get(op->getContext()));
    for (StringRef name : kHelperAttrs)
      (*copy)->removeAttr(name);
    entry.objects = takeModuleCacheObjects(*copy);
    llvm::raw_string_ostream os(entry.bytecode);
    if (failed(writeBytecodeToFile(*copy, os)))
      return std::nullopt;
    llvm::json::Array report;
    if (it != outcomes.end()) {
      llvm::append_range(report, it->second.entries);
      entry.diagnostics = it->second.diagnostics;
    }
    entry.report = llvm::formatv("{0}", llvm::json::Value(std::move(report)));
  }
  record.launches.assign(launches.begin(), launches.end());
  return record;
}

llvm::Error mlir::xpu::storeModuleCacheEntries(
    ModuleOp root, CompileSession &session,
    const llvm::MapVector<Operation *, BinaryOutcome> &outcomes) {
  llvm::Error firstError = llvm::Error::success();
  if (CompileCache *cache = session.getCache()) {
    // Binaries split from a binary, and the kernels launched from them (a
    // split keeps its kernels' names), by the name of the binary they came
    // from.
    llvm::StringMap<SmallVector<gpu::BinaryOp>> splits;
    llvm::DenseMap<StringAttr, StringAttr> splitSources;
    walkCounted<gpu::BinaryOp>(root, [&](gpu::BinaryOp binary) {
      if (auto from = binary->getAttrOfType<FlatSymbolRefAttr>(
              XPUDialect::kSplitFromAttrName)) {
        splits[from.getValue()].push_back(binary);
        splitSources[binary.getNameAttr()] = from.getAttr();
      }
    });
    llvm::StringMap<SmallVector<std::pair<std::string, std::string>>> launches;
    llvm::StringSet<> seenLaunches;
    walkCounted<gpu::LaunchFuncOp>(root, [&](gpu::LaunchFuncOp launch) {
      StringAttr binary = launch.getKernelModuleName();
      StringAttr source = splitSources.lookup(binary);
      if (!source)
        return;
      std::string kernel = launch.getKernelName().str();
      if (seenLaunches.insert((binary.getValue() + "\0" + kernel).str()).second)
        launches[source.getValue()].emplace_back(kernel,
                                                 binary.getValue().str());
    });

    walkCounted<gpu::BinaryOp>(root, [&](gpu::BinaryOp binary) {
      auto digest = binary->getAttrOfType<StringAttr>(
          XPUDialect::kModuleCacheKeyAttrName);
      if (!digest)
        return;
      std::optional<ModuleCacheRecord> record =
          getRecord(binary, splits.lookup(binary.getName()),
                    launches.lookup(binary.getName()), outcomes);
      if (!record)
        return;
      // The native compile has cached the compiler identity by now; a cache
      // it could not write has none, and stores nothing either.
      std::optional<std::string> key = getModuleCacheKey(
          session, digest.getValue(), getObjectTargets(binary));
      if (!key)
        return;
      llvm::Error error =
          cache->store(*key, serializeModuleCacheRecord(*record));
      if (error && !firstError)
        firstError = std::move(error);
      else
        llvm::consumeError(std::move(error));
    });
  }
  // Nothing of the machinery stays in the output.
  root->walk([](Operation *op) {
    countVisitedOps();
    if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      for (StringRef name : kHelperAttrs)
        op->removeAttr(name);
  });
  return firstError;
}

//===----------------------------------------------------------------------===//
// Hits
//===----------------------------------------------------------------------===//

/// What the builds behind a stored report took (its attempts'
/// compile_ms): the least a hit on it saves.
static double getCompileMs(const llvm::json::Value &report) {
  double ms = 0;
  if (const llvm::json::Array *entries = report.getAsArray())
    for (const llvm::json::Value &entry : *entries)
      if (const llvm::json::Object *object = entry.getAsObject())
        if (const llvm::json::Array *attempts =
                object->getArray(fields::kAttempts))
          for (const llvm::json::Value &attempt : *attempts)
            if (const llvm::json::Object *build = attempt.getAsObject())
              ms += build->getNumber(fields::kCompileMs).value_or(0);
  return ms;
}

//===----------------------------------------------------------------------===//
// xpu-module-cache
//===----------------------------------------------------------------------===//

namespace {
struct ModuleCachePass : public xpu::impl::XPUModuleCacheBase<ModuleCachePass> {
  XPU_MODULE_CACHE_OPTIONS(XPU_DECLARE_PASS_OPTION)

  /// The run's session; when the pass runs alone, the one its options share
  /// with the other passes of the run (CompileSession::getShared).
  std::shared_ptr<CompileSession> session;

  ModuleCachePass() = default;
  explicit ModuleCachePass(const XPUModuleCacheOptions &options)
      : Base(options) {}
  /// A clone: the options are copied by the pass manager.
  ModuleCachePass(const ModuleCachePass &other)
      : Base(other), session(other.session) {}
  ModuleCachePass(const CodegenPipelineOptions &options,
                  std::shared_ptr<CompileSession> session,
                  StringRef pipelineKey)
      : session(std::move(session)) {
    XPU_MODULE_CACHE_OPTIONS(XPU_COPY_OPTION)
    this->pipelineKey = pipelineKey.str();
  }

  /// Runs when the pass manager starts, before the passes ahead of this
  /// one: the shared tier's keys and handshake overlap them.
  LogicalResult initialize(MLIRContext *) override {
    if (!session)
      session = CompileSession::getShared(getNativeCodegenOptions(*this));
    session->openCacheAhead();
    return success();
  }

  void runOnOperation() override {
    if (!session)
      session = CompileSession::getShared(getNativeCodegenOptions(*this));
    CompileCache *cache = session->getCache();
    if (!cache)
      return;
    ModuleOp root = getOperation();
    // Failed already (their errors are reported at the end), or not ours:
    // emission leaves those alone too.
    SmallVector<gpu::GPUModuleOp> modules;
    takenNames.clear();
    movedLaunches.clear();
    for (Operation &op : root.getBody()->getOperations()) {
      countVisitedOps();
      if (StringAttr name = SymbolTable::getSymbolName(&op))
        takenNames.insert(name.getValue());
      auto module = dyn_cast<gpu::GPUModuleOp>(op);
      if (!module)
        continue;
      ArrayAttr targets = module.getTargetsAttr();
      if (!getModuleFailure(module) && targets && !targets.empty() &&
          llvm::all_of(targets, llvm::IsaPred<TargetAttr>))
        modules.push_back(module);
    }
    // Lookups only read the IR: they run in parallel, so one module's
    // round trip to the shared tier overlaps another's digest and
    // signature check. Replaying changes the IR, in order.
    std::vector<ModuleLookup> lookups(modules.size());
    mlir::parallelFor(&getContext(), 0, modules.size(), [&](size_t i) {
      lookups[i] = lookUp(modules[i], *cache);
    });
    for (auto [module, lookup] : llvm::zip_equal(modules, lookups)) {
      if (lookup.record && succeeded(replay(module, lookup))) {
        if (lookup.fromShared)
          cache->creditSharedHit(lookup.savedMs);
        ++numHits;
        continue;
      }
      // A miss: xpu-native-codegen stores the outcome under this digest.
      module->setAttr(XPUDialect::kModuleCacheKeyAttrName,
                      StringAttr::get(&getContext(), lookup.digest));
      ++numMisses;
    }
    redirectMovedLaunches(root);
    // The shared tier's one warning of the process, if it failed here (a
    // fully warm run may not reach xpu-native-codegen's driver).
    for (const std::string &warning : cache->takeWarnings())
      mlir::emitWarning(root.getLoc()) << "xpu-module-cache: " << warning;
  }

  /// The names of the top-level symbols, and of the binaries replayed.
  llvm::StringSet<> takenNames;
  /// (module, kernel) -> the binary a replayed module's kernel went to, when
  /// not the one named after the module.
  llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> movedLaunches;

  /// Points the launches of every replayed module's moved kernels at their
  /// binaries, in one walk of the program.
  void redirectMovedLaunches(ModuleOp root) {
    if (movedLaunches.empty())
      return;
    walkCounted<gpu::LaunchFuncOp>(root, [&](gpu::LaunchFuncOp launch) {
      StringAttr target = movedLaunches.lookup(
          {launch.getKernelModuleName(), launch.getKernelName()});
      if (target)
        launch.setKernelAttr(SymbolRefAttr::get(
            target, {FlatSymbolRefAttr::get(launch.getKernelName())}));
    });
  }

  /// What the cache holds for a module: its digest and, on a hit, the
  /// record read back.
  struct ModuleLookup {
    std::string digest;
    std::optional<ModuleCacheRecord> record;
    bool fromShared = false;
    /// Per binary of the record, the report its #xpu.module_cache_hit
    /// holds (prepareHitReports).
    SmallVector<std::string> hitReports;
    /// What the record's builds took when they ran.
    double savedMs = 0;
  };

  ModuleLookup lookUp(gpu::GPUModuleOp module, CompileCache &cache) {
    ModuleLookup lookup;
    lookup.digest = getModuleCacheDigest(module, pipelineKey);
    std::optional<std::string> key =
        getModuleCacheKey(*session, lookup.digest, getXPUTargets(module));
    std::optional<std::string> payload =
        key ? cache.lookup(*key, &lookup.fromShared) : std::nullopt;
    if (!payload)
      return lookup;
    llvm::Expected<ModuleCacheRecord> record =
        deserializeModuleCacheRecord(*payload);
    if (!record) {
      llvm::consumeError(record.takeError());
      return lookup;
    }
    if (succeeded(prepareHitReports(*record, lookup)))
      lookup.record = std::move(*record);
    return lookup;
  }

  /// Holds each binary's report of `record` to what #xpu.module_cache_hit's
  /// verifier accepts (anything else is a miss) and marks which tier it
  /// came from. Part of the lookup, so it runs in parallel.
  static LogicalResult prepareHitReports(const ModuleCacheRecord &record,
                                         ModuleLookup &lookup) {
    for (const ModuleCacheRecord::Binary &entry : record.binaries) {
      llvm::Expected<llvm::json::Value> report = parseBoundedJSON(entry.report);
      if (!report) {
        llvm::consumeError(report.takeError());
        return failure();
      }
      if (llvm::Error error = checkCachedReport(*report)) {
        llvm::consumeError(std::move(error));
        return failure();
      }
      if (llvm::any_of(entry.diagnostics, [](const CachedDiagnostic &d) {
            return d.severity == DiagnosticSeverity::Error;
          }))
        return failure();
      lookup.savedMs += getCompileMs(*report);
      // Which tier the hit came from (xpu-native-codegen marks the rest).
      for (llvm::json::Value &reportEntry : *report->getAsArray())
        if (llvm::json::Object *object = reportEntry.getAsObject())
          (*object)[fields::kCacheTier] =
              lookup.fromShared ? "shared" : "local";
      lookup.hitReports.push_back(llvm::formatv("{0}", *report).str());
    }
    return success();
  }

  /// Replaces `module` by the binaries of `record` and redirects its
  /// launches as the cold run did. Anything that does not fit (an entry
  /// that does not read back, names taken in this file) is a miss, with
  /// the IR untouched.
  LogicalResult replay(gpu::GPUModuleOp module, const ModuleLookup &lookup) {
    const ModuleCacheRecord &record = *lookup.record;
    MLIRContext *context = &getContext();
    OwningOpRef<ModuleOp> holder = ModuleOp::create(UnknownLoc::get(context));
    FailureOr<SmallVector<gpu::BinaryOp>> read =
        readRecordBinaries(record, *holder);
    if (failed(read) || read->front().getName() != module.getName())
      return failure();
    SmallVector<gpu::BinaryOp> &binaries = *read;
    for (gpu::BinaryOp binary : ArrayRef(binaries).drop_front())
      if (takenNames.contains(binary.getName()))
        return failure();
    llvm::StringMap<StringAttr> launchTargets;
    for (const auto &[kernel, binary] : record.launches) {
      if (llvm::none_of(binaries, [&](gpu::BinaryOp op) {
            return op.getName() == binary;
          }))
        return failure();
      launchTargets[kernel] = StringAttr::get(context, binary);
    }

    // Everything fits: replace the module.
    for (auto [binary, entry, report] :
         llvm::zip_equal(binaries, record.binaries, lookup.hitReports)) {
      SmallVector<Attribute> diagnostics;
      for (const CachedDiagnostic &d : entry.diagnostics)
        diagnostics.push_back(ReplayedDiagnosticAttr::get(
            context, d.severity, d.message, d.module, d.kernel));
      binary->setAttr(
          XPUDialect::kModuleCacheHitAttrName,
          ModuleCacheHitAttr::get(context, report,
                                  ArrayAttr::get(context, diagnostics)));
    }
    // The binaries stand for the module now: its kernels' locations go
    // with them, for the diagnostics a hit gives again (KernelOrigins.h).
    recordKernelOrigins(module);
    for (gpu::BinaryOp binary : binaries) {
      binary->moveBefore(module);
      binary->setLoc(module.getLoc());
    }
    for (gpu::BinaryOp binary : binaries)
      takenNames.insert(binary.getName());
    for (const auto &[kernel, binary] : launchTargets)
      movedLaunches[{module.getNameAttr(), StringAttr::get(context, kernel)}] =
          binary;
    module.erase();
    return success();
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPUModuleCache(const CodegenPipelineOptions &options,
                                std::shared_ptr<CompileSession> session,
                                StringRef pipelineKey) {
  return std::make_unique<ModuleCachePass>(options, std::move(session),
                                           pipelineKey);
}
