//===- BuildLogFactsTest.cpp - A huge build log keeps its facts -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "TestInputs.h"
#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "XPUCodegen/Compiler/Worker/BuildLog.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mlir::xpu;
using mlir::xpu::test::readInput;

namespace {

/// `log` with `size` bytes of warnings before and after it.
std::string buried(StringRef log, size_t size) {
  std::string filler;
  while (filler.size() < size / 2)
    filler += "warning: an unrelated remark of the compiler\n";
  return filler + log.str() + filler;
}

WorkerResponse igc2NarrowedBuild(size_t padding) {
  WorkerResponse response;
  response.succeeded = true;
  std::string binary = readInput("scratch_both.pvc.igc2.small.zebin");
  response.binary.assign(binary.begin(), binary.end());
  response.log = buried(readInput("scratch_both.pvc.igc2.small.log"), padding);
  return response;
}

TEST(BuildLogFactsTest, HugeLogIsMeasuredWholeAndKeptBounded) {
  Expected<BuildAttempt> reference =
      measureBuild(BuildGRF::Small, "-cl-intel-128-GRF-per-thread",
                   igc2NarrowedBuild(0), /*grfBytes=*/64);
  ASSERT_TRUE(bool(reference)) << toString(reference.takeError());
  // The facts sit in the middle of 64 MiB that the kept log drops.
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Small, "-cl-intel-128-GRF-per-thread",
                   igc2NarrowedBuild(size_t(64) << 20), /*grfBytes=*/64);
  ASSERT_TRUE(bool(attempt)) << toString(attempt.takeError());
  EXPECT_EQ(attempt->spillSize, reference->spillSize);
  ASSERT_EQ(attempt->kernels.size(), reference->kernels.size());
  EXPECT_EQ(attempt->kernels[0].spillSize, reference->kernels[0].spillSize);
  EXPECT_EQ(attempt->kernels[0].simd, reference->kernels[0].simd);
  EXPECT_LT(attempt->log.size(), 3 * kBuildLogEndBytes);
  EXPECT_NE(attempt->log.find("bytes of the build log dropped"),
            std::string::npos);
  // BuildMemo::narrowed reads the SIMD drop back from the kept log.
  EXPECT_EQ(parseSIMDDrops(attempt->log),
            std::vector<std::string>{"scratch_both"});
}

TEST(BuildLogFactsTest, HugeFailureLogIsBoundedInTheError) {
  WorkerResponse response;
  response.succeeded = false;
  response.returnCode = 1;
  response.log = "first line\n" + buried("", size_t(16) << 20) + "last line\n";
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Small, "-x", response, /*grfBytes=*/64);
  ASSERT_FALSE(bool(attempt));
  std::string message = toString(attempt.takeError());
  EXPECT_LT(message.size(), 2 * kBuildLogEndBytes + 200);
  EXPECT_NE(message.find("build log:\nfirst line\n"), std::string::npos);
  EXPECT_NE(message.find("bytes of the build log dropped"), std::string::npos);
  EXPECT_TRUE(StringRef(message).ends_with("last line"));
}

} // namespace
