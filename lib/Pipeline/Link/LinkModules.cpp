//===- LinkModules.cpp - Merge compatible gpu.modules into one ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Every native compile pays IGC's fixed cost, so small modules that build
// with the same flags are merged and compile once. Modules are grouped by
// everything that reaches the build flags or the GRF decision (their
// targets and module attributes), in input order, and each group is cut
// into linked modules of at most `max-kernels` kernels. The parts are
// recorded in `xpu.linked` so that xpu-native-codegen reports and decides
// per original module. A module is linked only when it lowers alone (tried
// on a copy), so one that cannot be lowered fails alone.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/Analysis/RegisterPressure.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/KernelOrigins.h"
#include "XPUCodegen/Pipeline/Link/LinkedParts.h"
#include "XPUCodegen/Pipeline/Lower/DeviceLowering.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

#include <numeric>
#include <queue>

namespace mlir::xpu {
#define GEN_PASS_DEF_XPULINKMODULES
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// The kernels defined in `module`, in order.
static SmallVector<StringAttr> getKernelNames(gpu::GPUModuleOp module) {
  SmallVector<StringAttr> names;
  for (Operation &op : module.getBody()->getOperations())
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op); func && func.isKernel())
      names.push_back(func.getNameAttr());
  return names;
}

/// What must be equal for two modules to build with the same flags and the
/// same GRF policy: the targets and every module attribute except the name
/// and the per-module records that xpu.linked keeps per part.
static Attribute getLinkKey(gpu::GPUModuleOp module) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : module->getDiscardableAttrs())
    if (attr.getName() != XPUDialect::kDuplicatesAttrName &&
        attr.getName() != XPUDialect::kPressureAttrName)
      attrs.push_back(attr);
  Builder builder(module.getContext());
  if (ArrayAttr targets = module.getTargetsAttr())
    attrs.push_back(builder.getNamedAttr("targets", targets));
  if (Attribute handler = module.getOffloadingHandlerAttr())
    attrs.push_back(builder.getNamedAttr("offloading_handler", handler));
  return builder.getDictionaryAttr(attrs);
}

/// Whether `module` may take part in linking at all. A module whose device
/// code is a spirv.module compiles to that module alone (two of them cannot
/// share one gpu.module), so it is never linked.
static bool isLinkable(gpu::GPUModuleOp module) {
  ArrayAttr targets = module.getTargetsAttr();
  return targets && !targets.empty() &&
         module.getOps<spirv::ModuleOp>().empty() &&
         llvm::all_of(targets, llvm::IsaPred<TargetAttr>) &&
         !getModuleFailure(module) &&
         !module->hasAttr(XPUDialect::kLinkedAttrName) &&
         !getKernelNames(module).empty();
}

namespace {
struct LinkModulesPass : public xpu::impl::XPULinkModulesBase<LinkModulesPass> {
  // The list's options; two under this pass's own names.
  XPU_DECLARE_PASS_OPTION_NAMED(linkMaxKernels, "max-kernels")
  XPU_DECLARE_PASS_OPTION_NAMED(linkAloneAbove, "alone-above")
  XPU_LOWER_TO_XEVM_OPTIONS(XPU_DECLARE_PASS_OPTION)

  using Base::Base;
  LinkModulesPass() = default;
  /// A clone: the options are copied by the pass manager.
  LinkModulesPass(const LinkModulesPass &other) : Base(other) {}
  LinkModulesPass(const CodegenPipelineOptions &options, bool checkLowering) {
    XPU_LINK_MODULES_OPTIONS(XPU_COPY_OPTION)
    this->checkLowering = checkLowering;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // The lowering tried on copies loads these; load them before it runs.
    createXPULowerToXeVM()->getDependentDialects(registry);
  }

  void runOnOperation() override {
    takenNames.clear();
    nextLinkedSuffix = 0;
    // Run alone, the pass checks its option as the pipeline does.
    if (llvm::Error error = checkCodegenOptionValue(
            codegen_option::linkMaxKernels::check, linkMaxKernels.getArgStr(),
            linkMaxKernels.getValue())) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-link-modules: " << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    // Diagnostics are dropped here: a module that cannot be linked reports
    // them, located, when it is lowered alone in the pipeline.
    ScopedDiagnosticHandler quiet(&getContext(),
                                  [](Diagnostic &) { return success(); });
    SmallVector<gpu::GPUModuleOp> linkable;
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      countVisitedOps();
      if (isLinkable(module) && getKernelNames(module).size() < linkMaxKernels)
        linkable.push_back(module);
    }
    // The pressure estimates read only their own module: in parallel.
    SmallVector<char> spills(linkable.size());
    parallelFor(&getContext(), 0, linkable.size(),
                [&](size_t i) { spills[i] = isLikelyToSpill(linkable[i]); });
    SmallVector<gpu::GPUModuleOp> candidates;
    SmallVector<StringRef> levels;
    for (auto [module, likelyToSpill] : llvm::zip_equal(linkable, spills)) {
      if (likelyToSpill)
        continue;
      FailureOr<StringRef> level = getDeviceXeGPULevel(module, xegpuOpLevel);
      if (failed(level))
        continue;
      candidates.push_back(module);
      levels.push_back(*level);
    }
    SmallVector<bool> lowers = checkLowerAlone(candidates);

    // Link key and XeGPU level -> the modules with them, in input order.
    llvm::MapVector<Attribute, SmallVector<gpu::GPUModuleOp>> groups;
    Builder builder(&getContext());
    for (auto [module, level, lowered] :
         llvm::zip_equal(candidates, levels, lowers))
      if (lowered)
        groups[builder.getArrayAttr({getLinkKey(module),
                                     builder.getStringAttr(level),
                                     builder.getBoolAttr(isHeavy(module))})]
            .push_back(module);

    countSymbolScan(getOperation());
    SymbolTable symbols(getOperation());
    countSymbolScan(getOperation());
    for (Operation &op : getOperation().getBody()->getOperations())
      if (StringAttr name = SymbolTable::getSymbolName(&op))
        takenNames.insert(name.getValue());
    for (auto &[key, modules] : groups)
      for (ArrayRef<gpu::GPUModuleOp> batch :
           cast<BoolAttr>(cast<ArrayAttr>(key)[2]).getValue()
               ? balanceHeavyModules(modules)
               : cutIntoBatches(modules))
        if (batch.size() > 1)
          link(batch, symbols);
    redirectReferences();
  }

  /// Where the references to a linked part's symbols go: the linked module
  /// and the part's symbols renamed in it.
  struct Redirect {
    StringAttr linked;
    llvm::DenseMap<StringAttr, StringAttr> renamed;
  };
  /// Part name -> its redirect, for every part linked by this run. Each
  /// reference is rewritten once, in one walk after all linking: linked
  /// modules get names no part has, so no redirect leads to another.
  llvm::DenseMap<StringAttr, Redirect> redirects;
  /// The names of the input's symbols and of the linked modules: a linked
  /// module never takes a part's name, so a part unlinked later gets its
  /// own name back.
  llvm::StringSet<> takenNames;

  /// The suffix the next linked module's name tries first: the names tried
  /// before are taken, so each run tries every suffix once.
  unsigned nextLinkedSuffix = 0;

  /// `xpu_linked`, made unique against `takenNames` and `symbols`.
  StringAttr getLinkedModuleName(SymbolTable &symbols) {
    std::string name = "xpu_linked";
    auto isTaken = [&](StringRef candidate) {
      countVisitedOps();
      return takenNames.contains(candidate) || symbols.lookup(candidate);
    };
    if (nextLinkedSuffix > 0 || isTaken(name))
      do
        name = ("xpu_linked_" + Twine(nextLinkedSuffix++)).str();
      while (isTaken(name));
    takenNames.insert(name);
    return StringAttr::get(&getContext(), name);
  }

  /// Whether `module` is `auto` and its register-pressure estimate reaches
  /// alone-above percent of the small register file: it would likely be
  /// built again alone in another mode, so it stays alone from the start.
  bool isLikelyToSpill(gpu::GPUModuleOp module) {
    if (linkAloneAbove == 0)
      return false;
    auto target = cast<TargetAttr>(module.getTargetsAttr()[0]);
    GRFMode mode = target.getGrfMode();
    if (auto explicitMode =
            module->getAttrOfType<GRFModeAttr>(XPUDialect::kGRFModeAttrName))
      mode = explicitMode.getValue();
    const DeviceInfo *device = lookupDevice(target.getArch());
    if (mode != GRFMode::Auto || !device || !device->supportsLargeGRF())
      return false;
    if (!reachesPressurePercent(module, *device, linkAloneAbove))
      return false;
    ++numAlone;
    return true;
  }

  /// Which of `candidates` lower alone (all, without check-lowering). They
  /// are tried on copies, all in one nested module, by xpu-lower-to-xevm,
  /// whose pipeline lowers them in parallel and marks a copy that fails.
  SmallVector<bool> checkLowerAlone(ArrayRef<gpu::GPUModuleOp> candidates) {
    SmallVector<bool> lowers(candidates.size(), true);
    if (!checkLowering || candidates.empty())
      return lowers;
    ModuleOp scratch = ModuleOp::create(getOperation().getLoc());
    getOperation().getBody()->push_back(scratch);
    OpBuilder builder = OpBuilder::atBlockEnd(scratch.getBody());
    SmallVector<gpu::GPUModuleOp> copies;
    for (gpu::GPUModuleOp module : candidates)
      copies.push_back(cast<gpu::GPUModuleOp>(builder.clone(*module)));

    OpPassManager pm(ModuleOp::getOperationName());
    // xpu-lower-to-xevm with this pass's lowering options.
    CodegenPipelineOptions lowering;
#define XPU_COPY_LOWERING_OPTION(FIELD) lowering.FIELD = FIELD.getValue();
    XPU_LOWER_TO_XEVM_OPTIONS(XPU_COPY_LOWERING_OPTION)
#undef XPU_COPY_LOWERING_OPTION
    pm.addNestedPass<gpu::GPUModuleOp>(
        createXPULowerToXeVM(lowering, /*keepGoing=*/true));
    bool ran = succeeded(runPipeline(pm, scratch));
    for (auto [copy, lowered] : llvm::zip_equal(copies, lowers)) {
      lowered = ran && !getModuleFailure(copy) && !findUnloweredOp(copy);
      if (!lowered)
        ++numNotLowering;
    }
    scratch.erase();
    return lowers;
  }

  /// A module's estimated native compile cost: its operations, scaled by
  /// how far its register-pressure estimate exceeds the small register file
  /// (IGC spends far longer per operation on a kernel that spills).
  static uint64_t estimateCompileCost(gpu::GPUModuleOp module) {
    uint64_t ops = 0;
    module.getBody()->walk([&](Operation *) { ++ops; });
    auto target = cast<TargetAttr>(module.getTargetsAttr()[0]);
    const DeviceInfo *device = lookupDevice(target.getArch());
    if (!device || !reachesPressurePercent(module, *device, 100))
      return ops;
    return ops * getModulePressurePercent(module, *device) / 100;
  }

  /// A linked module in the making.
  struct Batch {
    uint64_t cost = 0;
    size_t kernels = 0;
    SmallVector<size_t> members;
  };

  /// Consecutive runs of `modules` with at most max-kernels kernels each.
  SmallVector<SmallVector<gpu::GPUModuleOp>>
  cutIntoBatches(ArrayRef<gpu::GPUModuleOp> modules) {
    SmallVector<SmallVector<gpu::GPUModuleOp>> batches(1);
    size_t kernels = 0;
    for (gpu::GPUModuleOp module : modules) {
      size_t count = getKernelNames(module).size();
      if (kernels + count > linkMaxKernels) {
        batches.emplace_back();
        kernels = 0;
      }
      batches.back().push_back(module);
      kernels += count;
    }
    return batches;
  }

  /// Cuts `modules` (one group of heavy modules) into at least two batches
  /// of at most max-kernels kernels, balanced by estimated compile cost:
  /// the most expensive module first, each into the cheapest batch with
  /// room (longest processing time first), so that the heavy kernels
  /// compile in parallel instead of in one build the other workers wait
  /// for. A batch keeps its modules in input order; batches are ordered by
  /// their first module. O(n log n) in modules.
  SmallVector<SmallVector<gpu::GPUModuleOp>>
  balanceHeavyModules(ArrayRef<gpu::GPUModuleOp> modules) {
    SmallVector<size_t> kernels;
    SmallVector<uint64_t> costs;
    size_t totalKernels = 0;
    for (gpu::GPUModuleOp module : modules) {
      kernels.push_back(getKernelNames(module).size());
      totalKernels += kernels.back();
      costs.push_back(estimateCompileCost(module));
    }
    SmallVector<size_t> order(modules.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(order,
                      [&](size_t a, size_t b) { return costs[a] > costs[b]; });

    size_t capacity = std::min<size_t>(
        linkMaxKernels, std::max<size_t>(1, llvm::divideCeil(totalKernels, 2)));
    // The batches with room, cheapest (then first) on top.
    SmallVector<Batch> batches(llvm::divideCeil(totalKernels, capacity));
    auto cheaper = [&](size_t a, size_t b) {
      return std::make_pair(batches[a].cost, a) >
             std::make_pair(batches[b].cost, b);
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(cheaper)> open(
        cheaper);
    for (size_t b = 0; b < batches.size(); ++b)
      open.push(b);
    for (size_t i : order) {
      // Batches too full for this module wait aside until it is placed.
      SmallVector<size_t> full;
      while (!open.empty() &&
             batches[open.top()].kernels + kernels[i] > capacity) {
        full.push_back(open.top());
        open.pop();
      }
      size_t b = open.empty() ? batches.size() : open.top();
      if (open.empty())
        batches.emplace_back();
      else
        open.pop();
      batches[b].cost += costs[i];
      batches[b].kernels += kernels[i];
      batches[b].members.push_back(i);
      for (size_t kept : full)
        open.push(kept);
      if (batches[b].kernels < capacity)
        open.push(b);
    }

    for (Batch &batch : batches)
      llvm::sort(batch.members);
    llvm::erase_if(batches, [](const Batch &b) { return b.members.empty(); });
    llvm::sort(batches, [](const Batch &a, const Batch &b) {
      return a.members.front() < b.members.front();
    });
    SmallVector<SmallVector<gpu::GPUModuleOp>> result;
    for (const Batch &batch : batches)
      result.push_back(llvm::to_vector(llvm::map_range(
          batch.members, [&](size_t i) { return modules[i]; })));
    return result;
  }

  /// Whether `module` is built in a forced mode (not `auto`, whose likely
  /// spillers stay alone, nor IGC's own `default`) and its estimate fills
  /// that mode's register file: it likely spills, IGC then compiles its
  /// whole module again, so it is linked only with other such modules.
  static bool isHeavy(gpu::GPUModuleOp module) {
    auto target = cast<TargetAttr>(module.getTargetsAttr()[0]);
    GRFMode mode = target.getGrfMode();
    if (auto explicitMode =
            module->getAttrOfType<GRFModeAttr>(XPUDialect::kGRFModeAttrName))
      mode = explicitMode.getValue();
    unsigned registers = getGRFModeRegisters(mode);
    const DeviceInfo *device = lookupDevice(target.getArch());
    return device && registers &&
           reachesPressurePercent(module, *device, 100 * registers / 128);
  }

  /// Merges `parts` into a new module placed before the first of them.
  void link(ArrayRef<gpu::GPUModuleOp> parts, SymbolTable &symbols) {
    MLIRContext *context = &getContext();
    gpu::GPUModuleOp first = parts.front();
    OpBuilder builder(first);
    auto linked = cast<gpu::GPUModuleOp>(builder.clone(*first));
    linked.getBody()->clear();
    for (StringRef name :
         {XPUDialect::kDuplicatesAttrName, XPUDialect::kPressureAttrName})
      linked->removeAttr(name);
    linked.setName(getLinkedModuleName(symbols));
    symbols.insert(linked, Block::iterator(first));

    // The parts' own locations and their kernels', for a part taken out
    // again (LinkedParts.h) and for diagnostics about a part's kernel
    // (KernelOrigins.h); diagnostics on the linked module still point at
    // the first part.
    for (gpu::GPUModuleOp part : parts)
      recordKernelOrigins(part);
    SmallVector<Location> partLocs = llvm::map_to_vector(
        parts, [](gpu::GPUModuleOp part) { return part.getLoc(); });
    SymbolTable linkedSymbols(linked);
    SmallVector<Attribute> records;
    for (gpu::GPUModuleOp part : parts) {
      SmallVector<std::pair<StringAttr, Operation *>> kernels;
      for (StringAttr name : getKernelNames(part))
        kernels.emplace_back(name, lookupSymbolCounted(part, name));
      // Original name -> name in the linked module, for every symbol.
      llvm::DenseMap<StringAttr, StringAttr> renamed;
      renameCollisions(part, linkedSymbols, renamed);
      records.push_back(getPartRecord(part, kernels));
      for (Operation &op :
           llvm::make_early_inc_range(part.getBody()->getOperations())) {
        op.remove();
        if (SymbolTable::getSymbolName(&op))
          linkedSymbols.insert(&op);
        else
          linked.getBody()->push_back(&op);
      }
      redirects[part.getNameAttr()] = {linked.getNameAttr(),
                                       std::move(renamed)};
      symbols.erase(part);
      ++numParts;
    }
    linked->setAttr(XPUDialect::kLinkedAttrName,
                    ArrayAttr::get(context, records));
    linked->setLoc(FusedLoc::get(context, partLocs));
    ++numLinkedModules;
  }

  /// Renames the symbols of `part` that already exist in the linked module,
  /// with their uses inside `part`; records every symbol's final name.
  void renameCollisions(gpu::GPUModuleOp part, SymbolTable &linkedSymbols,
                        llvm::DenseMap<StringAttr, StringAttr> &renamed) {
    MLIRContext *context = &getContext();
    SymbolTable partSymbols(part);
    SmallVector<Operation *> defined;
    for (Operation &op : part.getBody()->getOperations())
      if (SymbolTable::getSymbolName(&op))
        defined.push_back(&op);
    for (Operation *op : defined) {
      StringAttr name = SymbolTable::getSymbolName(op);
      StringAttr newName = name;
      if (linkedSymbols.lookup(name)) {
        std::string base = (name.getValue() + "_" + part.getName()).str();
        newName = StringAttr::get(context, base);
        for (unsigned i = 0; linkedSymbols.lookup(newName) ||
                             (newName != name && partSymbols.lookup(newName));
             ++i)
          newName = StringAttr::get(context, base + "_" + Twine(i));
        if (failed(partSymbols.rename(op, newName))) {
          // Keep the name: insertion below makes it unique, and the
          // record follows what it became.
          newName = name;
        } else {
          ++numRenamed;
        }
      }
      renamed[name] = newName;
    }
  }

  /// The xpu.linked record of `part`, whose `kernels` (original name, op)
  /// may have been renamed.
  DictionaryAttr
  getPartRecord(gpu::GPUModuleOp part,
                ArrayRef<std::pair<StringAttr, Operation *>> kernels) {
    Builder builder(&getContext());
    SmallVector<NamedAttribute> kernelNames;
    for (auto [original, op] : kernels)
      kernelNames.push_back(
          builder.getNamedAttr(original, SymbolTable::getSymbolName(op)));
    SmallVector<NamedAttribute> record = {
        builder.getNamedAttr("module", part.getNameAttr()),
        builder.getNamedAttr("kernels",
                             builder.getDictionaryAttr(kernelNames))};
    if (Attribute duplicates = part->getAttr(XPUDialect::kDuplicatesAttrName))
      record.push_back(builder.getNamedAttr("duplicates", duplicates));
    if (Attribute pressure = part->getAttr(XPUDialect::kPressureAttrName))
      record.push_back(builder.getNamedAttr("pressure", pressure));
    return builder.getDictionaryAttr(record);
  }

  /// Rewrites every reference to a symbol of a linked part (launches, and
  /// anything else outside the gpu.modules) to its linked module, by symbol
  /// identity: the root names the part, and only the symbol the reference
  /// reaches in it may have been renamed.
  void redirectReferences() {
    if (redirects.empty())
      return;
    redirectSymbolReferences(
        getOperation(), [&](SymbolRefAttr ref) -> std::optional<SymbolRefAttr> {
          auto it = redirects.find(ref.getRootReference());
          if (it == redirects.end())
            return std::nullopt;
          const Redirect &redirect = it->second;
          ArrayRef<FlatSymbolRefAttr> nested = ref.getNestedReferences();
          if (nested.empty())
            return SymbolRefAttr::get(redirect.linked);
          SmallVector<FlatSymbolRefAttr> path(nested);
          if (StringAttr name = redirect.renamed.lookup(path.front().getAttr()))
            path.front() = FlatSymbolRefAttr::get(name);
          return SymbolRefAttr::get(redirect.linked, path);
        });
    redirects.clear();
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPULinkModules(const CodegenPipelineOptions &options,
                                bool checkLowering) {
  return std::make_unique<LinkModulesPass>(options, checkLowering);
}
