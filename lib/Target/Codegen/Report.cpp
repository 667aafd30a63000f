//===- Report.cpp - The JSON report of native code generation -------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Codegen/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::xpu;

/// Whole milliseconds: a compile takes tens to thousands of them, and
/// integers print exactly in JSON.
static int64_t roundMs(double ms) { return std::llround(ms); }

llvm::json::Object mlir::xpu::getReportEntry(const ModuleCompileResult &result) {
  const BuildAttempt &chosen = result.decision.getChosen();

  llvm::json::Array attempts;
  for (const BuildAttempt &attempt : result.decision.attempts)
    attempts.push_back(llvm::json::Object{
        {"grf_mode", stringifyBuildGRF(attempt.mode)},
        {"build_flags", attempt.buildFlags},
        {"spill_size", attempt.spillSize},
        {"compile_ms", roundMs(attempt.compileMs)},
        {"cache", attempt.cache},
    });

  llvm::json::Array kernels;
  for (const KernelMeasurement &kernel : chosen.kernels)
    kernels.push_back(llvm::json::Object{
        {"name", kernel.name},
        {"grf_count", kernel.grfCount},
        {"simd", kernel.simd},
        {"spill_size", kernel.spillSize},
        {"private_size", kernel.privateSize},
        {"scratch_size", kernel.scratchSize},
        {"n_spills", kernel.nSpills},
    });

  return llvm::json::Object{
      {"module", result.name},
      {"arch", result.arch},
      {"backend", result.backend},
      {"backend_reason", result.backendReason},
      {"compiler", result.compilerIdentity},
      {"grf_mode", getEffectiveGRFMode(chosen)},
      {"n_regs", getNRegs(chosen.mode)},
      {"spill_size", chosen.spillSize},
      {"build_flags", chosen.buildFlags},
      {"cache", result.cache},
      {"decision", result.decision.reason},
      {"attempts", std::move(attempts)},
      {"kernels", std::move(kernels)},
  };
}

llvm::json::Object mlir::xpu::getReportErrorEntry(llvm::StringRef module,
                                                  llvm::StringRef arch,
                                                  llvm::StringRef error) {
  return llvm::json::Object{
      {"module", module}, {"arch", arch}, {"error", error}};
}

llvm::Error mlir::xpu::writeReport(llvm::StringRef path,
                                   std::vector<llvm::json::Value> modules) {
  llvm::json::Value report = llvm::json::Object{
      {"version", 1},
      {"modules", llvm::json::Array(std::move(modules))},
  };
  // Write beside the destination and rename, so readers never see half a
  // report.
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", report) << "\n";
    return llvm::Error::success();
  });
}
