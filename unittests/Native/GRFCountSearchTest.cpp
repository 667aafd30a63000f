//===- GRFCountSearchTest.cpp - auto over a variable register file --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The measured auto policy on ptl and cri (register counts 32 ... 256, 512 on
// cri) with fake builds: it starts from IGC's default build, steps down
// while nothing spills (never to a count that cannot run more lanes) and,
// when it spills, asks for the default's own count explicitly and then
// climbs; it keeps the least spill, then the most lanes per engine, then the
// fewest registers, and says why.
//
//===----------------------------------------------------------------------===//

#include "FakeGRFCompiler.h"

#include "XPUCodegen/Compiler/Native/GRFBuild.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mlir::xpu;

namespace {

using FakeCompiler = test::FakeGRFCompiler;

Expected<GRFDecision> decide(FakeCompiler &compiler, StringRef arch,
                             uint64_t workGroup = 0, int64_t threshold = 0,
                             uint32_t simd = 0) {
  LaunchLimits limits;
  limits.device = lookupDevice(arch);
  limits.kernels.push_back({"k", workGroup, simd});
  return decideGRF(GRFMode::Auto, AutoStrategy::Measure, threshold,
                   AutoPlan::Measure, getBuildLadder(*limits.device), limits,
                   [&](BuildGRF mode) { return compiler(mode); });
}

using Modes = std::vector<BuildGRF>;
constexpr BuildGRF D = BuildGRF::Default, S = BuildGRF::Small,
                   L = BuildGRF::Large;

TEST(GRFCountSearchTest, CountsHaveFlagsAndNRegs) {
  EXPECT_EQ(getGRFFlag(BuildGRF::Regs160, WorkerBackend::Ocloc),
            "-ze-exp-register-file-size 160");
  EXPECT_EQ(getGRFFlag(BuildGRF::Regs64, WorkerBackend::LevelZero),
            "-ze-exp-register-file-size 64");
  EXPECT_EQ(getNRegs(BuildGRF::Regs96), 96);
  EXPECT_EQ(getBuildGRFForRegisters(192), BuildGRF::Regs192);
  EXPECT_EQ(getBuildGRFForRegisters(224), std::nullopt); // crashes IGC
  EXPECT_EQ(stringifyBuildGRF(BuildGRF::Regs32), "32");
  // The flags pin the count: the binary must have it.
  BuildAttempt attempt;
  attempt.mode = BuildGRF::Regs160;
  attempt.kernels.push_back({"k", 160, 16, 0, 0, 0, 0});
  SmallVector<int64_t> ptl = getGRFCounts(*lookupDevice("ptl"));
  EXPECT_FALSE(errorToBool(checkBuildFacts(attempt, ptl)));
  attempt.kernels[0].grfCount = 192;
  EXPECT_TRUE(errorToBool(checkBuildFacts(attempt, ptl)));
}

TEST(GRFCountSearchTest, KeepsIGCsDefaultWhenNoCountRunsMoreThreads) {
  // acc4 on ptl: IGC's default picks 64 registers, 10 threads, no spill.
  FakeCompiler compiler;
  compiler.defaultCount = 64;
  Expected<GRFDecision> decision = decide(compiler, "ptl");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D}));
  EXPECT_EQ(decision->getChosen().mode, D);
  EXPECT_EQ(decision->registers, 64);
  EXPECT_EQ(decision->reason,
            "default (no GRF flag) built with 64 registers: 0 bytes spilled, "
            "10 threads x SIMD16 = 160 lanes; no count runs more threads: "
            "kept default (64 registers)");
}

TEST(GRFCountSearchTest, StepsDownWhileNothingSpills) {
  // acc16 on ptl: the default's 160 does not spill; 128 does not either and
  // runs 8 threads instead of 6; 96 spills.
  FakeCompiler compiler;
  compiler.defaultCount = 160;
  compiler.counts[96] = {2048, 16};
  Expected<GRFDecision> decision = decide(compiler, "ptl");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D, S, BuildGRF::Regs96}));
  EXPECT_EQ(decision->getChosen().mode, S);
  EXPECT_EQ(decision->registers, 128);
  EXPECT_EQ(decision->reason,
            "default (no GRF flag) built with 160 registers: 0 bytes spilled, "
            "6 threads x SIMD16 = 96 lanes; 128 registers: 0 bytes spilled, "
            "8 threads x SIMD16 = 128 lanes, more lanes; 96 registers: 2048 "
            "bytes spilled, 10 threads x SIMD16 = 160 lanes, not better: kept "
            "128 registers");
}

TEST(GRFCountSearchTest, ClimbsWhileItSpills) {
  // The default's 96 spills; 128 spills less, 160 not at all.
  FakeCompiler compiler;
  compiler.defaultCount = 96;
  compiler.counts[96] = {4096, 16};
  compiler.counts[128] = {1024, 16};
  Expected<GRFDecision> decision = decide(compiler, "ptl");
  ASSERT_TRUE(bool(decision));
  // 4096 bytes at SIMD16 is 64 slots per lane, no small spill: no explicit
  // 96, straight up.
  EXPECT_EQ(compiler.built, (Modes{D, S, BuildGRF::Regs160}));
  EXPECT_EQ(decision->getChosen().mode, BuildGRF::Regs160);
  EXPECT_EQ(decision->registers, 160);
  EXPECT_EQ(decision->getChosen().buildFlags, "-ze-exp-register-file-size 160");
}

TEST(GRFCountSearchTest, FillsTheDefaultsThreadClassFirst) {
  // 64 spills a little (8 slots per lane), so it is asked for explicitly
  // too; 96 runs as many threads: built before any fewer-thread count.
  FakeCompiler compiler;
  compiler.defaultCount = 64;
  compiler.counts[64] = {512, 16};
  Expected<GRFDecision> decision = decide(compiler, "ptl");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D, BuildGRF::Regs64, BuildGRF::Regs96}));
  EXPECT_EQ(decision->registers, 96);
}

TEST(GRFCountSearchTest, LanesCountTheSIMDWidth) {
  // 256 at SIMD32 (4 x 32 = 128 lanes) beats 192 at SIMD16 (5 x 16 = 80).
  FakeCompiler compiler;
  compiler.defaultCount = 256;
  compiler.counts[256] = {0, 32};
  Expected<GRFDecision> decision = decide(compiler, "ptl");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D, BuildGRF::Regs192}));
  EXPECT_EQ(decision->getChosen().mode, D);
  EXPECT_EQ(decision->registers, 256);
}

TEST(GRFCountSearchTest, ClimbsTo512OnCRI) {
  // cri keeps 8 threads up to 256 registers: from 192, 256 costs no lanes.
  FakeCompiler compiler;
  compiler.defaultCount = 192;
  compiler.counts[192] = {9000, 16};
  compiler.counts[256] = {4000, 16};
  Expected<GRFDecision> decision = decide(compiler, "cri");
  ASSERT_TRUE(bool(decision));
  // 9000 bytes is no small spill: no explicit 192.
  EXPECT_EQ(compiler.built, (Modes{D, L, BuildGRF::XLarge}));
  EXPECT_EQ(decision->registers, 512);
}

TEST(GRFCountSearchTest, AsksForTheSpillingDefaultsCountBeforeClimbing) {
  // Measured on ptl: IGC's default build chose 192 and spilled 128 bytes;
  // the explicit 192 build spilled nothing at SIMD32 (160 lanes, more than
  // 256's 128). The climb stops there.
  FakeCompiler compiler;
  compiler.defaultCount = 192;
  compiler.defaultBuild = FakeCompiler::Build{128, 32};
  compiler.counts[192] = {0, 32};
  compiler.counts[256] = {0, 32};
  Expected<GRFDecision> decision = decide(compiler, "ptl");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D, BuildGRF::Regs192}));
  EXPECT_EQ(decision->getChosen().mode, BuildGRF::Regs192);
  EXPECT_EQ(decision->registers, 192);
  EXPECT_EQ(decision->getChosen().buildFlags, "-ze-exp-register-file-size 192");
}

TEST(GRFCountSearchTest, NoProbeThatCannotRunMoreLanes) {
  // cri: 8 resident threads from 32 to 256 registers, so no count below
  // IGC's non-spilling 192 runs more lanes: nothing more is built.
  FakeCompiler compiler;
  compiler.defaultCount = 192;
  Expected<GRFDecision> decision = decide(compiler, "cri");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D}));
  EXPECT_EQ(decision->registers, 192);
  // ptl: from 256 at SIMD32 (4 x 32 = 128 lanes), 192 (5 threads) may run
  // up to 160: built.
  FakeCompiler wide;
  wide.defaultCount = 256;
  wide.counts[256] = {0, 32};
  wide.counts[192] = {512, 32};
  decision = decide(wide, "ptl");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(wide.built, (Modes{D, BuildGRF::Regs192}));
}

TEST(GRFCountSearchTest, SpillingAtTheTopAsksForTheCountItself) {
  // IGC's default lands on ptl's largest count and spills; the 256 flag
  // may allocate better (measured 1984 against 2048 bytes): one more build.
  FakeCompiler compiler;
  compiler.defaultCount = 256;
  compiler.counts[256] = {2048, 16};
  Expected<GRFDecision> decision = decide(compiler, "ptl");
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D, L}));
  // Equal here: the default build stays (it came first).
  EXPECT_EQ(decision->getChosen().mode, D);
  EXPECT_EQ(decision->registers, 256);
}

TEST(GRFCountSearchTest, CRIGainsNoThreadsBelow256) {
  for (unsigned count : {64u, 128u, 160u, 256u}) {
    FakeCompiler compiler;
    compiler.defaultCount = count;
    Expected<GRFDecision> decision = decide(compiler, "cri");
    ASSERT_TRUE(bool(decision));
    EXPECT_EQ(compiler.built, (Modes{D})) << count;
    EXPECT_EQ(decision->registers, count);
  }
}

TEST(GRFCountSearchTest, SpillUnderTheThresholdCountsAsNone) {
  FakeCompiler compiler;
  compiler.defaultCount = 128;
  compiler.counts[128] = {64, 16};
  compiler.counts[96] = {64, 16};
  Expected<GRFDecision> decision = decide(compiler, "ptl", 0, 100);
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D, BuildGRF::Regs96}));
  EXPECT_EQ(decision->registers, 96);
}

TEST(GRFCountSearchTest, AWorkGroupEndsTheStepAndTheDefaultThatCannotRun) {
  // 1024 work-items at SIMD16 need 8 threads per engine: the default's 160
  // (6) cannot launch, so the ladder decides from 128.
  FakeCompiler compiler;
  compiler.defaultCount = 160;
  Expected<GRFDecision> decision = decide(compiler, "ptl", 1024, 0, 16);
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(compiler.built, (Modes{D, S}));
  EXPECT_EQ(decision->getChosen().mode, S);
  // From 128 with a small spill (asked for explicitly too), 160 would be
  // next: ruled out before building.
  FakeCompiler spilling;
  spilling.defaultCount = 128;
  spilling.counts[128] = {512, 16};
  decision = decide(spilling, "ptl", 1024, 0, 16);
  ASSERT_TRUE(bool(decision));
  EXPECT_EQ(spilling.built, (Modes{D, S}));
  EXPECT_NE(decision->reason.find("160 registers ruled out"),
            std::string::npos);
  EXPECT_FALSE(decision->workgroupLimit.empty());
}

TEST(GRFCountSearchTest, XeHPCAndXe2KeepTheLadder) {
  for (StringRef arch : {"pvc", "bmg", "lnl"}) {
    FakeCompiler compiler;
    compiler.defaultCount = 64;
    Expected<GRFDecision> decision = decide(compiler, arch);
    ASSERT_TRUE(bool(decision));
    EXPECT_EQ(compiler.built, (Modes{S})) << arch.str();
    EXPECT_EQ(decision->registers, 0) << arch.str();
  }
}

} // namespace
