//===- XPUDialect.h - XPU dialect --------------------------------*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_XPUDIALECT_H
#define XPUCODEGEN_DIALECT_XPU_IR_XPUDIALECT_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Dialect.h"

#include "XPUCodegen/Dialect/XPU/IR/XPUOpsDialect.h.inc"

#include <optional>
#include <utility>

namespace mlir::xpu {

/// A module xpu-dedupe-modules folded into another, as one element of
/// `xpu.duplicates` records it: its name, and the kernels it names
/// differently from the kept module (its own name, the kept module's).
struct DuplicateModule {
  StringAttr name;
  SmallVector<std::pair<StringAttr, StringAttr>> renamedKernels;
};

/// Reads an element of `xpu.duplicates`: "name", or {module = "name",
/// kernels = {own = "kept", ...}}; std::nullopt for anything else (empty
/// names included).
std::optional<DuplicateModule> readDuplicateModule(Attribute record);

} // namespace mlir::xpu

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUDIALECT_H
