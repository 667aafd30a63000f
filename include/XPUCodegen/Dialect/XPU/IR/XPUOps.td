//===- XPUOps.td - XPU dialect top-level file --------------*- tablegen -*-===//
//
// Part of the XPUCodegen project. The dialect has attributes only; this file
// gathers them for the generated dialect reference.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_XPUOPS_TD
#define XPUCODEGEN_DIALECT_XPU_IR_XPUOPS_TD

include "XPUCodegen/Dialect/XPU/IR/XPUDialect.td"
include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.td"

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUOPS_TD
