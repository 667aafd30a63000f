//===- LaunchChecks.cpp - Work-groups the IR shows, against GRF modes -----===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// What xpu-select-grf-mode checks before anything is built: whether a
// kernel's declared work-group fits a forced mode, or any mode, of its
// device (LaunchLimits.h). xpu-native-codegen checks the binaries too.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Select/LaunchChecks.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::xpu;

/// The work-group `kernel` declares: its `known_block_size` (0 when it has
/// none) at its required sub-group size.
static KernelWorkGroup getKernelWorkGroup(Operation *kernel) {
  KernelWorkGroup workGroup;
  workGroup.name = SymbolTable::getSymbolName(kernel).str();
  auto func = dyn_cast<gpu::GPUFuncOp>(kernel);
  if (std::optional<ArrayRef<int32_t>> blockSize =
          func ? func.getKnownBlockSize() : std::nullopt) {
    workGroup.size = 1;
    for (int32_t extent : *blockSize)
      workGroup.size *= static_cast<uint64_t>(std::max<int32_t>(extent, 1));
  }
  if (auto simd = kernel->getAttrOfType<IntegerAttr>(kReqdSubgroupSizeAttrName))
    workGroup.requiredSimd = simd.getInt();
  return workGroup;
}

/// See LaunchChecks.h. xpu-native-codegen checks the binary too; this
/// catches what the IR already shows, at the kernel.
std::optional<WorkGroupLimit>
mlir::xpu::checkForcedWorkGroup(Operation *kernel, const DeviceInfo &device,
                                BuildGRF mode, bool strictLaunch) {
  KernelWorkGroup workGroup = getKernelWorkGroup(kernel);
  if (!workGroup.size)
    return std::nullopt;
  LaunchLimits limits;
  limits.device = &device;
  limits.kernels.push_back(std::move(workGroup));
  if (!strictLaunch)
    exemptUnlaunchable(limits);
  return limits.checkBeforeBuild(mode);
}

std::optional<UnlaunchableKernel>
mlir::xpu::checkAnyModeWorkGroups(gpu::GPUModuleOp module,
                                  const DeviceInfo &device) {
  LaunchLimits limits;
  limits.device = &device;
  for (Operation &op : module.getBody()->getOperations())
    if (isGPUKernel(&op))
      limits.kernels.push_back(getKernelWorkGroup(&op));
  return checkAnyMode(limits);
}
