//===- DeviceTable.cpp - Intel GPU devices the compiler accepts -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Device/DeviceTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir::xpu;

// PCI device IDs (Intel's public device ID lists; each ID checked to be
// accepted by `ocloc -device 0x<id>` for the right core). pvc-sdv shares its
// IDs with pvc (it differs by revision), so IDs map to pvc.
static constexpr uint16_t kPVCIds[] = {0x0BD5, 0x0BD6, 0x0BD7, 0x0BD8,
                                       0x0BD9, 0x0BDA, 0x0BDB, 0x0BD0};
static constexpr uint16_t kACMG10Ids[] = {0x56A0, 0x56A1, 0x56A2, 0x5690,
                                          0x5691, 0x5692, 0x56C0, 0x4F80,
                                          0x4F81, 0x4F82, 0x4F83, 0x4F84};
static constexpr uint16_t kACMG11Ids[] = {0x56A5, 0x56A6, 0x5693, 0x5694,
                                          0x5695, 0x56B0, 0x56B1, 0x56C1,
                                          0x4F87, 0x4F88};
static constexpr uint16_t kACMG12Ids[] = {0x56A3, 0x56A4, 0x5696, 0x5697,
                                          0x56B2, 0x56B3, 0x4F85, 0x4F86};
static constexpr uint16_t kTGLLPIds[] = {0x9A49, 0x9A40, 0x9A59, 0x9A60,
                                         0x9A68, 0x9A70, 0x9A78};
static constexpr uint16_t kRKLIds[] = {0x4C8A, 0x4C8B, 0x4C8C,
                                       0x4C90, 0x4C9A, 0x4C80};
static constexpr uint16_t kADLSIds[] = {0x4680, 0x4682, 0x4688, 0x468A,
                                        0x4690, 0x4692, 0x4693};
static constexpr uint16_t kADLPIds[] = {0x46A6, 0x46A0, 0x46A1, 0x46A3, 0x46A8,
                                        0x46AA, 0x462A, 0x4626, 0x4628, 0x46B0,
                                        0x46B1, 0x46B3, 0x46C0, 0x46C1, 0x46C3};
static constexpr uint16_t kADLNIds[] = {0x46D0, 0x46D1, 0x46D2};
static constexpr uint16_t kDG1Ids[] = {0x4905, 0x4906, 0x4907, 0x4908};

// GRF modes per family. Registers: measured with IGC 1.0.12504 on one
// spilling kernel (the 256-GRF flag gives grf_count 256 on Xe-HPC and Xe-HPG
// and is ignored, 128, on older devices; this IGC has no 512-GRF mode).
// Threads per vector engine: Intel's oneAPI GPU optimization guide (8 on
// Xe-HPC and Xe-HPG, halved to 4 in large GRF mode; 7 on Gen12LP and older,
// 6 on Gen9 LP). Sources in docs/Devices.md.
static constexpr GRFModeInfo kXeModes[] = {{128, 8}, {256, 4}};
static constexpr GRFModeInfo kGen7ThreadModes[] = {{128, 7}};
static constexpr GRFModeInfo kGen9LPModes[] = {{128, 6}};

// Sub-group sizes: Xe-HPC runs SIMD16 and SIMD32 (IGC rejects 8 there),
// the others 8, 16 and 32.
static constexpr unsigned kXeHPCSubgroups[] = {16, 32};
static constexpr unsigned kSubgroups[] = {8, 16, 32};

// Per-thread scratch space limit: 256 KiB per physical thread on Xe-HP and
// later, 2 MiB before (IGC's Platform::maxPerThreadScratchSpace).
static constexpr uint64_t kXeHPScratch = 256 * 1024;
static constexpr uint64_t kGenScratch = 2 * 1024 * 1024;

// The largest work-group is the Level Zero driver's rule: the threads of one
// core at the smallest SIMD width, rounded down to a power of two, at most
// 1024 (checked by the unit tests).
static constexpr DeviceInfo kDevices[] = {
    // name, family, grfBytes, GRF modes, igcAuto, EUs per core,
    // max work-group, sub-group sizes, max scratch, PCI IDs
    {"pvc", "xe-hpc", 64, kXeModes, true, 8, 1024, kXeHPCSubgroups,
     kXeHPScratch, kPVCIds},
    {"pvc-sdv", "xe-hpc", 64, kXeModes, true, 8, 1024, kXeHPCSubgroups,
     kXeHPScratch},
    {"acm-g10", "xe-hpg", 32, kXeModes, false, 16, 1024, kSubgroups,
     kXeHPScratch, kACMG10Ids},
    {"acm-g11", "xe-hpg", 32, kXeModes, false, 16, 1024, kSubgroups,
     kXeHPScratch, kACMG11Ids},
    {"acm-g12", "xe-hpg", 32, kXeModes, false, 16, 1024, kSubgroups,
     kXeHPScratch, kACMG12Ids},
    {"tgllp", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kTGLLPIds},
    {"rkl", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kRKLIds},
    {"adl-s", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kADLSIds},
    {"adl-p", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kADLPIds},
    {"adl-n", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kADLNIds},
    {"dg1", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kDG1Ids},
    {"icllp", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"lkf", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"ehl", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"jsl", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"skl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"kbl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"cfl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"apl", "gen9", 32, kGen9LPModes, false, 6, 256, kSubgroups, kGenScratch},
    {"bxt", "gen9", 32, kGen9LPModes, false, 6, 256, kSubgroups, kGenScratch},
    {"glk", "gen9", 32, kGen9LPModes, false, 6, 256, kSubgroups, kGenScratch},
    {"whl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"aml", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"cml", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
    {"bdw", "gen8", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch},
};

const GRFModeInfo *DeviceInfo::getGRFMode(unsigned registers) const {
  for (const GRFModeInfo &mode : grfModes)
    if (mode.registers == registers)
      return &mode;
  return nullptr;
}

std::string DeviceInfo::getGRFModeList() const {
  llvm::SmallVector<std::string> counts;
  for (const GRFModeInfo &mode : grfModes)
    counts.push_back(std::to_string(mode.registers));
  return llvm::join(counts, ", ");
}

bool DeviceInfo::supportsSubgroupSize(unsigned size) const {
  return llvm::is_contained(subgroupSizes, size);
}

unsigned DeviceInfo::getMaxWorkGroupSize(unsigned registers,
                                         unsigned simd) const {
  const GRFModeInfo *mode = getGRFMode(registers);
  if (!mode)
    return 0;
  uint64_t fit = uint64_t(eusPerCore) * mode->threadsPerEU * simd;
  return static_cast<unsigned>(std::min<uint64_t>(fit, maxWorkGroupSize));
}

namespace {
struct DeviceAlias {
  llvm::StringLiteral alias;
  llvm::StringLiteral device;
};
} // namespace

static constexpr DeviceAlias kAliases[] = {
    {"dg2-g10", "acm-g10"}, {"ats-m150", "acm-g10"}, {"dg2-g11", "acm-g11"},
    {"ats-m75", "acm-g11"}, {"dg2-g12", "acm-g12"},
};

std::string mlir::xpu::getSubgroupSizeList(const DeviceInfo &device) {
  return llvm::join(
      llvm::map_range(device.getSubgroupSizes(),
                      [](unsigned size) { return std::to_string(size); }),
      ", ");
}

llvm::SmallVector<int64_t, 2>
mlir::xpu::getGRFCounts(const DeviceInfo &device) {
  llvm::SmallVector<int64_t, 2> counts;
  for (const GRFModeInfo &mode : device.grfModes)
    counts.push_back(mode.registers);
  return counts;
}

const DeviceInfo *mlir::xpu::lookupDevice(llvm::StringRef nameOrAlias) {
  llvm::StringRef name = nameOrAlias;
  for (const DeviceAlias &alias : kAliases)
    if (alias.alias == nameOrAlias)
      name = alias.device;
  for (const DeviceInfo &device : kDevices)
    if (device.name == name)
      return &device;
  return nullptr;
}

const DeviceInfo *mlir::xpu::lookupDeviceByPCIId(uint32_t pciDeviceId) {
  for (const DeviceInfo &device : kDevices)
    if (llvm::is_contained(device.pciDeviceIds, pciDeviceId))
      return &device;
  return nullptr;
}

llvm::ArrayRef<DeviceInfo> mlir::xpu::getDevices() { return kDevices; }

std::string mlir::xpu::getValidDeviceNames() {
  llvm::SmallVector<llvm::StringRef> names;
  for (const DeviceInfo &device : kDevices)
    names.push_back(device.name);
  for (const DeviceAlias &alias : kAliases)
    names.push_back(alias.alias);
  llvm::sort(names);
  return llvm::join(names, ", ");
}

/// True when `a` is `b` with two neighbouring characters swapped: a typo
/// that counts as one edit.
static bool isAdjacentSwap(llvm::StringRef a, llvm::StringRef b) {
  if (a.size() != b.size())
    return false;
  size_t i = 0;
  while (i < a.size() && a[i] == b[i])
    ++i;
  return i + 1 < a.size() && a[i] == b[i + 1] && a[i + 1] == b[i] &&
         a.drop_front(i + 2) == b.drop_front(i + 2);
}

std::string mlir::xpu::suggestDeviceName(llvm::StringRef name) {
  std::string lowered = name.lower();
  llvm::StringRef best;
  unsigned bestDistance = 0;
  auto consider = [&](llvm::StringRef candidate) {
    unsigned distance = isAdjacentSwap(lowered, candidate)
                            ? 1
                            : llvm::StringRef(lowered).edit_distance(candidate);
    if (best.empty() || distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  };
  for (const DeviceInfo &device : kDevices)
    consider(device.name);
  for (const DeviceAlias &alias : kAliases)
    consider(alias.alias);
  // A hint only when it is close: at most a third of the name wrong.
  if (best.empty() || bestDistance > std::max<size_t>(1, name.size() / 3))
    return "";
  return best.str();
}

std::string mlir::xpu::describeUnknownDevice(llvm::StringRef name) {
  std::string message = "unknown Intel GPU arch '" + name.str() + "'";
  if (std::string suggestion = suggestDeviceName(name); !suggestion.empty())
    message += "; did you mean '" + suggestion + "'?";
  return message + "; valid archs: " + getValidDeviceNames();
}
