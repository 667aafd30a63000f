//===- GRFCountSearch.cpp - auto over a variable register file ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// On Xe3 and Xe3P the register count trades threads per engine in more than
// the GRF modes' steps (10 threads up to 96 registers on ptl, 6 at 160, 5 at
// 192). IGC's default build already picks a count per kernel, usually a good
// one; the search starts there and moves one thread class at a time.
//
//===----------------------------------------------------------------------===//

#include "GRFLadder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

/// The largest grf_count of any kernel: the count the module's flags give.
static unsigned getRegisters(const BuildAttempt &attempt) {
  int64_t most = 0;
  for (const KernelMeasurement &kernel : attempt.kernels)
    most = std::max(most, kernel.grfCount);
  return static_cast<unsigned>(most);
}

bool CountSearch::Score::operator<(const Score &other) const {
  return std::tie(narrowed, spill, negativeLanes, registers) <
         std::tie(other.narrowed, other.spill, other.negativeLanes,
                  other.registers);
}

CountSearch::CountSearch(BuildMemo &memo, const LaunchLimits &limits,
                         const DeviceInfo &device, int64_t threshold)
    : memo(memo), limits(limits), device(device), threshold(threshold) {
  for (int64_t registers : getGRFCounts(device))
    if (device.buildsRegisterCount(registers, device.knownTo) &&
        getBuildGRFForRegisters(registers))
      counts.push_back(static_cast<unsigned>(registers));
}

/// The kernel with the fewest lanes in flight per engine: the module's
/// bottleneck (its kernels share the flags, not the count IGC picks).
static const KernelMeasurement *getFewestLanes(const BuildAttempt &attempt,
                                               const DeviceInfo &device,
                                               uint64_t &lanes) {
  const KernelMeasurement *fewest = nullptr;
  for (const KernelMeasurement &kernel : attempt.kernels) {
    uint64_t kernelLanes =
        uint64_t(device.getThreadsPerEU(kernel.grfCount)) * kernel.simd;
    if (!fewest || kernelLanes < lanes) {
      fewest = &kernel;
      lanes = kernelLanes;
    }
  }
  return fewest;
}

CountSearch::Score CountSearch::score(const BuildAttempt &attempt) const {
  uint64_t lanes = 0;
  getFewestLanes(attempt, device, lanes);
  // Spills at or under the threshold count as none, as on the ladder.
  int64_t spill = attempt.spillSize > threshold ? attempt.spillSize : 0;
  return Score{memo.narrowed(attempt.mode), spill, -int64_t(lanes),
               int64_t(getRegisters(attempt))};
}

std::string CountSearch::describe(const BuildAttempt &attempt) const {
  uint64_t lanes = 0;
  const KernelMeasurement *kernel = getFewestLanes(attempt, device, lanes);
  std::string text = formatv("{0} registers: {1} bytes spilled",
                             getRegisters(attempt), attempt.spillSize);
  if (memo.narrowed(attempt.mode))
    text += " at a SIMD width IGC narrowed to fit the per-thread scratch";
  if (kernel)
    text +=
        formatv(", {0} threads x SIMD{1} = {2} lanes",
                device.getThreadsPerEU(kernel->grfCount), kernel->simd, lanes);
  return text;
}

/// Spill per lane, in 4-byte slots, at or under which a spill is small:
/// intel-xpu-backend-for-triton's rolling-driver rule (#7959) rebuilds only
/// above it.
static constexpr int64_t kSmallSpillSlots = 16;

bool CountSearch::isSmallSpill(const BuildAttempt &attempt) {
  return llvm::all_of(attempt.kernels, [](const KernelMeasurement &kernel) {
    return kernel.simd > 0 &&
           kernel.spillSize / (4 * kernel.simd) <= kSmallSpillSlots;
  });
}

unsigned CountSearch::getWidestSimd() const {
  // Kernels that require a sub-group size keep it at every count; the others
  // may get the device's widest.
  unsigned widest = 0;
  for (const KernelWorkGroup &kernel : limits.kernels)
    widest =
        std::max(widest, kernel.requiredSimd ? kernel.requiredSimd
                                             : device.subgroupSizes.back());
  return widest ? widest : device.subgroupSizes.back();
}

bool CountSearch::canAddLanes(unsigned registers) const {
  uint64_t most = uint64_t(device.getThreadsPerEU(registers)) * getWidestSimd();
  return int64_t(most) > -bestScore->negativeLanes;
}

std::optional<unsigned> CountSearch::topOfClass(unsigned threads) const {
  std::optional<unsigned> top;
  for (unsigned registers : counts)
    if (device.getThreadsPerEU(registers) == threads)
      top = registers;
  return top;
}

std::optional<unsigned> CountSearch::next(unsigned registers, bool down) const {
  unsigned threads = device.getThreadsPerEU(registers);
  if (!down) {
    std::optional<unsigned> top = topOfClass(threads);
    if (top && *top > registers)
      return top;
  }
  // The neighbouring class: the closest thread count above (down) or below.
  std::optional<unsigned> neighbour;
  for (unsigned count : counts) {
    unsigned other = device.getThreadsPerEU(count);
    bool beyond = down ? other > threads : other < threads;
    if (beyond &&
        (!neighbour || (down ? other < *neighbour : other > *neighbour)))
      neighbour = other;
  }
  if (!neighbour)
    return std::nullopt;
  return topOfClass(*neighbour);
}

Expected<CountSearch::Step> CountSearch::step(unsigned registers) {
  BuildGRF mode = *getBuildGRFForRegisters(registers);
  if (std::optional<WorkGroupLimit> why = limits.checkBeforeBuild(mode)) {
    text += formatv("; {0} registers ruled out ({1})", registers, why->message);
    workgroupLimit = why->message;
    return Step::Stopped;
  }
  Expected<BuildAttempt> attempt = memo.get(mode);
  if (!attempt) {
    const OutOfResourcesError *failure = memo.getResourceFailure(mode);
    if (!failure)
      return attempt.takeError();
    std::string message = toString(attempt.takeError());
    text += formatv("; {0} registers ran out of resources ({1})", registers,
                    message);
    if (failure->resource != kScratchResource) {
      workgroupLimit = message;
      return Step::Stopped;
    }
    // More registers spill less: a scratch overflow may fit further up.
    return Step::Overflowed;
  }
  Score candidate = score(*attempt);
  bool better = candidate < *bestScore;
  text += "; " + describe(*attempt);
  if (better) {
    text += candidate.spill < bestScore->spill ? ", less spill"
            : candidate.negativeLanes < bestScore->negativeLanes
                ? ", more lanes"
                : ", fewer registers";
    best = mode;
    bestScore = candidate;
    bestRegisters = registers;
  } else {
    text += ", not better";
  }
  return Step::Built;
}

Expected<std::optional<GRFDecision>> CountSearch::decide() {
  Expected<BuildAttempt> first = memo.get(BuildGRF::Default);
  if (!first) {
    if (!memo.getResourceFailure(BuildGRF::Default))
      return first.takeError();
    consumeError(first.takeError());
    return std::nullopt;
  }
  unsigned current = getRegisters(*first);
  if (!is_contained(counts, current))
    return std::nullopt;
  bestScore = score(*first);
  bestRegisters = current;
  text = "default (no GRF flag) built with " + describe(*first);
  // Without spill, fewer registers may run more threads; with spill, more
  // registers may spill less. A small spill is first asked for at its own
  // count: IGC's explicit build at N is not its default build at N
  // (measured on ptl: 128 bytes spilled against none at 192); a large one
  // is not undone that way, and climbs.
  bool down = bestScore->spill == 0 && !bestScore->narrowed;
  std::optional<unsigned> candidate = next(current, down);
  if (!down && (!candidate || isSmallSpill(*first)))
    candidate = current;
  if (!candidate)
    text += "; no count runs more threads";
  for (; candidate; candidate = next(current, down)) {
    if (down && !canAddLanes(*candidate)) {
      text += formatv("; {0} registers cannot run more lanes ({1} threads x "
                      "SIMD{2} at most), not built",
                      *candidate, device.getThreadsPerEU(*candidate),
                      getWidestSimd());
      break;
    }
    BuildGRF before = best;
    Expected<Step> outcome = step(*candidate);
    if (!outcome)
      return outcome.takeError();
    if (*outcome == Step::Stopped || (*outcome == Step::Overflowed && down))
      break;
    current = *candidate;
    // Down: on only while each step wins. Up: on while the best still
    // spills or the last build ran out of scratch space.
    bool goOn = down ? best != before && bestScore->spill == 0
                     : *outcome == Step::Overflowed || bestScore->spill > 0 ||
                           bestScore->narrowed;
    if (!goOn)
      break;
  }
  std::string kept =
      best == BuildGRF::Default
          ? formatv("default ({0} registers)", bestRegisters).str()
          : formatv("{0} registers", bestRegisters).str();
  GRFDecision decision = memo.keep(best, text + ": kept " + kept, "measured");
  decision.registers = bestRegisters;
  decision.workgroupLimit = workgroupLimit;
  return std::optional<GRFDecision>(std::move(decision));
}
