//===- GRFBuild.cpp - GRF build modes, flags and the auto decision --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The GRF build modes and their flags, and decideGRF's policies (forced,
// default, IGC's auto, measured auto). The measured walk is in GRFLadder.cpp,
// the memo of builds in BuildMemo.cpp.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"

#include "GRFLadder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

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
  case BuildGRF::XLarge:
    return "xlarge";
  case BuildGRF::Regs32:
    return "32";
  case BuildGRF::Regs64:
    return "64";
  case BuildGRF::Regs96:
    return "96";
  case BuildGRF::Regs160:
    return "160";
  case BuildGRF::Regs192:
    return "192";
  }
  return "unknown";
}

std::string mlir::xpu::describeBuildGRF(BuildGRF mode, StringRef modeWord) {
  StringRef name = stringifyBuildGRF(mode);
  if (!name.empty() && isDigit(name.front()))
    return (name + "-register count").str();
  return (name + " " + modeWord).str();
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
  case BuildGRF::XLarge:
    return levelZero ? "-ze-intel-512-GRF-per-thread"
                     : "-cl-intel-512-GRF-per-thread";
  case BuildGRF::IGCAuto:
    return levelZero ? "-ze-intel-enable-auto-large-GRF-mode"
                     : "-cl-intel-enable-auto-large-GRF-mode";
  case BuildGRF::Regs32:
    return "-ze-exp-register-file-size 32";
  case BuildGRF::Regs64:
    return "-ze-exp-register-file-size 64";
  case BuildGRF::Regs96:
    return "-ze-exp-register-file-size 96";
  case BuildGRF::Regs160:
    return "-ze-exp-register-file-size 160";
  case BuildGRF::Regs192:
    return "-ze-exp-register-file-size 192";
  case BuildGRF::Default:
    return "";
  }
  return "";
}

std::optional<BuildGRF> mlir::xpu::getForcedBuildGRF(GRFMode policy) {
  switch (policy) {
  case GRFMode::Auto:
  case GRFMode::Default:
    return std::nullopt;
  case GRFMode::Small:
    return BuildGRF::Small;
  case GRFMode::Large:
    return BuildGRF::Large;
  case GRFMode::XLarge:
    return BuildGRF::XLarge;
  case GRFMode::Regs32:
    return BuildGRF::Regs32;
  case GRFMode::Regs64:
    return BuildGRF::Regs64;
  case GRFMode::Regs96:
    return BuildGRF::Regs96;
  case GRFMode::Regs160:
    return BuildGRF::Regs160;
  case GRFMode::Regs192:
    return BuildGRF::Regs192;
  }
  return std::nullopt;
}

std::optional<BuildGRF> mlir::xpu::getBuildGRFForRegisters(unsigned registers) {
  switch (registers) {
  case 128:
    return BuildGRF::Small;
  case 256:
    return BuildGRF::Large;
  case 512:
    return BuildGRF::XLarge;
  case 32:
    return BuildGRF::Regs32;
  case 64:
    return BuildGRF::Regs64;
  case 96:
    return BuildGRF::Regs96;
  case 160:
    return BuildGRF::Regs160;
  case 192:
    return BuildGRF::Regs192;
  default:
    return std::nullopt;
  }
}

SmallVector<BuildGRF, 3> mlir::xpu::getBuildLadder(const DeviceInfo &device) {
  SmallVector<BuildGRF, 3> ladder;
  for (const GRFModeInfo &mode : device.grfModes)
    if (std::optional<BuildGRF> build = getBuildGRFForRegisters(mode.registers))
      ladder.push_back(*build);
  return ladder;
}

bool mlir::xpu::isGRFFlag(StringRef flag) {
  for (BuildGRF mode :
       {BuildGRF::Small, BuildGRF::Large, BuildGRF::XLarge, BuildGRF::IGCAuto})
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
  case BuildGRF::XLarge:
    return 512;
  case BuildGRF::Regs32:
    return 32;
  case BuildGRF::Regs64:
    return 64;
  case BuildGRF::Regs96:
    return 96;
  case BuildGRF::Regs160:
    return 160;
  case BuildGRF::Regs192:
    return 192;
  case BuildGRF::Default:
  case BuildGRF::IGCAuto:
    return 0;
  }
  return 0;
}

int64_t mlir::xpu::getNRegs(BuildGRF mode, int64_t defaultNRegs) {
  int64_t pinned = getNRegs(mode);
  return pinned ? pinned : defaultNRegs;
}

/// The largest grf_count of any kernel: what IGC picked for the module.
static int64_t getMaxGRFCount(const BuildAttempt &attempt) {
  int64_t result = 0;
  for (const KernelMeasurement &kernel : attempt.kernels)
    result = std::max(result, kernel.grfCount);
  return result;
}

/// One build in `mode` (a forced mode, default or IGC's auto flag).

static Expected<GRFDecision> buildOnce(BuildMemo &memo, BuildGRF mode) {
  Expected<BuildAttempt> only = memo.get(mode);
  if (!only)
    return only.takeError();
  int64_t registers = getMaxGRFCount(*only);
  std::string reason =
      mode == BuildGRF::IGCAuto
          ? formatv("IGC's auto mode chose {0} GRF", registers).str()
      : mode == BuildGRF::Default
          ? formatv("default mode (no GRF flag) built with {0} GRF", registers)
                .str()
          : formatv("forced {0} built with {1} GRF",
                    describeBuildGRF(mode, "mode"), registers)
                .str();
  reason += formatv(" and spilled {0} bytes", only->spillSize).str();
  return memo.keep(mode, std::move(reason),
                   mode == BuildGRF::IGCAuto ? "igc" : "forced");
}

/// Default or IGC's auto flag, and what follows a build that cannot run: a
/// scratch overflow climbs the ladder; IGC choosing a mode the work-group
/// cannot run in falls back to the smallest rung.
static Expected<GRFDecision> buildUnpinned(BuildMemo &memo, Ladder &ladder,
                                           BuildGRF mode, BuildGRF smallest) {
  Expected<GRFDecision> decision = buildOnce(memo, mode);
  if (decision)
    return decision;
  const OutOfResourcesError *failure = memo.getResourceFailure(mode);
  if (!failure)
    return decision.takeError();
  if (failure->resource == kScratchResource)
    return ladder.climbAfterOverflow(mode, decision.takeError());
  std::string why = failure->message;
  consumeError(decision.takeError());
  Expected<BuildAttempt> small = memo.get(smallest);
  if (!small)
    return small.takeError();
  GRFDecision fallback = memo.keep(
      smallest,
      formatv("IGC's auto mode chose a mode that cannot launch ({0}); {1} "
              "spilled {2} bytes: kept {1}",
              why, stringifyBuildGRF(smallest), small->spillSize),
      "measured");
  fallback.workgroupLimit = why;
  return fallback;
}

static constexpr BuildGRF kNoDeviceLadder[] = {BuildGRF::Small,
                                               BuildGRF::Large};

Expected<GRFDecision>
mlir::xpu::decideGRF(GRFMode policy, AutoStrategy strategy,
                     int64_t spillThreshold, AutoPlan plan,
                     ArrayRef<BuildGRF> ladder, const LaunchLimits &limits,
                     function_ref<Expected<BuildAttempt>(BuildGRF)> build) {
  if (ladder.empty()) {
    SmallVector<BuildGRF, 3> deviceLadder;
    if (limits.device)
      deviceLadder = getBuildLadder(*limits.device);
    else
      deviceLadder.assign(std::begin(kNoDeviceLadder),
                          std::end(kNoDeviceLadder));
    assert(!deviceLadder.empty() && "a device has at least one GRF mode");
    return decideGRF(policy, strategy, spillThreshold, plan, deviceLadder,
                     limits, build);
  }
  BuildMemo memo(limits, build);
  bool measured = policy == GRFMode::Auto && strategy == AutoStrategy::Measure;
  memo.concurrent = measured && plan == AutoPlan::Speculate;
  Ladder walk(memo, limits, ladder, spillThreshold,
              measured ? plan : AutoPlan::Measure);
  switch (policy) {
  case GRFMode::Auto:
    if (strategy == AutoStrategy::IGC)
      return buildUnpinned(memo, walk, BuildGRF::IGCAuto, ladder.front());
    if (limits.device && limits.device->hasVariableRegisterFile()) {
      // Over the register counts, from IGC's default build; the ladder
      // when that build cannot be the start.
      memo.concurrent = false;
      CountSearch search(memo, limits, *limits.device, spillThreshold);
      Expected<std::optional<GRFDecision>> decision = search.decide();
      if (!decision)
        return decision.takeError();
      if (*decision)
        return std::move(**decision);
    }
    return walk.decide();
  case GRFMode::Default:
    return buildUnpinned(memo, walk, BuildGRF::Default, ladder.front());
  default:
    break;
  }
  // Forced: one build, and never one that cannot launch.
  BuildGRF mode = *getForcedBuildGRF(policy);
  if (std::optional<WorkGroupLimit> limit = limits.checkBeforeBuild(mode))
    return make_error<OutOfResourcesError>(
        kWorkGroupResource, limit->required, limit->limit,
        "forced " + describeBuildGRF(mode, "GRF mode") +
            " cannot launch: " + limit->message);
  return buildOnce(memo, mode);
}
