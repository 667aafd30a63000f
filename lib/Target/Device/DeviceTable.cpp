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

// Measured with IGC 1.0.12504 on one spilling kernel: the 256-GRF flag gives
// grf_count 256 on Xe-HPC and Xe-HPG and is ignored (128) on older devices;
// IGC's auto flag only has an effect on Xe-HPC.
static constexpr DeviceInfo kDevices[] = {
    // name, family, grfBytes, large, igcAuto
    {"pvc", "xe-hpc", 64, true, true},
    {"pvc-sdv", "xe-hpc", 64, true, true},
    {"acm-g10", "xe-hpg", 32, true, false},
    {"acm-g11", "xe-hpg", 32, true, false},
    {"acm-g12", "xe-hpg", 32, true, false},
    {"tgllp", "gen12lp", 32, false, false},
    {"rkl", "gen12lp", 32, false, false},
    {"adl-s", "gen12lp", 32, false, false},
    {"adl-p", "gen12lp", 32, false, false},
    {"adl-n", "gen12lp", 32, false, false},
    {"dg1", "gen12lp", 32, false, false},
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
