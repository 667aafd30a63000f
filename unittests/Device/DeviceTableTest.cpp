//===- DeviceTableTest.cpp - Tests for the device table -------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Device/DeviceTable.h"

#include "gtest/gtest.h"

using namespace mlir::xpu;

TEST(DeviceTable, KnowsCanonicalNames) {
  const DeviceInfo *pvc = lookupDevice("pvc");
  ASSERT_NE(pvc, nullptr);
  EXPECT_EQ(pvc->name, "pvc");
  EXPECT_EQ(pvc->grfBytes, 64u);
  EXPECT_TRUE(pvc->supportsLargeGRF);
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
  EXPECT_TRUE(lookupDevice("acm-g10")->supportsLargeGRF);
  EXPECT_FALSE(lookupDevice("acm-g10")->supportsIGCAutoGRF);
  EXPECT_EQ(lookupDevice("acm-g10")->grfBytes, 32u);
  // Gen12LP and older silently ignore it.
  for (const char *name : {"tgllp", "dg1", "adl-p", "rkl", "icllp", "skl"}) {
    const DeviceInfo *device = lookupDevice(name);
    ASSERT_NE(device, nullptr) << name;
    EXPECT_FALSE(device->supportsLargeGRF) << name;
  }
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
