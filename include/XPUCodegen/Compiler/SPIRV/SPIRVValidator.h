//===- SPIRVValidator.h - Screen SPIR-V before IGC sees it ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// IGC calls exit()/abort() or runs away on malformed SPIR-V (the validator
// rejected every fatal corruption tried; test/Inputs/Worker has the search
// script). Validation is the first line of defence; the isolated workers are
// the second, and the only one under validate-spirv=warn or off.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_SPIRV_SPIRVVALIDATOR_H
#define XPUCODEGEN_COMPILER_SPIRV_SPIRVVALIDATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace mlir::xpu {

/// What a SPIRV-Tools rejection means. SPIRV-Tools 2023.1 rejects SPIR-V
/// that IGC compiles (Triton's 1-element vectors, LLVM 22's mixed-width
/// OpBitwiseAnd), and the workers isolate IGC from bad input anyway, so by
/// default a rejection is a warning and the module still compiles.
enum class SPIRVValidation { Warn, Strict, Off };

llvm::StringRef stringifySPIRVValidation(SPIRVValidation mode);
std::optional<SPIRVValidation> parseSPIRVValidation(llvm::StringRef text);

/// True when `bytes` starts with the SPIR-V magic number (either byte order).
bool isSPIRV(llvm::ArrayRef<char> bytes);

/// The largest module validated in the host (SPIRV-Tools needs about 50
/// times its size in memory: a 100 MB module took 4.9 GB and 37 s).
constexpr size_t kMaxValidatedSPIRVSize = size_t(16) << 20;

/// Validates `spirv` with SPIRV-Tools (universal SPIR-V 1.4 environment: the
/// version LLVM's backend emits, which the OpenCL environments reject on
/// version alone). The error carries the validator's messages; a module
/// larger than kMaxValidatedSPIRVSize is an error without being validated
/// (with validate-spirv=warn it still goes to the isolated worker).
llvm::Error validateSPIRV(llvm::ArrayRef<char> spirv);

/// Assembles SPIR-V assembly text (what MLIR 22's `#xevm.target` emits with
/// `format=isa`) into a binary module.
llvm::Expected<std::vector<char>> assembleSPIRV(llvm::StringRef text);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_SPIRV_SPIRVVALIDATOR_H
