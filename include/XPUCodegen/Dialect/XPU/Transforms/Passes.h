//===- Passes.h - XPU passes -------------------------------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_TRANSFORMS_PASSES_H
#define XPUCODEGEN_DIALECT_XPU_TRANSFORMS_PASSES_H

#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::xpu {

#define GEN_PASS_DECL
#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "XPUCodegen/Dialect/XPU/Transforms/Passes.h.inc"

} // namespace mlir::xpu

#endif // XPUCODEGEN_DIALECT_XPU_TRANSFORMS_PASSES_H
