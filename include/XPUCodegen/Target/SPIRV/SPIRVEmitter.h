//===- SPIRVEmitter.h - gpu.module to SPIR-V --------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_SPIRV_SPIRVEMITTER_H
#define XPUCODEGEN_TARGET_SPIRV_SPIRVEMITTER_H

#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Compiler/Worker/WorkerPool.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"

namespace mlir::xpu {

/// Serializes `module` to a validated SPIR-V binary. A module whose body is
/// in the LLVM dialect goes through LLVM's SPIR-V backend (as upstream XeVM
/// does); a module holding one spirv.module goes through MLIR's SPIR-V
/// serializer. Every failure is an error located at `module`.
/// Serializes `module` (LLVM dialect, or one nested spirv.module) to SPIR-V.
/// Errors are located at the module or the op that could not be emitted.
FailureOr<SmallVector<char, 0>> emitSPIRV(gpu::GPUModuleOp module,
                                          int optLevel = 2);

/// An xpu-spirv-emitter process is retired after this many modules: it
/// keeps every module's machine code to stay immune to
/// llvm/llvm-project#160613 (about 1 MiB per module).
constexpr unsigned kSPIRVEmitterModulesPerProcess = 64;

/// The default time limit per module for LLVM's SPIR-V backend, in seconds
/// ($XPU_CODEGEN_LLC_TIMEOUT_S overrides it; 0: none).
constexpr uint64_t kDefaultSPIRVEmitTimeoutS = 300;

/// The process-wide pool of xpu-spirv-emitter processes that emitSPIRV uses
/// for LLVM-dialect modules (started on demand; time limit per module from
/// $XPU_CODEGEN_LLC_TIMEOUT_S). For tests and benchmarks: how many emitters
/// were started.
llvm::Expected<WorkerPool &> getSPIRVEmitterPool();

/// Checks `spirv` with SPIRV-Tools per `mode`: a rejection is a warning at
/// `op` (Warn) or an error (Strict, the only case that fails).
LogicalResult checkSPIRV(Operation *op, ArrayRef<char> spirv,
                         SPIRVValidation mode, StringRef pass);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_SPIRV_SPIRVEMITTER_H
