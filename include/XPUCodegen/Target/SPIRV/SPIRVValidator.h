//===- SPIRVValidator.h - Screen SPIR-V before IGC sees it ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// IGC calls exit()/abort() or runs away on malformed SPIR-V (FACTS.md: the
// validator rejected every fatal corruption tried). Validation is the first
// line of defence; the isolated workers are the second.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_SPIRV_SPIRVVALIDATOR_H
#define XPUCODEGEN_TARGET_SPIRV_SPIRVVALIDATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace mlir::xpu {

/// True when `bytes` starts with the SPIR-V magic number (either byte order).
bool isSPIRV(llvm::ArrayRef<char> bytes);

/// Validates `spirv` with SPIRV-Tools (universal SPIR-V 1.4 environment: the
/// version LLVM's backend emits, which the OpenCL environments reject on
/// version alone). The error carries the validator's messages.
llvm::Error validateSPIRV(llvm::ArrayRef<char> spirv);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_SPIRV_SPIRVVALIDATOR_H
