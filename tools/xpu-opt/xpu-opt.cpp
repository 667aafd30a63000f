//===- xpu-opt.cpp - mlir-opt with the xpu dialect and passes -------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// MlirOptMain, guarded against input that crashes upstream code
// (docs/HostSafety.md, "Input that crashes upstream MLIR"): each split chunk
// is screened before the parser sees it (nesting, XeGPU layout fields),
// parsed with verification deferred until the xegpu checks ran, and
// everything runs on a thread whose stack takes kMaxSourceNesting levels.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/Transforms/ModuleFailures.h"
#include "XPUCodegen/Dialect/XPU/Transforms/UpstreamVerifierGuard.h"
#include "XPUCodegen/InitAllXPU.h"
#include "XPUCodegen/Support/SourceScreening.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

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

/// Reports `refusal` in `buffer` as MlirOptMain would report an error: to
/// stderr, or to the expected-* checker under -verify-diagnostics.
LogicalResult reportRefusal(std::unique_ptr<llvm::MemoryBuffer> buffer,
                            const xpu::SourceRefusal &refusal,
                            const MlirOptMainConfig &config) {
  MLIRContext context(MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  llvm::StringRef name = buffer->getBufferIdentifier();
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  Location loc =
      FileLineColLoc::get(&context, name, refusal.line, refusal.column);
  if (!config.shouldVerifyDiagnostics()) {
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    emitError(loc) << refusal.message;
    return failure();
  }
  SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &context,
                                             config.verifyDiagnosticsLevel());
  emitError(loc) << refusal.message;
  return handler.verify();
}

/// MlirOptMain on one chunk, after screening it: the xegpu checks run
/// before the verifier, as the first pass.
LogicalResult processChunk(std::unique_ptr<llvm::MemoryBuffer> chunk,
                           const llvm::MemoryBufferRef &source,
                           llvm::raw_ostream &os, DialectRegistry &registry,
                           const MlirOptMainConfig &config) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = padChunk(*chunk, source);
  if (std::optional<xpu::SourceRefusal> refusal =
          xpu::screenSource(buffer->getBuffer()))
    return reportRefusal(std::move(buffer), *refusal, config);

  MlirOptMainConfig chunkConfig = config;
  chunkConfig.splitInputFile("");
  chunkConfig.verifyOnParsing(false);
  bool verify = config.shouldVerifyOnParsing();
  chunkConfig.setPassPipelineSetupFn([&config, verify](PassManager &pm) {
    pm.addPass(xpu::createGuardedVerifyPass(verify));
    return config.setupPassPipeline(pm);
  });
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
  llvm::thread worker(std::optional<unsigned>(xpu::kScreenedStackBytes), [&] {
    result = runOnFiles(inputFilename, outputFilename, registry, config);
  });
  worker.join();
  if (failed(result))
    return EXIT_FAILURE;
  return xpu::getNumDeferredModuleFailures() ? EXIT_FAILURE : EXIT_SUCCESS;
}
