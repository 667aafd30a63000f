//===- LaunchChecks.h - Work-groups against GRF modes -----------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_PIPELINE_SELECT_LAUNCHCHECKS_H
#define XPUCODEGEN_PIPELINE_SELECT_LAUNCHCHECKS_H

#include "XPUCodegen/Compiler/Native/LaunchLimits.h"
#include "XPUCodegen/Device/DeviceTable.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <optional>

namespace mlir::xpu {

/// Why forced `mode` (large or xlarge) on `device` cannot run `kernel`'s
/// work-group (its `known_block_size` at its required sub-group size, else
/// the widest the device has); std::nullopt when it may, or when without
/// `strictLaunch` no mode can (xpu-native-codegen warns about that).
std::optional<WorkGroupLimit> checkForcedWorkGroup(Operation *kernel,
                                                   const DeviceInfo &device,
                                                   BuildGRF mode,
                                                   bool strictLaunch);

/// Why a kernel of `module` cannot launch in any GRF mode of `device`;
/// std::nullopt when every kernel may.
std::optional<UnlaunchableKernel>
checkAnyModeWorkGroups(gpu::GPUModuleOp module, const DeviceInfo &device);

} // namespace mlir::xpu

#endif // XPUCODEGEN_PIPELINE_SELECT_LAUNCHCHECKS_H
