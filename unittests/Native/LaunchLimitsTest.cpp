//===- LaunchLimitsTest.cpp - No decision yields an unlaunchable binary ---===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Work-group limits per GRF mode and SIMD width, per-thread scratch (PTSS)
// overflow and degenerate zebins, on fake builds and on real pvc builds.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/LaunchLimits.h"
#include "TestInputs.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"

#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace mlir::xpu;
using mlir::xpu::test::readInput;

namespace {

constexpr unsigned kPVCGRFBytes = 64;

/// A fake compiler with per-mode SIMD width, scratch and spill.
struct FakeCompiler {
  struct Build {
    int64_t spill = 0;
    int64_t simd = 16;
    int64_t scratch = 0;
    /// grf_count of the binary; 0: what the mode pins (IGC auto: 256).
    int64_t grfCount = 0;
  };
  std::map<BuildGRF, Build> builds;
  std::vector<BuildGRF> built;
  /// The kernels of every build, each measured the same.
  std::vector<std::string> kernels = {"k"};

  Expected<BuildAttempt> operator()(BuildGRF mode) {
    built.push_back(mode);
    Build b = builds[mode];
    BuildAttempt attempt;
    attempt.mode = mode;
    attempt.buildFlags = getBuildFlags(mode, WorkerBackend::Ocloc, "");
    attempt.spillSize = b.spill;
    for (const std::string &name : kernels) {
      KernelMeasurement kernel;
      kernel.name = name;
      kernel.grfCount = b.grfCount ? b.grfCount
                        : mode == BuildGRF::Large || mode == BuildGRF::IGCAuto
                            ? 256
                            : 128;
      kernel.simd = b.simd;
      kernel.spillSize = b.spill;
      kernel.scratchSize = b.scratch;
      attempt.kernels.push_back(kernel);
    }
    return attempt;
  }
};

LaunchLimits pvcLimits(uint64_t workGroup, uint32_t requiredSimd = 0) {
  LaunchLimits limits;
  limits.device = lookupDevice("pvc");
  limits.kernels.push_back({"k", workGroup, requiredSimd});
  return limits;
}

Expected<GRFDecision> decide(GRFMode policy, const LaunchLimits &limits,
                             FakeCompiler &compiler,
                             AutoStrategy strategy = AutoStrategy::Measure,
                             AutoPlan plan = AutoPlan::Measure) {
  return decideGRF(policy, strategy, /*spillThreshold=*/0, plan,
                   /*ladder=*/{}, limits,
                   [&](BuildGRF mode) { return compiler(mode); });
}

/// The OutOfResourcesError in `error`, consumed; nullopt when it is another.
std::optional<OutOfResourcesError> takeResources(Error error) {
  std::optional<OutOfResourcesError> found;
  handleAllErrors(
      std::move(error), [&](const OutOfResourcesError &e) { found.emplace(e); },
      [](const ErrorInfoBase &) {});
  return found;
}

//===----------------------------------------------------------------------===//
// Work-group limits
//===----------------------------------------------------------------------===//

TEST(LaunchLimitsTest, BeforeBuildUsesTheRequiredOrWidestSIMD) {
  // 1024 work-items at SIMD16: small runs 8 x 8 x 16 = 1024, large 512.
  LaunchLimits simd16 = pvcLimits(1024, 16);
  EXPECT_FALSE(simd16.checkBeforeBuild(BuildGRF::Small));
  std::optional<WorkGroupLimit> large =
      simd16.checkBeforeBuild(BuildGRF::Large);
  ASSERT_TRUE(large);
  EXPECT_EQ(large->required, 1024u);
  EXPECT_EQ(large->limit, 512u);
  EXPECT_EQ(large->message,
            "kernel 'k' has a work-group of 1024 work-items; 256-register GRF "
            "mode on pvc runs at most 512 at SIMD16 (8 vector engines x 4 "
            "threads x 16 lanes, device limit 1024)");
  // Without a required width IGC may pick SIMD32, where large fits: only the
  // binary can tell.
  EXPECT_FALSE(pvcLimits(1024).checkBeforeBuild(BuildGRF::Large));
  // More than the device runs in any mode.
  EXPECT_TRUE(pvcLimits(2048).checkBeforeBuild(BuildGRF::Small));
  // IGC's auto flag is checked after the build.
  EXPECT_FALSE(simd16.checkBeforeBuild(BuildGRF::IGCAuto));
  // The option applies to kernels that declare no work-group.
  LaunchLimits option = pvcLimits(0, 16);
  option.defaultWorkGroupSize = 1024;
  EXPECT_TRUE(option.checkBeforeBuild(BuildGRF::Large));
}

TEST(LaunchLimitsTest, CheckBuildUsesTheBinarysSIMDAndGRF) {
  FakeCompiler compiler;
  compiler.builds[BuildGRF::Large].simd = 16;
  Expected<BuildAttempt> large = compiler(BuildGRF::Large);
  ASSERT_TRUE(bool(large));
  std::optional<OutOfResourcesError> error =
      takeResources(pvcLimits(1024).checkBuild(*large));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->resource, kWorkGroupResource);
  EXPECT_EQ(error->required, 1024);
  EXPECT_EQ(error->limit, 512);
  // The same work-group at SIMD32 fits large mode.
  compiler.builds[BuildGRF::Large].simd = 32;
  large = compiler(BuildGRF::Large);
  EXPECT_FALSE(bool(pvcLimits(1024).checkBuild(*large)));
}

TEST(LaunchLimitsTest, AutoNeverBuildsLargeForAWorkGroupItCannotRun) {
  FakeCompiler compiler;
  compiler.builds[BuildGRF::Small].spill = 4096;
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, pvcLimits(1024, 16), compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, std::vector<BuildGRF>{BuildGRF::Small});
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
  EXPECT_NE(d->workgroupLimit.find("runs at most 512 at SIMD16"),
            std::string::npos)
      << d->workgroupLimit;
  EXPECT_EQ(d->reason.find("large GRF ruled out ("), 0u) << d->reason;
}

TEST(LaunchLimitsTest, AutoDropsALargeBinaryThatCannotLaunch) {
  // IGC picks the width: small at SIMD32 spills, large at SIMD16 would not,
  // but cannot run 1024 work-items.
  for (AutoPlan plan :
       {AutoPlan::Measure, AutoPlan::PredictLarge, AutoPlan::Speculate}) {
    FakeCompiler compiler;
    compiler.builds[BuildGRF::Small] = {4096, 32, 0, 0};
    compiler.builds[BuildGRF::Large] = {0, 16, 0, 0};
    Expected<GRFDecision> d = decide(GRFMode::Auto, pvcLimits(1024), compiler,
                                     AutoStrategy::Measure, plan);
    ASSERT_TRUE(bool(d)) << toString(d.takeError());
    EXPECT_EQ(d->getChosen().mode, BuildGRF::Small)
        << stringifyAutoPlan(plan).str();
    EXPECT_EQ(d->getChosen().spillSize, 4096);
    EXPECT_FALSE(d->workgroupLimit.empty());
    // Both builds are recorded; the one that cannot launch says why.
    ASSERT_EQ(d->attempts.size(), 2u) << stringifyAutoPlan(plan).str();
    for (const BuildAttempt &attempt : d->attempts)
      EXPECT_EQ(attempt.unusable.empty(), attempt.mode == BuildGRF::Small);
  }
}

TEST(LaunchLimitsTest, AutoKeepsLargeWhenItFits) {
  FakeCompiler compiler;
  compiler.builds[BuildGRF::Small] = {4096, 32, 0, 0};
  compiler.builds[BuildGRF::Large] = {0, 32, 0, 0};
  Expected<GRFDecision> d = decide(GRFMode::Auto, pvcLimits(1024), compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_TRUE(d->workgroupLimit.empty());
}

TEST(LaunchLimitsTest, ForcedModeThatCannotRunIsAnError) {
  FakeCompiler compiler;
  Expected<GRFDecision> d =
      decide(GRFMode::Large, pvcLimits(1024, 16), compiler);
  ASSERT_FALSE(bool(d));
  std::optional<OutOfResourcesError> error = takeResources(d.takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->resource, kWorkGroupResource);
  EXPECT_EQ(error->required, 1024);
  EXPECT_EQ(error->limit, 512);
  EXPECT_EQ(
      error->message.find("forced large GRF mode cannot launch: kernel 'k' "
                          "has a work-group of 1024"),
      0u)
      << error->message;
  // Nothing was built.
  EXPECT_TRUE(compiler.built.empty());

  // Known only after the build (IGC picked SIMD16): still an error.
  compiler.builds[BuildGRF::Large].simd = 16;
  d = decide(GRFMode::Large, pvcLimits(1024), compiler);
  ASSERT_FALSE(bool(d));
  error = takeResources(d.takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->limit, 512);
}

TEST(LaunchLimitsTest, IGCAutoChoosingAnUnlaunchableModeFallsBackToSmall) {
  FakeCompiler compiler;
  compiler.builds[BuildGRF::IGCAuto] = {0, 16, 0, 256};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, pvcLimits(1024), compiler, AutoStrategy::IGC);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built,
            (std::vector<BuildGRF>{BuildGRF::IGCAuto, BuildGRF::Small}));
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
  EXPECT_FALSE(d->workgroupLimit.empty());
}

TEST(LaunchLimitsTest, NoLimitsWithoutADevice) {
  FakeCompiler compiler;
  compiler.builds[BuildGRF::Large] = {0, 16, 1 << 30, 0};
  Expected<GRFDecision> d = decide(GRFMode::Large, LaunchLimits(), compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
}

/// decideLaunchableGRF on pvc's ladder, measured auto.
Expected<GRFDecision> decideLaunchable(GRFMode policy,
                                       const LaunchLimits &limits,
                                       bool strictLaunch,
                                       FakeCompiler &compiler) {
  return decideLaunchableGRF(
      policy, AutoStrategy::Measure, /*spillThreshold=*/0, AutoPlan::Measure,
      getBuildLadder(*lookupDevice("pvc")), limits, strictLaunch,
      [&](BuildGRF mode) { return compiler(mode); });
}

TEST(LaunchLimitsTest, AWorkGroupNoModeRunsFailsBeforeBuildingWhenStrict) {
  // 2048 work-items: pvc runs at most 1024 in any mode, at any SIMD width.
  for (GRFMode policy :
       {GRFMode::Auto, GRFMode::Small, GRFMode::Large, GRFMode::Default}) {
    FakeCompiler compiler;
    Expected<GRFDecision> d = decideLaunchable(policy, pvcLimits(2048),
                                               /*strictLaunch=*/true, compiler);
    ASSERT_FALSE(bool(d));
    std::optional<OutOfResourcesError> error = takeResources(d.takeError());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->resource, kWorkGroupResource);
    EXPECT_EQ(error->required, 2048);
    EXPECT_EQ(error->limit, 1024);
    EXPECT_EQ(error->message,
              "cannot launch in any GRF mode: kernel 'k' has a work-group of "
              "2048 work-items; 128-register GRF mode on pvc runs at most "
              "1024 at SIMD32 (8 vector engines x 8 threads x 32 lanes, "
              "device limit 1024), the most of any mode");
    EXPECT_TRUE(compiler.built.empty());
  }
  // What fits some mode is left to the decision.
  EXPECT_FALSE(checkAnyMode(pvcLimits(1024, 16)));
  EXPECT_FALSE(checkAnyMode(pvcLimits(0)));
  EXPECT_FALSE(checkAnyMode(LaunchLimits()));
}

/// pvc limits for a module of `k` (512 work-items at SIMD16: small and large
/// run it) and `huge` (2048: no mode runs it), and a compiler where small
/// spills and large does not.
LaunchLimits siblingLimits(FakeCompiler &compiler) {
  LaunchLimits limits = pvcLimits(512, 16);
  limits.kernels.push_back({"huge", 2048, 16});
  compiler.kernels = {"k", "huge"};
  compiler.builds[BuildGRF::Small] = {64, 16, 64, 0};
  compiler.builds[BuildGRF::Large] = {0, 16, 0, 0};
  return limits;
}

TEST(LaunchLimitsTest, ADeclaredWorkGroupNoModeRunsIsAWarningOnly) {
  // `huge` is built and warned about; it does not rule out large for `k`
  // (large runs 512 at SIMD16 on pvc), before or after the build.
  for (GRFMode policy : {GRFMode::Auto, GRFMode::Large}) {
    FakeCompiler compiler;
    LaunchLimits limits = siblingLimits(compiler);
    Expected<GRFDecision> d =
        decideLaunchable(policy, limits, /*strictLaunch=*/false, compiler);
    ASSERT_TRUE(bool(d)) << toString(d.takeError());
    EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
    EXPECT_TRUE(d->workgroupLimit.empty()) << d->workgroupLimit;
    ASSERT_EQ(d->launchWarnings.size(), 1u);
    EXPECT_EQ(d->launchWarnings.front(),
              "cannot launch in any GRF mode: kernel 'huge' has a work-group "
              "of 2048 work-items; 128-register GRF mode on pvc runs at most "
              "1024 at SIMD16 (8 vector engines x 8 threads x 16 lanes, device "
              "limit 1024), the most of any mode; it is built, but the driver "
              "will refuse to launch it with that work-group, and it does not "
              "constrain the GRF mode of the kernels that share its binary "
              "(strict-launch=true makes this an error)");
  }
  // strict-launch keeps the module's error, before anything is built.
  FakeCompiler compiler;
  LaunchLimits limits = siblingLimits(compiler);
  Expected<GRFDecision> d = decideLaunchable(GRFMode::Auto, limits,
                                             /*strictLaunch=*/true, compiler);
  std::optional<OutOfResourcesError> error = takeResources(d.takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->required, 2048);
  EXPECT_TRUE(compiler.built.empty());
}

TEST(LaunchLimitsTest, ExemptsOnlyDeclaredWorkGroupsThatFitNoMode) {
  LaunchLimits limits = pvcLimits(256, 16);
  limits.kernels.push_back({"huge", 2048, 16});
  limits.kernels.push_back({"no_size", 0, 0});
  limits.defaultWorkGroupSize = 512;
  std::vector<std::string> warnings = exemptUnlaunchable(limits);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(StringRef(warnings.front()).contains("kernel 'huge'"));
  EXPECT_FALSE(limits.kernels[0].unlaunchable);
  EXPECT_TRUE(limits.kernels[1].unlaunchable);
  EXPECT_FALSE(limits.kernels[2].unlaunchable);
  EXPECT_FALSE(checkAnyMode(limits));
  // Warned once: a second pass finds nothing new.
  EXPECT_TRUE(exemptUnlaunchable(limits).empty());
  // Large (512 at SIMD16) still runs `k` and the option's size.
  EXPECT_FALSE(limits.checkBeforeBuild(BuildGRF::Large));

  // A size from max-workgroup-size is not the kernel's own: it stays the
  // module's error, strict or not.
  LaunchLimits option = pvcLimits(0);
  option.defaultWorkGroupSize = 2048;
  EXPECT_TRUE(exemptUnlaunchable(option).empty());
  FakeCompiler compiler;
  Expected<GRFDecision> d = decideLaunchable(GRFMode::Auto, option,
                                             /*strictLaunch=*/false, compiler);
  std::optional<OutOfResourcesError> error = takeResources(d.takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->required, 2048);
  EXPECT_TRUE(compiler.built.empty());
}

TEST(LaunchLimitsTest, AnUnlaunchableKernelNamesTheKernelsItTakesDown) {
  LaunchLimits limits = pvcLimits(256, 16);
  limits.kernels.push_back({"huge", 2048, 16});
  limits.kernels.push_back({"no_size", 0, 0});
  limits.kernels.push_back({"wide", 4096, 32});
  std::optional<UnlaunchableKernel> kernel = checkAnyMode(limits);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->kernel, "huge");
  EXPECT_EQ(kernel->limit.required, 2048u);
  EXPECT_EQ(kernel->limit.limit, 1024u);
  EXPECT_EQ(kernel->limit.message,
            "cannot launch in any GRF mode: kernel 'huge' has a work-group of "
            "2048 work-items; 128-register GRF mode on pvc runs at most 1024 "
            "at SIMD16 (8 vector engines x 8 threads x 16 lanes, device "
            "limit 1024), the most of any mode; neither can 'wide'; the "
            "module's other kernels ('k', 'no_size') were not built with it: "
            "they share its binary. Move 'huge', 'wide' into a module of its "
            "own (a gpu.module of its own) to build them");

  // The size every kernel gets from the option: no kernel to move.
  LaunchLimits option = pvcLimits(0);
  option.defaultWorkGroupSize = 2048;
  kernel = checkAnyMode(option);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->limit.message.find("other kernels"), std::string::npos);
  option.kernels.clear();
  kernel = checkAnyMode(option);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->kernel, "*");
}

//===----------------------------------------------------------------------===//
// Per-thread scratch
//===----------------------------------------------------------------------===//

TEST(LaunchLimitsTest, ParsesIGCsScratchOverflowMessages) {
  auto sizes = parseScratchOverflow(
      "error: total scratch space exceeds HW supported limit for kernel "
      "dot_kernel: 587264 bytes (max permitted PTSS 262144 bytes)");
  ASSERT_TRUE(sizes);
  EXPECT_EQ(sizes->first, 587264);
  EXPECT_EQ(sizes->second, 262144);
  sizes = parseScratchOverflow("Build failed:\ntotal scratch space exceeds HW "
                               "supported limit\nfor kernel k: 321024 bytes\n"
                               "(max permitted PTSS 262144 bytes)");
  ASSERT_TRUE(sizes);
  EXPECT_EQ(sizes->first, 321024);
  sizes = parseScratchOverflow("exceeding max permitted PTSS, drop SIMD");
  ASSERT_TRUE(sizes);
  EXPECT_EQ(sizes->first, 0);
  EXPECT_FALSE(parseScratchOverflow("error: Double type is not supported"));
}

TEST(LaunchLimitsTest, FailedBuildReportingPTSSOverflowIsOutOfResources) {
  WorkerResponse response;
  response.succeeded = false;
  response.returnCode = -11;
  response.log = "error: total scratch space exceeds HW supported limit for "
                 "kernel k: 587264 bytes (max permitted PTSS 262144 bytes)\n";
  std::optional<OutOfResourcesError> error = takeResources(
      measureBuild(BuildGRF::Small, "-x", response, kPVCGRFBytes).takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->resource, kScratchResource);
  EXPECT_EQ(error->required, 587264);
  EXPECT_EQ(error->limit, 262144);
  EXPECT_NE(error->message.find("build log:"), std::string::npos);
}

TEST(LaunchLimitsTest, DegenerateZebinIsOutOfResources) {
  // A real zebin with .text and .symtab removed (Inputs/make_inputs.sh).
  std::string degenerate = readInput("scratch_small_only.pvc.degenerate.zebin");
  EXPECT_TRUE(isDegenerateZebin(degenerate));
  EXPECT_FALSE(isDegenerateZebin(readInput("nospill.pvc.small.zebin")));
  EXPECT_FALSE(isDegenerateZebin("not an ELF file"));

  WorkerResponse response;
  response.succeeded = true;
  response.binary.assign(degenerate.begin(), degenerate.end());
  std::optional<OutOfResourcesError> error = takeResources(
      measureBuild(BuildGRF::Small, "-x", response, kPVCGRFBytes).takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->resource, kScratchResource);
  EXPECT_NE(error->message.find("degenerate zebin"), std::string::npos);
}

/// Real pvc builds of the scratch kernels (Inputs/README.md).
Expected<BuildAttempt> realBuild(StringRef kernel, BuildGRF mode) {
  std::string stem = (kernel + ".pvc." + stringifyBuildGRF(mode)).str();
  WorkerResponse response;
  response.succeeded = true;
  std::string binary = readInput(stem + ".zebin");
  response.binary.assign(binary.begin(), binary.end());
  response.log = readInput(stem + ".log");
  return measureBuild(mode, getBuildFlags(mode, WorkerBackend::Ocloc, ""),
                      response, kPVCGRFBytes);
}

TEST(LaunchLimitsTest, RealScratchOverflowIsDetected) {
  // IGC 1.0.12504 reports success for 512 KiB of per-thread scratch, twice
  // what pvc allows: the check is ours.
  Expected<BuildAttempt> small =
      realBuild("scratch_small_only", BuildGRF::Small);
  ASSERT_TRUE(bool(small)) << toString(small.takeError());
  EXPECT_EQ(small->kernels[0].scratchSize, 524288);
  std::optional<OutOfResourcesError> error =
      takeResources(pvcLimits(0).checkBuild(*small));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->resource, kScratchResource);
  EXPECT_EQ(error->required, 524288);
  EXPECT_EQ(error->limit, 262144);
}

TEST(LaunchLimitsTest, ScratchOverflowRetriesLarge) {
  // Small overflows the scratch, large fits: auto and default keep large.
  for (GRFMode policy : {GRFMode::Auto, GRFMode::Default}) {
    FakeCompiler compiler;
    compiler.builds[BuildGRF::Small] = {9600, 32, 524288, 0};
    compiler.builds[BuildGRF::Default] = {9600, 32, 524288, 0};
    compiler.builds[BuildGRF::Large] = {0, 32, 262144, 0};
    Expected<GRFDecision> d = decide(policy, pvcLimits(0), compiler);
    ASSERT_TRUE(bool(d)) << toString(d.takeError());
    EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
    EXPECT_NE(d->reason.find("ran out of resources"), std::string::npos)
        << d->reason;
    // The overflowing build is recorded too, first, and marked.
    ASSERT_EQ(d->attempts.size(), 2u);
    EXPECT_EQ(d->chosen, 1u);
    EXPECT_NE(d->attempts[0].unusable.find("524288 bytes of per-thread "
                                           "scratch"),
              std::string::npos)
        << d->attempts[0].unusable;
  }
  // Forced small: an error with the sizes.
  FakeCompiler compiler;
  compiler.builds[BuildGRF::Small] = {9600, 32, 524288, 0};
  Expected<GRFDecision> d = decide(GRFMode::Small, pvcLimits(0), compiler);
  ASSERT_FALSE(bool(d));
  std::optional<OutOfResourcesError> error = takeResources(d.takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->required, 524288);
  EXPECT_EQ(error->limit, 262144);
}

TEST(LaunchLimitsTest, ScratchOverflowInEveryModeIsAnErrorWithSizes) {
  FakeCompiler compiler;
  compiler.builds[BuildGRF::Small] = {16896, 32, 524288, 0};
  compiler.builds[BuildGRF::Large] = {8448, 32, 524288, 0};
  Expected<GRFDecision> d = decide(GRFMode::Auto, pvcLimits(0), compiler);
  ASSERT_FALSE(bool(d));
  std::optional<OutOfResourcesError> error = takeResources(d.takeError());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->resource, kScratchResource);
  EXPECT_EQ(error->required, 524288);
  EXPECT_EQ(error->limit, 262144);
  EXPECT_NE(error->message.find("large GRF mode: kernel 'k' needs 524288"),
            std::string::npos)
      << error->message;
}

} // namespace
