//===- NativeCodegen.cpp - SPIR-V objects to native code ------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Gathers every SPIR-V object of an #xpu.target in the module, hands the
// whole batch to the NativeCodegenDriver (so builds are deduplicated and run
// in parallel across modules), then writes the results back as native//
// objects, diagnostics and a JSON report, in input order.
//
// This file holds the pass (its options and their checks), the flow of one
// run (NativeCodegenRun) and the diagnostics every step shares.
//
//===----------------------------------------------------------------------===//

#include "NativeCodegenRun.h"

#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Pipeline/KernelOrigins.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/Passes.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUNATIVECODEGEN
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

Location mlir::xpu::detail::getLineLoc(Operation *op) {
  // The op's own line: the first file location, before any recorded kernel
  // origin (KernelOrigins.h).
  if (auto loc = op->getLoc()->findInstanceOf<FileLineColLoc>())
    return FileLineColLoc::get(loc.getFilename(), loc.getLine(), 0);
  return op->getLoc();
}

//===----------------------------------------------------------------------===//
// One run
//===----------------------------------------------------------------------===//

NativeCodegenRun::NativeCodegenRun(ModuleOp module, CompileSession &session,
                                   const NativeCodegenOptions &driverOptions,
                                   const NativeCodegenRunOptions &options,
                                   NativeCodegenCounters counters)
    : module(module), session(session), driverOptions(driverOptions),
      grfMode(options.grfMode), remarks(options.remarks),
      numObjects(counters.numObjects), numFailed(counters.numFailed),
      numBuilds(counters.numBuilds), numSplit(counters.numSplit) {}

LogicalResult NativeCodegenRun::run(StringRef report) {
  collectLinkSources();
  SmallVector<ObjectSlot> slots;
  std::vector<ModuleCompileRequest> requests;
  std::vector<ReportSlot> reportSlots;
  collectRequests(slots, requests, reportSlots);

  std::vector<llvm::Expected<ModuleCompileResult>> compiled;
  if (!requests.empty() && failed(compile(requests, compiled)))
    return failure();

  std::vector<std::vector<ModuleReport>> resultReports =
      applyResults(slots, requests, compiled);
  // Their parts are compiled: nothing needs the lowered linked modules.
  for (auto &[binary, source] : linkSources)
    source.erase();
  linkSources.clear();
  std::vector<ModuleReport> reports;
  reports.reserve(reportSlots.size());
  for (ReportSlot &slot : reportSlots)
    reports.push_back(slot.ready ? std::move(*slot.ready)
                                 : getReport(slot, resultReports));
  // Reserved: json::Value's move may throw, so growing would copy.
  std::vector<llvm::json::Value> entries;
  entries.reserve(reports.size());
  for (const ModuleReport &moduleReport : reports)
    entries.push_back(getReportEntry(moduleReport));
  storeInModuleCache(reportSlots, entries);
  session.addResults(std::move(reports));

  // The report is written even when some modules failed: it is how the
  // caller learns what did compile.
  bool reportFailed = false;
  if (!report.empty()) {
    if (llvm::Error error = writeReport(report, std::move(entries))) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-native-codegen: cannot write the report to '" << report
          << "': " << llvm::toString(std::move(error));
      reportFailed = true;
    }
  }
  if (reportFailed)
    return failure();
  return finishModuleStage(moduleFailures, /*keepGoing=*/false);
}

LogicalResult NativeCodegenRun::compile(
    ArrayRef<ModuleCompileRequest> requests,
    std::vector<llvm::Expected<ModuleCompileResult>> &results) {
  // The session is shared (a std::shared_ptr the pass holds); the driver
  // keeps it alive as long as it lives.
  llvm::Expected<std::unique_ptr<NativeCodegenDriver>> driver =
      NativeCodegenDriver::create(session.shared_from_this(), driverOptions);
  if (!driver) {
    mlir::emitError(getOperation().getLoc())
        << "xpu-native-codegen: "
        << getStartFailureMessage(llvm::toString(driver.takeError()));
    return failure();
  }
  results = (*driver)->compile(requests);
  for (const std::string &warning : (*driver)->takeWarnings()) {
    mlir::emitWarning(getOperation().getLoc())
        << "xpu-native-codegen: " << warning;
    cacheWarned = true;
  }
  return success();
}

void NativeCodegenRun::addFailure(Operation *op, StringRef name, StringRef arch,
                                  StringRef message,
                                  std::vector<ReportSlot> &reportSlots,
                                  bool diagnose) {
  if (diagnose)
    mlir::emitError(getLineLoc(op))
        << "xpu-native-codegen: " << getExcerpt(message) << " (module '" << name
        << "', arch '" << arch << "')";
  ModuleReport report;
  report.module = name.str();
  report.arch = arch.str();
  report.error = ModuleError{message.str(), std::nullopt};
  reportSlots.push_back({std::move(report), 0, 0, "", op});
  ++numFailed;
  ++moduleFailures;
}

void NativeCodegenRun::diagnose(Operation *binary, DiagnosticSeverity severity,
                                const Twine &message, StringRef module,
                                StringRef kernel) {
  std::string text = message.str();
  Location loc = getLineLoc(binary);
  if (!module.empty())
    loc = findKernelOrigin(binary->getLoc(), module, kernel).value_or(loc);
  switch (severity) {
  case DiagnosticSeverity::Warning:
    mlir::emitWarning(loc) << text;
    break;
  case DiagnosticSeverity::Remark:
    mlir::emitRemark(loc) << text;
    break;
  case DiagnosticSeverity::Error:
    mlir::emitError(loc) << text;
    break;
  case DiagnosticSeverity::Note:
    // Notes belong to another diagnostic; never emitted on their own here.
    return;
  }
  binaryDiagnostics[binary].push_back(
      {severity, std::move(text), module.str(), kernel.str()});
}

Location NativeCodegenRun::getErrorLoc(Operation *binary,
                                       const ModuleCompileRequest &request,
                                       StringRef message,
                                       const LinkedPart *part,
                                       Location fallback) {
  if (request.parts.empty()) {
    std::string kernel =
        findQuotedKernel(binary->getLoc(), request.name, message);
    if (kernel.empty())
      return fallback;
    return findKernelOrigin(binary->getLoc(), request.name, kernel)
        .value_or(fallback);
  }
  // A linked build names kernels as the linked SPIR-V does.
  std::optional<Location> found;
  size_t firstAt = StringRef::npos;
  for (const LinkedPart &candidate : request.parts) {
    if (part && &candidate != part)
      continue;
    for (auto [linked, original] :
         llvm::zip_equal(candidate.kernels, candidate.originalKernels)) {
      size_t at = findQuotedName(message, linked);
      if (at < firstAt)
        if (std::optional<Location> origin =
                findKernelOrigin(binary->getLoc(), candidate.name, original)) {
          firstAt = at;
          found = origin;
        }
    }
  }
  return found.value_or(fallback);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct NativeCodegenPass
    : public xpu::impl::XPUNativeCodegenBase<NativeCodegenPass> {
  XPU_NATIVE_CODEGEN_OPTIONS(XPU_DECLARE_PASS_OPTION)

  /// The run's session; when the pass runs alone, the one its options share
  /// with the other passes of the run (CompileSession::getShared).
  std::shared_ptr<CompileSession> session;

  NativeCodegenPass() = default;
  /// A clone: the options are copied by the pass manager.
  NativeCodegenPass(const NativeCodegenPass &other)
      : Base(other), session(other.session) {}
  NativeCodegenPass(const CodegenPipelineOptions &options,
                    std::shared_ptr<CompileSession> session)
      : session(std::move(session)) {
    XPU_NATIVE_CODEGEN_OPTIONS(XPU_COPY_OPTION)
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerXPUTargetInterfaceExternalModels(registry);
  }

  /// report= with no path is a usage error, as --report "" is in the CLI:
  /// no report is the option left out.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Base::initializeOptions(options, errorHandler)))
      return failure();
    if (report.hasValue() && report.empty())
      return errorHandler("xpu-native-codegen: report= needs a path");
    return success();
  }

  void runOnOperation() override {
    if (llvm::Error error = checkOptions()) {
      mlir::emitError(getOperation().getLoc())
          << "xpu-native-codegen: " << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    NativeCodegenOptions own = getNativeCodegenOptions(*this);
    if (!session)
      session = CompileSession::getShared(own);
    NativeCodegenRun run(getOperation(), *session, own, {grfMode, remarks},
                         {numObjects, numFailed, numBuilds, numSplit});
    if (failed(run.run(report)))
      signalPassFailure();
  }

  /// The option values no parser checks, before anything compiles.
  llvm::Error checkOptions() {
    NativeCodegenPass &options = *this;
    XPU_NATIVE_CODEGEN_OPTIONS(XPU_CHECK_OPTION)
    return checkSharedCacheOptions(getNativeCodegenOptions(*this));
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPUNativeCodegen(const CodegenPipelineOptions &options,
                                  std::shared_ptr<CompileSession> session) {
  return std::make_unique<NativeCodegenPass>(options, std::move(session));
}
