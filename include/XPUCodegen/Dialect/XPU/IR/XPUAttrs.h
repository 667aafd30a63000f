//===- XPUAttrs.h - XPU attributes -----------------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_H
#define XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "XPUCodegen/Dialect/XPU/IR/XPUEnums.h.inc"

namespace mlir::xpu {

/// Registers per thread `mode` pins: 128, 256, 512 for the modes, N for a
/// count; 0 for `auto` and `default`, which do not pin one.
unsigned getGRFModeRegisters(GRFMode mode);

/// Whether `mode` is a register count no mode flag names (32 ... 192).
inline bool isGRFCount(GRFMode mode) {
  return mode >= GRFMode::Regs32 && mode <= GRFMode::Regs192;
}

/// The mode that pins `registers` registers per thread (128: small, 256:
/// large, 512: xlarge, 32 ... 192: that count); std::nullopt for a count no
/// device has (224 crashes IGC 2.40 and is never asked for).
std::optional<GRFMode> getGRFModeForRegisters(unsigned registers);

/// A GRF mode as an attribute parameter: a keyword (`small`, `auto`, ...)
/// or a register count (`160`; `128` is `small`).
FailureOr<GRFMode> parseGRFMode(AsmParser &parser);
/// Prints a mode as a keyword and a count as a number.
void printGRFMode(AsmPrinter &printer, GRFMode mode);

} // namespace mlir::xpu

#define GET_ATTRDEF_CLASSES
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h.inc"

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_H
