//===- XPUAttrs.h - XPU attributes -------------------------------*- C++
//-*-===//
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

#define GET_ATTRDEF_CLASSES
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h.inc"

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_H
