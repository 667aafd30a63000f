//===- ResultFields.h - The keys of a module's result -----------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The keys of a module's result in one place (ResultFields.def): the JSON
// report and the native object's properties print the same result struct
// under them, and Python reads them through the bindings.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_SUPPORT_RESULTFIELDS_H
#define XPUCODEGEN_SUPPORT_RESULTFIELDS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::xpu::fields {

#define RESULT_FIELD(NAME, KEY)                                                \
  inline constexpr llvm::StringLiteral k##NAME = KEY;
#include "XPUCodegen/Support/ResultFields.def"

/// Every key, in the order of ResultFields.def.
inline constexpr llvm::StringLiteral kAll[] = {
#define RESULT_FIELD(NAME, KEY) KEY,
#include "XPUCodegen/Support/ResultFields.def"
};

} // namespace mlir::xpu::fields

#endif // XPUCODEGEN_SUPPORT_RESULTFIELDS_H
