//===- XPUCodegenMLIRModule.cpp - MLIR half of the xpu_codegen package ---===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The extension module `xpu_codegen._xpu_codegen_mlir`: runs the whole
// xpu-codegen-pipeline, in-process, on MLIR text. It links libMLIR, so the
// Python half imports it only when MLIR text is compiled; everything else
// lives in `_xpu_codegen` (XPUCodegenModule.cpp), which links no MLIR.
//
// Like `_xpu_codegen`, it never raises for a compile failure: it returns the
// located diagnostics, one report entry per module (the results the pass
// collected, printed as its report prints them) and the native binaries. No
// LLVM code runs while the GIL is held.
//
//===----------------------------------------------------------------------===//

#include "CompileCommon.h"

#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/InitAllXPU.h"
#include "XPUCodegen/Pipeline/Lower/UpstreamVerifierGuard.h"
#include "XPUCodegen/Support/CheckedThread.h"
#include "XPUCodegen/Support/ResultFields.h"
#include "XPUCodegen/Support/SourceScreening.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::xpu;
using namespace mlir::xpu::python;

namespace {

/// Everything MLIR text may use: what xpu-opt registers.
const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *registry = new DialectRegistry();
    registerAllDialects(*registry);
    registerAllExtensions(*registry);
    registerAllToLLVMIRTranslations(*registry);
    registerXPUDialectAndModels(*registry);
    return registry;
  }();
  return *registry;
}

/// The native objects the pass produced, in its walk order.
struct NativeObject {
  std::string module;
  std::string binary;
};

std::vector<NativeObject> collectNativeObjects(ModuleOp module) {
  std::vector<NativeObject> objects;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || !isa<TargetAttr>(object.getTarget()) ||
          !object.getProperties() ||
          !object.getProperties().contains(fields::kNRegs))
        continue;
      objects.push_back(
          {binary.getName().str(), object.getObject().getValue().str()});
    }
  });
  return objects;
}

/// Sets a pipeline option of type `T` from the binding's value of it (the
/// GRF mode by its name).
template <typename T, typename Option, typename Value>
void setPipelineOption(Option &option, const Value &value) {
  if constexpr (std::is_same_v<T, GRFMode>)
    option = *symbolizeGRFMode(value);
  else
    option = value;
}

/// The pipeline's options from the Python call's (checked).
void setPipelineOptions(const CompileOptions &options,
                        CodegenPipelineOptions &pipeline) {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  setPipelineOption<TYPE>(pipeline.FIELD, options.FIELD);
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
}

/// The binary that holds the kernels of `report`: the one a split part
/// moved to, else the linked module it is part of, else its own.
llvm::StringRef getBinaryName(const ModuleReport &report) {
  if (!report.splitInto.empty())
    return report.splitInto;
  if (!report.linkedInto.empty())
    return report.linkedInto;
  return report.module;
}

/// One outcome per module the pass reported, with the binary of each
/// module that compiled: its own, the linked or split binary that holds its
/// kernels, or for a duplicate its original's. A binary has one object per
/// target, in the order of its module's reports (an object already native
/// before the pass ran has no report).
void addModuleOutcomes(ModuleOp module, llvm::ArrayRef<ModuleReport> reports,
                       CompileOutcome &outcome) {
  llvm::StringMap<std::vector<std::string>> binaries;
  for (NativeObject &object : collectNativeObjects(module))
    binaries[object.module].push_back(std::move(object.binary));
  llvm::StringMap<std::string> binaryOf;
  for (const ModuleReport &report : reports)
    binaryOf.try_emplace(report.module, getBinaryName(report).str());

  llvm::StringMap<size_t> seen;
  for (const ModuleReport &report : reports) {
    ModuleOutcome moduleOutcome{getReportEntry(report), std::nullopt};
    if (!report.module.empty() && !report.failed()) {
      size_t target = seen[report.module]++;
      std::string binary = binaryOf.lookup(report.deduplicatedFrom.empty()
                                               ? report.module
                                               : report.deduplicatedFrom);
      auto found = binaries.find(binary);
      if (found != binaries.end() && target < found->second.size())
        moduleOutcome.binary = found->second[target];
    }
    outcome.modules.push_back(std::move(moduleOutcome));
  }
}

CompileOutcome compileMLIR(const std::string &text,
                           const std::string &bufferName,
                           const CompileOptions &options) {
  CompileOutcome outcome;
  if (!checkOptions(options, bufferName, outcome))
    return outcome;
  if (std::optional<SourceRefusal> refusal = screenSource(text)) {
    outcome.addError(llvm::formatv("{0}:{1}:{2}: error: {3}", bufferName,
                                   refusal->line, refusal->column,
                                   refusal->message));
    return outcome;
  }

  // Single-threaded: every recursion over the IR stays on this thread's
  // large stack (native builds still run in parallel, in the workers).
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  llvm::raw_string_ostream diagnostics(outcome.diagnostics);
  SourceMgrDiagnosticHandler sourceMgrHandler(sourceMgr, &context, diagnostics);
  // Registered last, so it sees every diagnostic first; it only counts and
  // lets the source manager handler print.
  bool sawError = false;
  DiagnosticEngine::HandlerID counter =
      context.getDiagEngine().registerHandler([&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          sawError = true;
        return failure();
      });
  auto finish = [&]() -> CompileOutcome & {
    context.getDiagEngine().eraseHandler(counter);
    outcome.success = outcome.success && !sawError;
    return outcome;
  };

  // Verified only after the checks of what upstream verifiers divide by.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(&context, /*verifyAfterParse=*/false));
  if (!module || failed(checkUpstreamVerifierInputs(*module)) ||
      failed(verify(*module))) {
    outcome.success = false;
    return finish();
  }

  // The pass hands each module's report over directly, even when some
  // modules failed: it is how the caller learns what did compile.
  CodegenPipelineOptions pipeline;
  setPipelineOptions(options, pipeline);
  PassManager pm(&context, ModuleOp::getOperationName());
  // The run's edge: the compiler, cache and workers resolved once, from the
  // call's options, for every pass that compiles; it collects the results.
  std::shared_ptr<CompileSession> session =
      CompileSession::create(getNativeCodegenOptions(options));
  buildCodegenPipeline(pm, pipeline, session);
  // Verified once, after the pipeline, not after each pass: upstream's
  // gpu.container_module verifier looks each launch's module up by a scan
  // of the whole program, so each verification is quadratic in modules (at
  // 4000 modules, 0.9 s each; the passes themselves take 0.1 s together).
  pm.enableVerifier(false);
  if (failed(pm.run(*module)) || failed(verify(*module)))
    outcome.success = false;
  addModuleOutcomes(*module, session->takeResults(), outcome);
  return finish();
}

/// compileMLIR on a thread with a stack for kMaxSourceNesting levels.
CompileOutcome compileMLIROnLargeStack(const std::string &text,
                                       const std::string &bufferName,
                                       const CompileOptions &options) {
  CompileOutcome outcome;
  llvm::Expected<CheckedThread> thread = CheckedThread::start(
      [&] { outcome = compileMLIR(text, bufferName, options); },
      kScreenedStackBytes);
  // Under a pids limit: an error of this compile, not an abort of Python.
  if (!thread) {
    outcome.addError(bufferName +
                     ": error: " + llvm::toString(thread.takeError()));
    return outcome;
  }
  thread->join();
  return outcome;
}

} // namespace

PYBIND11_MODULE(_xpu_codegen_mlir, m) {
  m.doc() = "MLIR half of xpu_codegen (links libMLIR); use the xpu_codegen "
            "package.";
  defineShutdown(m);
  defineCompileSPIRV(m);
  defineResultFields(m);

  m.def(
      "compile_mlir",
      [](py::bytes text, std::string bufferName, const py::kwargs &keywords) {
        std::string source(text);
        CompileOptions options = parseCompileOptions(keywords);
        return toPython(runNative(
            [&] {
              return compileMLIROnLargeStack(source, bufferName, options);
            },
            refusedAtExit()));
      },
      py::arg("text"), py::arg("buffer_name"),
      "Runs xpu-codegen-pipeline on MLIR text (UTF-8 bytes); the options "
      "(codegen_options()) as keywords.");
}
