//===- NativeCodegenResults.cpp - Results into the IR and report ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The last step of xpu-native-codegen: each result becomes a native object
// (with its properties) or a located error, a linked module's parts stay
// in its binary or get one of their own (their launches follow), and every
// module gets its report entry, in input order.
//
//===----------------------------------------------------------------------===//

#include "NativeCodegenRun.h"

#include "XPUCodegen/Pipeline/Link/LinkedParts.h"

#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Target/Codegen/Report.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

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

llvm::json::Value NativeCodegenRun::getEntry(
    const ReportSlot &slot,
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

std::vector<std::vector<llvm::json::Value>> NativeCodegenRun::applyResults(
    MutableArrayRef<ObjectSlot> slots, ArrayRef<ModuleCompileRequest> requests,
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
    if (!emptiedBinaries.contains(binary))
      cast<gpu::BinaryOp>(binary).setObjectsAttr(
          ArrayAttr::get(&getContext(), objects));
  // Erased only now: newObjects and later slots still refer to them.
  for (Operation *binary : emptiedBinaries)
    binary->erase();
  emptiedBinaries.clear();
  return entries;
}

gpu::ObjectAttr
NativeCodegenRun::getNativeObject(TargetAttr target,
                                  const ModuleCompileResult &result,
                                  ArrayRef<NamedAttribute> extra) {
  const std::vector<char> &binary = result.decision.getChosen().binary;
  DictionaryAttr properties = getNativeObjectProperties(&getContext(), result);
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

std::vector<llvm::json::Value> NativeCodegenRun::applyLinkedResult(
    ObjectSlot slot, const ModuleCompileRequest &request,
    ModuleCompileResult &result, SmallVectorImpl<Attribute> &objects) {
  MLIRContext *context = &getContext();
  Builder builder(context);
  std::vector<llvm::json::Value> entries;
  SmallVector<Attribute> partSummaries;
  bool linkedUsed = false;
  std::string failure;
  OpBuilder splitBuilder(context);
  splitBuilder.setInsertionPointAfter(slot.binary);
  SymbolTable symbols(getOperation());
  for (auto [index, part, partResult] :
       llvm::enumerate(request.parts, result.parts)) {
    if (!partResult.result) {
      mlir::emitError(getLinkedPartLoc(slot.binary, index))
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
    emptiedBinaries.insert(slot.binary);
  }
  return entries;
}

gpu::BinaryOp NativeCodegenRun::splitPart(OpBuilder &builder,
                                          SymbolTable &symbols, ObjectSlot slot,
                                          const LinkedPart &part,
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
      launch.setKernelAttr(
          SymbolRefAttr::get(split.getNameAttr(),
                             {FlatSymbolRefAttr::get(launch.getKernelName())}));
  });
  ++numSplit;
  return split;
}

void NativeCodegenRun::annotate(ObjectSlot slot,
                                const ModuleCompileResult &result) {
  const GRFDecision &decision = result.decision;
  const BuildAttempt &chosen = decision.getChosen();
  if (!result.validation.empty())
    diagnose(slot.binary, DiagnosticSeverity::Warning,
             "xpu-native-codegen: SPIRV-Tools rejects the SPIR-V of '" +
                 result.name +
                 "' (compiled anyway in an isolated worker; "
                 "validate-spirv=strict makes this an error): " +
                 getExcerpt(result.validation));
  for (const std::string &warning : decision.launchWarnings)
    diagnose(slot.binary, DiagnosticSeverity::Warning,
             "xpu-native-codegen: module '" + result.name + "' for arch '" +
                 result.arch + "': " + warning);
  if (remarks)
    diagnose(slot.binary, DiagnosticSeverity::Remark,
             llvm::formatv("xpu-native-codegen: '{0}' on {1}: {2} GRF "
                           "(n_regs = {3}, {4} bytes spilled, backend "
                           "{5}): {6}",
                           result.name, result.arch,
                           getEffectiveGRFMode(chosen), result.nRegs,
                           chosen.spillSize, result.backend, decision.reason));
  // A forced mode that spills is worth a warning: the user chose it.
  GRFPolicy policy = getGRFPolicy(slot.binary, slot.target);
  bool forced =
      decision.attempts.size() == 1 && getForcedBuildGRF(policy) == chosen.mode;
  if (forced && chosen.spillSize > 0)
    for (const KernelMeasurement &kernel : chosen.kernels)
      if (kernel.spillSize > 0)
        diagnose(slot.binary, DiagnosticSeverity::Warning,
                 llvm::formatv("xpu-native-codegen: kernel '{0}' spills "
                               "{1} bytes per thread in {2} on {3}",
                               kernel.name, kernel.spillSize,
                               describeBuildGRF(chosen.mode), result.arch));
}
