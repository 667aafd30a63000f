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

#include "XPUCodegen/Pipeline/Native/ModuleCache.h"
#include "XPUCodegen/Target/Codegen/ResultFields.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

void NativeCodegenRun::replayModuleCacheHit(
    gpu::BinaryOp binary, std::vector<ReportSlot> &reportSlots) {
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
    reportSlots.push_back(
        {readCachedReport(std::move(entry)), 0, 0, "", binary});
}

void NativeCodegenRun::storeInModuleCache(ArrayRef<ReportSlot> reportSlots,
                                          ArrayRef<llvm::json::Value> entries) {
  std::optional<CompileCache> cache = openCompileCache(cacheDir, cacheUrl);
  llvm::MapVector<Operation *, BinaryOutcome> outcomes;
  if (cache) {
    for (auto [slot, entry] : llvm::zip_equal(reportSlots, entries)) {
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
