//===- SubgroupSize.h - Required sub-group size of kernels ------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Every kernel the project lowers requires a sub-group size (SIMD width) in
// its SPIR-V: without one IGC picks, and on pvc it picks SIMD32 where
// upstream's XeVM path gets SIMD16, doubling the registers each thread needs.
// Precedence: the kernel's own `intel_reqd_sub_group_size` > the target's
// `subgroup_size` > the device's default. MLIR 22's GPU-to-LLVM-SPV lowering
// carries the attribute from gpu.func to llvm.func, and LLVM's SPIR-V backend
// turns it into `OpExecutionMode SubgroupSize`.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_SUBGROUPSIZE_H
#define XPUCODEGEN_DIALECT_XPU_IR_SUBGROUPSIZE_H

#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::xpu {

/// The kernel attribute MLIR's lowering and LLVM's SPIR-V backend honour.
inline constexpr llvm::StringLiteral kReqdSubgroupSizeAttrName =
    "intel_reqd_sub_group_size";

/// Whether `op` is a kernel: a `gpu.func ... kernel`, or a function with the
/// `gpu.kernel` attribute or the SPIR kernel calling convention.
bool isGPUKernel(Operation *op);

/// The `#xpu.target`s in the `targets` list of `module` (a gpu.module).
SmallVector<TargetAttr> getXPUTargets(Operation *module);

/// The sub-group size `kernel` requires for `targets`; std::nullopt for none.
/// A size a target's device cannot run, or targets that disagree, is an
/// error located at the kernel.
FailureOr<std::optional<unsigned>>
resolveSubgroupSize(Operation *kernel, ArrayRef<TargetAttr> targets);

/// Gives every kernel of `module` that has no `intel_reqd_sub_group_size`
/// the one its targets call for, and checks the ones already there.
LogicalResult applySubgroupSizes(Operation *module,
                                 ArrayRef<TargetAttr> targets);

} // namespace mlir::xpu

#endif // XPUCODEGEN_DIALECT_XPU_IR_SUBGROUPSIZE_H
