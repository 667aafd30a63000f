//===- GRFLadderTest.cpp - decideGRF over a device's ladder of modes ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The measured auto policy on a three-rung ladder (cri: 128, 256, 512
// registers) with fake builds: how far it climbs, what it keeps, and what
// the reason says about where and why it stopped.
//
//===----------------------------------------------------------------------===//

#include "FakeGRFCompiler.h"

#include "XPUCodegen/Compiler/Native/GRFBuild.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mlir::xpu;

namespace {

using FakeCompiler = test::FakeGRFCompiler;

/// cri with its GRF modes only: the ladder walk itself, as `auto` runs it
/// where IGC's default build cannot start the register-count search
/// (GRFCountSearchTest covers that search).
const DeviceInfo &getCRIModesOnly() {
  static const DeviceInfo device = [] {
    DeviceInfo cri = *lookupDevice("cri");
    cri.registerCounts = {};
    return cri;
  }();
  return device;
}

/// cri's limits for kernel 'k' with `workGroup` work-items at `simd`.
LaunchLimits criLimits(uint64_t workGroup = 0, uint32_t simd = 16) {
  LaunchLimits limits;
  limits.device = &getCRIModesOnly();
  limits.kernels.push_back({"k", workGroup, simd});
  return limits;
}

Expected<GRFDecision> decide(FakeCompiler &compiler,
                             const LaunchLimits &limits = criLimits(),
                             AutoPlan plan = AutoPlan::Measure,
                             int64_t threshold = 0,
                             GRFMode policy = GRFMode::Auto) {
  return decideGRF(policy, AutoStrategy::Measure, threshold, plan,
                   getBuildLadder(*limits.device), limits,
                   [&](BuildGRF mode) { return compiler(mode); });
}

using Modes = std::vector<BuildGRF>;
constexpr BuildGRF S = BuildGRF::Small, L = BuildGRF::Large,
                   X = BuildGRF::XLarge;

TEST(GRFLadderTest, LadderComesFromTheDeviceTable) {
  EXPECT_EQ(getBuildLadder(*lookupDevice("cri")),
            (SmallVector<BuildGRF, 3>{S, L, X}));
  EXPECT_EQ(getBuildLadder(*lookupDevice("pvc")),
            (SmallVector<BuildGRF, 3>{S, L}));
  EXPECT_EQ(getBuildLadder(*lookupDevice("tgllp")),
            (SmallVector<BuildGRF, 3>{S}));
  EXPECT_EQ(getNRegs(X), 512);
  EXPECT_EQ(getGRFFlag(X, WorkerBackend::Ocloc),
            "-cl-intel-512-GRF-per-thread");
  EXPECT_EQ(getGRFFlag(X, WorkerBackend::LevelZero),
            "-ze-intel-512-GRF-per-thread");
  EXPECT_TRUE(isGRFFlag("-cl-intel-512-GRF-per-thread"));
  EXPECT_TRUE(pinsGRFOrThreads("-ze-intel-512-GRF-per-thread"));
  EXPECT_EQ(stringifyBuildGRF(X), "xlarge");
}

TEST(GRFLadderTest, StopsWhereNothingSpills) {
  FakeCompiler compiler;
  compiler.at(S).spill = 11520;
  Expected<GRFDecision> d = decide(compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, (Modes{S, L}));
  EXPECT_EQ(d->getChosen().mode, L);
  EXPECT_EQ(d->reason, "small spilled 11520 bytes > threshold 0; large "
                       "spilled 0 bytes <= threshold 0: kept large");

  FakeCompiler clean;
  d = decide(clean);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(clean.built, (Modes{S}));
  EXPECT_EQ(d->reason, "small spilled 0 bytes <= threshold 0: kept small");
}

TEST(GRFLadderTest, ClimbsTo512WhenLargeStillSpills) {
  // acc32 on cri with IGC 2.40: 11520 / 2624 / 0 bytes.
  FakeCompiler compiler;
  compiler.at(S).spill = 11520;
  compiler.at(L).spill = 2624;
  Expected<GRFDecision> d = decide(compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, (Modes{S, L, X}));
  ASSERT_EQ(d->attempts.size(), 3u);
  EXPECT_EQ(d->chosen, 2u);
  EXPECT_EQ(d->getChosen().mode, X);
  EXPECT_EQ(getNRegs(d->getChosen().mode), 512);
  EXPECT_EQ(d->source, "measured");
  EXPECT_EQ(d->reason, "small spilled 11520 bytes > threshold 0; large "
                       "spilled 2624 bytes > threshold 0; xlarge spilled 0 "
                       "bytes: kept xlarge");
}

TEST(GRFLadderTest, Keeps256When512DoesNotSpillStrictlyLess) {
  for (int64_t xlargeSpill : {2624, 4000}) {
    FakeCompiler compiler;
    compiler.at(S).spill = 11520;
    compiler.at(L).spill = 2624;
    compiler.at(X).spill = xlargeSpill;
    Expected<GRFDecision> d = decide(compiler);
    ASSERT_TRUE(bool(d)) << toString(d.takeError());
    EXPECT_EQ(compiler.built, (Modes{S, L, X}));
    EXPECT_EQ(d->getChosen().mode, L) << xlargeSpill;
    EXPECT_EQ(d->reason,
              "small spilled 11520 bytes > threshold 0; large spilled 2624 "
              "bytes > threshold 0; xlarge spilled " +
                  std::to_string(xlargeSpill) + " bytes, not less: kept large");
  }
}

TEST(GRFLadderTest, ComparesWithTheBestSoFar) {
  // Large spills more than small, so small stays the best; xlarge must beat
  // small, not large.
  FakeCompiler compiler;
  compiler.at(S).spill = 1000;
  compiler.at(L).spill = 3000;
  compiler.at(X).spill = 2000;
  Expected<GRFDecision> d = decide(compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, S);
  EXPECT_EQ(d->reason, "small spilled 1000 bytes > threshold 0; large "
                       "spilled 3000 bytes, not less > threshold 0; xlarge "
                       "spilled 2000 bytes, not less: kept small");
}

TEST(GRFLadderTest, WorkGroupLimitRulesOut512Unbuilt) {
  // 512 work-items at SIMD16: 128 and 256 registers run them (1024, 512),
  // 512 registers only 128 on the released drivers (8 engines x 1 thread x
  // 16 lanes).
  FakeCompiler compiler;
  compiler.at(S).spill = 11520;
  compiler.at(L).spill = 2624;
  Expected<GRFDecision> d = decide(compiler, criLimits(512, 16));
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, (Modes{S, L}));
  EXPECT_EQ(d->getChosen().mode, L);
  EXPECT_NE(d->workgroupLimit.find("512-register GRF mode on cri runs at "
                                   "most 128 at SIMD16 (8 vector engines x 1 "
                                   "threads x 16 lanes"),
            std::string::npos)
      << d->workgroupLimit;
  EXPECT_EQ(d->reason.find("xlarge GRF ruled out (kernel 'k' has a "
                           "work-group of 512 work-items; "),
            0u)
      << d->reason;
  EXPECT_NE(d->reason.find("); small spilled 11520 bytes > threshold 0; "
                           "large spilled 2624 bytes: kept large"),
            std::string::npos)
      << d->reason;
}

TEST(GRFLadderTest, An512BinaryThatCannotLaunchEndsTheLadderBelowIt) {
  // IGC picked SIMD16 at 512 registers: 256 work-items (which fit at
  // SIMD32, so nothing was ruled out before building) do not fit; the
  // decision is the one the two lower rungs make, and all three are listed.
  FakeCompiler compiler;
  compiler.at(S) = {11520, 32, 0};
  compiler.at(L) = {2624, 32, 0};
  compiler.at(X) = {0, 16, 0};
  Expected<GRFDecision> d = decide(compiler, criLimits(256, 0));
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, (Modes{S, L, X}));
  EXPECT_EQ(d->getChosen().mode, L);
  ASSERT_EQ(d->attempts.size(), 3u);
  EXPECT_FALSE(d->attempts[2].unusable.empty());
  EXPECT_FALSE(d->workgroupLimit.empty());
  EXPECT_EQ(d->reason.find("xlarge GRF ruled out (kernel 'k' has a "
                           "work-group of 256 work-items; 512-register GRF "
                           "mode on cri runs at most 128 at SIMD16"),
            0u)
      << d->reason;
}

TEST(GRFLadderTest, ScratchOverflowClimbsEveryRung) {
  // Small and large over the per-thread scratch limit (256 KiB), xlarge fits.
  FakeCompiler compiler;
  compiler.at(S) = {20000, 16, 524288};
  compiler.at(L) = {9000, 16, 300000};
  compiler.at(X) = {0, 16, 200000};
  Expected<GRFDecision> d = decide(compiler);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, X);
  EXPECT_NE(d->reason.find("small GRF mode ran out of resources ("),
            std::string::npos);
  EXPECT_NE(d->reason.find("large GRF mode ran out of resources ("),
            std::string::npos);
  EXPECT_NE(d->reason.find("xlarge spilled 0 bytes and fits: kept xlarge"),
            std::string::npos)
      << d->reason;
}

TEST(GRFLadderTest, PlansClimbPastTheirPair) {
  // Speculation builds small and large at once, then measures xlarge.
  FakeCompiler speculative;
  speculative.at(S).spill = 11520;
  speculative.at(L).spill = 2624;
  Expected<GRFDecision> d =
      decide(speculative, criLimits(), AutoPlan::Speculate);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, X);
  EXPECT_EQ(d->source, "speculated");
  EXPECT_EQ(d->reason, "speculated (uncertain estimate), built both: small "
                       "spilled 11520 bytes, large spilled 2624 bytes > "
                       "threshold 0; xlarge spilled 0 bytes: kept xlarge");

  // A predicted large that spills builds small too, then xlarge: the
  // measurement overrides the prediction.
  FakeCompiler predicted;
  predicted.at(S).spill = 11520;
  predicted.at(L).spill = 2624;
  d = decide(predicted, criLimits(), AutoPlan::PredictLarge);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(predicted.built, (Modes{L, S, X}));
  EXPECT_EQ(d->getChosen().mode, X);
  EXPECT_EQ(d->source, "measured");
  EXPECT_EQ(d->reason.find("predicted large, measurement overrode: "), 0u)
      << d->reason;

  // verify-predicted-large=false skips small, still measures xlarge.
  FakeCompiler trusted;
  trusted.at(L).spill = 2624;
  trusted.at(X).spill = 3000;
  d = decide(trusted, criLimits(), AutoPlan::PredictLargeUnverified);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(trusted.built, (Modes{L, X}));
  EXPECT_EQ(d->getChosen().mode, L);
  EXPECT_EQ(d->source, "predicted");
}

TEST(GRFLadderTest, ForcedXLargeBuildsOnceAndRespectsTheWorkGroup) {
  FakeCompiler compiler;
  compiler.at(X).spill = 64;
  Expected<GRFDecision> d =
      decide(compiler, criLimits(), AutoPlan::Measure, 0, GRFMode::XLarge);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, (Modes{X}));
  EXPECT_EQ(d->reason, "forced xlarge mode built with 512 GRF and spilled 64 "
                       "bytes");
  FakeCompiler unbuilt;
  d = decide(unbuilt, criLimits(512, 16), AutoPlan::Measure, 0,
             GRFMode::XLarge);
  ASSERT_FALSE(bool(d));
  EXPECT_NE(toString(d.takeError())
                .find("forced xlarge GRF mode cannot "
                      "launch"),
            std::string::npos);
  EXPECT_TRUE(unbuilt.built.empty());
}

} // namespace
