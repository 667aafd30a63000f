//===- GRFLadder.h - The measured GRF ladder walk ---------------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Compiler/Native: the pieces of decideGRF (GRFBuild.cpp, the
// policies) that hold state across builds: the memo of one build per GRF
// mode (BuildMemo.cpp) and the measured walk up a device's ladder of GRF
// modes (GRFLadder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_LIB_TARGET_NATIVE_GRFLADDER_H
#define XPUCODEGEN_LIB_TARGET_NATIVE_GRFLADDER_H

#include "XPUCodegen/Compiler/Native/GRFBuild.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::xpu::detail {

/// One build per mode, remembered: the decision may look at a mode twice
/// (first as part of the measured rule, then alone once another mode was
/// ruled out). Thread-safe for the speculative plan.
class BuildMemo {
public:
  BuildMemo(const LaunchLimits &limits,
            llvm::function_ref<llvm::Expected<BuildAttempt>(BuildGRF)> build)
      : limits(limits), build(build) {}

  /// The build of `mode`, checked against the launch limits.
  llvm::Expected<BuildAttempt> get(BuildGRF mode);

  /// The spill of `mode`'s usable build (0 when there is none).
  int64_t spillOf(BuildGRF mode);

  /// Whether IGC narrowed `mode`'s SIMD width to fit the per-thread scratch.
  bool narrowed(BuildGRF mode);

  /// Whether `mode` was built and ran out of a resource.
  const OutOfResourcesError *getResourceFailure(BuildGRF mode);

  /// The decision that keeps `kept`'s build, listing every build that
  /// produced a binary in the order they ran (unusable ones marked).
  GRFDecision keep(BuildGRF kept, std::string reason, std::string source);

private:
  struct Outcome {
    std::once_flag once;
    std::optional<BuildAttempt> attempt;
    /// A build that compiled but cannot launch.
    std::optional<BuildAttempt> rejected;
    std::optional<OutOfResourcesError> resources;
    std::string error;
  };
  /// Modes in the order their builds started.
  std::vector<BuildGRF> order;

public:
  /// Set when builds may run concurrently (the speculative plan).
  bool concurrent = false;

private:
  const LaunchLimits &limits;
  llvm::function_ref<llvm::Expected<BuildAttempt>(BuildGRF)> build;
  std::mutex mutex;
  Outcome outcomes[kNumBuildGRFs];
};

/// The measured `auto` policy over a device's ladder of GRF modes (its
/// rungs, smallest first). A walk builds rungs upwards and narrates each
/// one into the reason; a rung that cannot launch above a usable one ends
/// the ladder below it, and the walk runs again on the shorter ladder (its
/// builds are remembered, so nothing is built twice).
class Ladder {
public:
  Ladder(BuildMemo &memo, const LaunchLimits &limits,
         llvm::ArrayRef<BuildGRF> ladder, int64_t threshold, AutoPlan plan);

  /// Measured auto under the plan.
  llvm::Expected<GRFDecision> decide();

  /// `failed` (default or IGC's auto flag) overflowed the per-thread
  /// scratch: climb the rungs above the smallest.
  llvm::Expected<GRFDecision> climbAfterOverflow(BuildGRF failed,
                                                 llvm::Error failure);

private:
  /// Runs `walk` until no rung above a usable one is found unusable.
  llvm::Expected<GRFDecision> run(llvm::function_ref<llvm::Error()> walk);

  /// Which walk the plan asks for (one rung leaves nothing to plan).
  llvm::Error walkPlan();

  /// Builds rungs from `from` up while the last one spills more than the
  /// threshold (or overflows the scratch with nothing kept yet).
  llvm::Error climb(size_t from);

  /// Whether rung `a`'s build beats rung `b`'s: a build whose SIMD width IGC
  /// narrowed to fit the per-thread scratch (IGC 2.x; 1.0.12504 overflowed)
  /// loses to one it did not narrow, else the strictly smaller spill wins.
  bool beats(size_t a, size_t b);

  /// Whether rung `i` asks for a larger one: it spills over the threshold,
  /// or IGC narrowed its SIMD width (a scratch overflow, as on 1.0.12504).
  bool wantsMore(size_t i, int64_t spill);

  /// Narrates rung `i`'s spill and keeps it when it beats the best so far;
  /// returns whether to climb on.
  bool note(size_t i, int64_t spill);

  /// Rung `i` did not build or cannot launch: a build error stops the
  /// decision; above a usable rung the ladder ends below it; with nothing
  /// kept yet a scratch overflow climbs on (more registers, fewer spills).
  llvm::Error unusable(size_t i, llvm::Error error, bool &climbOn);

  /// Narrates a scratch (or other resource) overflow of `mode` and keeps
  /// the first one's figures for the error when no rung fits.
  void recordOverflow(BuildGRF mode, llvm::StringRef message,
                      std::optional<OutOfResourcesError> failure);

  /// The plan Speculate: the two lowest rungs at once, compared, then the
  /// climb goes on as measured.
  llvm::Error speculate();

  /// The plans PredictLarge(Unverified): the second rung first; the first
  /// only when it spills, and the climb goes on from there.
  llvm::Error predictLarge();

  /// verify-predicted-large=false: the spilling second rung is kept without
  /// the first; a larger rung is still measured.
  llvm::Error trustLarge(llvm::StringRef name, int64_t spill);

  /// The two lowest rungs, both built: the second is kept only when the
  /// first spills more than the threshold and it spills strictly less.
  /// Returns whether to climb on (both spill over the threshold).
  bool compareLowest(int64_t lowSpill, int64_t highSpill);

  /// The ladder ends below rung `i`, which `why` rules out.
  void endBelow(size_t i, llvm::StringRef why, bool workgroup,
                llvm::StringRef what);

  /// The decision of a finished walk, or the error when no rung fits.
  llvm::Expected<GRFDecision> finish();

  struct Cut {
    size_t index;
    std::string why;
    bool workgroup;
  };
  BuildMemo &memo;
  llvm::ArrayRef<BuildGRF> rungs;
  int64_t threshold;
  AutoPlan plan;
  /// Why the ladder ends where it does (the rung above its top): as the
  /// reason's prefix, as the end of an error, and as the work-group limit.
  std::string prefix, ending, workgroupLimit;
  // The state of one walk.
  std::string text, source;
  std::optional<size_t> best;
  std::optional<Cut> cut;
  std::vector<std::string> overflows;
  std::optional<OutOfResourcesError> firstOverflow;
};

/// The measured `auto` policy on a variable register file (ptl, ptl-u,
/// cri: hasVariableRegisterFile): IGC's default build first, then one
/// thread class at a time, down while it does not spill (more lanes), up
/// while it does (less spill). Keeps the least spill, then the most lanes
/// in flight per engine, then the fewest registers (docs/NativeCodegen.md).
class CountSearch {
public:
  CountSearch(BuildMemo &memo, const LaunchLimits &limits,
              const DeviceInfo &device, int64_t threshold);

  /// The decision; std::nullopt when IGC's default build cannot be the
  /// start (it ran out of a resource): the caller walks the ladder instead.
  llvm::Expected<std::optional<GRFDecision>> decide();

private:
  /// How a build ranks: compared in this order, smaller is better.
  struct Score {
    bool narrowed;
    int64_t spill;
    int64_t negativeLanes;
    int64_t registers;
    bool operator<(const Score &other) const;
  };
  Score score(const BuildAttempt &attempt) const;
  /// "N registers: S bytes spilled, T threads x SIMDw = L lanes".
  std::string describe(const BuildAttempt &attempt) const;
  /// The largest count with `threads` threads per engine (its class's top).
  std::optional<unsigned> topOfClass(unsigned threads) const;
  /// The next count to build from `registers`: down, the top of the class
  /// with the next more threads; up, the top of its own class if larger,
  /// else of the class with the next fewer threads.
  std::optional<unsigned> next(unsigned registers, bool down) const;
  /// Whether every kernel's spill is at most 16 four-byte slots per lane
  /// (small enough that IGC's explicit build at the same count may undo it).
  static bool isSmallSpill(const BuildAttempt &attempt);
  /// The widest SIMD any kernel of the module may get: its required
  /// sub-group size, else the device's widest.
  unsigned getWidestSimd() const;
  /// Whether a build at `registers` could run more lanes in flight than the
  /// best so far (its resident threads x getWidestSimd): a probe that cannot
  /// is not built.
  bool canAddLanes(unsigned registers) const;
  enum class Step { Built, Overflowed, Stopped };
  /// Builds `registers` and narrates it: Built (compared with the best),
  /// Overflowed (out of per-thread scratch), Stopped (its work-group cannot
  /// run); a build error is the error.
  llvm::Expected<Step> step(unsigned registers);

  BuildMemo &memo;
  const LaunchLimits &limits;
  const DeviceInfo &device;
  int64_t threshold;
  /// The counts the device builds, ascending.
  llvm::SmallVector<unsigned, 8> counts;
  std::string text;
  BuildGRF best = BuildGRF::Default;
  std::optional<Score> bestScore;
  int64_t bestRegisters = 0;
  std::string workgroupLimit;
};

} // namespace mlir::xpu::detail

#endif // XPUCODEGEN_LIB_TARGET_NATIVE_GRFLADDER_H
