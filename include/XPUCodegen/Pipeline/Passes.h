//===- Passes.h - XPU passes -----------------------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_PASSES_H
#define XPUCODEGEN_PIPELINE_PASSES_H

#include "XPUCodegen/Dialect/XPU/Analysis/RegisterPressure.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Target/Codegen/NativeCodegenDriver.h"
#include "XPUCodegen/Target/Codegen/Report.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::xpu {

/// The spellings every `grf-mode` option accepts: the modes, Triton's
/// `128`/`256`/`512`, and the register counts of a variable register file.
llvm::cl::ValuesClass getGRFModeOptionValues();

#define GEN_PASS_DECL
#include "XPUCodegen/Pipeline/Passes.h.inc"

/// xpu-native-codegen that also hands each module's report to `results`
/// (which must outlive the pass), as the report file lists them.
std::unique_ptr<Pass>
createXPUNativeCodegen(const XPUNativeCodegenOptions &options,
                       CompileResults *results);

/// Options of the whole flow, `xpu-codegen-pipeline`.
struct CodegenPipelineOptions
    : public PassPipelineOptions<CodegenPipelineOptions> {
  PassOptions::Option<std::string> arch{
      *this, "arch", llvm::cl::desc("Intel GPU device architecture"),
      llvm::cl::init("pvc")};
  PassOptions::Option<GRFMode> grfMode{
      *this, "grf-mode", llvm::cl::desc("Requested GRF mode"),
      llvm::cl::init(GRFMode::Auto), getGRFModeOptionValues()};
  PassOptions::Option<std::string> module{
      *this, "module",
      llvm::cl::desc("Regular expression selecting gpu.module names")};
  PassOptions::Option<std::string> flags{
      *this, "flags", llvm::cl::desc("Extra native compiler build options")};
  PassOptions::Option<int> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("Sub-group size kernels require unless they set their "
                     "own (-1: the device's default, 16; 0: none)"),
      llvm::cl::init(-1)};
  PassOptions::Option<std::string> xegpuOpLevel{
      *this, "xegpu-op-level",
      llvm::cl::desc("Granularity of XeGPU ops: workgroup, subgroup or lane"),
      llvm::cl::init("workgroup")};
  PassOptions::Option<bool> use64bitIndex{
      *this, "use-64bit-index",
      llvm::cl::desc("Bitwidth of the index type (device, and host with "
                     "host=true)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level before SPIR-V emission"),
      llvm::cl::init(2)};
  PassOptions::Option<bool> dedupe{
      *this, "dedupe",
      llvm::cl::desc("Compile modules equal up to symbol names once "
                     "(xpu-dedupe-modules)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> link{
      *this, "link",
      llvm::cl::desc("Link modules with the same target, flags and GRF "
                     "policy so they compile in one native compiler call "
                     "(xpu-link-modules; docs/Linking.md); link=false keeps "
                     "one binary per module"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> linkMaxKernels{
      *this, "link-max-kernels",
      llvm::cl::desc("Most kernels in one linked module (xpu-link-modules "
                     "max-kernels)"),
      llvm::cl::init(16)};
  PassOptions::Option<unsigned> linkAloneAbove{
      *this, "link-alone-above",
      llvm::cl::desc("auto modules whose register-pressure estimate reaches "
                     "this percentage of the small register file are not "
                     "linked (xpu-link-modules alone-above; 0: link them "
                     "too)"),
      llvm::cl::init(110)};
  PassOptions::Option<bool> host{
      *this, "host",
      llvm::cl::desc("Also lower the host side as upstream's "
                     "gpu-lower-to-xevm-pipeline does (gpu-to-llvm)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> xevmObjects{
      *this, "xevm-objects",
      llvm::cl::desc("Final objects carry upstream's #xevm.target, readable "
                     "by stock mlir-translate (xpu-export-xevm-objects; "
                     "implied by host=true)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> hostBarePtrCallConv{
      *this, "host-bare-ptr-calling-convention",
      llvm::cl::desc("host=true: bare pointers for host launches"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> kernelBarePtrCallConv{
      *this, "kernel-bare-ptr-calling-convention",
      llvm::cl::desc("host=true: bare pointers for kernel arguments"),
      llvm::cl::init(false)};
  PassOptions::Option<SPIRVValidation> validateSPIRV{
      *this, "validate-spirv",
      llvm::cl::desc("What a SPIRV-Tools rejection is"),
      llvm::cl::init(SPIRVValidation::Warn),
      llvm::cl::values(
          clEnumValN(SPIRVValidation::Warn, "warn", "a warning"),
          clEnumValN(SPIRVValidation::Strict, "strict", "an error"),
          clEnumValN(SPIRVValidation::Off, "off", "not validated"))};
  PassOptions::Option<uint64_t> timeoutMs{
      *this, "timeout-ms",
      llvm::cl::desc("Wall-clock limit per compile in ms (0: none)"),
      llvm::cl::init(300000)};
  PassOptions::Option<uint64_t> memoryLimitMiB{
      *this, "memory-limit-mb",
      llvm::cl::desc("Address-space limit per compiler worker in MiB (0: "
                     "none)"),
      llvm::cl::init(8192)};
  PassOptions::Option<BackendKind> backend{
      *this, "backend", llvm::cl::desc("Native compiler"),
      llvm::cl::init(BackendKind::Auto),
      llvm::cl::values(
          clEnumValN(BackendKind::Auto, "auto", "Level Zero GPU, else ocloc"),
          clEnumValN(BackendKind::Ocloc, "ocloc", "libocloc"),
          clEnumValN(BackendKind::LevelZero, "level-zero", "Level Zero"))};
  PassOptions::Option<int64_t> spillThreshold{
      *this, "spill-threshold",
      llvm::cl::desc("auto: build large when small spills more bytes"),
      llvm::cl::init(0)};
  PassOptions::Option<AutoStrategy> autoStrategy{
      *this, "auto-strategy", llvm::cl::desc("How auto is resolved"),
      llvm::cl::init(AutoStrategy::Measure),
      llvm::cl::values(
          clEnumValN(AutoStrategy::Measure, "measure", "build and compare"),
          clEnumValN(AutoStrategy::IGC, "igc", "IGC's auto flag"))};
  PassOptions::Option<std::string> cacheDir{
      *this, "cache-dir", llvm::cl::desc("Persistent cache directory")};
  PassOptions::Option<std::string> cacheUrl{
      *this, "cache-url",
      llvm::cl::desc("Shared cache tier, redis://host:port[/db] ('none': "
                     "off; default: $XPU_CODEGEN_CACHE_URL)")};
  PassOptions::Option<std::string> compilerRoot{
      *this, "compiler-root",
      llvm::cl::desc("The compiler: an ocloc installation directory "
                     "(default: $XPU_CODEGEN_COMPILER_ROOT, else the "
                     "system's)")};
  PassOptions::Option<unsigned> jobs{
      *this, "jobs", llvm::cl::desc("Parallel compiler workers"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> cacheMaxSize{
      *this, "cache-max-size",
      llvm::cl::desc("Bound of the persistent cache (e.g. 512m, 4g)"),
      llvm::cl::init("4g")};

  PassOptions::Option<std::string> report{*this, "report",
                                          llvm::cl::desc("JSON report path")};
  PassOptions::Option<uint64_t> maxWorkGroupSize{
      *this, "max-workgroup-size",
      llvm::cl::desc("Work-items per work-group of kernels that declare none "
                     "(0: unknown)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> strictLaunch{
      *this, "strict-launch",
      llvm::cl::desc("A kernel whose declared work-group fits no GRF mode "
                     "fails its module (default: a warning, and it is "
                     "built)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> nRegsDefault{
      *this, "n-regs-default",
      llvm::cl::desc("n_regs when the flags do not pin the GRF mode: 0 or "
                     "128"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> remarks{*this, "remarks",
                                    llvm::cl::desc("Explain each GRF decision"),
                                    llvm::cl::init(false)};
  PassOptions::Option<bool> predict{
      *this, "predict",
      llvm::cl::desc("auto: resolve early from a register-pressure estimate "
                     "when it is confident"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> speculative{
      *this, "speculative",
      llvm::cl::desc("auto with predict: build small and large concurrently "
                     "when the estimate is uncertain"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> predictSmallBelow{
      *this, "predict-small-below",
      llvm::cl::desc("Predict small below this % of the small GRF budget"),
      llvm::cl::init(PredictionThresholds::kDefaultSmallBelowPercent)};
  PassOptions::Option<unsigned> predictLargeAbove{
      *this, "predict-large-above",
      llvm::cl::desc("Predict large above this % of the small GRF budget"),
      llvm::cl::init(PredictionThresholds::kDefaultLargeAbovePercent)};
  PassOptions::Option<bool> verifyPredictedLarge{
      *this, "verify-predicted-large",
      llvm::cl::desc("When a module predicted large spills in large mode, "
                     "build small too and keep the lesser (off: trust the "
                     "prediction, made only outside the uncertain band)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> verifyDeterminism{
      *this, "verify-determinism",
      llvm::cl::desc("Debugging: build every module twice and warn about "
                     "differences (the first result is kept)"),
      llvm::cl::init(false)};
};

/// Adds the whole flow: attach the target, resolve GRF modes, lower
/// gpu/arith/memref/vector/scf/math to LLVM, emit SPIR-V, compile natively.
/// Each module's report goes to `results` when given.
void buildCodegenPipeline(OpPassManager &pm,
                          const CodegenPipelineOptions &options,
                          CompileResults *results = nullptr);

/// Registers `xpu-codegen-pipeline`.
void registerCodegenPipeline();

#define GEN_PASS_REGISTRATION
#include "XPUCodegen/Pipeline/Passes.h.inc"

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_PASSES_H
