//===- xpu-opt.cpp - mlir-opt with the xpu dialect and passes -------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// MlirOptMain, guarded against input that crashes upstream code
// (docs/HostSafety.md, "Input that crashes upstream MLIR"): each split chunk
// is screened before the parser sees it (nesting, XeGPU layout fields); a
// chunk that uses XeGPU is parsed once with verification deferred for the
// checks of what upstream's verifiers divide by; then MlirOptMain runs on
// it, all on a thread whose stack takes kMaxSourceNesting levels.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/InitAllXPU.h"
#include "XPUCodegen/Pipeline/Lower/UpstreamVerifierGuard.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Support/CheckedThread.h"
#include "XPUCodegen/Support/SourceScreening.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/ParseUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/thread.h"

#include <cstdio>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kToolName = "XPUCodegen optimizer driver\n";

/// A chunk of the input as the parser should see it: padded with the
/// newlines and blanks before it, so that locations and `expected-error`
/// lines count from the start of the whole file.
std::unique_ptr<llvm::MemoryBuffer>
padChunk(const llvm::MemoryBuffer &chunk, const llvm::MemoryBufferRef &source) {
  llvm::StringRef whole = source.getBuffer();
  const char *start = chunk.getBufferStart();
  std::string padded;
  if (start >= whole.begin() && start <= whole.end()) {
    llvm::StringRef before = whole.take_front(start - whole.begin());
    size_t lineStart = before.rfind('\n');
    size_t column = lineStart == llvm::StringRef::npos
                        ? before.size()
                        : before.size() - lineStart - 1;
    padded.assign(before.count('\n'), '\n');
    padded.append(column, ' ');
  }
  padded += chunk.getBuffer();
  return llvm::MemoryBuffer::getMemBufferCopy(padded,
                                              source.getBufferIdentifier());
}

/// Reports `emit`'s errors on `buffer` as MlirOptMain would: to stderr, or
/// to the expected-* checker under -verify-diagnostics.
LogicalResult reportErrors(MLIRContext &context,
                           const llvm::MemoryBuffer &buffer,
                           const MlirOptMainConfig &config,
                           llvm::function_ref<void(MLIRContext &)> emit) {
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  if (!config.shouldVerifyDiagnostics()) {
    SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
    emit(context);
    return failure();
  }
  SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context,
                                             config.verifyDiagnosticsLevel());
  emit(context);
  return handler.verify();
}

/// For a chunk that uses XeGPU: parses it with verification deferred and
/// runs the checks of what upstream's XeGPU verifiers divide by. Returns
/// the chunk's result if they fail; nothing if MlirOptMain may run (also
/// when the chunk does not parse: MlirOptMain reports that).
std::optional<LogicalResult> checkXeGPU(const llvm::MemoryBuffer &buffer,
                                        DialectRegistry &registry,
                                        const MlirOptMainConfig &config) {
  if (!buffer.getBuffer().contains("xegpu"))
    return std::nullopt;
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  context.printOpOnDiagnostic(false);
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  OwningOpRef<Operation *> op;
  {
    ScopedDiagnosticHandler silence(&context,
                                    [](Diagnostic &) { return success(); });
    op = parseSourceFileForTool(
        sourceMgr, ParserConfig(&context, /*verifyAfterParse=*/false),
        !config.shouldUseExplicitModule());
    if (!op)
      return std::nullopt;
    if (succeeded(xpu::checkUpstreamVerifierInputs(op.get())))
      return std::nullopt;
  }
  return reportErrors(context, buffer, config, [&](MLIRContext &) {
    (void)xpu::checkUpstreamVerifierInputs(op.get());
  });
}

/// MlirOptMain on one chunk, after screening it and checking its XeGPU.
LogicalResult processChunk(std::unique_ptr<llvm::MemoryBuffer> chunk,
                           const llvm::MemoryBufferRef &source,
                           llvm::raw_ostream &os, DialectRegistry &registry,
                           const MlirOptMainConfig &config) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = padChunk(*chunk, source);
  if (std::optional<xpu::SourceRefusal> refusal =
          xpu::screenSource(buffer->getBuffer())) {
    MLIRContext context(MLIRContext::Threading::DISABLED);
    return reportErrors(context, *buffer, config, [&](MLIRContext &context) {
      emitError(FileLineColLoc::get(&context, buffer->getBufferIdentifier(),
                                    refusal->line, refusal->column))
          << refusal->message;
    });
  }
  if (std::optional<LogicalResult> result =
          checkXeGPU(*buffer, registry, config))
    return *result;
  MlirOptMainConfig chunkConfig = config;
  chunkConfig.splitInputFile("");
  return MlirOptMain(os, std::move(buffer), registry, chunkConfig);
}

/// What MlirOptMain(argc, argv, ...) does after parsing the options, with
/// each chunk of the input through processChunk.
LogicalResult runOnFiles(llvm::StringRef inputFilename,
                         llvm::StringRef outputFilename,
                         DialectRegistry &registry,
                         const MlirOptMainConfig &config) {
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  auto process = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                     const llvm::MemoryBufferRef &source,
                     llvm::raw_ostream &os) {
    return processChunk(std::move(chunk), source, os, registry, config);
  };
  if (failed(splitAndProcessBuffer(std::move(file), process, output->os(),
                                   config.inputSplitMarker(),
                                   config.outputSplitMarker())))
    return failure();
  output->keep();
  return success();
}

} // namespace

static llvm::cl::opt<bool> countPassWork(
    "xpu-count-work",
    llvm::cl::desc("Print the operations each top-level pass of the project "
                   "visits (\"xpu-pass-work: <pass> <count>\"), for tests "
                   "that check its work grows linearly"),
    llvm::cl::init(false));

/// The IR xpu-opt prints has been verified by then: by the parser, and by
/// the pass manager after each pass (-verify-each). The printer would
/// verify it once more, and upstream's check of `gpu.container_module`
/// scans the program for each launch: quadratic in modules. So it prints
/// without that check, unless the command line sets
/// --mlir-print-assume-verified itself or turned either verification off.
static void skipVerifiedOutputCheck(const MlirOptMainConfig &config) {
  if (!config.shouldVerifyOnParsing() || !config.shouldVerifyPasses())
    return;
  llvm::StringRef name = "mlir-print-assume-verified";
  llvm::cl::Option *flag = llvm::cl::getRegisteredOptions().lookup(name);
  if (!flag || flag->getNumOccurrences())
    return;
  (void)flag->addOccurrence(0, name, "true");
}

int main(int argc, char **argv) {
  registerAllPasses();
  xpu::registerAllXPUPasses();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  xpu::registerXPUDialectAndModels(registry);

  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, kToolName, registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  skipVerifiedOutputCheck(config);
  if (countPassWork) {
    // Wraps the pipeline from the command line: counting goes around it.
    config.setPassPipelineSetupFn(
        [parse = config](PassManager &pm) -> LogicalResult {
          xpu::addPassWorkCounting(pm, llvm::errs());
          return parse.setupPassPipeline(pm);
        });
  }
  // Listing needs no input: upstream's own driver does it.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  llvm::InitLLVM initLLVM(argc, argv);
  // A module that fails (to lower, emit or compile) is its own error: the
  // IR of the others is still written, and the exit status says it failed.
  xpu::setDeferModuleFailures(true);
  LogicalResult result = failure();
  // Parser, verifier, passes and printer recurse per nesting level.
  llvm::Expected<xpu::CheckedThread> worker = xpu::CheckedThread::start(
      [&] {
        result = runOnFiles(inputFilename, outputFilename, registry, config);
      },
      xpu::kScreenedStackBytes);
  if (!worker) {
    llvm::errs() << "xpu-opt: error: " << llvm::toString(worker.takeError())
                 << "\n";
    return EXIT_FAILURE;
  }
  worker->join();
  if (failed(result))
    return EXIT_FAILURE;
  return xpu::getNumDeferredModuleFailures() ? EXIT_FAILURE : EXIT_SUCCESS;
}
