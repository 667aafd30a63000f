//===- SPIRVEmitter.h - gpu.module to SPIR-V --------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_SPIRV_SPIRVEMITTER_H
#define XPUCODEGEN_TARGET_SPIRV_SPIRVEMITTER_H

#include "XPUCodegen/Target/SPIRV/SPIRVValidator.h"

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

/// Checks `spirv` with SPIRV-Tools per `mode`: a rejection is a warning at
/// `op` (Warn) or an error (Strict, the only case that fails).
LogicalResult checkSPIRV(Operation *op, ArrayRef<char> spirv,
                         SPIRVValidation mode, StringRef pass);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_SPIRV_SPIRVEMITTER_H
