//===- SubgroupSize.cpp - Required sub-group size of kernels --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Device/DeviceTable.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::xpu;

bool mlir::xpu::isGPUKernel(Operation *op) {
  if (auto func = dyn_cast<gpu::GPUFuncOp>(op))
    return func.isKernel();
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
    if (func.getCConv() == LLVM::cconv::CConv::SPIR_KERNEL)
      return true;
  return isa<FunctionOpInterface>(op) &&
         op->hasAttr(gpu::GPUDialect::getKernelFuncAttrName());
}

SmallVector<TargetAttr> mlir::xpu::getXPUTargets(Operation *module) {
  SmallVector<TargetAttr> targets;
  if (auto gpuModule = dyn_cast<gpu::GPUModuleOp>(module))
    if (ArrayAttr list = gpuModule.getTargetsAttr())
      for (Attribute target : list)
        if (auto xpuTarget = dyn_cast<TargetAttr>(target))
          targets.push_back(xpuTarget);
  return targets;
}

/// The kernel's own requirement, when it states one.
static FailureOr<std::optional<unsigned>> getOwnSubgroupSize(Operation *op) {
  Attribute attr = op->getAttr(kReqdSubgroupSizeAttrName);
  if (!attr)
    return std::optional<unsigned>();
  auto size = dyn_cast<IntegerAttr>(attr);
  if (!size || size.getValue().isNegative() ||
      size.getValue().getActiveBits() > 16)
    return op->emitError() << "'" << kReqdSubgroupSizeAttrName
                           << "' must be a small non-negative integer, got "
                           << attr;
  return std::optional<unsigned>(size.getValue().getZExtValue());
}

FailureOr<std::optional<unsigned>>
mlir::xpu::resolveSubgroupSize(Operation *kernel,
                               ArrayRef<TargetAttr> targets) {
  FailureOr<std::optional<unsigned>> own = getOwnSubgroupSize(kernel);
  if (failed(own))
    return failure();
  if (*own) {
    for (TargetAttr target : targets) {
      const DeviceInfo *device = lookupDevice(target.getArch());
      if (!device->supportsSubgroupSize(**own))
        return kernel->emitError()
               << "sub-group size " << **own << " required by this kernel "
               << "cannot run on arch '" << target.getArch()
               << "'; supported: " << getSubgroupSizeList(*device);
    }
    return own;
  }
  std::optional<unsigned> chosen;
  for (auto [index, target] : llvm::enumerate(targets)) {
    std::optional<unsigned> size = target.getEffectiveSubgroupSize();
    if (index > 0 && size != chosen)
      return kernel->emitError()
             << "the targets of this kernel's module ask for different "
                "sub-group sizes; set intel_reqd_sub_group_size on the "
                "kernel or give every target the same subgroup_size";
    chosen = size;
  }
  return chosen;
}

LogicalResult mlir::xpu::applySubgroupSizes(Operation *module,
                                            ArrayRef<TargetAttr> targets) {
  if (targets.empty())
    return success();
  bool failed = false;
  Builder builder(module->getContext());
  for (Region &region : module->getRegions())
    for (Operation &op : region.getOps()) {
      if (!isGPUKernel(&op))
        continue;
      FailureOr<std::optional<unsigned>> size =
          resolveSubgroupSize(&op, targets);
      if (mlir::failed(size)) {
        failed = true;
        continue;
      }
      if (*size && !op.hasAttr(kReqdSubgroupSizeAttrName))
        op.setAttr(kReqdSubgroupSizeAttrName,
                   builder.getI32IntegerAttr(static_cast<int32_t>(**size)));
    }
  return failure(failed);
}
