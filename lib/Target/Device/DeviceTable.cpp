//===- DeviceTable.cpp - Intel GPU devices the compiler accepts -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Target/Device/DeviceTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

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

// Measured with IGC 1.0.12504 on one spilling kernel: the 256-GRF flag gives
// grf_count 256 on Xe-HPC and Xe-HPG and is ignored (128) on older devices;
// IGC's auto flag only has an effect on Xe-HPC.
static constexpr DeviceInfo kDevices[] = {
    // name, family, grfBytes, large, igcAuto, PCI IDs
    {"pvc", "xe-hpc", 64, true, true, kPVCIds},
    {"pvc-sdv", "xe-hpc", 64, true, true},
    {"acm-g10", "xe-hpg", 32, true, false, kACMG10Ids},
    {"acm-g11", "xe-hpg", 32, true, false, kACMG11Ids},
    {"acm-g12", "xe-hpg", 32, true, false, kACMG12Ids},
    {"tgllp", "gen12lp", 32, false, false, kTGLLPIds},
    {"rkl", "gen12lp", 32, false, false, kRKLIds},
    {"adl-s", "gen12lp", 32, false, false, kADLSIds},
    {"adl-p", "gen12lp", 32, false, false, kADLPIds},
    {"adl-n", "gen12lp", 32, false, false, kADLNIds},
    {"dg1", "gen12lp", 32, false, false, kDG1Ids},
    {"icllp", "gen11", 32, false, false},
    {"lkf", "gen11", 32, false, false},
    {"ehl", "gen11", 32, false, false},
    {"jsl", "gen11", 32, false, false},
    {"skl", "gen9", 32, false, false},
    {"kbl", "gen9", 32, false, false},
    {"cfl", "gen9", 32, false, false},
    {"apl", "gen9", 32, false, false},
    {"bxt", "gen9", 32, false, false},
    {"glk", "gen9", 32, false, false},
    {"whl", "gen9", 32, false, false},
    {"aml", "gen9", 32, false, false},
    {"cml", "gen9", 32, false, false},
    {"bdw", "gen8", 32, false, false},
};

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

llvm::ArrayRef<unsigned> DeviceInfo::getSubgroupSizes() const {
  static constexpr unsigned kXeHPC[] = {16, 32};
  static constexpr unsigned kOther[] = {8, 16, 32};
  if (family == "xe-hpc")
    return kXeHPC;
  return kOther;
}

bool DeviceInfo::supportsSubgroupSize(unsigned size) const {
  return llvm::is_contained(getSubgroupSizes(), size);
}

std::string mlir::xpu::getSubgroupSizeList(const DeviceInfo &device) {
  return llvm::join(
      llvm::map_range(device.getSubgroupSizes(),
                      [](unsigned size) { return std::to_string(size); }),
      ", ");
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
