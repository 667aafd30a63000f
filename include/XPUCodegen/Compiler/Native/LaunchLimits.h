//===- LaunchLimits.h - Kernels that cannot launch at all -------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A kernel whose declared work-group no GRF mode of its device runs is a
// warning: IGC builds it, the driver refuses to launch it, and it constrains
// neither its module nor its siblings' GRF decision. With strict-launch (and
// for a work-group that only `max-workgroup-size` gives) it fails its whole
// module instead: flags apply per module, so its kernels share one binary.
// These helpers find it before anything is built and say so, for the GRF
// decision (SPIR-V `LocalSize`) and for xpu-select-grf-mode
// (`known_block_size`, at the kernel).
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_NATIVE_LAUNCHLIMITS_H
#define XPUCODEGEN_COMPILER_NATIVE_LAUNCHLIMITS_H

#include "XPUCodegen/Compiler/Native/GRFBuild.h"

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
/// Kernels marked unlaunchable are not checked.
std::optional<UnlaunchableKernel> checkAnyMode(const LaunchLimits &limits);

/// Marks every kernel of `limits` whose own declared work-group fits no GRF
/// mode of `limits.device` as unlaunchable, so that no later check counts
/// it, and returns one warning per such kernel naming the limit. Kernels
/// sized by `defaultWorkGroupSize` are left to checkAnyMode.
std::vector<std::string> exemptUnlaunchable(LaunchLimits &limits);

/// decideGRF over `ladder`. A kernel whose declared work-group fits no mode
/// is a warning in the decision's launchWarnings (exemptUnlaunchable), or
/// with `strictLaunch` an OutOfResourcesError before anything is built, as
/// is any other kernel that cannot launch in any mode (checkAnyMode).
llvm::Expected<GRFDecision> decideLaunchableGRF(
    GRFMode policy, AutoStrategy strategy, int64_t spillThreshold,
    AutoPlan plan, llvm::ArrayRef<BuildGRF> ladder, LaunchLimits limits,
    bool strictLaunch,
    llvm::function_ref<llvm::Expected<BuildAttempt>(BuildGRF)> build);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_NATIVE_LAUNCHLIMITS_H
