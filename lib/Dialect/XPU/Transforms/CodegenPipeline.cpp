//===- CodegenPipeline.cpp - The whole flow as one pipeline ---------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::xpu;

void mlir::xpu::buildCodegenPipeline(OpPassManager &pm,
                                     const CodegenPipelineOptions &options) {
  XPUAttachTargetOptions attach;
  attach.arch = options.arch;
  attach.grfMode = options.grfMode;
  attach.flags = options.flags;
  attach.moduleMatcher = options.module;
  pm.addPass(createXPUAttachTarget(attach));
  XPUSelectGRFModeOptions select;
  select.predict = options.predict;
  select.speculative = options.speculative;
  select.predictSmallBelow = options.predictSmallBelow;
  select.predictLargeAbove = options.predictLargeAbove;
  pm.addPass(createXPUSelectGRFMode(select));

  // The upstream lowering to LLVM for SPIR-V (FACTS.md): scf-to-cf must run
  // on the whole module, after the GPU lowering.
  ConvertGpuOpsToLLVMSPVOpsOptions gpuToLLVMSPV;
  gpuToLLVMSPV.use64bitIndex = true;
  pm.addNestedPass<gpu::GPUModuleOp>(
      createConvertGpuOpsToLLVMSPVOps(gpuToLLVMSPV));
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  pm.addPass(createXPUEmitSPIRV());
  XPUNativeCodegenOptions native;
  native.backend = options.backend;
  native.spillThreshold = options.spillThreshold;
  native.autoStrategy = options.autoStrategy;
  native.cacheDir = options.cacheDir;
  native.jobs = options.jobs;
  native.report = options.report;
  native.remarks = options.remarks;
  native.verifyPredictedLarge = options.verifyPredictedLarge;
  pm.addPass(createXPUNativeCodegen(native));
}

void mlir::xpu::registerCodegenPipeline() {
  PassPipelineRegistration<CodegenPipelineOptions>(
      "xpu-codegen-pipeline",
      "Attach #xpu.target, resolve GRF modes, lower gpu/arith/memref/vector/"
      "scf/math to LLVM, emit SPIR-V and compile it to native code",
      buildCodegenPipeline);
}
