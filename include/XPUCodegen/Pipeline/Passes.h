//===- Passes.h - XPU passes -----------------------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_PASSES_H
#define XPUCODEGEN_PIPELINE_PASSES_H

#include "XPUCodegen/Compiler/Codegen/CompileSession.h"
#include "XPUCodegen/Compiler/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Compiler/Codegen/Report.h"
#include "XPUCodegen/Dialect/XPU/Analysis/RegisterPressure.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Pipeline/CodegenPassOptions.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::xpu {

#define GEN_PASS_DECL
#include "XPUCodegen/Pipeline/Passes.h.inc"

/// Options of the whole flow, `xpu-codegen-pipeline`: the whole list of
/// CodegenOptions.def.
struct CodegenPipelineOptions
    : public PassPipelineOptions<CodegenPipelineOptions> {
#define XPU_CODEGEN_OPTION(FIELD, NAME, TYPE, DEFAULT, ROLE, CHECK, DESC)      \
  CodegenOption<codegen_option::FIELD, PassOptions::Option<TYPE>, PassOptions> \
      FIELD{*this};
#include "XPUCodegen/Compiler/Codegen/CodegenOptions.def"
};

/// The passes that share the pipeline's options, made from them; the
/// module-cache, start-workers and native-codegen passes share `session`
/// (CompileSession.h: what the run resolved once).
std::unique_ptr<Pass>
createXPUAttachTarget(const CodegenPipelineOptions &options);
/// `keepGoing`: xpu-select-grf-mode's own option.
std::unique_ptr<Pass>
createXPUSelectGRFMode(const CodegenPipelineOptions &options, bool keepGoing);
/// `checkLowering`: xpu-link-modules' own option.
std::unique_ptr<Pass>
createXPULinkModules(const CodegenPipelineOptions &options, bool checkLowering);
/// `keepGoing`: xpu-lower-to-xevm's own option.
std::unique_ptr<Pass>
createXPULowerToXeVM(const CodegenPipelineOptions &options, bool keepGoing);
/// `keepGoing`: xpu-emit-spirv's own option; `validation` is not taken from
/// `options` (the pipeline validates once, in xpu-native-codegen).
std::unique_ptr<Pass> createXPUEmitSPIRV(const CodegenPipelineOptions &options,
                                         SPIRVValidation validation,
                                         bool keepGoing);
std::unique_ptr<Pass>
createXPUExportXeVMObjects(const CodegenPipelineOptions &options);
std::unique_ptr<Pass>
createXPUModuleCache(const CodegenPipelineOptions &options,
                     std::shared_ptr<CompileSession> session,
                     StringRef pipelineKey);
std::unique_ptr<Pass>
createXPUStartWorkers(const CodegenPipelineOptions &options,
                      std::shared_ptr<CompileSession> session);
/// xpu-native-codegen hands each module's report to `session`
/// (CompileSession::takeResults), as the report file lists them.
std::unique_ptr<Pass>
createXPUNativeCodegen(const CodegenPipelineOptions &options,
                       std::shared_ptr<CompileSession> session);

/// The options that can change what the pipeline makes of a module (those
/// of role Keyed), printed, for the module cache's keys.
std::string getModuleCachePipelineKey(const CodegenPipelineOptions &options);

/// Adds the whole flow: attach the target, resolve GRF modes, lower
/// gpu/arith/memref/vector/scf/math to LLVM, emit SPIR-V, compile natively.
/// The passes that compile share `session`, which collects each module's
/// report; without one, the builder makes it from `options` (the run's
/// edge: the compiler root is resolved here).
void buildCodegenPipeline(OpPassManager &pm,
                          const CodegenPipelineOptions &options,
                          std::shared_ptr<CompileSession> session = nullptr);

/// Registers `xpu-codegen-pipeline`.
void registerCodegenPipeline();

#define GEN_PASS_REGISTRATION
#include "XPUCodegen/Pipeline/Passes.h.inc"

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_PASSES_H
