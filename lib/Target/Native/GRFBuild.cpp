//===- GRFBuild.cpp - GRF build modes, flags and the auto decision --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Native/GRFBuild.h"
#include "XPUCodegen/Target/Native/Zebin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <future>

using namespace llvm;
using namespace mlir::xpu;

StringRef mlir::xpu::stringifyBuildGRF(BuildGRF mode) {
  switch (mode) {
  case BuildGRF::Small:
    return "small";
  case BuildGRF::Large:
    return "large";
  case BuildGRF::Default:
    return "default";
  case BuildGRF::IGCAuto:
    return "igc-auto";
  }
  return "unknown";
}

StringRef mlir::xpu::getGRFFlag(BuildGRF mode, WorkerBackend backend) {
  bool levelZero = backend == WorkerBackend::LevelZero;
  switch (mode) {
  case BuildGRF::Small:
    return levelZero ? "-ze-intel-128-GRF-per-thread"
                     : "-cl-intel-128-GRF-per-thread";
  case BuildGRF::Large:
    return levelZero ? "-ze-opt-large-register-file"
                     : "-cl-intel-256-GRF-per-thread";
  case BuildGRF::IGCAuto:
    return levelZero ? "-ze-intel-enable-auto-large-GRF-mode"
                     : "-cl-intel-enable-auto-large-GRF-mode";
  case BuildGRF::Default:
    return "";
  }
  return "";
}

bool mlir::xpu::isGRFFlag(StringRef flag) {
  for (BuildGRF mode : {BuildGRF::Small, BuildGRF::Large, BuildGRF::IGCAuto})
    for (WorkerBackend backend :
         {WorkerBackend::Ocloc, WorkerBackend::LevelZero})
      if (flag == getGRFFlag(mode, backend))
        return true;
  return false;
}

std::string mlir::xpu::getBuildFlags(BuildGRF mode, WorkerBackend backend,
                                     StringRef extraFlags) {
  SmallVector<StringRef> flags;
  if (StringRef grf = getGRFFlag(mode, backend); !grf.empty())
    flags.push_back(grf);
  SmallVector<StringRef> extra;
  SplitString(extraFlags, extra);
  // The mode alone decides the GRF flag: a stray one in the extra flags would
  // silently override the decision (IGC takes the last one it sees).
  for (StringRef flag : extra)
    if (!isGRFFlag(flag))
      flags.push_back(flag);
  return join(flags, " ");
}

int64_t mlir::xpu::getNRegs(BuildGRF mode) {
  switch (mode) {
  case BuildGRF::Small:
    return 128;
  case BuildGRF::Large:
    return 256;
  case BuildGRF::Default:
  case BuildGRF::IGCAuto:
    return 0;
  }
  return 0;
}

std::vector<LogSpill> mlir::xpu::parseSpillWarnings(StringRef log,
                                                    unsigned grfBytes) {
  // IGC 1.0.12504: "warning: kernel K  compiled SIMD32 allocated 128 regs and
  // spilled around 580"; the count is in GRF-sized units (docs/
  // SpillMeasurement.md).
  static const Regex warning(
      "kernel ([^[:space:]]+)[[:space:]]+compiled SIMD([0-9]+) allocated "
      "([0-9]+) regs and spilled around ([0-9]+)");
  std::vector<LogSpill> spills;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef, 5> match;
    if (!warning.match(line, &match))
      continue;
    LogSpill spill;
    spill.kernel = match[1].str();
    uint64_t units;
    // Bounded so that units * grfBytes cannot overflow.
    if (match[2].getAsInteger(10, spill.simd) ||
        match[3].getAsInteger(10, spill.allocatedRegs) ||
        match[4].getAsInteger(10, units) || units > (uint64_t(1) << 40))
      continue;
    spill.spillBytes = static_cast<int64_t>(units * grfBytes);
    spills.push_back(std::move(spill));
  }
  return spills;
}

/// The build log's spill for `kernel` in bytes, or 0 when IGC printed no
/// warning for it (IGC is silent for kernels that do not spill). When IGC
/// reports several SIMD variants, the one matching the binary wins.
static int64_t getLogSpill(ArrayRef<LogSpill> spills,
                           const ZebinKernel &kernel) {
  const LogSpill *found = nullptr;
  for (const LogSpill &spill : spills) {
    if (spill.kernel != kernel.name)
      continue;
    if (!found || spill.simd == kernel.simd)
      found = &spill;
  }
  return found ? found->spillBytes : 0;
}

Expected<BuildAttempt> mlir::xpu::measureBuild(BuildGRF mode,
                                               StringRef buildFlags,
                                               const WorkerResponse &response,
                                               unsigned grfBytes) {
  auto withLog = [&](const Twine &message) {
    std::string text = message.str();
    StringRef log = StringRef(response.log).trim();
    if (!log.empty())
      text += "\nbuild log:\n" + log.str();
    return createStringError(inconvertibleErrorCode(), text);
  };
  if (!response.succeeded)
    return withLog(Twine(stringifyBuildGRF(mode)) + " build failed (code " +
                   Twine(response.returnCode) + ")");
  Expected<ZebinInfo> info =
      readZebin(StringRef(response.binary.data(), response.binary.size()));
  if (!info)
    return withLog(
        Twine(stringifyBuildGRF(mode)) +
        " build produced an unreadable binary: " + toString(info.takeError()));
  if (info->kernels.empty())
    return withLog(Twine(stringifyBuildGRF(mode)) +
                   " build produced a binary without kernels");

  BuildAttempt attempt;
  attempt.mode = mode;
  attempt.buildFlags = buildFlags.str();
  attempt.binary = response.binary;
  attempt.log = response.log;
  attempt.compileMs = response.compileMs;

  std::vector<LogSpill> logSpills = parseSpillWarnings(response.log, grfBytes);
  for (const ZebinKernel &kernel : info->kernels) {
    KernelMeasurement m;
    m.name = kernel.name;
    m.grfCount = kernel.grfCount;
    m.simd = kernel.simd;
    m.scratchSize = kernel.scratchSize;
    m.privateSize = kernel.privateSize;
    // Level Zero's spillMemSize is deliberately not used: NEO 22.43 reports
    // the scratch size there, which includes private arrays, and newer NEO
    // copies .ze_info spill_size, which is read directly.
    if (auto it = find_if(response.kernels,
                          [&](const WorkerKernelProperties &p) {
                            return p.name == kernel.name;
                          });
        it != response.kernels.end())
      m.privateSize = std::max<int64_t>(m.privateSize, it->privateMemSize);
    m.spillSize =
        kernel.spillSize ? *kernel.spillSize : getLogSpill(logSpills, kernel);
    m.nSpills = m.simd > 0 ? m.spillSize / (4 * m.simd) : 0;
    attempt.spillSize = std::max(attempt.spillSize, m.spillSize);
    attempt.kernels.push_back(std::move(m));
  }
  return attempt;
}

/// The largest grf_count of any kernel: what IGC picked for the module.
static int64_t getMaxGRFCount(const BuildAttempt &attempt) {
  int64_t result = 0;
  for (const KernelMeasurement &kernel : attempt.kernels)
    result = std::max(result, kernel.grfCount);
  return result;
}

StringRef mlir::xpu::stringifyBuildPlan(BuildPlan plan) {
  switch (plan) {
  case BuildPlan::Measure:
    return "measure";
  case BuildPlan::PredictSmall:
    return "predict_small";
  case BuildPlan::PredictLarge:
    return "predict_large";
  case BuildPlan::PredictLargeUnverified:
    return "predict_large_unverified";
  case BuildPlan::Speculate:
    return "speculate";
  }
  return "unknown";
}

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFPolicy policy, AutoStrategy strategy,
                     int64_t spillThreshold,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  return decideGRF(policy, strategy, spillThreshold, BuildPlan::Measure, build);
}

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFPolicy policy, AutoStrategy strategy,
                     int64_t spillThreshold, BuildPlan plan,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  GRFDecision decision;
  auto measured = [&](BuildGRF mode) -> Expected<BuildAttempt> {
    Expected<BuildAttempt> attempt = build(mode);
    if (attempt)
      attempt->mode = mode;
    return attempt;
  };
  auto runBuild = [&](BuildGRF mode) -> Error {
    Expected<BuildAttempt> attempt = measured(mode);
    if (!attempt)
      return attempt.takeError();
    decision.attempts.push_back(std::move(*attempt));
    return Error::success();
  };
  std::string reason;
  raw_string_ostream os(reason);

  if (policy != GRFPolicy::Auto || strategy == AutoStrategy::IGC) {
    BuildGRF mode = policy == GRFPolicy::Small   ? BuildGRF::Small
                    : policy == GRFPolicy::Large ? BuildGRF::Large
                    : policy == GRFPolicy::Auto  ? BuildGRF::IGCAuto
                                                 : BuildGRF::Default;
    if (Error err = runBuild(mode))
      return std::move(err);
    const BuildAttempt &only = decision.attempts.front();
    decision.source = mode == BuildGRF::IGCAuto ? "igc" : "forced";
    if (mode == BuildGRF::IGCAuto)
      os << "IGC's auto mode chose " << getMaxGRFCount(only) << " GRF";
    else if (mode == BuildGRF::Default)
      os << "default mode (no GRF flag) built with " << getMaxGRFCount(only)
         << " GRF";
    else
      os << "forced " << stringifyBuildGRF(mode) << " mode built with "
         << getMaxGRFCount(only) << " GRF";
    os << " and spilled " << only.spillSize << " bytes";
    decision.reason = std::move(reason);
    return decision;
  }

  // The measured rule once both builds are in attempts: large only when
  // small spills more than the threshold and large spills strictly less.
  auto keepLesser = [&](size_t smallIndex, size_t largeIndex) {
    int64_t smallSpill = decision.attempts[smallIndex].spillSize;
    int64_t largeSpill = decision.attempts[largeIndex].spillSize;
    bool keepLarge = smallSpill > spillThreshold && largeSpill < smallSpill;
    decision.chosen = keepLarge ? largeIndex : smallIndex;
    os << "small spilled " << smallSpill << " bytes, large spilled "
       << largeSpill << " bytes"
       << (keepLarge ? ": kept large"
           : smallSpill <= spillThreshold
               ? ": small <= threshold " + std::to_string(spillThreshold) +
                     ", kept small"
               : ", not less: kept small");
  };

  if (plan == BuildPlan::Speculate) {
    // Both builds at once: the large one on a second thread.
    std::future<Expected<BuildAttempt>> large = std::async(
        std::launch::async, [&] { return measured(BuildGRF::Large); });
    Expected<BuildAttempt> small = measured(BuildGRF::Small);
    Expected<BuildAttempt> largeAttempt = large.get();
    if (!small) {
      consumeError(largeAttempt.takeError());
      return small.takeError();
    }
    if (!largeAttempt)
      return largeAttempt.takeError();
    decision.attempts.push_back(std::move(*small));
    decision.attempts.push_back(std::move(*largeAttempt));
    decision.source = "speculated";
    os << "speculated (uncertain estimate), built both: ";
    keepLesser(0, 1);
    decision.reason = std::move(reason);
    return decision;
  }

  if (plan == BuildPlan::PredictLarge ||
      plan == BuildPlan::PredictLargeUnverified) {
    if (Error err = runBuild(BuildGRF::Large))
      return std::move(err);
    int64_t largeSpill = decision.attempts[0].spillSize;
    if (plan == BuildPlan::PredictLargeUnverified &&
        largeSpill > spillThreshold) {
      decision.source = "predicted";
      os << "predicted large; large spilled " << largeSpill
         << " bytes, kept without a small build (verify-predicted-large off)";
      decision.reason = std::move(reason);
      return decision;
    }
    if (largeSpill <= spillThreshold) {
      decision.source = "predicted";
      os << "predicted large; large spilled " << largeSpill
         << " bytes <= threshold " << spillThreshold
         << ": kept large, small build skipped";
      decision.reason = std::move(reason);
      return decision;
    }
    // Large spills too: small may spill as little; measure it and compare.
    if (Error err = runBuild(BuildGRF::Small))
      return std::move(err);
    size_t start = reason.size();
    os << "large spilled " << largeSpill << " bytes > threshold "
       << spillThreshold << ", so small was built too: ";
    keepLesser(/*smallIndex=*/1, /*largeIndex=*/0);
    reason.insert(start, decision.chosen == 0
                             ? "predicted large; "
                             : "predicted large, measurement overrode: ");
    decision.source = decision.chosen == 0 ? "predicted" : "measured";
    decision.reason = std::move(reason);
    return decision;
  }

  // Measure and PredictSmall: small first; large only when small spills more
  // than the threshold, and kept only when it really spills less.
  bool predicted = plan == BuildPlan::PredictSmall;
  if (Error err = runBuild(BuildGRF::Small))
    return std::move(err);
  int64_t smallSpill = decision.attempts[0].spillSize;
  if (predicted)
    os << "predicted small; ";
  os << "small spilled " << smallSpill << " bytes";
  if (smallSpill <= spillThreshold) {
    os << " <= threshold " << spillThreshold << ": kept small";
    decision.source = predicted ? "predicted" : "measured";
    decision.reason = std::move(reason);
    return decision;
  }
  if (Error err = runBuild(BuildGRF::Large))
    return std::move(err);
  int64_t largeSpill = decision.attempts[1].spillSize;
  bool keepLarge = largeSpill < smallSpill;
  decision.chosen = keepLarge ? 1 : 0;
  if (predicted && keepLarge) {
    // The prediction was wrong: the measurement decided.
    reason = "predicted small, measurement overrode: small spilled " +
             std::to_string(smallSpill) + " bytes";
  }
  // The prediction stands when large turns out no better.
  decision.source = predicted && !keepLarge ? "predicted" : "measured";
  os << " > threshold " << spillThreshold << "; large spilled " << largeSpill
     << " bytes" << (keepLarge ? ": kept large" : ", not less: kept small");
  decision.reason = std::move(reason);
  return decision;
}
