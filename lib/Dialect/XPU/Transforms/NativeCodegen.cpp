//===- NativeCodegen.cpp - SPIR-V objects to native code ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Gathers every SPIR-V object of an #xpu.target in the module, hands the
// whole batch to the NativeCodegenDriver (so builds are deduplicated and run
// in parallel across modules), then writes the results back as native
// objects, diagnostics and a JSON report, in input order.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Dialect/XPU/Transforms/ModuleCache.h"
#include "XPUCodegen/Dialect/XPU/Transforms/ModuleFailures.h"
#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h"
#include "XPUCodegen/Target/Cache/SharedCache.h"
#include "XPUCodegen/Target/Codegen/Report.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Target/GPUTarget/TargetAttrInterface.h"
#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"
#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"

#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <mutex>

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUNATIVECODEGEN
#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// Diagnostics quote a compiler's message; a runaway one (megabytes of
/// build log) is cut here, and the report keeps it whole.
static constexpr size_t kMaxDiagnosticMessage = 4096;

static std::string getExcerpt(StringRef message) {
  if (message.size() <= kMaxDiagnosticMessage)
    return message.str();
  return (message.take_front(kMaxDiagnosticMessage) + "... [" +
          Twine(message.size() - kMaxDiagnosticMessage) +
          " more bytes; the report has the full message]")
      .str();
}

/// Whether `bytes` look like a zebin: an ELF image for Intel GPUs
/// (EM_INTELGT), so a non-SPIR-V payload is never taken as native blindly.
static bool isZebin(ArrayRef<char> bytes) {
  constexpr uint16_t kMachineIntelGT = 205;
  if (bytes.size() < 20 || StringRef(bytes.data(), 4) != "\x7f"
                                                         "ELF")
    return false;
  return llvm::support::endian::read16le(bytes.data() + 18) == kMachineIntelGT;
}

/// Where to report a problem of `op`: its line without a column. A binary
/// printed by MLIR holds its whole payload on that line (megabytes), which
/// diagnostic handlers echo under a located message; without a column they
/// print only `file:line`.
static Location getLineLoc(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return FileLineColLoc::get(loc.getFilename(), loc.getLine(), 0);
  return op->getLoc();
}

namespace {
/// Where one request came from: object `index` of `binary`.
struct ObjectSlot {
  gpu::BinaryOp binary;
  unsigned index;
  TargetAttr target;
};

/// One report entry in IR order: a ready one (a module that failed before
/// compiling), or the result of request `request`.
struct ReportSlot {
  std::optional<llvm::json::Value> entry;
  size_t request = 0;
  /// For a linked request: which of its parts (original modules).
  size_t part = 0;
  /// A module xpu-dedupe-modules folded into the request's: its entry is
  /// the request's, under its own name.
  std::string duplicate;
  /// The gpu.binary (or failed gpu.module) the entry is about.
  Operation *op = nullptr;
};

struct NativeCodegenPass
    : public xpu::impl::XPUNativeCodegenBase<NativeCodegenPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerXPUTargetInterfaceExternalModels(registry);
  }

  /// cache-max-size in bytes, parsed by runOnOperation.
  uint64_t cacheMaxSizeBytes = kDefaultCacheMaxSize;

  NativeCodegenOptions getDriverOptions() const {
    NativeCodegenOptions options;
    options.backend = backend;
    options.spillThreshold = spillThreshold;
    options.autoStrategy = autoStrategy;
    options.cacheDir = cacheDir;
    options.cacheUrl = cacheUrl;
    options.compilerRoot = compilerRoot;
    options.jobs = jobs;
    options.limits.timeoutMs = timeoutMs;
    options.limits.memoryMiB = memoryLimitMiB;
    options.cacheMaxSize = cacheMaxSizeBytes;
    options.validation = validateSPIRV;
    options.verifyPredictedLarge = verifyPredictedLarge;
    options.maxWorkGroupSize = maxWorkGroupSize;
    options.nRegsDefault = nRegsDefault;
    return options;
  }

  void runOnOperation() override {
    if (nRegsDefault != 0 && nRegsDefault != 128) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-native-codegen: n-regs-default must be 0 or 128, got "
          << nRegsDefault.getValue();
      return signalPassFailure();
    }
    if (spillThreshold < 0) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-native-codegen: spill-threshold must be >= 0 bytes, got "
          << spillThreshold.getValue();
      return signalPassFailure();
    }
    llvm::Expected<uint64_t> maxSize = parseCacheMaxSize(cacheMaxSize);
    if (!maxSize) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-native-codegen: " << llvm::toString(maxSize.takeError());
      return signalPassFailure();
    }
    cacheMaxSizeBytes = *maxSize;
    // Checked before anything compiles: a bad URL (or
    // $XPU_CODEGEN_CACHE_URL) is the user's error, unlike a bad server.
    if (llvm::Expected<std::optional<SharedCacheConfig>> shared =
            resolveSharedCache(cacheUrl);
        !shared) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-native-codegen: " << llvm::toString(shared.takeError());
      return signalPassFailure();
    }

    moduleFailures = 0;
    cacheWarned = false;
    collectLinkSources();
    SmallVector<ObjectSlot> slots;
    std::vector<ModuleCompileRequest> requests;
    std::vector<ReportSlot> reportSlots;
    collectRequests(slots, requests, reportSlots);

    std::vector<llvm::Expected<ModuleCompileResult>> results;
    if (!requests.empty()) {
      llvm::Expected<std::unique_ptr<NativeCodegenDriver>> driver =
          NativeCodegenDriver::create(getDriverOptions());
      if (!driver) {
        mlir::emitError(getOperation().getLoc())
            << "xpu-native-codegen: cannot start the native compiler: "
            << llvm::toString(driver.takeError());
        return signalPassFailure();
      }
      results = (*driver)->compile(requests);
      for (const std::string &warning : (*driver)->takeWarnings()) {
        mlir::emitWarning(getOperation().getLoc())
            << "xpu-native-codegen: " << warning;
        cacheWarned = true;
      }
    }

    std::vector<std::vector<llvm::json::Value>> resultEntries =
        applyResults(slots, requests, results);
    // Their parts are compiled: nothing needs the lowered linked modules.
    for (auto &[binary, source] : linkSources)
      source.erase();
    linkSources.clear();
    std::vector<llvm::json::Value> entries;
    for (ReportSlot &slot : reportSlots)
      entries.push_back(slot.entry ? std::move(*slot.entry)
                                   : getEntry(slot, resultEntries));
    storeInModuleCache(reportSlots, entries);

    // The report is written even when some modules failed: it is how the
    // caller learns what did compile.
    bool reportFailed = false;
    if (!report.empty()) {
      if (llvm::Error error = writeReport(report, std::move(entries))) {
        mlir::emitError(getOperation().getLoc())
            << "xpu-native-codegen: cannot write the report to '"
            << report.getValue() << "': " << llvm::toString(std::move(error));
        reportFailed = true;
      }
    }
    if (reportFailed ||
        failed(finishModuleStage(moduleFailures, /*keepGoing=*/false)))
      signalPassFailure();
  }

  /// Stores what each module that missed the module cache (xpu-module-cache)
  /// produced, and removes the helper attributes of the flow.
  void storeInModuleCache(ArrayRef<ReportSlot> reportSlots,
                          ArrayRef<llvm::json::Value> entries) {
    std::optional<CompileCache> cache = openCompileCache(cacheDir, cacheUrl);
    llvm::MapVector<Operation *, BinaryOutcome> outcomes;
    if (cache) {
      for (auto [slot, entry] : llvm::zip_equal(reportSlots, entries)) {
        BinaryOutcome &outcome = outcomes[slot.op];
        const llvm::json::Object *object = entry.getAsObject();
        outcome.failed |= !object || object->get("error");
        outcome.entries.push_back(entry);
      }
      for (auto &[op, diagnostics] : binaryDiagnostics)
        outcomes[op].diagnostics = std::move(diagnostics);
    }
    binaryDiagnostics.clear();
    // Best effort, as the build cache: a store that fails costs a later run
    // its lowering, nothing else.
    llvm::Error error = storeModuleCacheEntries(getOperation(), cache, backend,
                                                compilerRoot, outcomes);
    if (cache)
      for (const std::string &warning : cache->takeWarnings())
        mlir::emitWarning(getOperation().getLoc())
            << "xpu-native-codegen: " << warning;
    if (!error)
      return;
    // One warning about the cache per run is enough.
    if (cacheWarned) {
      llvm::consumeError(std::move(error));
      return;
    }
    mlir::emitWarning(getOperation().getLoc())
        << "xpu-native-codegen: cannot write the compile cache in '"
        << cache->getDirectory() << "' (" << llvm::toString(std::move(error))
        << "): modules are not cached";
  }

  /// Diagnostics emitted at each binary, which the module cache replays.
  llvm::DenseMap<Operation *,
                 std::vector<std::pair<DiagnosticSeverity, std::string>>>
      binaryDiagnostics;
  /// Whether the driver warned about the cache already.
  bool cacheWarned = false;

  /// Emits `message` at `binary` and records it for the module cache.
  void diagnose(Operation *binary, DiagnosticSeverity severity,
                const Twine &message) {
    std::string text = message.str();
    Location loc = getLineLoc(binary);
    switch (severity) {
    case DiagnosticSeverity::Warning:
      mlir::emitWarning(loc) << text;
      break;
    case DiagnosticSeverity::Remark:
      mlir::emitRemark(loc) << text;
      break;
    case DiagnosticSeverity::Error:
      mlir::emitError(loc) << text;
      break;
    case DiagnosticSeverity::Note:
      // Notes belong to another diagnostic; never emitted on their own here.
      return;
    }
    binaryDiagnostics[binary].emplace_back(severity, std::move(text));
  }

  /// The report entry of a request slot (a copy under the folded module's
  /// name for a duplicate).
  static llvm::json::Value
  getEntry(const ReportSlot &slot,
           ArrayRef<std::vector<llvm::json::Value>> resultEntries) {
    llvm::json::Value entry = resultEntries[slot.request][slot.part];
    if (slot.duplicate.empty())
      return entry;
    llvm::json::Object *object = entry.getAsObject();
    std::optional<StringRef> kept = object->getString("module");
    object->insert({"deduplicated_from", kept ? kept->str() : ""});
    (*object)["module"] = slot.duplicate;
    return entry;
  }

  /// Writes every result back as a native object (or a located error) and
  /// returns the report entries of each request (one per part of a linked
  /// request).
  std::vector<std::vector<llvm::json::Value>>
  applyResults(MutableArrayRef<ObjectSlot> slots,
               ArrayRef<ModuleCompileRequest> requests,
               std::vector<llvm::Expected<ModuleCompileResult>> &results) {
    std::vector<std::vector<llvm::json::Value>> entries;
    // New object lists per binary, built in input order.
    llvm::MapVector<Operation *, SmallVector<Attribute>> newObjects;
    for (auto [slot, request, result] :
         llvm::zip_equal(slots, requests, results)) {
      auto &objects = newObjects[slot.binary];
      if (objects.empty())
        llvm::append_range(objects, slot.binary.getObjects());
      entries.emplace_back();
      if (!result) {
        ModuleError error = takeModuleError(result.takeError());
        // Located at the binary, without printing it: its payload is huge.
        mlir::emitError(getLineLoc(slot.binary))
            << "xpu-native-codegen: module '" << request.name << "' for arch '"
            << request.arch << "' failed: " << getExcerpt(error.message);
        // A linked module that fails before building fails every part.
        for (size_t i = 0, e = std::max<size_t>(request.parts.size(), 1); i < e;
             ++i) {
          llvm::json::Object entry = getReportErrorEntry(
              request.parts.empty() ? request.name : request.parts[i].name,
              request.arch, error);
          if (!request.parts.empty())
            entry["linked_into"] = request.name;
          entries.back().push_back(llvm::json::Value(std::move(entry)));
        }
        ++numFailed;
        ++moduleFailures;
        continue;
      }
      if (!request.parts.empty()) {
        entries.back() = applyLinkedResult(slot, request, *result, objects);
        continue;
      }
      ++numObjects;
      numBuilds += result->decision.attempts.size();
      annotate(slot, *result);
      entries.back().push_back(llvm::json::Value(getReportEntry(*result)));
      objects[slot.index] = getNativeObject(slot.target, *result);
    }
    for (auto &[binary, objects] : newObjects)
      if (binary->getBlock())
        cast<gpu::BinaryOp>(binary).setObjectsAttr(
            ArrayAttr::get(&getContext(), objects));
    return entries;
  }

  gpu::ObjectAttr getNativeObject(TargetAttr target,
                                  const ModuleCompileResult &result,
                                  ArrayRef<NamedAttribute> extra = {}) {
    const std::vector<char> &binary = result.decision.getChosen().binary;
    DictionaryAttr properties =
        getNativeObjectProperties(&getContext(), result);
    if (!extra.empty()) {
      NamedAttrList merged(properties);
      for (NamedAttribute attr : extra)
        merged.set(attr.getName(), attr.getValue());
      properties = merged.getDictionary(&getContext());
    }
    return gpu::ObjectAttr::get(
        &getContext(), target, gpu::CompilationTarget::Binary,
        StringAttr::get(&getContext(), StringRef(binary.data(), binary.size())),
        properties, /*kernels=*/nullptr);
  }

  /// Writes back a linked module: its one build in `objects`, a binary of
  /// its own for every part split out of it (named after the part's module,
  /// its launches rewritten); returns one report entry per part.
  std::vector<llvm::json::Value>
  applyLinkedResult(ObjectSlot slot, const ModuleCompileRequest &request,
                    ModuleCompileResult &result,
                    SmallVectorImpl<Attribute> &objects) {
    MLIRContext *context = &getContext();
    Builder builder(context);
    std::vector<llvm::json::Value> entries;
    SmallVector<Attribute> partSummaries;
    bool linkedUsed = false;
    std::string failure;
    OpBuilder splitBuilder(context);
    splitBuilder.setInsertionPointAfter(slot.binary);
    SymbolTable symbols(getOperation());
    for (auto [part, partResult] :
         llvm::zip_equal(request.parts, result.parts)) {
      if (!partResult.result) {
        mlir::emitError(getLineLoc(slot.binary))
            << "xpu-native-codegen: module '" << part.name << "' (linked into '"
            << request.name << "') for arch '" << request.arch
            << "' failed: " << getExcerpt(partResult.error);
        llvm::json::Object entry =
            getReportErrorEntry(part.name, request.arch, partResult.error);
        entry["linked_into"] = request.name;
        entries.push_back(llvm::json::Value(std::move(entry)));
        failure = partResult.error;
        ++numFailed;
        ++moduleFailures;
        continue;
      }
      ModuleCompileResult &partCompiled = *partResult.result;
      ++numObjects;
      numBuilds += partCompiled.decision.attempts.size();
      annotate(slot, partCompiled);
      std::string home = request.name;
      if (partResult.split) {
        gpu::BinaryOp split =
            splitPart(splitBuilder, symbols, slot, part, partCompiled);
        home = split.getName().str();
      } else {
        linkedUsed = true;
      }
      llvm::json::Object entry = getReportEntry(partCompiled);
      renameKernels(entry, part);
      entry["linked_into"] = request.name;
      if (partResult.split)
        entry["split_into"] = home;
      entries.push_back(llvm::json::Value(std::move(entry)));
      const BuildAttempt &chosen = partCompiled.decision.getChosen();
      partSummaries.push_back(builder.getDictionaryAttr({
          builder.getNamedAttr("module", builder.getStringAttr(part.name)),
          builder.getNamedAttr("binary", builder.getStringAttr(home)),
          builder.getNamedAttr(
              "grf_mode", builder.getStringAttr(getEffectiveGRFMode(chosen))),
          builder.getNamedAttr("spill_size",
                               builder.getI64IntegerAttr(chosen.spillSize)),
          builder.getNamedAttr(
              "decision_source",
              builder.getStringAttr(partCompiled.decision.source)),
      }));
    }
    if (!result.decision.attempts.empty()) {
      objects[slot.index] = getNativeObject(
          slot.target, result,
          {builder.getNamedAttr("linked_parts",
                                builder.getArrayAttr(partSummaries))});
    } else if (!failure.empty()) {
      markModuleFailed(slot.binary, failure);
    } else if (!linkedUsed) {
      // The linked build failed and every part compiled alone.
      slot.binary.erase();
    }
    return entries;
  }

  /// The report names kernels as the original module did; `linked_name`
  /// says what the linked module renamed them to.
  static void renameKernels(llvm::json::Object &entry, const LinkedPart &part) {
    llvm::json::Array *kernels = entry.getArray("kernels");
    if (!kernels)
      return;
    for (llvm::json::Value &value : *kernels) {
      llvm::json::Object *kernel = value.getAsObject();
      std::optional<StringRef> name = kernel->getString("name");
      if (!name)
        continue;
      for (auto [linked, original] :
           llvm::zip_equal(part.kernels, part.originalKernels)) {
        if (*name != linked || linked == original)
          continue;
        (*kernel)["linked_name"] = linked;
        (*kernel)["name"] = original;
        break;
      }
    }
  }

  /// A binary of its own for `part` of the linked binary of `slot`, placed
  /// after it and named after the part's module; the part's launches move
  /// to it.
  gpu::BinaryOp splitPart(OpBuilder &builder, SymbolTable &symbols,
                          ObjectSlot slot, const LinkedPart &part,
                          const ModuleCompileResult &result) {
    Builder attrs(&getContext());
    StringAttr linkedName = slot.binary.getNameAttr();
    auto split = gpu::BinaryOp::create(
        builder, slot.binary.getLoc(), part.name, /*handler=*/nullptr,
        attrs.getArrayAttr(
            {getNativeObject(slot.target, result,
                             {attrs.getNamedAttr("split_from", linkedName)})}));
    symbols.insert(split);
    builder.setInsertionPointAfter(split);
    // For the cache before lowering, which records and replays splits; the
    // pipeline strips it.
    split->setAttr(XPUDialect::kSplitFromAttrName, linkedName);
    for (StringRef name :
         {XPUDialect::kGRFModeAttrName, XPUDialect::kAutoPlanAttrName})
      if (Attribute attr = slot.binary->getAttr(name))
        split->setAttr(name, attr);
    llvm::StringSet<> kernels;
    for (const std::string &kernel : part.kernels)
      kernels.insert(kernel);
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() == linkedName &&
          kernels.contains(launch.getKernelName().getValue()))
        launch.setKernelAttr(SymbolRefAttr::get(
            split.getNameAttr(),
            {FlatSymbolRefAttr::get(launch.getKernelName())}));
    });
    ++numSplit;
    return split;
  }

  /// A module that cannot be compiled: its error now, its report entry in
  /// IR order.
  void addFailure(Operation *op, StringRef name, StringRef arch,
                  StringRef message, std::vector<ReportSlot> &reportSlots,
                  bool diagnose = true) {
    if (diagnose)
      mlir::emitError(getLineLoc(op))
          << "xpu-native-codegen: " << getExcerpt(message) << " (module '"
          << name << "', arch '" << arch << "')";
    reportSlots.push_back(
        {llvm::json::Value(getReportErrorEntry(name, arch, message)), 0, 0, "",
         op});
    ++numFailed;
    ++moduleFailures;
  }

  void collectRequests(SmallVectorImpl<ObjectSlot> &slots,
                       std::vector<ModuleCompileRequest> &requests,
                       std::vector<ReportSlot> &reportSlots) {
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto module = dyn_cast<gpu::GPUModuleOp>(op)) {
        // Failed in an earlier stage (its error was reported there).
        // A linked module fails for every module linked into it.
        if (std::optional<StringRef> message = getModuleFailure(module)) {
          for (TargetAttr target : getXPUTargets(module)) {
            auto parts =
                module->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName);
            if (!parts) {
              addFailure(module, module.getName(), target.getArch(), *message,
                         reportSlots, /*diagnose=*/false);
              continue;
            }
            for (auto part : parts.getAsRange<DictionaryAttr>()) {
              addFailure(module, part.getAs<StringAttr>("module"),
                         target.getArch(), *message, reportSlots,
                         /*diagnose=*/false);
              reportSlots.back().entry->getAsObject()->insert(
                  {"linked_into", module.getName()});
            }
          }
        }
        return WalkResult::skip();
      }
      if (auto binary = dyn_cast<gpu::BinaryOp>(op))
        collectBinary(binary, slots, requests, reportSlots);
      return WalkResult::advance();
    });
  }

  void collectBinary(gpu::BinaryOp binary, SmallVectorImpl<ObjectSlot> &slots,
                     std::vector<ModuleCompileRequest> &requests,
                     std::vector<ReportSlot> &reportSlots) {
    if (binary->hasAttr(XPUDialect::kModuleCacheHitAttrName)) {
      replayModuleCacheHit(binary, reportSlots);
      return;
    }
    for (auto [index, attr] : llvm::enumerate(binary.getObjects())) {
      auto object = cast<gpu::ObjectAttr>(attr);
      TargetAttr target = dyn_cast<TargetAttr>(object.getTarget());
      std::string arch = target ? target.getArch().str() : "";
      FailureOr<std::vector<char>> spirv =
          target ? getXPUPayload(binary, object, index, target, reportSlots)
                 : getXeVMPayload(binary, object, target, arch, reportSlots);
      if (failed(spirv) || spirv->empty())
        continue;
      slots.push_back({binary, static_cast<unsigned>(index), target});
      ModuleCompileRequest request =
          getCompileRequest(binary, binary.getName(), target, *spirv);
      auto linked =
          binary->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName);
      if (!linked) {
        addReportSlots(binary, nullptr, requests.size(), 0, reportSlots);
      } else {
        for (auto [i, record] :
             llvm::enumerate(linked.getAsRange<DictionaryAttr>())) {
          request.parts.push_back(getLinkedPart(record));
          addReportSlots(binary, record, requests.size(), i, reportSlots);
        }
        std::string name = binary.getName().str();
        request.emitPart = [this, name, parts = request.parts](size_t part) {
          return emitLinkedPart(name, parts[part]);
        };
      }
      requests.push_back(std::move(request));
    }
  }

  /// The report slots of `binary` (or of part `part` of it, described by
  /// `record`) and of the modules xpu-dedupe-modules folded into it
  /// (`xpu.duplicates` on the binary, or `duplicates` in the part's record).
  static void addReportSlots(gpu::BinaryOp binary, DictionaryAttr record,
                             size_t request, size_t part,
                             std::vector<ReportSlot> &slots) {
    slots.push_back({std::nullopt, request, part, "", binary});
    ArrayAttr duplicates =
        record
            ? record.getAs<ArrayAttr>("duplicates")
            : binary->getAttrOfType<ArrayAttr>(XPUDialect::kDuplicatesAttrName);
    if (duplicates)
      for (auto name : duplicates.getAsRange<StringAttr>())
        slots.push_back({std::nullopt, request, part, name.str(), binary});
  }

  /// One part of an `xpu.linked` record.
  static LinkedPart getLinkedPart(DictionaryAttr record) {
    LinkedPart part;
    part.name = record.getAs<StringAttr>("module").str();
    for (NamedAttribute kernel : record.getAs<DictionaryAttr>("kernels")) {
      part.originalKernels.push_back(kernel.getName().str());
      part.kernels.push_back(cast<StringAttr>(kernel.getValue()).str());
    }
    if (auto pressure = record.getAs<PressureAttr>("pressure"))
      part.pressure = getPressureEstimate(pressure);
    return part;
  }

  /// The lowered linked modules xpu-emit-spirv kept, by binary name.
  llvm::StringMap<gpu::GPUModuleOp> linkSources;
  /// Emission runs on the driver's threads: one at a time (shared, so that
  /// the pass stays copyable).
  std::shared_ptr<std::mutex> emitMutex = std::make_shared<std::mutex>();

  void collectLinkSources() {
    linkSources.clear();
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>())
      if (auto source = module->getAttrOfType<DictionaryAttr>(
              XPUDialect::kLinkSourceAttrName))
        linkSources[source.getAs<StringAttr>("binary").getValue()] = module;
  }

  /// The SPIR-V of `part` alone: the kept lowered form of linked binary
  /// `binary`, cloned with only the part's kernels and what they use.
  llvm::Expected<std::vector<char>> emitLinkedPart(StringRef binary,
                                                   const LinkedPart &part) {
    std::lock_guard<std::mutex> lock(*emitMutex);
    gpu::GPUModuleOp source = linkSources.lookup(binary);
    if (!source)
      return llvm::createStringError(
          "no lowered form of linked module '" + binary + "' to build part '" +
          part.name +
          "' alone from (xpu-emit-spirv keeps it for linked modules)");
    OwningOpRef<gpu::GPUModuleOp> clone(source.clone());
    keepOnly(*clone, part.kernels);
    int optLevel =
        source->getAttrOfType<DictionaryAttr>(XPUDialect::kLinkSourceAttrName)
            .getAs<IntegerAttr>("opt_level")
            .getInt();
    FirstErrorRecorder recorder(&getContext());
    FailureOr<SmallVector<char, 0>> spirv = emitSPIRV(*clone, optLevel);
    if (failed(spirv))
      return llvm::createStringError(
          recorder.getMessage("emitting part '" + part.name + "' failed"));
    return std::vector<char>(spirv->begin(), spirv->end());
  }

  /// Erases every symbol of `module` that `kernels` do not use, directly or
  /// not.
  static void keepOnly(gpu::GPUModuleOp module, ArrayRef<std::string> kernels) {
    llvm::SmallPtrSet<Operation *, 16> used;
    SmallVector<Operation *> worklist;
    for (const std::string &kernel : kernels)
      if (Operation *op = SymbolTable::lookupSymbolIn(module, kernel))
        if (used.insert(op).second)
          worklist.push_back(op);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(op);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses)
        if (Operation *symbol = SymbolTable::lookupSymbolIn(
                module, use.getSymbolRef().getRootReference()))
          if (used.insert(symbol).second)
            worklist.push_back(symbol);
    }
    for (Operation &op :
         llvm::make_early_inc_range(module.getBody()->getOperations()))
      if (SymbolTable::getSymbolName(&op) && !used.contains(&op))
        op.erase();
  }

  /// A binary that xpu-module-cache took from the cache: what the run that
  /// stored it reported and diagnosed, again, with nothing compiled.
  void replayModuleCacheHit(gpu::BinaryOp binary,
                            std::vector<ReportSlot> &reportSlots) {
    std::vector<std::pair<DiagnosticSeverity, std::string>> diagnostics;
    FailureOr<std::vector<llvm::json::Value>> entries =
        takeModuleCacheHit(binary, diagnostics);
    if (failed(entries)) {
      addFailure(binary, binary.getName(), "",
                 "malformed xpu.module_cache_hit attribute", reportSlots);
      return;
    }
    for (auto &[severity, message] : diagnostics)
      diagnose(binary, severity, message);
    for (llvm::json::Value &entry : *entries)
      reportSlots.push_back({std::move(entry), 0, 0, "", binary});
  }

  /// The SPIR-V of an #xpu.target object; empty when it is already native.
  FailureOr<std::vector<char>>
  getXPUPayload(gpu::BinaryOp binary, gpu::ObjectAttr object, size_t index,
                TargetAttr target, std::vector<ReportSlot> &reportSlots) {
    StringRef payload = object.getObject().getValue();
    ArrayRef<char> bytes(payload.data(), payload.size());
    if (isSPIRV(bytes))
      return std::vector<char>(bytes.begin(), bytes.end());
    // Already native (this pass ran before), checked to be a zebin.
    if (object.getProperties() && object.getProperties().contains("n_regs") &&
        isZebin(bytes))
      return std::vector<char>();
    addFailure(binary, binary.getName(), target.getArch(),
               llvm::formatv("object {0} holds neither SPIR-V nor a native "
                             "binary from this pass",
                             index)
                   .str(),
               reportSlots);
    return failure();
  }

  /// The SPIR-V of an upstream #xevm.target object (binary, or the SPIR-V
  /// assembly text MLIR 22 emits), compiled for
  /// `#xpu.target<arch = chip, grf_mode = grf-mode>`; sets `target`.
  /// Empty for objects of other targets.
  FailureOr<std::vector<char>>
  getXeVMPayload(gpu::BinaryOp binary, gpu::ObjectAttr object,
                 TargetAttr &target, std::string &arch,
                 std::vector<ReportSlot> &reportSlots) {
    auto xevmTarget = dyn_cast<xevm::XeVMTargetAttr>(object.getTarget());
    if (!xevmTarget)
      return std::vector<char>();
    arch = xevmTarget.getChip().str();
    std::string targetError;
    target = TargetAttr::getChecked(
        [&] {
          return mlir::emitError(getLineLoc(binary)) << "xpu-native-codegen: ";
        },
        &getContext(), xevmTarget.getChip(), grfMode.getValue(),
        std::optional<unsigned>(), StringRef());
    if (!target) {
      addFailure(binary, binary.getName(), arch,
                 "the #xevm.target chip is not a device this compiler knows",
                 reportSlots, /*diagnose=*/false);
      return failure();
    }
    StringRef payload = object.getObject().getValue();
    ArrayRef<char> bytes(payload.data(), payload.size());
    if (isSPIRV(bytes))
      return std::vector<char>(bytes.begin(), bytes.end());
    llvm::Expected<std::vector<char>> assembled = assembleSPIRV(payload);
    if (!assembled) {
      addFailure(binary, binary.getName(), arch,
                 "#xevm.target object holds neither SPIR-V nor SPIR-V "
                 "assembly: " +
                     llvm::toString(assembled.takeError()),
                 reportSlots);
      return failure();
    }
    return std::move(*assembled);
  }

  /// Modules that failed in this run (statistics may be compiled out).
  unsigned moduleFailures = 0;

  void annotate(ObjectSlot slot, const ModuleCompileResult &result) {
    const GRFDecision &decision = result.decision;
    const BuildAttempt &chosen = decision.getChosen();
    if (!result.validation.empty())
      diagnose(slot.binary, DiagnosticSeverity::Warning,
               "xpu-native-codegen: SPIRV-Tools rejects the SPIR-V of '" +
                   result.name +
                   "' (compiled anyway in an isolated worker; "
                   "validate-spirv=strict makes this an error): " +
                   getExcerpt(result.validation));
    if (remarks)
      diagnose(slot.binary, DiagnosticSeverity::Remark,
               llvm::formatv("xpu-native-codegen: '{0}' on {1}: {2} GRF "
                             "(n_regs = {3}, {4} bytes spilled, backend "
                             "{5}): {6}",
                             result.name, result.arch,
                             getEffectiveGRFMode(chosen), result.nRegs,
                             chosen.spillSize, result.backend,
                             decision.reason));
    // A forced mode that spills is worth a warning: the user chose it.
    bool forced =
        decision.attempts.size() == 1 &&
        (chosen.mode == BuildGRF::Small || chosen.mode == BuildGRF::Large ||
         chosen.mode == BuildGRF::XLarge) &&
        getGRFPolicy(slot.binary, slot.target) != GRFPolicy::Auto;
    if (forced && chosen.spillSize > 0)
      for (const KernelMeasurement &kernel : chosen.kernels)
        if (kernel.spillSize > 0)
          diagnose(slot.binary, DiagnosticSeverity::Warning,
                   llvm::formatv("xpu-native-codegen: kernel '{0}' spills "
                                 "{1} bytes per thread in {2} GRF mode on "
                                 "{3}",
                                 kernel.name, kernel.spillSize,
                                 stringifyBuildGRF(chosen.mode), result.arch));
  }
};
} // namespace
