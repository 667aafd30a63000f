//===- Report.cpp - The JSON report of native code generation -------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Codegen/Report.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Target/Codegen/OutputFile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::xpu;

/// Whole milliseconds: a compile takes tens to thousands of them, and
/// integers print exactly in JSON.
static int64_t roundMs(double ms) { return std::llround(ms); }

/// The builds of a module, in the order they ran.
static llvm::json::Array getAttemptsEntry(const GRFDecision &decision) {
  llvm::json::Array attempts;
  for (const BuildAttempt &attempt : decision.attempts) {
    llvm::json::Object entry{
        {"grf_mode", stringifyBuildGRF(attempt.mode)},
        {"build_flags", attempt.buildFlags},
        {"spill_size", attempt.spillSize},
        {"compile_ms", roundMs(attempt.compileMs)},
        {"cache", attempt.cache},
    };
    // Only deduplicated builds carry the marker, so reports of batches
    // without duplicates keep their shape.
    if (attempt.reused)
      entry["reused"] = true;
    // A build that compiled but cannot launch (and so was not kept).
    if (!attempt.unusable.empty())
      entry["unusable"] = attempt.unusable;
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
        {"name", kernel.name},
        {"grf_count", kernel.grfCount},
        {"simd", kernel.simd},
        {"subgroup_size", requiredSizes.lookup(kernel.name)},
        {"spill_size", kernel.spillSize},
        {"private_size", kernel.privateSize},
        {"scratch_size", kernel.scratchSize},
        {"n_spills", kernel.nSpills},
    };
    // Threads per vector engine at the kernel's register count: with simd,
    // its lanes in flight per engine (auto's objective).
    if (unsigned threads =
            device ? device->getThreadsPerEU(kernel.grfCount) : 0)
      entry["threads_per_eu"] = threads;
    kernels.push_back(std::move(entry));
  }
  return kernels;
}

/// How the GRF mode was decided, into `entry`.
static void addDecisionSource(llvm::json::Object &entry,
                              const ModuleCompileResult &result) {
  // How the GRF mode was decided: "measured", "predicted", "speculated",
  // "forced" or "igc"; for predicted modules also the plan and the estimate.
  entry["decision_source"] = result.decision.source;
  // Why large GRF was ruled out: the kernels' work-groups cannot run in it.
  if (!result.decision.workgroupLimit.empty())
    entry["workgroup_limit"] = result.decision.workgroupLimit;
  // Kernels that are built although no GRF mode can launch them.
  if (!result.decision.launchWarnings.empty())
    entry["launch_warnings"] =
        llvm::json::Array(result.decision.launchWarnings);
  if (result.pressure) {
    entry["plan"] = stringifyBuildPlan(result.plan).str();
    entry["pressure"] = llvm::json::Object{
        {"live_bytes", result.pressure->liveBytes},
        {"simd", result.pressure->simd},
        {"small_budget", result.pressure->smallBudget},
        {"prediction", result.pressure->prediction},
    };
  }
}

llvm::json::Object
mlir::xpu::getReportEntry(const ModuleCompileResult &result) {
  const BuildAttempt &chosen = result.decision.getChosen();
  llvm::json::Object entry{
      {"module", result.name},
      {"arch", result.arch},
      {"backend", result.backend},
      {"backend_reason", result.backendReason},
      {"compiler", result.compilerIdentity},
      {"grf_mode", getEffectiveGRFMode(chosen)},
      {"n_regs", result.nRegs},
      {"spill_size", chosen.spillSize},
      {"build_flags", chosen.buildFlags},
      {"cache", result.cache},
      {"decision", result.decision.reason},
      {"attempts", getAttemptsEntry(result.decision)},
      {"kernels", getKernelsEntry(result, chosen)},
  };
  // Which cache level the result came from: "build" here (every build was
  // in the cache); "module" when xpu-module-cache replays the whole module.
  if (result.cache == "hit")
    entry["cache_level"] = "build";
  // The sub-group size the module's kernels require, when they agree.
  if (std::optional<uint32_t> size = getCommonRequiredSubgroupSize(result))
    entry["subgroup_size"] = *size;
  if (!result.validation.empty())
    entry["validation"] = result.validation;
  addDecisionSource(entry, result);
  return entry;
}

llvm::json::Object mlir::xpu::getReportErrorEntry(llvm::StringRef module,
                                                  llvm::StringRef arch,
                                                  llvm::StringRef error) {
  // json::Value only references a StringRef: copy, the caller's strings die.
  return llvm::json::Object{
      {"module", module.str()}, {"arch", arch.str()}, {"error", error.str()}};
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
    entry["out_of_resources"] = llvm::json::Object{
        {"resource", error.resources->resource},
        {"required", error.resources->required},
        {"limit", error.resources->limit},
    };
  return entry;
}

llvm::Error mlir::xpu::writeReport(llvm::StringRef path,
                                   std::vector<llvm::json::Value> modules) {
  llvm::json::Value report = llvm::json::Object{
      {"version", 1},
      {"modules", llvm::json::Array(std::move(modules))},
  };
  // Atomic and through symlinks; never replaces a device (OutputFile.h).
  std::string text;
  llvm::raw_string_ostream(text) << llvm::formatv("{0:2}", report) << "\n";
  return writeOutputFile(path, text);
}
