//===- CodegenPipeline.cpp - The whole flow as one pipeline ---------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::xpu;

/// The host half of upstream's gpu-lower-to-xevm-pipeline, so the output
/// feeds upstream's runtime flow (gpu.binary + launches in LLVM).
static void addHostLowering(OpPassManager &pm,
                            const CodegenPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuToLLVMConversionPassOptions gpuToLLVM;
  gpuToLLVM.hostBarePtrCallConv = options.hostBarePtrCallConv;
  gpuToLLVM.kernelBarePtrCallConv = options.kernelBarePtrCallConv;
  pm.addPass(createGpuToLLVMConversionPass(gpuToLLVM));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

std::string
mlir::xpu::getModuleCachePipelineKey(const CodegenPipelineOptions &options) {
  // Every option but those that only say where results go and how fast
  // they come, left at their type's empty value: options added later are in
  // the key unless their line in CodegenOptions.def says otherwise.
  CodegenPipelineOptions keyed;
  keyed.copyOptionValuesFrom(options);
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  if (CodegenOptionRole::ROLE != CodegenOptionRole::Keyed)                     \
    keyed.FIELD = TYPE();
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
  std::string text;
  llvm::raw_string_ostream os(text);
  keyed.print(os);
  return text;
}

void mlir::xpu::buildCodegenPipeline(OpPassManager &pm,
                                     const CodegenPipelineOptions &options,
                                     std::shared_ptr<CompileSession> session) {
  if (!session)
    session = CompileSession::create(getNativeCodegenOptions(options));
  pm.addPass(createXPUAttachTarget(options));
  // A module that cannot launch is marked and reported at the end.
  pm.addPass(createXPUSelectGRFMode(options, /*keepGoing=*/true));
  if (options.dedupe)
    pm.addPass(createXPUDedupeModules());
  // Optimistic: a linked module that does not lower is taken apart after
  // lowering (below), instead of every module being lowered on a copy.
  if (options.link)
    pm.addPass(createXPULinkModules(options, /*checkLowering=*/false));

  // The cache level before lowering: a module compiled before is replaced by
  // its binaries here and skips everything below.
  pm.addPass(createXPUModuleCache(options, session,
                                  getModuleCachePipelineKey(options)));

  // The workers of what is left to compile load IGC while it is lowered.
  pm.addPass(createXPUStartWorkers(options, session));

  // The device half of upstream's gpu-lower-to-xevm-pipeline, one module at
  // a time; a module that fails is marked and reported at the end.
  pm.addNestedPass<gpu::GPUModuleOp>(
      createXPULowerToXeVM(options, /*keepGoing=*/true));
  if (options.link) {
    // Each module of a linked one that did not lower, lowered alone.
    pm.addPass(createXPUUnlinkFailedModules());
    pm.addNestedPass<gpu::GPUModuleOp>(
        createXPULowerToXeVM(options, /*keepGoing=*/true));
  }

  // Validation happens once, in xpu-native-codegen, per validate-spirv.
  pm.addPass(createXPUEmitSPIRV(options, SPIRVValidation::Off,
                                /*keepGoing=*/true));
  pm.addPass(createXPUNativeCodegen(options, session));

  // Stock mlir-translate reads the host module only without #xpu attributes.
  if (options.host || options.xevmObjects)
    pm.addPass(createXPUExportXeVMObjects(options));
  if (options.host)
    addHostLowering(pm, options);
}

/// Every option's check (CodegenOptions.def), in the pipeline's spelling,
/// before anything runs; then the prediction band.
static llvm::Error checkPipelineOptions(const CodegenPipelineOptions &options) {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  if (llvm::Error error = checkCodegenOptionValue(                             \
          CodegenOptionCheck::CHECK, NAME, options.FIELD.getValue()))          \
    return error;
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
  return checkPredictionBand(options.predictSmallBelow,
                             options.predictLargeAbove);
}

void mlir::xpu::registerCodegenPipeline() {
  // PassPipelineRegistration<CodegenPipelineOptions>, plus the check that
  // report= names a file (the native pass, built with every option
  // assigned, cannot tell report= from no report).
  registerPassPipeline(
      "xpu-codegen-pipeline",
      "Attach #xpu.target, resolve GRF modes and sub-group sizes, lower "
      "gpu/arith/memref/vector/scf/math/affine/xegpu to LLVM and XeVM, emit "
      "SPIR-V and compile it to native code (host=true: lower the host too)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        CodegenPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (options.report.hasValue() && options.report.empty())
          return errorHandler("xpu-codegen-pipeline: report= needs a path");
        if (llvm::Error error = checkPipelineOptions(options))
          return errorHandler("xpu-codegen-pipeline: " +
                              llvm::toString(std::move(error)));
        buildCodegenPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(CodegenPipelineOptions());
      });
}
