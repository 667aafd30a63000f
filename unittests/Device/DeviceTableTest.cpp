//===- DeviceTableTest.cpp - Tests for the device table -------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Device/DeviceTable.h"

#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace mlir::xpu;

TEST(DeviceTable, KnowsCanonicalNames) {
  const DeviceInfo *pvc = lookupDevice("pvc");
  ASSERT_NE(pvc, nullptr);
  EXPECT_EQ(pvc->name, "pvc");
  EXPECT_EQ(pvc->grfBytes, 64u);
  EXPECT_TRUE(pvc->supportsLargeGRF());
  EXPECT_TRUE(pvc->supportsIGCAutoGRF);
}

TEST(DeviceTable, ResolvesAliases) {
  const DeviceInfo *dg2 = lookupDevice("dg2-g10");
  ASSERT_NE(dg2, nullptr);
  EXPECT_EQ(dg2, lookupDevice("acm-g10"));
  EXPECT_EQ(lookupDevice("ats-m150"), dg2);
  EXPECT_EQ(lookupDevice("dg2-g11"), lookupDevice("acm-g11"));
}

TEST(DeviceTable, RecordsMeasuredGRFSupport) {
  // Xe-HPG honours the 256-GRF flag but ignores IGC's auto flag.
  EXPECT_TRUE(lookupDevice("acm-g10")->supportsLargeGRF());
  EXPECT_FALSE(lookupDevice("acm-g10")->supportsIGCAutoGRF);
  EXPECT_EQ(lookupDevice("acm-g10")->grfBytes, 32u);
  // Gen12LP and older silently ignore it.
  for (const char *name : {"tgllp", "dg1", "adl-p", "rkl", "icllp", "skl"}) {
    const DeviceInfo *device = lookupDevice(name);
    ASSERT_NE(device, nullptr) << name;
    EXPECT_FALSE(device->supportsLargeGRF()) << name;
    EXPECT_EQ(device->getGRFModeList(), "128") << name;
  }
}

TEST(DeviceTable, ListsGRFModesWithThreadsPerEngine) {
  // Large GRF halves the hardware threads of a vector engine; this IGC has
  // no 512-register mode anywhere.
  for (const char *name : {"pvc", "acm-g10", "acm-g12"}) {
    const DeviceInfo *device = lookupDevice(name);
    ASSERT_NE(device, nullptr) << name;
    EXPECT_EQ(device->getGRFModeList(), "128, 256") << name;
    EXPECT_EQ(device->getGRFMode(128)->threadsPerEU, 8u) << name;
    EXPECT_EQ(device->getGRFMode(256)->threadsPerEU, 4u) << name;
  }
  EXPECT_EQ(lookupDevice("tgllp")->getGRFMode(128)->threadsPerEU, 7u);
  for (const DeviceInfo &device : getDevices()) {
    EXPECT_EQ(device.getGRFMode(512), nullptr) << device.name.str();
    ASSERT_FALSE(device.grfModes.empty()) << device.name.str();
    EXPECT_EQ(device.grfModes.front().registers, 128u) << device.name.str();
  }
}

TEST(DeviceTable, MaxWorkGroupSizeFollowsTheDriverRule) {
  // The Level Zero driver's maxTotalGroupSize: the threads of one core at the
  // smallest SIMD width, rounded down to a power of two, at most 1024.
  for (const DeviceInfo &device : getDevices()) {
    uint64_t threads =
        uint64_t(device.eusPerCore) * device.grfModes.front().threadsPerEU;
    uint64_t rule = llvm::bit_floor(threads * device.subgroupSizes.front());
    EXPECT_EQ(device.maxWorkGroupSize, std::min<uint64_t>(rule, 1024))
        << device.name.str();
  }
  EXPECT_EQ(lookupDevice("pvc")->maxWorkGroupSize, 1024u);
  EXPECT_EQ(lookupDevice("acm-g10")->maxWorkGroupSize, 1024u);
  EXPECT_EQ(lookupDevice("tgllp")->maxWorkGroupSize, 512u);
  EXPECT_EQ(lookupDevice("skl")->maxWorkGroupSize, 256u);
}

TEST(DeviceTable, LargeGRFHalvesTheLargestWorkGroup) {
  const DeviceInfo *pvc = lookupDevice("pvc");
  // 8 vector engines x 8 threads x 16 lanes = 1024 in small mode; large mode
  // has 4 threads per engine: 512 at SIMD16, 1024 again at SIMD32.
  EXPECT_EQ(pvc->getMaxWorkGroupSize(128, 16), 1024u);
  EXPECT_EQ(pvc->getMaxWorkGroupSize(256, 16), 512u);
  EXPECT_EQ(pvc->getMaxWorkGroupSize(256, 32), 1024u);
  // Capped by the device's largest work-group.
  EXPECT_EQ(pvc->getMaxWorkGroupSize(128, 32), 1024u);
  // Xe-HPG: 16 engines; SIMD8 halves again.
  const DeviceInfo *acm = lookupDevice("acm-g10");
  EXPECT_EQ(acm->getMaxWorkGroupSize(128, 8), 1024u);
  EXPECT_EQ(acm->getMaxWorkGroupSize(256, 8), 512u);
  // No such mode: nothing fits.
  EXPECT_EQ(lookupDevice("tgllp")->getMaxWorkGroupSize(256, 16), 0u);
  EXPECT_EQ(lookupDevice("tgllp")->getMaxWorkGroupSize(128, 8), 512u);
}

TEST(DeviceTable, KnowsSubgroupSizesAndScratchLimits) {
  const DeviceInfo *pvc = lookupDevice("pvc");
  EXPECT_FALSE(pvc->supportsSubgroupSize(8));
  EXPECT_TRUE(pvc->supportsSubgroupSize(16));
  EXPECT_TRUE(pvc->supportsSubgroupSize(32));
  EXPECT_TRUE(lookupDevice("acm-g10")->supportsSubgroupSize(8));
  EXPECT_EQ(pvc->maxScratchPerThread, 256u * 1024);
  EXPECT_EQ(lookupDevice("tgllp")->maxScratchPerThread, 2u * 1024 * 1024);
  for (const DeviceInfo &device : getDevices())
    EXPECT_TRUE(device.supportsSubgroupSize(16)) << device.name.str();
}

TEST(DeviceTable, SuggestsCloseNames) {
  EXPECT_EQ(suggestDeviceName("pcv"), "pvc");
  EXPECT_EQ(suggestDeviceName("PVC"), "pvc");
  EXPECT_EQ(suggestDeviceName("acm-g1O"), "acm-g10");
  EXPECT_EQ(suggestDeviceName("dg2g10"), "dg2-g10");
  EXPECT_EQ(suggestDeviceName("completely-different"), "");
}

TEST(DeviceTable, RejectsUnknownNames) {
  EXPECT_EQ(lookupDevice("bmg"), nullptr);
  EXPECT_EQ(lookupDevice(""), nullptr);
  EXPECT_EQ(lookupDevice("PVC"), nullptr);
}

TEST(DeviceTable, ListsEveryNameForDiagnostics) {
  std::string names = getValidDeviceNames();
  for (const DeviceInfo &device : getDevices())
    EXPECT_NE(names.find(device.name.str()), std::string::npos)
        << device.name.str();
  EXPECT_NE(names.find("dg2-g10"), std::string::npos);
  // Sorted: acm-g10 precedes pvc.
  EXPECT_LT(names.find("acm-g10"), names.find("pvc"));
}

TEST(DeviceTable, MatchesPCIDeviceIds) {
  // Level Zero reports a PCI device ID; it must map back to the arch, and the
  // first ID of a device (what the offline driver presents) to that device.
  EXPECT_EQ(lookupDeviceByPCIId(0x0BD5), lookupDevice("pvc"));
  EXPECT_EQ(lookupDeviceByPCIId(0x56A0), lookupDevice("acm-g10"));
  EXPECT_EQ(lookupDeviceByPCIId(0x9A49), lookupDevice("tgllp"));
  EXPECT_EQ(lookupDeviceByPCIId(0x1234), nullptr);
  for (const DeviceInfo &device : getDevices()) {
    if (!device.pciDeviceIds.empty()) {
      EXPECT_EQ(lookupDeviceByPCIId(device.pciDeviceIds.front()), &device)
          << device.name.str();
    }
  }
}
