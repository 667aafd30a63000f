//===- BuildMeasurementTest.cpp - Tests for spill logs and measureBuild ---===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "TestInputs.h"
#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mlir::xpu;
using mlir::xpu::test::readInput;
using mlir::xpu::test::responseFor;

namespace {

constexpr unsigned kPVCGRFBytes = 64;

//===----------------------------------------------------------------------===//
// Spill warnings in IGC build logs
//===----------------------------------------------------------------------===//

TEST(BuildMeasurementTest, ParseSpillWarningsFromRealLogs) {
  std::vector<LogSpill> small =
      parseSpillWarnings(readInput("spill_both.pvc.small.log"), kPVCGRFBytes);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].kernel, "spill_both");
  EXPECT_EQ(small[0].simd, 32);
  EXPECT_EQ(small[0].allocatedRegs, 128);
  // "spilled around 580": 580 GRFs of 64 bytes (.spill size 37120 in the
  // shader dump; docs/SpillMeasurement.md).
  EXPECT_EQ(small[0].spillBytes, 37120);

  std::vector<LogSpill> large =
      parseSpillWarnings(readInput("spill_both.pvc.large.log"), kPVCGRFBytes);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].allocatedRegs, 256);
  EXPECT_EQ(large[0].spillBytes, 11648);

  EXPECT_TRUE(
      parseSpillWarnings(readInput("nospill.pvc.small.log"), kPVCGRFBytes)
          .empty());
  EXPECT_TRUE(
      parseSpillWarnings(readInput("private_array.pvc.small.log"), kPVCGRFBytes)
          .empty());
}

TEST(BuildMeasurementTest, ParseSpillWarningsUnitsAndNoise) {
  // acm-g10 has 32-byte GRFs: 66 units = 2112 bytes (measured).
  std::string log = "Compilation from IR - skipping loading of FCL\n\n"
                    "warning: kernel a  compiled SIMD8 allocated 128 regs and "
                    "spilled around 66\r\n"
                    "warning: kernel b compiled SIMD16 allocated 256 regs and "
                    "spilled around 3\n"
                    "warning: kernel c  compiled SIMDx allocated 1 regs and "
                    "spilled around 3\n"
                    "warning: kernel d  compiled SIMD8 allocated 128 regs and "
                    "spilled around 99999999999999999999999\n"
                    "Build succeeded.\n";
  std::vector<LogSpill> spills = parseSpillWarnings(log, 32);
  ASSERT_EQ(spills.size(), 2u);
  EXPECT_EQ(spills[0].kernel, "a");
  EXPECT_EQ(spills[0].simd, 8);
  EXPECT_EQ(spills[0].spillBytes, 2112);
  EXPECT_EQ(spills[1].kernel, "b");
  EXPECT_EQ(spills[1].spillBytes, 96);
  EXPECT_TRUE(parseSpillWarnings("", 64).empty());
}

TEST(BuildMeasurementTest, ParseSpillWarningsOfIGC2) {
  // IGC 2.40 (compute-runtime 26.27), spill_small_only.spv on pvc in small
  // mode: 90 units of 64 bytes = 5760, its .ze_info spill_size (measured).
  std::string log = "warning: in kernel 'spill_small_only': [RetryManager] "
                    "Start recompilation of the kernel\n"
                    "warning: in kernel 'spill_small_only': compiled SIMD32 "
                    "allocated 128 regs and spilled around 90\n"
                    "Build succeeded.\n";
  std::vector<LogSpill> spills = parseSpillWarnings(log, 64);
  ASSERT_EQ(spills.size(), 1u);
  EXPECT_EQ(spills[0].kernel, "spill_small_only");
  EXPECT_EQ(spills[0].simd, 32);
  EXPECT_EQ(spills[0].allocatedRegs, 128);
  EXPECT_EQ(spills[0].spillBytes, 5760);
}

TEST(BuildMeasurementTest, RetryManagerKeepingTheRetry) {
  // IGC 2.40, retry_gemm.spv on pvc in small mode: the retry is kept, so its
  // line describes the binary (308 x 64 = 19712, .ze_info spill_size).
  std::string log = readInput("retry_gemm.pvc.igc2.small.log");
  std::vector<LogSpill> spills = parseSpillWarnings(log, kPVCGRFBytes);
  ASSERT_EQ(spills.size(), 1u);
  EXPECT_EQ(spills[0].kernel, "retry_gemm");
  EXPECT_EQ(spills[0].allocatedRegs, 128);
  EXPECT_EQ(spills[0].spillBytes, 19712);
  EXPECT_TRUE(parseKeptPreviousVersions(log).empty());
}

TEST(BuildMeasurementTest, RetryManagerKeepingThePreviousVersion) {
  // IGC 2.40, retry_gemm.spv on pvc in large mode: "Used previous version of
  // the kernel, reason : NO_Retry_Pick_Prv". The line between describes the
  // discarded retry (26 x 64 = 1664); the kept binary's figures are not in
  // the log.
  std::string log = readInput("retry_gemm.pvc.igc2.large.log");
  EXPECT_TRUE(parseSpillWarnings(log, kPVCGRFBytes).empty());
  EXPECT_EQ(parseKeptPreviousVersions(log),
            std::vector<std::string>{"retry_gemm"});
}

TEST(BuildMeasurementTest, RetryManagerPerKernel) {
  // Two kernels in one log: a's first build is kept (its earlier line
  // stays), b's retry is kept (its first line is dropped).
  std::string log = "warning: in kernel 'a': compiled SIMD16 allocated 128 "
                    "regs and spilled around 4\n"
                    "warning: in kernel 'b': compiled SIMD32 allocated 128 "
                    "regs and spilled around 9\n"
                    "warning: in kernel 'a': [RetryManager] Start "
                    "recompilation of the kernel\n"
                    "warning: in kernel 'b': [RetryManager] Start "
                    "recompilation of the kernel\n"
                    "warning: in kernel 'a': compiled SIMD32 allocated 128 "
                    "regs and spilled around 7\n"
                    "warning: in kernel 'b': compiled SIMD16 allocated 128 "
                    "regs and spilled around 2\n"
                    "warning: in kernel 'a': [RetryManager] Used previous "
                    "version of the kernel, reason : NO_Retry_Pick_Prv\n";
  std::vector<LogSpill> spills = parseSpillWarnings(log, 64);
  ASSERT_EQ(spills.size(), 2u);
  EXPECT_EQ(spills[0].kernel, "a");
  EXPECT_EQ(spills[0].simd, 16);
  EXPECT_EQ(spills[0].spillBytes, 256);
  EXPECT_EQ(spills[1].kernel, "b");
  EXPECT_EQ(spills[1].simd, 16);
  EXPECT_EQ(spills[1].spillBytes, 128);
  EXPECT_EQ(parseKeptPreviousVersions(log), std::vector<std::string>{"a"});
}

//===----------------------------------------------------------------------===//
// measureBuild
//===----------------------------------------------------------------------===//

TEST(BuildMeasurementTest, MeasureSpillingBuild) {
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Small, "-cl-intel-128-GRF-per-thread",
                   responseFor("spill_both.pvc.small"), kPVCGRFBytes);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->mode, BuildGRF::Small);
  EXPECT_EQ(attempt->buildFlags, "-cl-intel-128-GRF-per-thread");
  EXPECT_EQ(attempt->compileMs, 12.5);
  EXPECT_FALSE(attempt->binary.empty());
  EXPECT_EQ(attempt->spillSize, 37120);
  ASSERT_EQ(attempt->kernels.size(), 1u);
  const KernelMeasurement &k = attempt->kernels[0];
  EXPECT_EQ(k.name, "spill_both");
  EXPECT_EQ(k.grfCount, 128);
  EXPECT_EQ(k.simd, 32);
  EXPECT_EQ(k.spillSize, 37120);
  EXPECT_EQ(k.scratchSize, 65536);
  EXPECT_EQ(k.privateSize, 0);
  // Per-lane 4-byte slots: 37120 / (4 * 32).
  EXPECT_EQ(k.nSpills, 290);
}

TEST(BuildMeasurementTest, MeasureNonSpillingLargeBuild) {
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Large, "-cl-intel-256-GRF-per-thread",
                   responseFor("spill_small_only.pvc.large"), kPVCGRFBytes);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->spillSize, 0);
  EXPECT_EQ(attempt->kernels[0].grfCount, 256);
  EXPECT_EQ(attempt->kernels[0].nSpills, 0);
}

TEST(BuildMeasurementTest, MeasureBuildWhereIGCKeptItsFirstVersion) {
  // .ze_info's 640 bytes describe the kept binary; the log's 1664 describe
  // the retry IGC threw away: no disagreement.
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Large, "-cl-intel-256-GRF-per-thread",
                   responseFor("retry_gemm.pvc.igc2.large"), kPVCGRFBytes);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->spillSize, 640);
  ASSERT_EQ(attempt->kernels.size(), 1u);
  EXPECT_EQ(attempt->kernels[0].grfCount, 256);
  EXPECT_EQ(attempt->kernels[0].simd, 32);
}

TEST(BuildMeasurementTest, ALogThatContradictsTheBinaryIsANoteNotTheSpill) {
  // The retry is kept (no "Used previous version") but its line says more
  // than .ze_info: the binary's figure is the spill, the log's a named note.
  WorkerResponse response = responseFor("retry_gemm.pvc.igc2.large");
  response.log = "warning: in kernel 'retry_gemm': compiled SIMD32 allocated "
                 "256 regs and spilled around 26\n";
  Expected<BuildAttempt> attempt = measureBuild(
      BuildGRF::Large, "-cl-intel-256-GRF-per-thread", response, kPVCGRFBytes);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->spillSize, 640);
  ASSERT_EQ(attempt->kernels.size(), 1u);
  EXPECT_EQ(attempt->kernels[0].spillSize, 640);
  EXPECT_EQ(attempt->kernels[0].spillNote,
            "IGC's build log says SIMD32 spilled around 1664 bytes; the "
            "binary's .ze_info spill_size is 640: the binary's figure is "
            "reported");
}

TEST(BuildMeasurementTest, SpilledAroundOneWithoutSpillMemoryIsNoSpill) {
  // IGC 2.40 prints "spilled around 1" for any spill or fill instruction,
  // even with no spill memory (max(1, ...)); its .ze_info (1.73) then has no
  // spill_size: the binary reserves none, and that is the measurement.
  WorkerResponse response;
  response.succeeded = true;
  std::string binary = readInput("nospill.bmg.igc2.zebin");
  response.binary.assign(binary.begin(), binary.end());
  Expected<ZebinInfo> info = readZebin(binary);
  ASSERT_TRUE(bool(info)) << toString(info.takeError());
  ASSERT_TRUE(info->hasSpillSizeField()) << info->zeInfoVersion;
  ASSERT_FALSE(info->kernels.at(0).spillSize.has_value());
  response.log = "warning: in kernel '" + info->kernels[0].name +
                 "': compiled SIMD" + std::to_string(info->kernels[0].simd) +
                 " allocated 128 regs and spilled around 1\n";
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Default, "", response, /*grfBytes=*/64);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->spillSize, 0);
  EXPECT_EQ(attempt->kernels[0].spillSize, 0);
  EXPECT_EQ(attempt->kernels[0].nSpills, 0);
  EXPECT_NE(attempt->kernels[0].spillNote.find("spilled around 64 bytes"),
            std::string::npos)
      << attempt->kernels[0].spillNote;
}

TEST(BuildMeasurementTest, OnlyIGC1ZeInfoLacksTheSpillField) {
  // IGC 1.0.12504 writes .ze_info 1.20, which has no spill_size (its log
  // is the only figure); the field came with 1.39.
  Expected<ZebinInfo> igc1 = readZebin(readInput("spill_both.pvc.small.zebin"));
  ASSERT_TRUE(bool(igc1)) << toString(igc1.takeError());
  EXPECT_EQ(igc1->zeInfoVersion, "1.20");
  EXPECT_FALSE(igc1->hasSpillSizeField());
  ZebinInfo info;
  for (auto [version, has] : {std::pair{"1.38", false},
                              {"1.39", true},
                              {"1.73", true},
                              {"2.0", true},
                              {"", false},
                              {"x.y", false},
                              {"1", false}}) {
    info.zeInfoVersion = version;
    EXPECT_EQ(info.hasSpillSizeField(), has) << version;
  }
}

TEST(BuildMeasurementTest, PrivateArrayIsNeverSpill) {
  WorkerResponse response = responseFor("private_array.pvc.small");
  // Level Zero on NEO 22.43 reports the scratch size as spillMemSize; it must
  // not become a spill.
  response.kernels.push_back({"private_array", 32768, 1024});
  Expected<BuildAttempt> attempt = measureBuild(
      BuildGRF::Small, "-cl-intel-128-GRF-per-thread", response, kPVCGRFBytes);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  const KernelMeasurement &k = attempt->kernels[0];
  EXPECT_EQ(k.scratchSize, 32768);
  EXPECT_EQ(k.spillSize, 0);
  EXPECT_EQ(k.nSpills, 0);
  EXPECT_EQ(k.privateSize, 1024);
  EXPECT_EQ(attempt->spillSize, 0);
}

TEST(BuildMeasurementTest, FailedBuildCarriesTheLog) {
  WorkerResponse response;
  response.succeeded = false;
  response.returnCode = -11;
  response.log = "error: Double type is not supported on this platform.\n";
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Large, "-x", response, kPVCGRFBytes);
  ASSERT_FALSE(bool(attempt));
  std::string message = toString(attempt.takeError());
  EXPECT_NE(message.find("large build failed (code -11)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("Double type is not supported"), std::string::npos);
}

TEST(BuildMeasurementTest, UnreadableBinaryIsAnError) {
  WorkerResponse response;
  response.succeeded = true;
  response.binary = {'n', 'o', 'p', 'e'};
  response.log = "Build succeeded.";
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Small, "-x", response, kPVCGRFBytes);
  ASSERT_FALSE(bool(attempt));
  std::string message = toString(attempt.takeError());
  EXPECT_NE(message.find("unreadable binary"), std::string::npos) << message;
  EXPECT_NE(message.find("Build succeeded."), std::string::npos) << message;
}

} // namespace
