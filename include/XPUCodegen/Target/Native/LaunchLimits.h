//===- LaunchLimits.h - Kernels that cannot launch at all -------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A kernel whose work-group no GRF mode of its device runs fails its whole
// module: flags apply per module, so its kernels share one binary. These
// helpers find it before anything is built and say so, for the GRF decision
// (SPIR-V `LocalSize`, `max-workgroup-size`) and for xpu-select-grf-mode
// (`known_block_size`, at the kernel).
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_NATIVE_LAUNCHLIMITS_H
#define XPUCODEGEN_TARGET_NATIVE_LAUNCHLIMITS_H

#include "XPUCodegen/Target/Native/GRFBuild.h"

namespace mlir::xpu {

/// A kernel whose work-group does not fit even the device's smallest GRF
/// mode (which runs the most threads) at its required SIMD width, else the
/// widest.
struct UnlaunchableKernel {
  /// Its name ("*" when no kernel is known and the default size applies).
  std::string kernel;
  /// The sizes, and a message that names the kernel and, when the module has
  /// other kernels, says that they share its binary and were not built, and
  /// to move the kernel into a module of its own.
  WorkGroupLimit limit;
};

/// The first kernel of `limits` that cannot launch in any GRF mode of
/// `limits.device`; std::nullopt when every kernel may (or no device).
std::optional<UnlaunchableKernel> checkAnyMode(const LaunchLimits &limits);

/// decideGRF over `ladder`, except that a kernel that cannot launch in any
/// mode (checkAnyMode) is an OutOfResourcesError before anything is built.
llvm::Expected<GRFDecision> decideLaunchableGRF(
    GRFPolicy policy, AutoStrategy strategy, int64_t spillThreshold,
    BuildPlan plan, llvm::ArrayRef<BuildGRF> ladder, const LaunchLimits &limits,
    llvm::function_ref<llvm::Expected<BuildAttempt>(BuildGRF)> build);

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_NATIVE_LAUNCHLIMITS_H
