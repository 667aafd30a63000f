//===- DeviceTableTest.cpp - Tests for the device table -------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <tuple>

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
  // Large GRF halves the hardware threads of a vector engine; only cri has
  // the 512-register mode (IGC 2.40 rejects the flag everywhere else).
  for (const char *name : {"pvc", "acm-g10", "acm-g12", "bmg", "bmg-g31", "lnl",
                           "ptl", "ptl-u", "mtl", "mtl-h", "arl-h"}) {
    const DeviceInfo *device = lookupDevice(name);
    ASSERT_NE(device, nullptr) << name;
    EXPECT_EQ(device->getGRFModeList(), "128, 256") << name;
    EXPECT_EQ(device->getGRFMode(128)->threadsPerEU, 8u) << name;
    EXPECT_EQ(device->getGRFMode(256)->threadsPerEU, 4u) << name;
  }
  EXPECT_EQ(lookupDevice("tgllp")->getGRFMode(128)->threadsPerEU, 7u);
  const DeviceInfo *cri = lookupDevice("cri");
  ASSERT_NE(cri, nullptr);
  EXPECT_EQ(cri->getGRFModeList(), "128, 256, 512");
  // 2048 registers per engine on cri (compute-runtime df41b98): 8 threads
  // at 256 registers, 4 at 512.
  EXPECT_EQ(cri->getGRFMode(256)->threadsPerEU, 8u);
  EXPECT_EQ(cri->getGRFMode(512)->threadsPerEU, 4u);
  EXPECT_TRUE(cri->supportsXLargeGRF());
  for (const DeviceInfo &device : getDevices()) {
    if (device.name != "cri") {
      EXPECT_EQ(device.getGRFMode(512), nullptr) << device.name.str();
    }
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
  EXPECT_EQ(lookupDevice("nvl-s"), nullptr);
  EXPECT_EQ(lookupDevice("xe2"), nullptr); // a family of several devices
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

TEST(DeviceTable, KnowsTheCurrentDevices) {
  // Known to IGC 2.40 only; measured facts (docs/Devices.md).
  for (const char *name : {"bmg", "bmg-g31", "lnl", "ptl", "ptl-u", "cri"}) {
    const DeviceInfo *device = lookupDevice(name);
    ASSERT_NE(device, nullptr) << name;
    EXPECT_EQ(device->grfBytes, 64u) << name;
    EXPECT_EQ(device->eusPerCore, 8u) << name;
    EXPECT_TRUE(device->supportsIGCAutoGRF) << name;
    EXPECT_FALSE(device->supportsSubgroupSize(8)) << name;
    EXPECT_EQ(device->knownTo, kKnownToIGC2) << name;
    EXPECT_EQ(device->maxScratchPerThread, 256u * 1024) << name;
  }
  for (const char *name : {"mtl", "mtl-h", "arl-h"}) {
    const DeviceInfo *device = lookupDevice(name);
    ASSERT_NE(device, nullptr) << name;
    EXPECT_EQ(device->grfBytes, 32u) << name;
    EXPECT_FALSE(device->supportsIGCAutoGRF) << name;
    EXPECT_TRUE(device->supportsSubgroupSize(8)) << name;
  }
  EXPECT_EQ(lookupDevice("pvc")->knownTo, kKnownToBoth);
  EXPECT_EQ(lookupDevice("skl")->knownTo, kKnownToIGC1);
}

TEST(DeviceTable, ResolvesTheCompilersOtherNames) {
  EXPECT_EQ(lookupDevice("bmg-g21"), lookupDevice("bmg"));
  EXPECT_NE(lookupDevice("bmg-g31"), lookupDevice("bmg")); // its own IP
  EXPECT_EQ(lookupDevice("lnl-m"), lookupDevice("lnl"));
  EXPECT_EQ(lookupDevice("ptl-h"), lookupDevice("ptl"));
  EXPECT_EQ(lookupDevice("mtl-u"), lookupDevice("mtl"));
  EXPECT_EQ(lookupDevice("arl-s"), lookupDevice("mtl"));
  EXPECT_EQ(lookupDevice("mtl-p"), lookupDevice("mtl-h"));
  EXPECT_EQ(lookupDevice("xe3p-xpc"), lookupDevice("cri"));
  EXPECT_EQ(lookupDeviceByPCIId(0xE202), lookupDevice("bmg"));
  EXPECT_EQ(lookupDeviceByPCIId(0xE220), lookupDevice("bmg-g31"));
  EXPECT_EQ(lookupDeviceByPCIId(0x64A0), lookupDevice("lnl"));
  EXPECT_EQ(lookupDeviceByPCIId(0xB090), lookupDevice("ptl-u"));
  EXPECT_EQ(lookupDeviceByPCIId(0x674C), lookupDevice("cri"));
}

TEST(DeviceTable, Xe3VariableRegisterCounts) {
  // Without a GRF flag IGC 2.40 picks 160 or 192 registers on ptl and cri:
  // real counts of the binary, with their own thread counts.
  const DeviceInfo *ptl = lookupDevice("ptl");
  EXPECT_EQ(ptl->getThreadsPerEU(160), 6u);
  EXPECT_EQ(ptl->getThreadsPerEU(192), 5u);
  EXPECT_EQ(ptl->getThreadsPerEU(512), 0u);
  EXPECT_EQ(ptl->getGRFMode(160), nullptr); // no mode flag selects it
  // 224 crashes IGC 2.40 and is in no IGC GRF table: not a count.
  EXPECT_EQ(getGRFCounts(*ptl),
            (llvm::SmallVector<int64_t, 2>{32, 64, 96, 128, 160, 192, 256}));
  EXPECT_EQ(getGRFCounts(*lookupDevice("cri")).back(), 512);
  EXPECT_EQ(getGRFCounts(*lookupDevice("bmg")),
            (llvm::SmallVector<int64_t, 2>{32, 64, 96, 128, 256}));
  // 8 engines x 5 threads x 16 lanes.
  EXPECT_EQ(ptl->getMaxWorkGroupSize(192, 16), 640u);
}

TEST(DeviceTable, RegisterCountsCarryFlagThreadsAndCompiler) {
  const DeviceInfo *ptl = lookupDevice("ptl");
  const RegisterCountInfo *count = ptl->getRegisterCount(160);
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->flag, RegisterCountFlag::RegisterFileSize);
  EXPECT_EQ(count->builtBy, kKnownToIGC2);
  EXPECT_EQ(count->threadsPerEU, 6u);
  EXPECT_EQ(ptl->getRegisterCount(128), nullptr); // a mode, not an extra
  // Xe3: 10 threads up to 96 registers, 8 at 128, 6, 5, 4 at 256.
  for (auto [registers, threads] : {std::pair{32u, 10u},
                                    {64u, 10u},
                                    {96u, 10u},
                                    {128u, 8u},
                                    {160u, 6u},
                                    {192u, 5u},
                                    {256u, 4u}})
    EXPECT_EQ(ptl->getThreadsPerEU(registers), threads) << registers;
  // Xe3P keeps 8 threads resident up to 256 registers and 4 at 512
  // (compute-runtime df41b98, IGC's Xe3P table); the released drivers
  // (26.27, 26.31) size work-groups by Xe3's rule, 1 thread above 256.
  const DeviceInfo *cri = lookupDevice("cri");
  for (auto [registers, threads, launch] : {std::tuple{32u, 8u, 10u},
                                            {64u, 8u, 10u},
                                            {96u, 8u, 10u},
                                            {128u, 8u, 8u},
                                            {160u, 8u, 6u},
                                            {192u, 8u, 5u},
                                            {256u, 8u, 4u},
                                            {512u, 4u, 1u}}) {
    EXPECT_EQ(cri->getThreadsPerEU(registers), threads) << registers;
    EXPECT_EQ(cri->getLaunchThreadsPerEU(registers), launch) << registers;
  }
  EXPECT_EQ(cri->getLaunchThreadsPerEU(224), 0u);
  // Elsewhere the two facts agree.
  for (const DeviceInfo &device : getDevices()) {
    if (device.name == "cri")
      continue;
    for (int64_t registers : getGRFCounts(device))
      EXPECT_EQ(device.getLaunchThreadsPerEU(unsigned(registers)),
                device.getThreadsPerEU(unsigned(registers)))
          << device.name.str() << " " << registers;
  }
  // Only IGC 2.40 builds the extra counts, and never 224 or, on Xe-HPC and
  // Xe2, 160 and 192 (IGC 2.40 crashes on them).
  for (unsigned registers : {32u, 64u, 96u, 128u, 160u, 192u, 256u, 512u})
    EXPECT_TRUE(cri->buildsRegisterCount(registers, kKnownToIGC2));
  EXPECT_FALSE(ptl->buildsRegisterCount(512, kKnownToIGC2));
  for (const DeviceInfo &device : getDevices()) {
    EXPECT_FALSE(device.buildsRegisterCount(224, kKnownToBoth))
        << device.name.str();
    EXPECT_FALSE(device.buildsRegisterCount(64, kKnownToIGC1))
        << device.name.str();
  }
  const DeviceInfo *pvc = lookupDevice("pvc");
  EXPECT_TRUE(pvc->buildsRegisterCount(64, kKnownToIGC2));
  EXPECT_FALSE(pvc->buildsRegisterCount(160, kKnownToIGC2));
  EXPECT_TRUE(pvc->buildsRegisterCount(128, kKnownToIGC1));
}

TEST(DeviceTable, OnlyXe3AndXe3PHaveCountsBetweenTheModes) {
  // IGC picks 160 or 192 registers on its own there; fewer than 128
  // registers gain no threads on Xe-HPC and Xe2.
  for (llvm::StringRef name : {"ptl", "ptl-u", "cri"})
    EXPECT_TRUE(lookupDevice(name)->hasVariableRegisterFile()) << name.str();
  for (llvm::StringRef name :
       {"pvc", "bmg", "bmg-g31", "lnl", "acm-g10", "tgllp", "mtl"})
    EXPECT_FALSE(lookupDevice(name)->hasVariableRegisterFile()) << name.str();
  EXPECT_EQ(lookupDevice("bmg")->getThreadsPerEU(64), 8u);
}

TEST(DeviceTable, XLargeGRFQuartersTheLargestWorkGroup) {
  const DeviceInfo *cri = lookupDevice("cri");
  EXPECT_EQ(cri->getMaxWorkGroupSize(128, 16), 1024u);
  // The released drivers' limit (launch threads), not the resident threads.
  EXPECT_EQ(cri->getMaxWorkGroupSize(256, 16), 512u);
  EXPECT_EQ(cri->getMaxWorkGroupSize(192, 16), 640u);
  EXPECT_EQ(cri->getMaxWorkGroupSize(512, 16), 128u);
  EXPECT_EQ(cri->getMaxWorkGroupSize(512, 32), 256u);
  EXPECT_EQ(cri->getMostThreadsRegisters(), 96u);
  EXPECT_EQ(lookupDevice("pvc")->getMaxWorkGroupSize(512, 16), 0u);
}

TEST(DeviceTable, KnowsWhichCompilerKnowsADevice) {
  // As `ocloc compile --help` lists them: names and aliases.
  std::vector<std::string> igc2 = {"tgllp", "pvc", "bmg-g21", "bmg",
                                   "ptl-h", "cri", "xe3p-xpc"};
  EXPECT_TRUE(isKnownToCompiler(*lookupDevice("bmg"), igc2));
  EXPECT_TRUE(isKnownToCompiler(*lookupDevice("ptl"), igc2)); // as ptl-h
  EXPECT_FALSE(isKnownToCompiler(*lookupDevice("skl"), igc2));
  EXPECT_FALSE(isKnownToCompiler(*lookupDevice("lnl"), igc2));
  // A compiler that did not list its devices knows them all.
  EXPECT_TRUE(isKnownToCompiler(*lookupDevice("skl"), {}));
  EXPECT_EQ(describeCompilerDevices(igc2),
            "pvc, tgllp, bmg (bmg-g21), ptl (ptl-h), cri (xe3p-xpc)");
  EXPECT_EQ(describeCompilerDevices({"foo"}), "none of this project's devices");
}
