//===- LinkedParts.cpp - The parts of a linked gpu.module -----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Link/LinkedParts.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Pipeline/KernelOrigins.h"
#include "XPUCodegen/Pipeline/PassWork.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::xpu;

void mlir::xpu::keepOnlyKernels(gpu::GPUModuleOp module,
                                ArrayRef<std::string> kernels) {
  llvm::SmallPtrSet<Operation *, 16> used;
  SmallVector<Operation *> worklist;
  for (const std::string &kernel : kernels)
    if (Operation *op = SymbolTable::lookupSymbolIn(module, kernel))
      if (used.insert(op).second)
        worklist.push_back(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
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

Location mlir::xpu::getLinkedPartLoc(Operation *linked, size_t index) {
  auto records = linked->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName);
  if (records && index < records.size())
    if (auto record = dyn_cast<DictionaryAttr>(records[index]))
      if (auto name = record.getAs<StringAttr>("module"))
        if (std::optional<Location> origin =
                findModuleOrigin(linked->getLoc(), name.getValue()))
          return *origin;
  auto fused = dyn_cast<FusedLoc>(linked->getLoc());
  if (records && fused && !fused.getMetadata() &&
      fused.getLocations().size() == records.size() && index < records.size())
    return fused.getLocations()[index];
  return linked->getLoc();
}

std::string mlir::xpu::getLinkedPartNames(Operation *linked) {
  std::string names;
  llvm::raw_string_ostream os(names);
  auto records = linked->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName);
  llvm::interleaveComma(
      records.getAsRange<DictionaryAttr>(), os, [&](DictionaryAttr record) {
        os << "'" << record.getAs<StringAttr>("module").getValue() << "'";
      });
  return names;
}

/// Part `index` of `linked`, described by `record`, as a module of its own
/// placed before it.
static gpu::GPUModuleOp clonePart(gpu::GPUModuleOp linked,
                                  DictionaryAttr record, size_t index) {
  OpBuilder builder(linked);
  auto part = cast<gpu::GPUModuleOp>(builder.clone(*linked));
  part->setLoc(getLinkedPartLoc(linked, index));
  for (StringRef name :
       {XPUDialect::kLinkedAttrName, XPUDialect::kModuleCacheKeyAttrName})
    part->removeAttr(name);
  for (auto [key, attrName] :
       {std::pair<StringRef, StringRef>{"duplicates",
                                        XPUDialect::kDuplicatesAttrName},
        {"pressure", XPUDialect::kPressureAttrName}})
    if (Attribute value = record.get(key))
      part->setAttr(attrName, value);

  auto kernels = record.getAs<DictionaryAttr>("kernels");
  SmallVector<std::string> linkedNames;
  for (NamedAttribute kernel : kernels)
    linkedNames.push_back(cast<StringAttr>(kernel.getValue()).str());
  keepOnlyKernels(part, linkedNames);
  // Kernels renamed on a collision get their own names back; nothing else
  // in the part can hold them, since every name came from one module.
  SymbolTable symbols(part);
  for (NamedAttribute kernel : kernels)
    if (kernel.getName() != kernel.getValue())
      if (Operation *op = symbols.lookup(cast<StringAttr>(kernel.getValue())))
        (void)symbols.rename(op, kernel.getName());
  part.setName(record.getAs<StringAttr>("module").getValue());
  return part;
}

void mlir::xpu::redirectSymbolReferences(
    Operation *root,
    function_ref<std::optional<SymbolRefAttr>(SymbolRefAttr)> redirect) {
  AttrTypeReplacer replacer;
  // Skipping the sub-elements keeps a rewritten reference, and the leaves
  // of a kept one, from being taken apart again.
  replacer.addReplacement(
      [&](SymbolRefAttr ref)
          -> std::optional<std::pair<Attribute, WalkResult>> {
        std::optional<SymbolRefAttr> replacement = redirect(ref);
        return std::make_pair(replacement ? *replacement : ref,
                              WalkResult::skip());
      });
  for (Operation &top : root->getRegion(0).front().getOperations()) {
    countVisitedOps();
    if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(top))
      continue;
    top.walk<WalkOrder::PreOrder>([&](Operation *op) {
      countVisitedOps();
      if (op->hasTrait<OpTrait::SymbolTable>())
        return WalkResult::skip();
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
      return WalkResult::advance();
    });
  }
}

/// Where references to a linked module's kernels go once it is taken apart:
/// linked module -> (kernel name in it -> (part, original name)).
using PartRedirects = llvm::DenseMap<
    StringAttr, llvm::DenseMap<StringAttr, std::pair<StringAttr, StringAttr>>>;

/// Points references to the kernels of the linked modules in `redirects`
/// back at their parts, under their original names, in one walk.
static void redirectToParts(Operation *root, const PartRedirects &redirects) {
  redirectSymbolReferences(
      root, [&](SymbolRefAttr ref) -> std::optional<SymbolRefAttr> {
        ArrayRef<FlatSymbolRefAttr> nested = ref.getNestedReferences();
        auto linked = redirects.find(ref.getRootReference());
        if (linked == redirects.end() || nested.empty())
          return std::nullopt;
        auto kernel = linked->second.find(nested.front().getAttr());
        if (kernel == linked->second.end())
          return std::nullopt;
        auto [part, original] = kernel->second;
        SmallVector<FlatSymbolRefAttr> path(nested);
        path.front() = FlatSymbolRefAttr::get(original);
        return SymbolRefAttr::get(part, path);
      });
}

SmallVector<gpu::GPUModuleOp>
mlir::xpu::unlinkModules(ArrayRef<gpu::GPUModuleOp> linkedModules) {
  SmallVector<gpu::GPUModuleOp> parts;
  if (linkedModules.empty())
    return parts;
  Operation *root = linkedModules.front()->getParentOp();
  countSymbolScan(root);
  SymbolTable symbols(root);
  PartRedirects redirects;
  for (gpu::GPUModuleOp linked : linkedModules) {
    auto &kernels = redirects[linked.getNameAttr()];
    auto records =
        linked->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName);
    for (auto [index, record] :
         llvm::enumerate(records.getAsRange<DictionaryAttr>())) {
      gpu::GPUModuleOp part = clonePart(linked, record, index);
      // The original name is free again (the part left it when it was
      // linked); the insertion makes it unique if another module took it.
      symbols.insert(part, Block::iterator(linked));
      for (NamedAttribute kernel : record.getAs<DictionaryAttr>("kernels"))
        kernels[cast<StringAttr>(kernel.getValue())] = {part.getNameAttr(),
                                                        kernel.getName()};
      parts.push_back(part);
    }
  }
  redirectToParts(root, redirects);
  for (gpu::GPUModuleOp linked : linkedModules)
    symbols.erase(linked);
  return parts;
}
