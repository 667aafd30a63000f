//===- XPUAttrs.h - XPU attributes -----------------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_H
#define XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/JSON.h"

#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h"

namespace mlir::xpu {

/// A GRF mode as an attribute parameter: a keyword (`small`, `auto`, ...)
/// or a register count (`160`; `128` is `small`).
FailureOr<GRFMode> parseGRFMode(AsmParser &parser);
/// Prints a mode as a keyword and a count as a number.
void printGRFMode(AsmPrinter &printer, GRFMode mode);

} // namespace mlir::xpu

#define GET_ATTRDEF_CLASSES
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h.inc"

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_H
