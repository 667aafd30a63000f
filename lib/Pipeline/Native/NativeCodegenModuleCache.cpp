//===- NativeCodegenModuleCache.cpp - Module cache replay, store ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// xpu-native-codegen's side of the module cache (xpu-module-cache): a
// binary taken from the cache replays what the run that stored it
// reported and diagnosed; a binary that missed is stored with its report
// entries and diagnostics.
//
//===----------------------------------------------------------------------===//

#include "NativeCodegenRun.h"

#include "XPUCodegen/Pipeline/Cache/ModuleCache.h"
#include "XPUCodegen/Support/ResultFields.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

/// A replayed report entry says how it was obtained: from the module cache,
/// with nothing compiled.
static void markHit(llvm::json::Value &entry) {
  llvm::json::Object *object = entry.getAsObject();
  if (!object || object->get(fields::kError))
    return;
  (*object)[fields::kCache] = "hit";
  (*object)[fields::kCacheLevel] = "module";
  if (llvm::json::Array *attempts = object->getArray(fields::kAttempts))
    for (llvm::json::Value &attempt : *attempts)
      if (llvm::json::Object *build = attempt.getAsObject()) {
        (*build)[fields::kCache] = "hit";
        // What the build took when it ran; this run took none of it.
        if (!build->get(fields::kBuiltMs))
          if (std::optional<int64_t> ms = build->getInteger(fields::kCompileMs))
            (*build)[fields::kBuiltMs] = *ms;
        (*build)[fields::kCompileMs] = 0;
        build->erase(fields::kReused);
      }
}

FailureOr<std::vector<llvm::json::Value>>
mlir::xpu::takeModuleCacheHit(gpu::BinaryOp binary,
                              std::vector<CachedDiagnostic> &diagnostics) {
  auto hit = binary->getAttrOfType<ModuleCacheHitAttr>(
      XPUDialect::kModuleCacheHitAttrName);
  if (!hit)
    return failure();
  binary->removeAttr(XPUDialect::kModuleCacheHitAttrName);
  for (auto diag : hit.getDiagnostics().getAsRange<ReplayedDiagnosticAttr>())
    diagnostics.push_back(
        {diag.getDiagnosticSeverity(), diag.getMessage().str(),
         diag.getModule() ? diag.getModule().str() : std::string(),
         diag.getKernel() ? diag.getKernel().str() : std::string()});
  llvm::json::Array report = hit.getReportEntries();
  std::vector<llvm::json::Value> entries(
      std::make_move_iterator(report.begin()),
      std::make_move_iterator(report.end()));
  for (llvm::json::Value &entry : entries)
    markHit(entry);
  return entries;
}

void NativeCodegenRun::replayModuleCacheHit(
    gpu::BinaryOp binary, std::vector<ReportSlot> &reportSlots) {
  std::vector<CachedDiagnostic> diagnostics;
  FailureOr<std::vector<llvm::json::Value>> entries =
      takeModuleCacheHit(binary, diagnostics);
  if (failed(entries)) {
    addFailure(binary, binary.getName(), "",
               "malformed xpu.module_cache_hit attribute", reportSlots);
    return;
  }
  for (const CachedDiagnostic &d : diagnostics)
    diagnose(binary, d.severity, d.message, d.module, d.kernel);
  for (llvm::json::Value &entry : *entries) {
    ReportSlot &slot = reportSlots.emplace_back();
    slot.ready = readCachedReport(std::move(entry));
    slot.op = binary;
    slot.fromModuleCache = true;
  }
}

void NativeCodegenRun::storeInModuleCache(ArrayRef<ReportSlot> reportSlots,
                                          ArrayRef<llvm::json::Value> entries) {
  CompileCache *cache = session.getCache();
  llvm::MapVector<Operation *, BinaryOutcome> outcomes;
  if (cache) {
    for (auto [slot, entry] : llvm::zip_equal(reportSlots, entries)) {
      // Already stored; copying its entries would cost a warm run most.
      if (slot.fromModuleCache)
        continue;
      BinaryOutcome &outcome = outcomes[slot.op];
      const llvm::json::Object *object = entry.getAsObject();
      outcome.failed |= !object || object->get(fields::kError);
      outcome.entries.push_back(entry);
    }
    for (auto &[op, diagnostics] : binaryDiagnostics)
      outcomes[op].diagnostics = std::move(diagnostics);
  }
  binaryDiagnostics.clear();
  // Best effort, as the build cache: a store that fails costs a later run
  // its lowering, nothing else.
  llvm::Error error =
      storeModuleCacheEntries(getOperation(), session, outcomes);
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
