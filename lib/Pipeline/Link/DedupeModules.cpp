//===- DedupeModules.cpp - Fold gpu.modules equal up to symbol names ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Two modules are equal up to symbol names when their canonical forms print
// the same: a copy of each with every symbol renamed, in definition order, to
// a positional name. Equal modules define their symbols in the same order, so
// the i-th symbol of a duplicate corresponds to the i-th of the kept module.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/CanonicalPrinting.h"
#include "XPUCodegen/Pipeline/KernelOrigins.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SHA256.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUDEDUPEMODULES
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// The symbols defined directly in `module`, in order.
static SmallVector<StringAttr> getSymbolNames(gpu::GPUModuleOp module) {
  SmallVector<StringAttr> names;
  for (Operation &op : module.getBody()->getOperations())
    if (StringAttr name = SymbolTable::getSymbolName(&op))
      names.push_back(name);
  return names;
}

/// A digest of `module` with its symbol names replaced by positions.
static std::string getCanonicalDigest(gpu::GPUModuleOp module) {
  OwningOpRef<gpu::GPUModuleOp> copy(module.clone());
  MLIRContext *context = module.getContext();
  for (auto [index, name] : llvm::enumerate(getSymbolNames(*copy))) {
    auto canonical = StringAttr::get(context, "s" + Twine(index));
    if (failed(SymbolTable::replaceAllSymbolUses(name, canonical,
                                                 copy->getOperation())))
      return "";
    SymbolTable::setSymbolName(lookupSymbolCounted(copy->getOperation(), name),
                               canonical);
  }
  copy->setName("m");
  // Locations are left out: duplicates share the kept module's binary,
  // debug information included. No printing flag of the command line
  // reaches the text.
  std::string text = printCanonicalForm(*copy, /*withLocations=*/false);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)));
}

/// The record of `duplicate` for the kept module's `xpu.duplicates`: its
/// name, or, when kernels differ in name, {module, kernels = {own name =
/// kept module's name}} so that its report and binary lookups use its own
/// kernel names.
static Attribute
getDuplicateRecord(gpu::GPUModuleOp duplicate,
                   const DenseMap<StringAttr, StringAttr> &map) {
  MLIRContext *context = duplicate.getContext();
  SmallVector<NamedAttribute> renamed;
  for (auto kernel : duplicate.getOps<gpu::GPUFuncOp>()) {
    StringAttr own = kernel.getNameAttr();
    StringAttr kept = map.lookup(own);
    if (kernel.isKernel() && kept && kept != own)
      renamed.emplace_back(own, kept);
  }
  if (renamed.empty())
    return duplicate.getNameAttr();
  Builder builder(context);
  return builder.getDictionaryAttr(
      {builder.getNamedAttr("module", duplicate.getNameAttr()),
       builder.getNamedAttr("kernels", builder.getDictionaryAttr(renamed))});
}

namespace {
/// Where a folded module's launches go: the kept module and its symbol for
/// each of the folded module's.
struct Fold {
  StringAttr kept;
  DenseMap<StringAttr, StringAttr> symbolMap;
};

struct DedupeModulesPass
    : public xpu::impl::XPUDedupeModulesBase<DedupeModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::GPUModuleOp> modules;
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      countVisitedOps();
      if (getXPUTargets(module).empty() || getModuleFailure(module))
        continue;
      // Its kernels' locations outlive it if it is folded (KernelOrigins.h).
      recordKernelOrigins(module);
      modules.push_back(module);
    }
    // Each digest reads only its module and builds on a copy: in parallel.
    SmallVector<std::string> digests(modules.size());
    parallelFor(&getContext(), 0, modules.size(),
                [&](size_t i) { digests[i] = getCanonicalDigest(modules[i]); });
    // Digest -> the modules with it, in input order: one hash per module,
    // no pairwise comparison.
    llvm::StringMap<unsigned> groupIndex;
    SmallVector<SmallVector<gpu::GPUModuleOp>> groups;
    for (auto [module, digest] : llvm::zip_equal(modules, digests)) {
      if (digest.empty())
        continue;
      auto [it, inserted] = groupIndex.try_emplace(digest, groups.size());
      if (inserted)
        groups.emplace_back();
      groups[it->second].push_back(module);
    }
    DenseMap<StringAttr, Fold> folds;
    for (SmallVector<gpu::GPUModuleOp> &modules : groups)
      if (modules.size() > 1)
        fold(modules.front(), ArrayRef(modules).drop_front(), folds);
    if (!folds.empty())
      redirectLaunches(folds);
  }

  /// Records every duplicate on `kept` and erases it; `folds` says where
  /// its launches go.
  void fold(gpu::GPUModuleOp kept, ArrayRef<gpu::GPUModuleOp> duplicates,
            DenseMap<StringAttr, Fold> &folds) {
    SmallVector<StringAttr> keptSymbols = getSymbolNames(kept);
    SmallVector<Attribute> records;
    if (auto earlier =
            kept->getAttrOfType<ArrayAttr>(XPUDialect::kDuplicatesAttrName))
      llvm::append_range(records, earlier);
    // The copies' origins, merged into the kept module's location once
    // (merging one at a time would copy the growing list per copy).
    SmallVector<Location> copyLocs;
    for (gpu::GPUModuleOp duplicate : duplicates)
      copyLocs.push_back(duplicate.getLoc());
    kept->setLoc(mergeKernelOrigins(kept.getLoc(),
                                    FusedLoc::get(&getContext(), copyLocs)));
    for (gpu::GPUModuleOp duplicate : duplicates) {
      Fold &where = folds[duplicate.getNameAttr()];
      where.kept = kept.getNameAttr();
      for (auto [from, to] :
           llvm::zip_equal(getSymbolNames(duplicate), keptSymbols))
        where.symbolMap[from] = to;
      records.push_back(getDuplicateRecord(duplicate, where.symbolMap));
      duplicate.erase();
      ++numFolded;
    }
    kept->setAttr(XPUDialect::kDuplicatesAttrName,
                  ArrayAttr::get(&getContext(), records));
  }

  /// Points every launch of a folded module at the kept one, in one walk.
  void redirectLaunches(const DenseMap<StringAttr, Fold> &folds) {
    walkCounted<gpu::LaunchFuncOp>(
        getOperation(), [&](gpu::LaunchFuncOp launch) {
          auto it = folds.find(launch.getKernelModuleName());
          if (it == folds.end())
            return;
          StringAttr kernel =
              it->second.symbolMap.lookup(launch.getKernelName());
          if (!kernel)
            return;
          launch.setKernelAttr(SymbolRefAttr::get(
              it->second.kept, {FlatSymbolRefAttr::get(kernel)}));
          ++numRedirected;
        });
  }
};
} // namespace
