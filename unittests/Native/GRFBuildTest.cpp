//===- GRFBuildTest.cpp - Tests for GRF flags, measurement and decision ---===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "TestInputs.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace llvm;
using namespace mlir::xpu;
using mlir::xpu::test::readInput;
using mlir::xpu::test::responseFor;

namespace {

constexpr unsigned kPVCGRFBytes = 64;

//===----------------------------------------------------------------------===//
// Flags and n_regs
//===----------------------------------------------------------------------===//

TEST(GRFBuildTest, StringifyBuildGRF) {
  EXPECT_EQ(stringifyBuildGRF(BuildGRF::Small), "small");
  EXPECT_EQ(stringifyBuildGRF(BuildGRF::Large), "large");
  EXPECT_EQ(stringifyBuildGRF(BuildGRF::Default), "default");
  EXPECT_EQ(stringifyBuildGRF(BuildGRF::IGCAuto), "igc-auto");
}

TEST(GRFBuildTest, OclocFlagSpellings) {
  WorkerBackend b = WorkerBackend::Ocloc;
  EXPECT_EQ(getGRFFlag(BuildGRF::Small, b), "-cl-intel-128-GRF-per-thread");
  EXPECT_EQ(getGRFFlag(BuildGRF::Large, b), "-cl-intel-256-GRF-per-thread");
  EXPECT_EQ(getGRFFlag(BuildGRF::IGCAuto, b),
            "-cl-intel-enable-auto-large-GRF-mode");
  EXPECT_EQ(getGRFFlag(BuildGRF::Default, b), "");
}

TEST(GRFBuildTest, LevelZeroFlagSpellings) {
  WorkerBackend b = WorkerBackend::LevelZero;
  EXPECT_EQ(getGRFFlag(BuildGRF::Small, b), "-ze-intel-128-GRF-per-thread");
  EXPECT_EQ(getGRFFlag(BuildGRF::Large, b), "-ze-opt-large-register-file");
  EXPECT_EQ(getGRFFlag(BuildGRF::IGCAuto, b),
            "-ze-intel-enable-auto-large-GRF-mode");
  EXPECT_EQ(getGRFFlag(BuildGRF::Default, b), "");
}

TEST(GRFBuildTest, BuildFlagsAreNormalized) {
  EXPECT_EQ(getBuildFlags(BuildGRF::Small, WorkerBackend::Ocloc, ""),
            "-cl-intel-128-GRF-per-thread");
  EXPECT_EQ(getBuildFlags(BuildGRF::Large, WorkerBackend::LevelZero,
                          "  -cl-mad-enable\t -cl-fast-relaxed-math \n"),
            "-ze-opt-large-register-file -cl-mad-enable -cl-fast-relaxed-math");
  EXPECT_EQ(getBuildFlags(BuildGRF::Default, WorkerBackend::Ocloc, " -g  "),
            "-g");
  EXPECT_EQ(getBuildFlags(BuildGRF::Default, WorkerBackend::Ocloc, ""), "");
}

TEST(GRFBuildTest, BuildFlagsDropStrayGRFFlags) {
  // A GRF flag in the extra flags must not override the mode.
  EXPECT_EQ(getBuildFlags(BuildGRF::Small, WorkerBackend::Ocloc,
                          "-cl-intel-256-GRF-per-thread -O2 "
                          "-ze-opt-large-register-file"),
            "-cl-intel-128-GRF-per-thread -O2");
  EXPECT_EQ(getBuildFlags(BuildGRF::Default, WorkerBackend::Ocloc,
                          "-cl-intel-enable-auto-large-GRF-mode"),
            "");
  EXPECT_TRUE(isGRFFlag("-ze-intel-128-GRF-per-thread"));
  EXPECT_FALSE(isGRFFlag("-cl-intel-128-GRF-per-thread-x"));
}

// Options that pin the register file or the thread count would make the
// reported mode wrong (the binary had grf_count 256 while the report said
// small): they are errors, whatever their spelling.
TEST(GRFBuildTest, FlagsThatPinGRFOrThreadsAreErrors) {
  for (StringRef flags :
       {"-ze-intel-256-GRF-per-thread", "-cl-intel-128-GRF-per-thread",
        "-O2 -cl-intel-256-GRF-per-thread", "-ze-opt-large-register-file",
        "-cl-intel-num-thread-per-eu 4", "-ze-intel-num-thread-per-eu 4",
        "-cl-intel-enable-auto-large-GRF-mode",
        "-ze-intel-enable-auto-large-GRF-mode", "-ze-exp-register-file-size"}) {
    Error error = checkExtraFlags(flags);
    EXPECT_TRUE(bool(error)) << flags.str();
    std::string text = toString(std::move(error));
    EXPECT_NE(text.find("pins the register file"), std::string::npos) << text;
  }
  for (StringRef flags : {"", "-cl-mad-enable -O2", "-cl-fast-relaxed-math"})
    EXPECT_FALSE(errorToBool(checkExtraFlags(flags))) << flags.str();
}

// The binary's grf_count must be a register count of the device, the one
// the flags pin (n_regs) when they pin one, and simd a real SIMD width.
TEST(GRFBuildTest, BuildFactsAreCrossChecked) {
  auto attempt = [](BuildGRF mode, int64_t grfCount, int64_t simd) {
    BuildAttempt a;
    a.mode = mode;
    KernelMeasurement k;
    k.name = "k";
    k.grfCount = grfCount;
    k.simd = simd;
    a.kernels.push_back(k);
    return a;
  };
  SmallVector<int64_t> pvc = {128, 256}, tgllp = {128};
  auto errorText = [](Error error) { return toString(std::move(error)); };
  EXPECT_FALSE(
      errorToBool(checkBuildFacts(attempt(BuildGRF::Small, 128, 16), pvc)));
  EXPECT_FALSE(
      errorToBool(checkBuildFacts(attempt(BuildGRF::Large, 256, 32), pvc)));
  EXPECT_FALSE(
      errorToBool(checkBuildFacts(attempt(BuildGRF::IGCAuto, 256, 8), pvc)));
  EXPECT_FALSE(
      errorToBool(checkBuildFacts(attempt(BuildGRF::Default, 128, 16), tgllp)));
  EXPECT_NE(errorText(checkBuildFacts(attempt(BuildGRF::Small, 256, 16), pvc))
                .find("pin 128 registers"),
            std::string::npos);
  EXPECT_NE(errorText(checkBuildFacts(attempt(BuildGRF::Large, 128, 16), pvc))
                .find("pin 256 registers"),
            std::string::npos);
  EXPECT_NE(
      errorText(checkBuildFacts(attempt(BuildGRF::Default, 999999, 16), pvc))
          .find("not a register count of this device (128, 256)"),
      std::string::npos);
  EXPECT_NE(
      errorText(checkBuildFacts(attempt(BuildGRF::IGCAuto, 256, 16), tgllp))
          .find("grf_count 256"),
      std::string::npos);
  EXPECT_NE(errorText(checkBuildFacts(attempt(BuildGRF::Small, 128, 3), pvc))
                .find("simd 3"),
            std::string::npos);
}

TEST(GRFBuildTest, NRegsFollowTheFlags) {
  EXPECT_EQ(getNRegs(BuildGRF::Small), 128);
  EXPECT_EQ(getNRegs(BuildGRF::Large), 256);
  EXPECT_EQ(getNRegs(BuildGRF::Default), 0);
  EXPECT_EQ(getNRegs(BuildGRF::IGCAuto), 0);
}

//===----------------------------------------------------------------------===//
// decideGRF
//===----------------------------------------------------------------------===//

/// A fake compiler: spill per mode, counting the builds it runs.
struct FakeCompiler {
  int64_t smallSpill = 0, largeSpill = 0, otherSpill = 0;
  std::optional<BuildGRF> failOn;
  std::vector<BuildGRF> built;

  Expected<BuildAttempt> operator()(BuildGRF mode) {
    built.push_back(mode);
    if (failOn == mode)
      return createStringError(inconvertibleErrorCode(),
                               "IGC said no in %s mode",
                               stringifyBuildGRF(mode).data());
    BuildAttempt attempt;
    attempt.mode = mode;
    attempt.buildFlags = getBuildFlags(mode, WorkerBackend::Ocloc, "");
    attempt.spillSize = mode == BuildGRF::Small   ? smallSpill
                        : mode == BuildGRF::Large ? largeSpill
                                                  : otherSpill;
    KernelMeasurement kernel;
    kernel.name = "k";
    kernel.grfCount = mode == BuildGRF::Large ? 256 : 128;
    kernel.spillSize = attempt.spillSize;
    attempt.kernels.push_back(kernel);
    return attempt;
  }
};

Expected<GRFDecision> decide(GRFMode policy, AutoStrategy strategy,
                             int64_t threshold, FakeCompiler &compiler) {
  return decideGRF(policy, strategy, threshold, AutoPlan::Measure,
                   /*ladder=*/{}, LaunchLimits(),
                   [&](BuildGRF mode) { return compiler(mode); });
}

TEST(GRFBuildTest, ForcedAndDefaultPoliciesBuildOnce) {
  struct Case {
    GRFMode policy;
    BuildGRF mode;
    const char *reason;
  };
  const Case cases[] = {
      {GRFMode::Small, BuildGRF::Small,
       "forced small mode built with 128 GRF and spilled 500 bytes"},
      {GRFMode::Large, BuildGRF::Large,
       "forced large mode built with 256 GRF and spilled 100 bytes"},
      {GRFMode::Default, BuildGRF::Default,
       "default mode (no GRF flag) built with 128 GRF and spilled 7 bytes"},
  };
  for (const Case &c : cases) {
    FakeCompiler compiler{500, 100, 7};
    // A forced mode never rebuilds, whatever it spills.
    Expected<GRFDecision> d =
        decide(c.policy, AutoStrategy::Measure, 0, compiler);
    ASSERT_TRUE(bool(d)) << toString(d.takeError());
    EXPECT_EQ(compiler.built, std::vector<BuildGRF>{c.mode});
    ASSERT_EQ(d->attempts.size(), 1u);
    EXPECT_EQ(d->chosen, 0u);
    EXPECT_EQ(d->getChosen().mode, c.mode);
    EXPECT_EQ(d->reason, c.reason);
  }
}

TEST(GRFBuildTest, AutoKeepsSmallWhenItDoesNotSpill) {
  FakeCompiler compiler{0, 0};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::Measure, 0, compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, std::vector<BuildGRF>{BuildGRF::Small});
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
  EXPECT_EQ(d->reason, "small spilled 0 bytes <= threshold 0: kept small");
}

TEST(GRFBuildTest, AutoGoesLargeWhenLargeSpillsLess) {
  FakeCompiler compiler{8704, 0};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::Measure, 0, compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built,
            (std::vector<BuildGRF>{BuildGRF::Small, BuildGRF::Large}));
  ASSERT_EQ(d->attempts.size(), 2u);
  EXPECT_EQ(d->attempts[0].spillSize, 8704);
  EXPECT_EQ(d->attempts[1].spillSize, 0);
  EXPECT_EQ(d->chosen, 1u);
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_EQ(d->reason, "small spilled 8704 bytes > threshold 0; large "
                       "spilled 0 bytes: kept large");
}

TEST(GRFBuildTest, AutoKeepsLargeWhenBothSpill) {
  FakeCompiler compiler{37120, 11648};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::Measure, 0, compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
}

TEST(GRFBuildTest, AutoKeepsSmallWhenLargeSpillsMore) {
  FakeCompiler compiler{600, 900};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::Measure, 0, compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  ASSERT_EQ(d->attempts.size(), 2u);
  EXPECT_EQ(d->chosen, 0u);
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
  EXPECT_EQ(d->reason, "small spilled 600 bytes > threshold 0; large spilled "
                       "900 bytes, not less: kept small");
}

TEST(GRFBuildTest, AutoKeepsSmallWhenLargeSpillsTheSame) {
  // Large must spill strictly less to pay for halving occupancy.
  FakeCompiler compiler{600, 600};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::Measure, 0, compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->attempts.size(), 2u);
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
}

TEST(GRFBuildTest, AutoThresholdIsStrictlyGreater) {
  FakeCompiler atThreshold{1000, 0};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::Measure, 1000, atThreshold);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(atThreshold.built, std::vector<BuildGRF>{BuildGRF::Small});
  EXPECT_EQ(d->reason,
            "small spilled 1000 bytes <= threshold 1000: kept small");

  FakeCompiler above{1001, 0};
  d = decide(GRFMode::Auto, AutoStrategy::Measure, 1000, above);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(above.built.size(), 2u);
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
}

TEST(GRFBuildTest, AutoWithIGCStrategyBuildsOnce) {
  FakeCompiler compiler{9999, 0, 42};
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::IGC, 0, compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, std::vector<BuildGRF>{BuildGRF::IGCAuto});
  EXPECT_EQ(d->getChosen().mode, BuildGRF::IGCAuto);
  EXPECT_EQ(d->reason, "IGC's auto mode chose 128 GRF and spilled 42 bytes");
}

TEST(GRFBuildTest, BuildErrorsPropagate) {
  for (BuildGRF failing : {BuildGRF::Small, BuildGRF::Large}) {
    FakeCompiler compiler{500, 0};
    compiler.failOn = failing;
    Expected<GRFDecision> d =
        decide(GRFMode::Auto, AutoStrategy::Measure, 0, compiler);
    ASSERT_FALSE(bool(d));
    std::string message = toString(d.takeError());
    EXPECT_NE(message.find("IGC said no in " +
                           stringifyBuildGRF(failing).str() + " mode"),
              std::string::npos)
        << message;
  }
  FakeCompiler compiler;
  compiler.failOn = BuildGRF::IGCAuto;
  Expected<GRFDecision> d =
      decide(GRFMode::Auto, AutoStrategy::IGC, 0, compiler);
  ASSERT_FALSE(bool(d));
  consumeError(d.takeError());
}

TEST(GRFBuildTest, AutoOnRealBuilds) {
  // The measured pvc builds end to end: spill_small_only goes large,
  // nospill stays small.
  auto decideFor = [](StringRef kernel) {
    return decideGRF(
        GRFMode::Auto, AutoStrategy::Measure, 0, AutoPlan::Measure,
        /*ladder=*/{}, LaunchLimits(), [&](BuildGRF mode) {
          return measureBuild(
              mode, getBuildFlags(mode, WorkerBackend::Ocloc, ""),
              responseFor((kernel + ".pvc." + stringifyBuildGRF(mode)).str()),
              kPVCGRFBytes);
        });
  };
  Expected<GRFDecision> d = decideFor("spill_small_only");
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->reason, "small spilled 9600 bytes > threshold 0; large "
                       "spilled 0 bytes: kept large");
  EXPECT_EQ(d->getChosen().kernels[0].grfCount, 256);

  d = decideFor("nospill");
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->attempts.size(), 1u);
  EXPECT_EQ(d->getChosen().kernels[0].grfCount, 128);
}

//===----------------------------------------------------------------------===//
// IGC 2.40 (tools/install-compiler's root; test/Inputs/Native/make_inputs.sh)
//===----------------------------------------------------------------------===//

TEST(GRFBuildTest, IGC2SpillSizeIsTheBinarysNotTheLogs) {
  // .ze_info spill_size 5760 = the log's "spilled around 90" x 64.
  Expected<BuildAttempt> attempt = measureBuild(
      BuildGRF::Small, "-cl-intel-128-GRF-per-thread",
      responseFor("spill_small_only.pvc.igc2.small"), kPVCGRFBytes);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->spillSize, 5760);
  EXPECT_EQ(attempt->kernels[0].simd, 32);

  WorkerResponse response = responseFor("spill_small_only.pvc.igc2.small");
  size_t at = response.log.find("spilled around 90");
  ASSERT_NE(at, std::string::npos);
  response.log.replace(at, strlen("spilled around 90"), "spilled around 91");
  attempt = measureBuild(BuildGRF::Small, "-cl-intel-128-GRF-per-thread",
                         response, kPVCGRFBytes);
  // The binary's figure stands; the log's other one is named beside it.
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->spillSize, 5760);
  EXPECT_NE(attempt->kernels[0].spillNote.find(
                "spilled around 5824 bytes; the binary's .ze_info "
                "spill_size is 5760"),
            std::string::npos)
      << attempt->kernels[0].spillNote;
}

TEST(GRFBuildTest, IGC2NarrowsTheSIMDWidthOnScratchOverflow) {
  std::string log = readInput("scratch_both.pvc.igc2.small.log");
  EXPECT_EQ(parseSIMDDrops(log), std::vector<std::string>{"scratch_both"});
  EXPECT_TRUE(
      parseSIMDDrops(readInput("spill_small_only.pvc.igc2.small.log")).empty());
  // The narrowed build is a good binary at SIMD16, with its spill measured.
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Small, "-cl-intel-128-GRF-per-thread",
                   responseFor("scratch_both.pvc.igc2.small"), kPVCGRFBytes);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->kernels[0].simd, 16);
  EXPECT_EQ(attempt->spillSize, 3904);
}

TEST(GRFBuildTest, AutoClimbsPastANarrowedSIMDWidth) {
  // IGC 2.40 fits scratch_small_only's small build by dropping to SIMD16
  // (1.0.12504 overflowed the scratch there); large keeps SIMD32 and wins.
  Expected<GRFDecision> d = decideGRF(
      GRFMode::Auto, AutoStrategy::Measure, 0, AutoPlan::Measure,
      /*ladder=*/{}, LaunchLimits(), [&](BuildGRF mode) {
        return measureBuild(mode, getBuildFlags(mode, WorkerBackend::Ocloc, ""),
                            responseFor(("scratch_small_only.pvc.igc2." +
                                         stringifyBuildGRF(mode))
                                            .str()),
                            kPVCGRFBytes);
      });
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->reason, "small spilled 0 bytes at a SIMD width IGC narrowed to "
                       "fit the per-thread scratch; large spilled 0 bytes: "
                       "kept large");
  EXPECT_EQ(d->getChosen().kernels[0].simd, 32);
  EXPECT_EQ(d->getChosen().kernels[0].grfCount, 256);
}

} // namespace
