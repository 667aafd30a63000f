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

#include "XPUCodegen/Pipeline/KernelOrigins.h"
#include "XPUCodegen/Pipeline/Link/LinkedParts.h"

#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Compiler/Codegen/ResultMessages.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Support/ResultFields.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

/// The report of a module compiled in this run.
static ModuleReport getCompiledReport(ModuleCompileResult result) {
  ModuleReport report;
  report.module = result.name;
  report.arch = result.arch;
  report.result =
      std::make_shared<const ModuleCompileResult>(std::move(result));
  return report;
}

ModuleReport
NativeCodegenRun::getReport(const ReportSlot &slot,
                            ArrayRef<std::vector<ModuleReport>> resultReports) {
  ModuleReport report = resultReports[slot.request][slot.part];
  if (slot.duplicate.empty())
    return report;
  report.deduplicatedFrom = report.module;
  report.module = slot.duplicate;
  // The duplicate's kernels under its own names: a kernel the kept module
  // (or its linked module) names otherwise is reported with its name in
  // the binary.
  for (const auto &[kept, own] : slot.duplicateKernels) {
    auto renamed = llvm::find_if(report.renamedKernels, [&](const auto &pair) {
      return pair.second == kept;
    });
    if (renamed != report.renamedKernels.end())
      renamed->second = own;
    else
      report.renamedKernels.emplace_back(kept, own);
  }
  return report;
}

std::vector<std::vector<ModuleReport>> NativeCodegenRun::applyResults(
    MutableArrayRef<ObjectSlot> slots, ArrayRef<ModuleCompileRequest> requests,
    std::vector<llvm::Expected<ModuleCompileResult>> &results) {
  std::vector<std::vector<ModuleReport>> reports;
  // New object lists per binary, built in input order.
  llvm::MapVector<Operation *, SmallVector<Attribute>> newObjects;
  for (auto [slot, request, result] :
       llvm::zip_equal(slots, requests, results)) {
    auto &objects = newObjects[slot.binary];
    if (objects.empty())
      llvm::append_range(objects, slot.binary.getObjects());
    reports.emplace_back();
    if (!result) {
      ModuleError error = takeModuleError(result.takeError());
      // Located at the kernel it names, else at the binary, without
      // printing it: its payload is huge.
      mlir::emitError(getErrorLoc(slot.binary, request, error.message,
                                  /*part=*/nullptr, getLineLoc(slot.binary)))
          << "xpu-native-codegen: "
          << getFailureMessage(request.name, request.arch, error.message);
      // A linked module that fails before building fails every part.
      for (size_t i = 0, e = std::max<size_t>(request.parts.size(), 1); i < e;
           ++i) {
        ModuleReport &report = reports.back().emplace_back();
        report.module =
            request.parts.empty() ? request.name : request.parts[i].name;
        report.arch = request.arch;
        report.error = error;
        if (!request.parts.empty())
          report.linkedInto = request.name;
      }
      ++numFailed;
      ++moduleFailures;
      continue;
    }
    if (!request.parts.empty()) {
      reports.back() = applyLinkedResult(slot, request, *result, objects);
      continue;
    }
    ++numObjects;
    numBuilds += result->decision.attempts.size();
    annotate(slot, *result);
    objects[slot.index] = getNativeObject(slot.target, *result);
    recordSpill(slot.binary, *result);
    reports.back().push_back(getCompiledReport(std::move(*result)));
  }
  redirectSplitLaunches();
  for (auto &[binary, objects] : newObjects)
    if (!emptiedBinaries.contains(binary))
      cast<gpu::BinaryOp>(binary).setObjectsAttr(
          ArrayAttr::get(&getContext(), objects));
  // Erased only now: newObjects and later slots still refer to them.
  for (Operation *binary : emptiedBinaries)
    binary->erase();
  emptiedBinaries.clear();
  return reports;
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

std::vector<ModuleReport> NativeCodegenRun::applyLinkedResult(
    ObjectSlot slot, const ModuleCompileRequest &request,
    ModuleCompileResult &result, SmallVectorImpl<Attribute> &objects) {
  MLIRContext *context = &getContext();
  Builder builder(context);
  std::vector<ModuleReport> reports;
  SmallVector<Attribute> partSummaries;
  bool linkedUsed = false;
  std::string failure;
  OpBuilder splitBuilder(context);
  splitBuilder.setInsertionPointAfter(slot.binary);
  for (auto [index, part, partResult] :
       llvm::enumerate(request.parts, result.parts)) {
    if (!partResult.result) {
      mlir::emitError(getErrorLoc(slot.binary, request, partResult.error, &part,
                                  getLinkedPartLoc(slot.binary, index)))
          << "xpu-native-codegen: "
          << getFailureMessage(part.name, request.arch, partResult.error,
                               request.name);
      ModuleReport &report = reports.emplace_back();
      report.module = part.name;
      report.arch = request.arch;
      report.error = ModuleError{partResult.error, std::nullopt};
      report.linkedInto = request.name;
      failure = partResult.error;
      ++numFailed;
      ++moduleFailures;
      continue;
    }
    ModuleCompileResult &partCompiled = *partResult.result;
    ++numObjects;
    numBuilds += partCompiled.decision.attempts.size();
    annotate(slot, partCompiled, &part);
    std::string home = request.name;
    if (partResult.split) {
      gpu::BinaryOp split = splitPart(splitBuilder, slot, part, partCompiled);
      recordSpill(split, partCompiled);
      home = split.getName().str();
    } else {
      linkedUsed = true;
    }
    const BuildAttempt &chosen = partCompiled.decision.getChosen();
    partSummaries.push_back(builder.getDictionaryAttr({
        builder.getNamedAttr(fields::kModule, builder.getStringAttr(part.name)),
        builder.getNamedAttr(fields::kBinary, builder.getStringAttr(home)),
        builder.getNamedAttr(
            fields::kGRFMode,
            builder.getStringAttr(getEffectiveGRFMode(chosen))),
        builder.getNamedAttr(fields::kSpillSize,
                             builder.getI64IntegerAttr(chosen.spillSize)),
        builder.getNamedAttr(
            fields::kDecisionSource,
            builder.getStringAttr(partCompiled.decision.source)),
    }));
    ModuleReport report = getCompiledReport(std::move(partCompiled));
    report.linkedInto = request.name;
    if (partResult.split)
      report.splitInto = home;
    for (auto [linked, original] :
         llvm::zip_equal(part.kernels, part.originalKernels))
      report.renamedKernels.emplace_back(linked, original);
    reports.push_back(std::move(report));
  }
  if (!result.decision.attempts.empty()) {
    objects[slot.index] = getNativeObject(
        slot.target, result,
        {builder.getNamedAttr(fields::kLinkedParts,
                              builder.getArrayAttr(partSummaries))});
    recordSpill(slot.binary, result);
  } else if (!failure.empty()) {
    markModuleFailed(slot.binary, FailureStage::Native, failure);
  } else if (!linkedUsed) {
    // The linked build failed and every part compiled alone.
    emptiedBinaries.insert(slot.binary);
  }
  return reports;
}

gpu::BinaryOp NativeCodegenRun::splitPart(OpBuilder &builder, ObjectSlot slot,
                                          const LinkedPart &part,
                                          const ModuleCompileResult &result) {
  if (!topSymbols) {
    countSymbolScan(getOperation());
    topSymbols = std::make_unique<SymbolTable>(getOperation());
  }
  Builder attrs(&getContext());
  StringAttr linkedName = slot.binary.getNameAttr();
  auto split = gpu::BinaryOp::create(
      builder, slot.binary.getLoc(), part.name, /*handler=*/nullptr,
      attrs.getArrayAttr({getNativeObject(
          slot.target, result,
          {attrs.getNamedAttr(fields::kSplitFrom, linkedName)})}));
  topSymbols->insert(split);
  builder.setInsertionPointAfter(split);
  // For the cache before lowering, which records and replays splits; the
  // pipeline strips it.
  split->setAttr(XPUDialect::kSplitFromAttrName,
                 FlatSymbolRefAttr::get(linkedName));
  for (StringRef name :
       {XPUDialect::kGRFModeAttrName, XPUDialect::kAutoPlanAttrName})
    if (Attribute attr = slot.binary->getAttr(name))
      split->setAttr(name, attr);
  for (const std::string &kernel : part.kernels)
    splitLaunches[{linkedName, attrs.getStringAttr(kernel)}] =
        split.getNameAttr();
  ++numSplit;
  return split;
}

void NativeCodegenRun::redirectSplitLaunches() {
  topSymbols.reset();
  if (splitLaunches.empty())
    return;
  walkCounted<gpu::LaunchFuncOp>(getOperation(), [&](gpu::LaunchFuncOp launch) {
    StringAttr split = splitLaunches.lookup(
        {launch.getKernelModuleName(), launch.getKernelName()});
    if (split)
      launch.setKernelAttr(SymbolRefAttr::get(
          split, {FlatSymbolRefAttr::get(launch.getKernelName())}));
  });
  splitLaunches.clear();
}

/// The modules xpu-dedupe-modules folded into `module`: `xpu.duplicates` of
/// `binary`, or the `duplicates` of `module`'s record in a linked binary.
static SmallVector<DuplicateModule> getFoldedCopies(Operation *binary,
                                                    StringRef module) {
  ArrayAttr records =
      binary->getAttrOfType<ArrayAttr>(XPUDialect::kDuplicatesAttrName);
  if (auto parts =
          binary->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName))
    for (auto part : parts.getAsRange<DictionaryAttr>())
      if (auto name = part.getAs<StringAttr>("module");
          name && name.getValue() == module)
        records = part.getAs<ArrayAttr>("duplicates");
  SmallVector<DuplicateModule> copies;
  if (records)
    for (Attribute record : records)
      if (std::optional<DuplicateModule> copy = readDuplicateModule(record))
        copies.push_back(std::move(*copy));
  return copies;
}

/// The name `copy` gives the kept module's kernel `kept`.
static StringRef getCopyKernel(const DuplicateModule &copy, StringRef kept) {
  for (auto [own, keptName] : copy.renamedKernels)
    if (keptName.getValue() == kept)
      return own.getValue();
  return kept;
}

/// The kernel of `result`'s kept build that `message` names first in quotes
/// (as the build names it), or "".
static StringRef findQuotedBuildKernel(const ModuleCompileResult &result,
                                       const ResultMessage &message) {
  std::string text = message.getText();
  StringRef first;
  size_t firstAt = std::string::npos;
  for (const KernelMeasurement &kernel : result.decision.getChosen().kernels)
    if (size_t at = findQuotedName(text, kernel.name); at < firstAt) {
      firstAt = at;
      first = kernel.name;
    }
  return first;
}

void NativeCodegenRun::annotate(ObjectSlot slot,
                                const ModuleCompileResult &result,
                                const LinkedPart *part) {
  // The module and kernel names the user wrote (a linked part's kernels may
  // have been renamed in the build).
  StringRef module = part ? StringRef(part->name) : StringRef(result.name);
  auto originalKernel = [&](StringRef kernel) -> StringRef {
    if (part)
      for (auto [linked, original] :
           llvm::zip_equal(part->kernels, part->originalKernels))
        if (linked == kernel)
          return original;
    return kernel;
  };
  GRFMode policy = getRequestedGRFMode(slot.binary, slot.target);
  // A kernel's message is given at that kernel, and again at each folded
  // copy's own kernel, under the names the user gave them.
  SmallVector<DuplicateModule> copies = getFoldedCopies(slot.binary, module);
  for (const ResultMessage &message :
       getResultMessages(result, policy, remarks)) {
    DiagnosticSeverity severity = message.kind == ResultMessage::Kind::Remark
                                      ? DiagnosticSeverity::Remark
                                      : DiagnosticSeverity::Warning;
    auto say = [&](StringRef where, StringRef name) {
      diagnose(slot.binary, severity,
               "xpu-native-codegen: " + message.getText(name), where, name);
    };
    if (message.kernel.empty()) {
      // A module's message that names one of its kernels (a launch warning)
      // is located at that kernel.
      say(module, originalKernel(findQuotedBuildKernel(result, message)));
      continue;
    }
    StringRef name = originalKernel(message.kernel);
    say(module, name);
    for (const DuplicateModule &copy : copies)
      say(copy.name.getValue(), getCopyKernel(copy, name));
  }
}

void NativeCodegenRun::recordSpill(gpu::BinaryOp binary,
                                   const ModuleCompileResult &result) {
  if (binary.getObjects().size() != 1) {
    binary->removeAttr(XPUDialect::kSpillAttrName);
    return;
  }
  auto emitError = [&] {
    return mlir::emitWarning(getLineLoc(binary))
           << "xpu-native-codegen: no xpu.spill for '" << result.name << "': ";
  };
  if (SpillAttr spill = getNativeSpillAttr(&getContext(), result, emitError))
    binary->setAttr(XPUDialect::kSpillAttrName, spill);
  else
    binary->removeAttr(XPUDialect::kSpillAttrName);
}
