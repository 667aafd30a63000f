//===- RegisterPressure.h - Static register-pressure estimate ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// A static estimate of a kernel's register pressure, from MLIR's Liveness and
// the value types, and the GRF mode it predicts against the small register
// file of a device. The model and its calibration against IGC are in
// docs/RegisterPressure.md.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_ANALYSIS_REGISTERPRESSURE_H
#define XPUCODEGEN_DIALECT_XPU_ANALYSIS_REGISTERPRESSURE_H

#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace mlir::xpu {

struct DeviceInfo;

/// Peak live bytes per lane (work-item) of a function-like operation.
///
/// A value costs what one lane holds of it: vectors their element count times
/// the element size, scalars their size, integers and floats narrower than
/// 32 bits 4 bytes (a 32-bit slot, as IGC holds them), `index` 8 bytes (the
/// pipeline lowers index to i64), memrefs and pointers 8 bytes (the base
/// pointer; the rest of a descriptor folds away). Constants are free (IGC
/// rematerializes them as immediates) and so are function arguments (uniform:
/// they live in the thread payload, not in per-lane registers). The live set at
/// an operation is MLIR's `Liveness` set in its block plus everything live
/// across each enclosing operation, so accumulators carried by a loop
/// (`iter_args`, block arguments) and values used after a loop count inside
/// its body. At a loop, the inits it consumes and the results it returns
/// share registers: only the larger of the two counts.
///
/// Usable as an MLIR analysis: `getAnalysis<RegisterPressureAnalysis>()` in a
/// pass on a `gpu.func`, or `AnalysisManager::nest(...)` down to one.
class RegisterPressureAnalysis {
public:
  explicit RegisterPressureAnalysis(Operation *op);

  /// Peak bytes live at once per lane.
  int64_t getPeakLiveBytes() const { return peakLiveBytes; }

  /// Bytes one lane holds of a value of type `type`.
  static int64_t getBytesPerLane(Type type);

private:
  int64_t peakLiveBytes = 0;
};

/// What one lane can hold in the small register file of a device, at the
/// kernel's required SIMD width (its sub-group size) or, for a kernel that
/// requires none, the width IGC is assumed to pick for that device family
/// (calibrated: SIMD32 on Xe-HPC, SIMD8 elsewhere).
struct GRFBudget {
  int64_t simd = 0;
  /// 128 registers * grfBytes / simd.
  int64_t smallBytesPerLane = 0;
  /// 256 registers * grfBytes / simd.
  int64_t largeBytesPerLane = 0;
};
GRFBudget getGRFBudget(const DeviceInfo &device,
                       std::optional<unsigned> subgroupSize = std::nullopt);

/// The confidence band, as percentages of the small budget: below
/// `smallBelowPercent` the small register file is predicted to be enough,
/// above `largeAbovePercent` the kernel is predicted to spill in small mode
/// and large is predicted to be the better mode; in between, uncertain.
/// The defaults are fitted at SIMD16 to IGC 1.0.12504 and IGC 2.40 on pvc,
/// and IGC 2.40 on bmg and cri (docs/RegisterPressure.md, "Calibration").
struct PredictionThresholds {
  static constexpr unsigned kDefaultSmallBelowPercent = 110;
  static constexpr unsigned kDefaultLargeAbovePercent = 117;
  unsigned smallBelowPercent = kDefaultSmallBelowPercent;
  unsigned largeAbovePercent = kDefaultLargeAbovePercent;
};

/// The prediction for `liveBytes` against `budget`.
GRFPrediction predictGRFMode(int64_t liveBytes, const GRFBudget &budget,
                             const PredictionThresholds &thresholds);

/// The highest estimate among the kernels of `module`, as a percentage of
/// each kernel's small budget on `device` (at the kernel's required
/// sub-group size); 0 for a module without kernels.
int64_t getModulePressurePercent(Operation *module, const DeviceInfo &device);

/// Whether getModulePressurePercent(module, device) >= percent, without the
/// liveness analysis of kernels whose values cannot reach it even if all
/// were live at once (most small kernels): it runs on every module of every
/// run, fully cached ones included.
bool reachesPressurePercent(Operation *module, const DeviceInfo &device,
                            int64_t percent);

/// `#xpu.pressure` for an estimate.
PressureAttr getPressureAttr(MLIRContext *context, int64_t liveBytes,
                             const GRFBudget &budget,
                             const PredictionThresholds &thresholds);

} // namespace mlir::xpu

#endif // XPUCODEGEN_DIALECT_XPU_ANALYSIS_REGISTERPRESSURE_H
