//===- ZebinTargetTest.cpp - The device and kernels of a real zebin -------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Real zebins (test/Inputs/Native) are kept only for the device and the
// kernels that were asked for: a stale or foreign binary is an error.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/ZebinTarget.h"
#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"

#include "TestInputs.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mlir::xpu;
using mlir::xpu::test::readInput;

namespace {

const DeviceInfo &device(StringRef name) {
  const DeviceInfo *info = lookupDevice(name);
  EXPECT_TRUE(info) << name.str();
  return *info;
}

/// checkZebinDevice's message, or "" when the binary is for the device.
std::string deviceError(StringRef input, StringRef name,
                        bool exactRevision = true) {
  std::string binary = readInput(input);
  Error error = checkZebinDevice(binary, device(name), exactRevision);
  return error ? toString(std::move(error)) : "";
}

TEST(ZebinTargetTest, IGC1WritesProductFamilyAndRevision) {
  Expected<ZebinTarget> target =
      readZebinTarget(readInput("nospill.pvc.small.zebin"));
  ASSERT_TRUE(bool(target)) << toString(target.takeError());
  EXPECT_EQ(target->productFamily, 0x4f7u);
  EXPECT_EQ(target->gfxCore, 0u);
  EXPECT_EQ(target->minRevision, 7u);
  EXPECT_EQ(target->maxRevision, 7u);
  EXPECT_FALSE(target->ipVersion);
}

TEST(ZebinTargetTest, IGC2AlsoWritesCoreAndIPVersion) {
  Expected<ZebinTarget> target =
      readZebinTarget(readInput("scratch_both.pvc.igc2.small.zebin"));
  ASSERT_TRUE(bool(target)) << toString(target.takeError());
  EXPECT_EQ(target->productFamily, 0x4f7u);
  EXPECT_EQ(target->gfxCore, 0xc08u);
  EXPECT_EQ(target->ipVersion, 0x030f0007u);
}

TEST(ZebinTargetTest, BinariesAreForTheirOwnDevice) {
  EXPECT_EQ(deviceError("nospill.pvc.small.zebin", "pvc"), "");
  EXPECT_EQ(deviceError("scratch_both.pvc.igc2.small.zebin", "pvc"), "");
  EXPECT_EQ(deviceError("nospill.pvc-sdv.zebin", "pvc-sdv"), "");
  EXPECT_EQ(deviceError("nospill.acm-g11.zebin", "acm-g11"), "");
  EXPECT_EQ(deviceError("nospill.bmg.igc2.zebin", "bmg"), "");
}

TEST(ZebinTargetTest, ForeignProductFamilyIsAnError) {
  EXPECT_EQ(deviceError("nospill.acm-g11.zebin", "pvc"),
            "the binary is not for device 'pvc': its product family is "
            "0x4f6, the device's is 0x4f7 (a stale or foreign binary)");
  EXPECT_NE(deviceError("nospill.pvc.small.zebin", "bmg"), "");
  EXPECT_NE(deviceError("nospill.bmg.igc2.zebin", "pvc"), "");
}

TEST(ZebinTargetTest, SameFamilyOtherDeviceIsAnError) {
  // IGC 1.0.12504: only the hardware revision tells pvc from pvc-sdv and
  // the acm-g1x apart.
  EXPECT_EQ(deviceError("nospill.pvc-sdv.zebin", "pvc"),
            "the binary is not for device 'pvc': its hardware revision range "
            "is 0-0, the device's is 7 (a stale or foreign binary)");
  EXPECT_NE(deviceError("nospill.pvc.small.zebin", "pvc-sdv"), "");
  EXPECT_NE(deviceError("nospill.acm-g11.zebin", "acm-g10"), "");
  EXPECT_NE(deviceError("nospill.acm-g11.zebin", "acm-g12"), "");
  // IGC 2.40: the IP version tells bmg from bmg-g31 and pvc from pvc-sdv.
  EXPECT_NE(deviceError("nospill.bmg.igc2.zebin", "bmg-g31"), "");
  EXPECT_NE(deviceError("scratch_both.pvc.igc2.small.zebin", "pvc-sdv"), "");
}

TEST(ZebinTargetTest, LevelZeroLeavesTheRevisionToTheGPU) {
  // A driver builds for the stepping of the GPU present.
  EXPECT_EQ(deviceError("nospill.pvc-sdv.zebin", "pvc", false), "");
  EXPECT_EQ(deviceError("scratch_both.pvc.igc2.small.zebin", "pvc-sdv", false),
            "");
  // Never for another device.
  EXPECT_NE(deviceError("nospill.acm-g11.zebin", "acm-g10", true), "");
  EXPECT_NE(deviceError("nospill.bmg.igc2.zebin", "bmg-g31", false), "");
  EXPECT_NE(deviceError("nospill.acm-g11.zebin", "pvc", false), "");
}

TEST(ZebinTargetTest, EveryDeviceHasIds) {
  for (const DeviceInfo &info : getDevices()) {
    std::optional<ZebinDeviceIds> ids = getZebinDeviceIds(info.name);
    ASSERT_TRUE(ids) << info.name.str();
    EXPECT_NE(ids->productFamily, 0u) << info.name.str();
  }
  EXPECT_FALSE(getZebinDeviceIds("no-such-device"));
}

TEST(ZebinTargetTest, BinaryWithoutNotesDoesNotNameItsDevice) {
  std::string binary = readInput("nospill.pvc.small.zebin");
  // Rename the note section: the binary no longer says which device.
  size_t at = binary.find(".note.intelgt.compat");
  ASSERT_NE(at, std::string::npos);
  binary[at + 1] = 'x';
  Error error = checkZebinDevice(binary, device("pvc"), true);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(toString(std::move(error)).find("does not say which device"),
            std::string::npos);
}

TEST(ZebinTargetTest, CorruptNotesAreAnErrorNotACrash) {
  std::string original = readInput("nospill.pvc.small.zebin");
  for (size_t i = 0; i < original.size(); ++i) {
    std::string binary = original;
    binary[i] ^= 0xff;
    consumeError(checkZebinDevice(binary, device("pvc"), true));
  }
}

BuildAttempt measure(StringRef input) {
  WorkerResponse response;
  response.succeeded = true;
  std::string binary = readInput(input);
  response.binary.assign(binary.begin(), binary.end());
  Expected<BuildAttempt> attempt =
      measureBuild(BuildGRF::Small, "", response, 64);
  EXPECT_TRUE(bool(attempt)) << toString(attempt.takeError());
  return attempt ? *attempt : BuildAttempt();
}

TEST(ZebinTargetTest, KernelsMustBeTheEntryPoints) {
  BuildAttempt attempt = measure("nospill.pvc.small.zebin");
  EXPECT_FALSE(bool(checkBuildKernels(attempt, {"nospill"})));
  Error stale = checkBuildKernels(attempt, {"kb"});
  ASSERT_TRUE(bool(stale));
  EXPECT_EQ(toString(std::move(stale)),
            "small build: the binary's kernels (nospill) are not the "
            "module's entry points (kb): a stale or foreign binary");
  // Names and count: a subset or a superset is no match either.
  EXPECT_TRUE(errorToBool(checkBuildKernels(attempt, {"nospill", "other"})));
  attempt.kernels.push_back(attempt.kernels.front());
  EXPECT_TRUE(errorToBool(checkBuildKernels(attempt, {"nospill"})));
}

TEST(ZebinTargetTest, DifferingSectionsAreNamed) {
  std::string a = readInput("nospill.pvc.small.zebin");
  Expected<std::vector<std::string>> same = getDifferingSections(a, a);
  ASSERT_TRUE(bool(same)) << toString(same.takeError());
  EXPECT_TRUE(same->empty());
  Expected<std::vector<std::string>> large =
      getDifferingSections(a, readInput("nospill.pvc.large.zebin"));
  ASSERT_TRUE(bool(large)) << toString(large.takeError());
  EXPECT_TRUE(is_contained(*large, ".text.nospill"));
  EXPECT_TRUE(is_contained(*large, ".ze_info"));
  EXPECT_FALSE(is_contained(*large, ".strtab"));
}

} // namespace
