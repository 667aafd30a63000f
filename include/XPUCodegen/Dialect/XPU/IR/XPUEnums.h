//===- XPUEnums.h - The xpu dialect's enums, without MLIR IR ----*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The dialect's enums (GRF mode, register-pressure prediction, plan of an
// auto module) are the one type of each concept: the attributes carry them
// and the Target layer builds, decides and reports with them. This header
// needs no MLIR library, so that the MLIR-free Target libraries (the GRF
// decision, the batch driver) share the enums instead of mirroring them.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_XPUENUMS_H
#define XPUCODEGEN_DIALECT_XPU_IR_XPUENUMS_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

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

} // namespace mlir::xpu

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUENUMS_H
