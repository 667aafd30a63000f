//===- GRFPredictionTest.cpp - decideGRF with a predicted plan ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The auto policy driven by a static register-pressure prediction
// (AutoPlan): which builds run, which result is kept, and what the decision
// says about its source.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/GRFBuild.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

using namespace llvm;
using namespace mlir::xpu;

namespace {
/// A fake compiler: spill per mode, recording the builds it runs. Safe to
/// call from two threads (speculation).
struct FakeCompiler {
  int64_t smallSpill = 0, largeSpill = 0;
  std::optional<BuildGRF> failOn;
  std::mutex mutex;
  std::vector<BuildGRF> built;
  /// Builds running right now, and the most ever seen at once.
  std::atomic<int> running{0}, maxRunning{0};
  /// A build waits (up to a minute) until this many have run at once, so
  /// concurrent builds overlap however slowly their threads are scheduled;
  /// builds run one after another never do, and so wait out the minute.
  int overlap = 1;
  std::condition_variable started;

  Expected<BuildAttempt> operator()(BuildGRF mode) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      maxRunning = std::max(maxRunning.load(), ++running);
      started.notify_all();
      started.wait_for(lock, std::chrono::minutes(1),
                       [&] { return maxRunning >= overlap; });
      --running;
      built.push_back(mode);
    }
    if (failOn == mode)
      return createStringError(inconvertibleErrorCode(), "boom");
    BuildAttempt attempt;
    attempt.mode = mode;
    attempt.buildFlags = getBuildFlags(mode, WorkerBackend::Ocloc, "");
    attempt.spillSize = mode == BuildGRF::Small ? smallSpill : largeSpill;
    return attempt;
  }
};

Expected<GRFDecision> decide(FakeCompiler &compiler, AutoPlan plan,
                             int64_t threshold = 0,
                             GRFMode policy = GRFMode::Auto,
                             AutoStrategy strategy = AutoStrategy::Measure) {
  return decideGRF(policy, strategy, threshold, plan, /*ladder=*/{},
                   LaunchLimits(),
                   [&](BuildGRF mode) { return compiler(mode); });
}
} // namespace

TEST(GRFPredictionTest, MeasurePlanIsTheMeasuredRule) {
  FakeCompiler compiler;
  compiler.smallSpill = 5248;
  Expected<GRFDecision> d = decide(compiler, AutoPlan::Measure);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built,
            (std::vector<BuildGRF>{BuildGRF::Small, BuildGRF::Large}));
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_EQ(d->source, "measured");
  EXPECT_EQ(d->reason, "small spilled 5248 bytes > threshold 0; large "
                       "spilled 0 bytes: kept large");
}

TEST(GRFPredictionTest, PredictedSmallThatHoldsBuildsOnce) {
  FakeCompiler compiler;
  Expected<GRFDecision> d = decide(compiler, AutoPlan::PredictSmall);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, (std::vector<BuildGRF>{BuildGRF::Small}));
  EXPECT_EQ(d->source, "predicted");
  EXPECT_EQ(
      d->reason,
      "predicted small; small spilled 0 bytes <= threshold 0: kept small");
}

TEST(GRFPredictionTest, PredictedSmallThatSpillsIsOverriddenByMeasurement) {
  FakeCompiler compiler;
  compiler.smallSpill = 11392;
  compiler.largeSpill = 3968;
  Expected<GRFDecision> d = decide(compiler, AutoPlan::PredictSmall);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built,
            (std::vector<BuildGRF>{BuildGRF::Small, BuildGRF::Large}));
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_EQ(d->source, "measured");
  EXPECT_EQ(d->reason, "predicted small, measurement overrode: small spilled "
                       "11392 bytes > threshold 0; large spilled 3968 bytes: "
                       "kept large");
}

TEST(GRFPredictionTest, PredictedSmallStandsWhenLargeIsNoBetter) {
  FakeCompiler compiler;
  compiler.smallSpill = 640;
  compiler.largeSpill = 640;
  Expected<GRFDecision> d = decide(compiler, AutoPlan::PredictSmall);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
  EXPECT_EQ(d->source, "predicted");
}

TEST(GRFPredictionTest, PredictedLargeSkipsTheSmallBuild) {
  FakeCompiler compiler;
  compiler.smallSpill = 85120; // never built
  Expected<GRFDecision> d = decide(compiler, AutoPlan::PredictLarge);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built, (std::vector<BuildGRF>{BuildGRF::Large}));
  ASSERT_EQ(d->attempts.size(), 1u);
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_EQ(d->source, "predicted");
  EXPECT_EQ(d->reason, "predicted large; large spilled 0 bytes <= threshold "
                       "0: kept large, small build skipped");
}

TEST(GRFPredictionTest, PredictedLargeThatSpillsBuildsSmallAndKeepsTheLesser) {
  FakeCompiler compiler;
  compiler.smallSpill = 85120;
  compiler.largeSpill = 68736;
  Expected<GRFDecision> d = decide(compiler, AutoPlan::PredictLarge);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  // Attempts are in build order: large, then small.
  EXPECT_EQ(compiler.built,
            (std::vector<BuildGRF>{BuildGRF::Large, BuildGRF::Small}));
  ASSERT_EQ(d->attempts.size(), 2u);
  EXPECT_EQ(d->attempts[0].mode, BuildGRF::Large);
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_EQ(d->source, "predicted");
  EXPECT_EQ(d->reason, "predicted large; large spilled 68736 bytes > "
                       "threshold 0, so small was built too: small spilled "
                       "85120 bytes, large spilled 68736 bytes: kept large");

  // Large spilling more than small: the measurement overrides.
  FakeCompiler worse;
  worse.smallSpill = 1000;
  worse.largeSpill = 2000;
  d = decide(worse, AutoPlan::PredictLarge);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
  EXPECT_EQ(d->source, "measured");
  EXPECT_EQ(d->reason,
            "predicted large, measurement overrode: large spilled 2000 bytes "
            "> threshold 0, so small was built too: small spilled 1000 "
            "bytes, large spilled 2000 bytes, not less: kept small");
}

TEST(GRFPredictionTest, SpeculationBuildsBothConcurrently) {
  FakeCompiler compiler;
  compiler.smallSpill = 5248;
  compiler.overlap = 2;
  Expected<GRFDecision> d = decide(compiler, AutoPlan::Speculate);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(compiler.built.size(), 2u);
  EXPECT_EQ(compiler.maxRunning.load(), 2);
  ASSERT_EQ(d->attempts.size(), 2u);
  EXPECT_EQ(d->attempts[0].mode, BuildGRF::Small);
  EXPECT_EQ(d->attempts[1].mode, BuildGRF::Large);
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_EQ(d->source, "speculated");
  EXPECT_EQ(d->reason, "speculated (uncertain estimate), built both: small "
                       "spilled 5248 bytes, large spilled 0 bytes: kept large");
}

TEST(GRFPredictionTest, SpeculationKeepsSmallUnderTheThresholdOrOnATie) {
  FakeCompiler under;
  under.smallSpill = 100;
  Expected<GRFDecision> d = decide(under, AutoPlan::Speculate, 1000);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
  EXPECT_EQ(d->reason, "speculated (uncertain estimate), built both: small "
                       "spilled 100 bytes, large spilled 0 bytes: small <= "
                       "threshold 1000, kept small");

  FakeCompiler tie;
  d = decide(tie, AutoPlan::Speculate);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Small);
}

TEST(GRFPredictionTest, SpeculationReportsEitherBuildsFailure) {
  for (BuildGRF failing : {BuildGRF::Small, BuildGRF::Large}) {
    FakeCompiler compiler;
    compiler.failOn = failing;
    Expected<GRFDecision> d = decide(compiler, AutoPlan::Speculate);
    ASSERT_FALSE(bool(d));
    EXPECT_EQ(toString(d.takeError()), "boom");
  }
}

TEST(GRFPredictionTest, PlanIsIgnoredOutsideMeasuredAuto) {
  for (AutoPlan plan :
       {AutoPlan::PredictSmall, AutoPlan::PredictLarge, AutoPlan::Speculate}) {
    FakeCompiler forced;
    Expected<GRFDecision> d =
        decide(forced, plan, 0, GRFMode::Small, AutoStrategy::Measure);
    ASSERT_TRUE(bool(d)) << toString(d.takeError());
    EXPECT_EQ(forced.built, (std::vector<BuildGRF>{BuildGRF::Small}));
    EXPECT_EQ(d->source, "forced");

    FakeCompiler igc;
    d = decide(igc, plan, 0, GRFMode::Auto, AutoStrategy::IGC);
    ASSERT_TRUE(bool(d)) << toString(d.takeError());
    EXPECT_EQ(igc.built, (std::vector<BuildGRF>{BuildGRF::IGCAuto}));
    EXPECT_EQ(d->source, "igc");
  }
}

TEST(GRFPredictionTest, UnverifiedLargeTrustsASpillingLargeBuild) {
  FakeCompiler compiler;
  compiler.smallSpill = 1000;
  compiler.largeSpill = 2000;
  Expected<GRFDecision> d = decide(compiler, AutoPlan::PredictLargeUnverified);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  // One build, even though small would have spilled less: the trade-off the
  // option makes.
  EXPECT_EQ(compiler.built, (std::vector<BuildGRF>{BuildGRF::Large}));
  EXPECT_EQ(d->getChosen().mode, BuildGRF::Large);
  EXPECT_EQ(d->source, "predicted");
  EXPECT_EQ(d->reason, "predicted large; large spilled 2000 bytes, kept "
                       "without a small build (verify-predicted-large off)");

  // Without a spill it is the same as the verified plan.
  FakeCompiler clean;
  d = decide(clean, AutoPlan::PredictLargeUnverified);
  ASSERT_TRUE(bool(d)) << toString(d.takeError());
  EXPECT_EQ(clean.built, (std::vector<BuildGRF>{BuildGRF::Large}));
  EXPECT_EQ(d->reason, "predicted large; large spilled 0 bytes <= threshold "
                       "0: kept large, small build skipped");
}

TEST(GRFPredictionTest, StringifyAutoPlan) {
  EXPECT_EQ(stringifyAutoPlan(AutoPlan::Measure), "measure");
  EXPECT_EQ(stringifyAutoPlan(AutoPlan::PredictSmall), "predict_small");
  EXPECT_EQ(stringifyAutoPlan(AutoPlan::PredictLarge), "predict_large");
  EXPECT_EQ(stringifyAutoPlan(AutoPlan::PredictLargeUnverified),
            "predict_large_unverified");
  EXPECT_EQ(stringifyAutoPlan(AutoPlan::Speculate), "speculate");
}
