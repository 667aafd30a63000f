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

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUDIALECT_H
