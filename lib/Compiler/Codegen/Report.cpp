//===- Report.cpp - The JSON report of native code generation -------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Compiler/Codegen/OutputFile.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Support/ResultFields.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <type_traits>

using namespace mlir::xpu;

/// Whole milliseconds: a compile takes tens to thousands of them, and
/// integers print exactly in JSON.
static int64_t roundMs(double ms) { return std::llround(ms); }

/// The builds of a module, in the order they ran.
static llvm::json::Array getAttemptsEntry(const GRFDecision &decision) {
  llvm::json::Array attempts;
  for (const BuildAttempt &attempt : decision.attempts) {
    llvm::json::Object entry{
        {fields::kGRFMode, stringifyBuildGRF(attempt.mode)},
        {fields::kBuildFlags, attempt.buildFlags},
        {fields::kSpillSize, attempt.spillSize},
        {fields::kCompileMs, roundMs(attempt.compileMs)},
        {fields::kCache, attempt.cache},
    };
    if (attempt.builtMs)
      entry[fields::kBuiltMs] = roundMs(*attempt.builtMs);
    // Only deduplicated builds carry the marker, so reports of batches
    // without duplicates keep their shape.
    if (attempt.reused)
      entry[fields::kReused] = true;
    // A build that compiled but cannot launch (and so was not kept).
    if (!attempt.unusable.empty())
      entry[fields::kUnusable] = attempt.unusable;
    attempts.push_back(std::move(entry));
  }
  return attempts;
}

/// The kernels of the kept build.
static llvm::json::Array getKernelsEntry(const ModuleCompileResult &result,
                                         const BuildAttempt &chosen) {
  // The sub-group size each kernel's SPIR-V requires (0: none, IGC picks);
  // `simd` is the width IGC really compiled.
  llvm::StringMap<uint32_t> requiredSizes;
  for (const SPIRVKernelInfo &kernel : result.spirvKernels)
    requiredSizes[kernel.name] = kernel.subgroupSize.value_or(0);
  const DeviceInfo *device = lookupDevice(result.arch);
  llvm::json::Array kernels;
  for (const KernelMeasurement &kernel : chosen.kernels) {
    llvm::json::Object entry{
        {fields::kName, kernel.name},
        {fields::kGRFCount, kernel.grfCount},
        {fields::kSimd, kernel.simd},
        {fields::kSubgroupSize, requiredSizes.lookup(kernel.name)},
        {fields::kSpillSize, kernel.spillSize},
        {fields::kPrivateSize, kernel.privateSize},
        {fields::kScratchSize, kernel.scratchSize},
        {fields::kNSpills, kernel.nSpills},
    };
    // Threads per vector engine at the kernel's register count: with simd,
    // its lanes in flight per engine (auto's objective).
    if (unsigned threads =
            device ? device->getThreadsPerEU(kernel.grfCount) : 0)
      entry[fields::kThreadsPerEU] = threads;
    // The build log said another spill than the binary (spill_size is the
    // binary's).
    if (!kernel.spillNote.empty())
      entry[fields::kSpillNote] = kernel.spillNote;
    kernels.push_back(std::move(entry));
  }
  return kernels;
}

/// How the GRF mode was decided, into `entry`.
static void addDecisionSource(llvm::json::Object &entry,
                              const ModuleCompileResult &result) {
  // How the GRF mode was decided: "measured", "predicted", "speculated",
  // "forced" or "igc"; for predicted modules also the plan and the estimate.
  entry[fields::kDecisionSource] = result.decision.source;
  // Why large GRF was ruled out: the kernels' work-groups cannot run in it.
  if (!result.decision.workgroupLimit.empty())
    entry[fields::kWorkgroupLimit] = result.decision.workgroupLimit;
  // Kernels that are built although no GRF mode can launch them.
  if (!result.decision.launchWarnings.empty())
    entry[fields::kLaunchWarnings] =
        llvm::json::Array(result.decision.launchWarnings);
  if (result.pressure) {
    entry[fields::kPlan] = stringifyAutoPlan(result.plan).str();
    entry[fields::kPressure] = llvm::json::Object{
        {fields::kLiveBytes, result.pressure->liveBytes},
        {fields::kSimd, result.pressure->simd},
        {fields::kSmallBudget, result.pressure->smallBudget},
        {fields::kPrediction,
         stringifyGRFPrediction(result.pressure->prediction).str()},
    };
  }
}

llvm::json::Object
mlir::xpu::getReportEntry(const ModuleCompileResult &result) {
  const BuildAttempt &chosen = result.decision.getChosen();
  llvm::json::Object entry{
      {fields::kModule, result.name},
      {fields::kArch, result.arch},
      {fields::kBackend, result.backend},
      {fields::kBackendReason, result.backendReason},
      {fields::kCompiler, result.compilerIdentity},
      {fields::kGRFMode, getEffectiveGRFMode(chosen)},
      {fields::kNRegs, result.nRegs},
      {fields::kSpillSize, chosen.spillSize},
      {fields::kBuildFlags, chosen.buildFlags},
      {fields::kCache, result.cache},
      {fields::kDecision, result.decision.reason},
      {fields::kAttempts, getAttemptsEntry(result.decision)},
      {fields::kKernels, getKernelsEntry(result, chosen)},
  };
  // Which cache level the result came from: "build" here (every build was
  // in the cache); "module" when xpu-module-cache replays the whole module.
  // And from which tier: "shared" when any build came from the shared tier.
  if (result.cache == "hit") {
    entry[fields::kCacheLevel] = "build";
    bool shared =
        llvm::any_of(result.decision.attempts, [](const BuildAttempt &attempt) {
          return attempt.cacheTier == "shared";
        });
    entry[fields::kCacheTier] = shared ? "shared" : "local";
  }
  // The sub-group size the module's kernels require, when they agree.
  if (std::optional<uint32_t> size = getCommonRequiredSubgroupSize(result))
    entry[fields::kSubgroupSize] = *size;
  if (!result.validation.empty())
    entry[fields::kValidation] = result.validation;
  addDecisionSource(entry, result);
  return entry;
}

llvm::json::Object mlir::xpu::getReportErrorEntry(llvm::StringRef module,
                                                  llvm::StringRef arch,
                                                  llvm::StringRef error) {
  // json::Value only references a StringRef: copy, the caller's strings die.
  return llvm::json::Object{{fields::kModule, module.str()},
                            {fields::kArch, arch.str()},
                            {fields::kError, error.str()}};
}

ModuleError mlir::xpu::takeModuleError(llvm::Error error) {
  ModuleError result;
  llvm::handleAllErrors(
      std::move(error),
      [&](const OutOfResourcesError &outOfResources) {
        result.message = outOfResources.message;
        result.resources = ModuleError::Resources{outOfResources.resource,
                                                  outOfResources.required,
                                                  outOfResources.limit};
      },
      [&](const llvm::ErrorInfoBase &other) {
        if (!result.message.empty())
          result.message += "; ";
        result.message += other.message();
      });
  return result;
}

llvm::json::Object mlir::xpu::getReportErrorEntry(llvm::StringRef module,
                                                  llvm::StringRef arch,
                                                  const ModuleError &error) {
  llvm::json::Object entry = getReportErrorEntry(module, arch, error.message);
  if (error.resources)
    entry[fields::kOutOfResources] = llvm::json::Object{
        {fields::kResource, error.resources->resource},
        {fields::kRequired, error.resources->required},
        {fields::kLimit, error.resources->limit},
    };
  return entry;
}

bool ModuleReport::failed() const {
  if (error)
    return true;
  const llvm::json::Object *entry = cached ? cached->getAsObject() : nullptr;
  return entry && entry->get(fields::kError);
}

/// The report names a linked part's kernels as the original module did;
/// `linked_name` says what the linked module renamed them to.
static void renameKernels(llvm::json::Object &entry,
                          const ModuleReport &report) {
  llvm::json::Array *kernels = entry.getArray(fields::kKernels);
  if (!kernels || report.renamedKernels.empty())
    return;
  for (llvm::json::Value &value : *kernels) {
    llvm::json::Object *kernel = value.getAsObject();
    std::optional<llvm::StringRef> name = kernel->getString(fields::kName);
    if (!name)
      continue;
    for (const auto &[linked, original] : report.renamedKernels) {
      if (*name != linked || linked == original)
        continue;
      (*kernel)[fields::kLinkedName] = linked;
      (*kernel)[fields::kName] = original;
      break;
    }
  }
}

// Vectors of reports grow by moving only when the move cannot throw.
static_assert(std::is_nothrow_move_constructible_v<ModuleReport>);

llvm::json::Value mlir::xpu::getReportEntry(const ModuleReport &report) {
  if (report.cached)
    return *report.cached;
  llvm::json::Object entry =
      report.result ? getReportEntry(*report.result)
                    : getReportErrorEntry(report.module, report.arch,
                                          report.error.value_or(ModuleError()));
  entry[fields::kModule] = report.module;
  renameKernels(entry, report);
  if (!report.linkedInto.empty())
    entry[fields::kLinkedInto] = report.linkedInto;
  if (!report.splitInto.empty())
    entry[fields::kSplitInto] = report.splitInto;
  if (!report.deduplicatedFrom.empty())
    entry[fields::kDeduplicatedFrom] = report.deduplicatedFrom;
  return entry;
}

ModuleReport mlir::xpu::readCachedReport(llvm::json::Value entry) {
  ModuleReport report;
  if (const llvm::json::Object *object = entry.getAsObject()) {
    auto read = [&](llvm::StringRef key, std::string &field) {
      if (std::optional<llvm::StringRef> value = object->getString(key))
        field = value->str();
    };
    read(fields::kModule, report.module);
    read(fields::kArch, report.arch);
    read(fields::kDeduplicatedFrom, report.deduplicatedFrom);
    read(fields::kLinkedInto, report.linkedInto);
    read(fields::kSplitInto, report.splitInto);
  }
  report.cached = std::make_shared<const llvm::json::Value>(std::move(entry));
  return report;
}

llvm::Error mlir::xpu::writeReport(llvm::StringRef path,
                                   std::vector<llvm::json::Value> modules) {
  // Moved in: json::Array's constructor from a vector copies each entry.
  llvm::json::Array entries;
  entries.reserve(modules.size());
  for (llvm::json::Value &module : modules)
    entries.push_back(std::move(module));
  llvm::json::Value report = llvm::json::Object{
      {fields::kVersion, 1},
      {fields::kModules, std::move(entries)},
  };
  // Atomic and through symlinks; never replaces a device (OutputFile.h).
  std::string text;
  llvm::raw_string_ostream(text) << llvm::formatv("{0:2}", report) << "\n";
  return writeOutputFile(path, text);
}
