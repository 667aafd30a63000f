//===- UpstreamVerifierGuard.h - Checks before upstream verifiers -*- C++
//-*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Upstream XeGPU verifiers divide by values they never check (layout fields,
// element counts truncated to `int` in LoadNdOp::verify) and die of SIGFPE.
// The tools parse with verification deferred and run these checks before
// upstream's verifier sees the IR (docs/HostSafety.md).
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_LOWER_UPSTREAMVERIFIERGUARD_H
#define XPUCODEGEN_PIPELINE_LOWER_UPSTREAMVERIFIERGUARD_H

#include "mlir/IR/Operation.h"

namespace mlir::xpu {

/// Diagnoses, on IR that was not verified yet, what upstream XeGPU
/// verifiers would divide by: xegpu layouts with a field below 1 or an
/// order that is not a permutation, and xegpu operands or results whose
/// element count (times the array length) does not fit in 31 bits.
LogicalResult checkUpstreamVerifierInputs(Operation *root);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_LOWER_UPSTREAMVERIFIERGUARD_H
