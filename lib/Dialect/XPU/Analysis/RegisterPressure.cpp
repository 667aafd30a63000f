//===- RegisterPressure.cpp - Static register-pressure estimate -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/Analysis/RegisterPressure.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::xpu;

int64_t RegisterPressureAnalysis::getBytesPerLane(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * getBytesPerLane(vector.getElementType());
  if (isa<IndexType>(type))
    return 8;
  // Integers and floats narrower than 32 bits take a 32-bit slot per lane:
  // measured at SIMD16, f16 kernels spill where their 2-byte size says they
  // should fit in half the registers (docs/RegisterPressure.md).
  if (type.isIntOrFloat())
    return std::max<int64_t>(4, (type.getIntOrFloatBitWidth() + 7) / 8);
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getBytesPerLane(complex.getElementType());
  if (isa<BaseMemRefType, LLVM::LLVMPointerType>(type))
    return 8;
  return 0;
}

/// Values that occupy no per-lane registers: constants (immediates) and
/// arguments of the function itself (uniform, in the thread payload).
static bool isFree(Value value, Operation *root) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner()->getParentOp() == root &&
           arg.getOwner()->isEntryBlock();
  return matchPattern(value, m_Constant());
}

namespace {
/// At an operation with regions (a loop), the operands that die there (inits
/// handed over to its regions) and its results are the same registers going
/// in and coming back: the live set at the operation holds both, but only
/// the larger of the two sets is held at once, so the smaller one is counted
/// twice. Values its regions merely capture are not operands and count.
struct HandOver {
  int64_t dyingOperands = 0;
  int64_t results = 0;
  void add(Value value, Operation &inner, Liveness &liveness, int64_t bytes) {
    if (value.getDefiningOp() == &inner)
      results += bytes;
    else if (llvm::is_contained(inner.getOperands(), value) &&
             liveness.isDeadAfter(value, &inner))
      dyingOperands += bytes;
  }
  int64_t countedTwice() const { return std::min(dyingOperands, results); }
};
} // namespace

RegisterPressureAnalysis::RegisterPressureAnalysis(Operation *op) {
  Liveness liveness(op);
  // Values live across an operation that holds regions: live before and
  // after it, so live throughout its regions. Its results are not live yet
  // and operands dying at it are handed over (e.g. loop inits to iter_args).
  llvm::DenseMap<Operation *, SmallVector<Value>> acrossCache;
  auto getLiveAcross = [&](Operation *parent) -> ArrayRef<Value> {
    auto [it, inserted] = acrossCache.try_emplace(parent);
    if (!inserted)
      return it->second;
    const LivenessBlockInfo *info = liveness.getLiveness(parent->getBlock());
    if (!info)
      return it->second;
    for (Value value : info->currentlyLiveValues(parent)) {
      if (value.getDefiningOp() == parent || isFree(value, op))
        continue;
      if (liveness.isDeadAfter(value, parent))
        continue;
      it->second.push_back(value);
    }
    return it->second;
  };

  op->walk([&](Block *block) {
    const LivenessBlockInfo *info = liveness.getLiveness(block);
    if (!info || block->empty())
      return;
    // Everything live across the enclosing operations, up to `op`.
    llvm::SmallDenseSet<Value, 16> outer;
    for (Operation *parent = block->getParentOp(); parent && parent != op;
         parent = parent->getParentOp())
      for (Value value : getLiveAcross(parent))
        outer.insert(value);
    int64_t outerBytes = 0;
    for (Value value : outer)
      outerBytes += getBytesPerLane(value.getType());

    for (Operation &inner : *block) {
      int64_t bytes = outerBytes;
      HandOver handOver;
      bool holdsRegions = inner.getNumRegions() != 0;
      for (Value value : info->currentlyLiveValues(&inner)) {
        if (isFree(value, op) || outer.contains(value))
          continue;
        int64_t valueBytes = getBytesPerLane(value.getType());
        bytes += valueBytes;
        if (holdsRegions)
          handOver.add(value, inner, liveness, valueBytes);
      }
      bytes -= handOver.countedTwice();
      peakLiveBytes = std::max(peakLiveBytes, bytes);
    }
  });
}

/// An upper bound of RegisterPressureAnalysis(kernel).getPeakLiveBytes():
/// the bytes of every value the analysis counts, all live at once.
static int64_t getAllValueBytes(Operation *kernel) {
  int64_t total = 0;
  auto add = [&](Value value) {
    if (!isFree(value, kernel))
      total += RegisterPressureAnalysis::getBytesPerLane(value.getType());
  };
  kernel->walk([&](Block *block) {
    llvm::for_each(block->getArguments(), add);
    for (Operation &op : *block)
      llvm::for_each(op.getResults(), add);
  });
  return total;
}

GRFBudget mlir::xpu::getGRFBudget(const DeviceInfo &device,
                                  std::optional<unsigned> subgroupSize) {
  // A required sub-group size is the width IGC compiles. Without one,
  // IGC 1.0.12504 compiles the calibration family SIMD32 on Xe-HPC in both
  // GRF modes, and SIMD8 on Xe-HPG (docs/RegisterPressure.md). Older
  // families have no large GRF mode; SIMD8 is IGC's choice under pressure.
  GRFBudget budget;
  if (subgroupSize)
    budget.simd = *subgroupSize;
  else
    budget.simd = device.family == "xe-hpc" ? 32 : 8;
  budget.smallBytesPerLane = 128 * int64_t(device.grfBytes) / budget.simd;
  budget.largeBytesPerLane = 256 * int64_t(device.grfBytes) / budget.simd;
  return budget;
}

GRFPrediction
mlir::xpu::predictGRFMode(int64_t liveBytes, const GRFBudget &budget,
                          const PredictionThresholds &thresholds) {
  // Integer percentages: liveBytes / small < p / 100.
  int64_t scaled = liveBytes * 100;
  if (scaled < int64_t(thresholds.smallBelowPercent) * budget.smallBytesPerLane)
    return GRFPrediction::Small;
  if (scaled > int64_t(thresholds.largeAbovePercent) * budget.smallBytesPerLane)
    return GRFPrediction::Large;
  return GRFPrediction::Uncertain;
}

PressureAttr
mlir::xpu::getPressureAttr(MLIRContext *context, int64_t liveBytes,
                           const GRFBudget &budget,
                           const PredictionThresholds &thresholds) {
  return PressureAttr::get(context, liveBytes, budget.simd,
                           budget.smallBytesPerLane,
                           predictGRFMode(liveBytes, budget, thresholds));
}

/// The kernels of `module` with their small budget on `device` (at their
/// required sub-group size), skipping those without one.
static SmallVector<std::pair<Operation *, int64_t>>
getKernelBudgets(Operation *module, const DeviceInfo &device) {
  SmallVector<std::pair<Operation *, int64_t>> kernels;
  for (Operation &op : module->getRegion(0).front()) {
    if (!isGPUKernel(&op))
      continue;
    std::optional<unsigned> simd;
    if (auto size = op.getAttrOfType<IntegerAttr>(kReqdSubgroupSizeAttrName))
      simd = static_cast<unsigned>(size.getInt());
    int64_t small = getGRFBudget(device, simd).smallBytesPerLane;
    if (small > 0)
      kernels.emplace_back(&op, small);
  }
  return kernels;
}

int64_t mlir::xpu::getModulePressurePercent(Operation *module,
                                            const DeviceInfo &device) {
  int64_t highest = 0;
  for (auto [kernel, small] : getKernelBudgets(module, device)) {
    int64_t bytes = RegisterPressureAnalysis(kernel).getPeakLiveBytes();
    highest = std::max(highest, bytes * 100 / small);
  }
  return highest;
}

bool mlir::xpu::reachesPressurePercent(Operation *module,
                                       const DeviceInfo &device,
                                       int64_t percent) {
  // floor(bytes * 100 / small) >= percent <=> bytes * 100 >= percent * small.
  for (auto [kernel, small] : getKernelBudgets(module, device)) {
    int64_t needed = percent * small;
    if (getAllValueBytes(kernel) * 100 < needed)
      continue;
    if (RegisterPressureAnalysis(kernel).getPeakLiveBytes() * 100 >= needed)
      return true;
  }
  // getModulePressurePercent is never negative, and 0 without kernels.
  return percent <= 0;
}
