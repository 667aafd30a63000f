//===- DeviceTable.cpp - Intel GPU devices the compiler accepts -----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir::xpu;

// PCI device IDs (Intel's public device ID lists; each ID checked to be
// accepted by `ocloc -device 0x<id>` for the right core). pvc-sdv shares its
// IDs with pvc (it differs by revision), so IDs map to pvc. The newer lists
// are compute-runtime's device_ids_configs_*.h (docs/Devices.md), each ID
// accepted by IGC 2.40's ocloc.
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
static constexpr uint16_t kBMGIds[] = {0xE202, 0xE209, 0xE20B, 0xE20C, 0xE20D,
                                       0xE210, 0xE211, 0xE212, 0xE215, 0xE216};
static constexpr uint16_t kBMGG31Ids[] = {0xE220, 0xE221, 0xE222, 0xE223};
static constexpr uint16_t kLNLIds[] = {0x64A0, 0x6420, 0x64B0};
static constexpr uint16_t kPTLIds[] = {0xB080, 0xB081, 0xB082, 0xB083,
                                       0xB08F, 0xB0A0, 0xB0B0};
static constexpr uint16_t kPTLUIds[] = {0xB090};
static constexpr uint16_t kMTLIds[] = {0x7D40, 0x7D45, 0x7D67, 0x7D41};
static constexpr uint16_t kMTLHIds[] = {0x7D55, 0x7DD5};
static constexpr uint16_t kARLHIds[] = {0x7D51, 0x7DD1};
static constexpr uint16_t kCRIIds[] = {0x674C};
static constexpr llvm::ArrayRef<uint16_t> kNoIds;

// GRF modes per family: the registers a flag selects. Measured on one
// spilling kernel with each compiler that knows the device: the 256-GRF flag
// gives grf_count 256 on Xe-HPC, Xe-HPG, Xe-LPG, Xe2, Xe3 and Xe3P and is
// ignored (128) on Gen12LP and older; the 512-GRF flag gives 512 on cri and
// is rc 245 "512-grf-per-thread option is not supported on this platform"
// everywhere else (IGC 2.40; IGC 1.0.12504 has no 512 mode).
// Threads per vector engine (resident, the occupancy): Intel's oneAPI GPU
// optimization guide (8 on Xe-HPC, Xe-HPG and later, halved to 4 in large GRF
// mode; 7 on Gen12LP and older, 6 on Gen9 LP); Xe3 from compute-runtime's
// thread-count rule; cri from compute-runtime df41b98 and IGC's Xe3P table
// (2048 registers per engine: 8 threads up to 256 registers, 4 at 512).
// Sources in docs/Devices.md.
static constexpr GRFModeInfo kXeModes[] = {{128, 8}, {256, 4}};
static constexpr GRFModeInfo kXe3PModes[] = {{128, 8}, {256, 8}, {512, 4}};
static constexpr GRFModeInfo kGen7ThreadModes[] = {{128, 7}};
static constexpr GRFModeInfo kGen9LPModes[] = {{128, 6}};
// Register counts besides the modes, asked for with IGC 2.40's
// `-ze-exp-register-file-size N` (grf_count is then N); IGC 2.40 builds
// 32, 64 and 96 everywhere measured, 160 and 192 on Xe3 and Xe3P only, and
// crashes (SIGSEGV) on any other N (224 anywhere, 160 and 192 on Xe-HPC and
// Xe2), so those are not listed. Resident threads per engine: Xe3's rule in
// compute-runtime (10 up to 96 registers, 8 at 128, 6 at 160, 5 at 192); 8
// on Xe3P (above). Xe-HPC and Xe2 run 8 threads below 128 registers as at
// 128: fewer registers gain nothing there. Sources in docs/Devices.md.
static constexpr RegisterCountFlag kSizeFlag =
    RegisterCountFlag::RegisterFileSize;
static constexpr RegisterCountInfo kXeSmallCounts[] = {
    {32, 8, kSizeFlag, kKnownToIGC2},
    {64, 8, kSizeFlag, kKnownToIGC2},
    {96, 8, kSizeFlag, kKnownToIGC2}};
static constexpr RegisterCountInfo kXe3Counts[] = {
    {32, 10, kSizeFlag, kKnownToIGC2},
    {64, 10, kSizeFlag, kKnownToIGC2},
    {96, 10, kSizeFlag, kKnownToIGC2},
    {160, 6, kSizeFlag, kKnownToIGC2},
    {192, 5, kSizeFlag, kKnownToIGC2}};
static constexpr RegisterCountInfo kXe3PCounts[] = {
    {32, 8, kSizeFlag, kKnownToIGC2},
    {64, 8, kSizeFlag, kKnownToIGC2},
    {96, 8, kSizeFlag, kKnownToIGC2},
    {160, 8, kSizeFlag, kKnownToIGC2},
    {192, 8, kSizeFlag, kKnownToIGC2}};
// What the released drivers (compute-runtime 26.27 and 26.31, before
// df41b98) count on cri for the largest work-group: Xe3's rule
// (gfx_core_helper_xe3_and_later.inl), 1 thread above 256 registers.
static constexpr LaunchThreadsInfo kXe3PReleasedLaunchThreads[] = {
    {32, 10}, {64, 10}, {96, 10}, {128, 8},
    {160, 6}, {192, 5}, {256, 4}, {512, 1}};

// Sub-group sizes: Xe-HPC, Xe2, Xe3 and Xe3P run SIMD16 and SIMD32 (IGC
// rejects a required size 8 there: "unsupported on this platform"), the
// others 8, 16 and 32.
static constexpr unsigned kSIMD16Subgroups[] = {16, 32};
static constexpr unsigned kSubgroups[] = {8, 16, 32};

// Per-thread scratch space limit: 256 KiB per physical thread on Xe-HP and
// later, 2 MiB before (IGC's Platform::maxPerThreadScratchSpace; cri may get
// 16 MiB from a driver that asks for it, not assumed here).
static constexpr uint64_t kXeHPScratch = 256 * 1024;
static constexpr uint64_t kGenScratch = 2 * 1024 * 1024;

static constexpr uint8_t kIGC1 = kKnownToIGC1;
static constexpr uint8_t kIGC2 = kKnownToIGC2;
static constexpr uint8_t kBoth = kKnownToBoth;

// The largest work-group is the Level Zero driver's rule: the threads of one
// core at the smallest SIMD width, rounded down to a power of two, at most
// 1024 (checked by the unit tests).
static constexpr DeviceInfo kDevices[] = {
    // name, family, grfBytes, GRF modes, igcAuto, EUs per core,
    // max work-group, sub-group sizes, max scratch, PCI IDs, compilers,
    // extra register counts
    {"pvc", "xe-hpc", 64, kXeModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kPVCIds, kBoth, kXeSmallCounts},
    {"pvc-sdv", "xe-hpc", 64, kXeModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kNoIds, kBoth, kXeSmallCounts},
    {"acm-g10", "xe-hpg", 32, kXeModes, false, 16, 1024, kSubgroups,
     kXeHPScratch, kACMG10Ids, kBoth},
    {"acm-g11", "xe-hpg", 32, kXeModes, false, 16, 1024, kSubgroups,
     kXeHPScratch, kACMG11Ids, kBoth},
    {"acm-g12", "xe-hpg", 32, kXeModes, false, 16, 1024, kSubgroups,
     kXeHPScratch, kACMG12Ids, kBoth},
    {"tgllp", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kTGLLPIds, kBoth},
    {"rkl", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kRKLIds, kBoth},
    {"adl-s", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kADLSIds, kBoth},
    {"adl-p", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kADLPIds, kBoth},
    {"adl-n", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kADLNIds, kBoth},
    {"dg1", "gen12lp", 32, kGen7ThreadModes, false, 16, 512, kSubgroups,
     kGenScratch, kDG1Ids, kBoth},
    {"icllp", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"lkf", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"ehl", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"jsl", "gen11", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"skl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"kbl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"cfl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"apl", "gen9", 32, kGen9LPModes, false, 6, 256, kSubgroups, kGenScratch,
     kNoIds, kIGC1},
    {"bxt", "gen9", 32, kGen9LPModes, false, 6, 256, kSubgroups, kGenScratch,
     kNoIds, kIGC1},
    {"glk", "gen9", 32, kGen9LPModes, false, 6, 256, kSubgroups, kGenScratch,
     kNoIds, kIGC1},
    {"whl", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"aml", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"cml", "gen9", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    {"bdw", "gen8", 32, kGen7ThreadModes, false, 8, 256, kSubgroups,
     kGenScratch, kNoIds, kIGC1},
    // Known to IGC 2.40 only. Xe-LPG (Meteor Lake, Arrow Lake H): Xe-HPG's
    // core without XMX; IGC's auto flag is ignored as on Xe-HPG.
    {"mtl", "xe-lpg", 32, kXeModes, false, 16, 1024, kSubgroups, kXeHPScratch,
     kMTLIds, kIGC2},
    {"mtl-h", "xe-lpg", 32, kXeModes, false, 16, 1024, kSubgroups, kXeHPScratch,
     kMTLHIds, kIGC2},
    {"arl-h", "xe-lpgplus", 32, kXeModes, false, 16, 1024, kSubgroups,
     kXeHPScratch, kARLHIds, kIGC2},
    // Xe2 (Battlemage, Lunar Lake): 64-byte registers, 8 vector engines per
    // Xe-core, IGC's auto flag works.
    {"bmg", "xe2-hpg", 64, kXeModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kBMGIds, kIGC2, kXeSmallCounts},
    {"bmg-g31", "xe2-hpg", 64, kXeModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kBMGG31Ids, kIGC2, kXeSmallCounts},
    {"lnl", "xe2-lpg", 64, kXeModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kLNLIds, kIGC2, kXeSmallCounts},
    // Xe3 (Panther Lake): as Xe2, plus the variable register file that
    // default and IGC's auto flag use.
    {"ptl", "xe3-lpg", 64, kXeModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kPTLIds, kIGC2, kXe3Counts},
    {"ptl-u", "xe3-lpg", 64, kXeModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kPTLUIds, kIGC2, kXe3Counts},
    // Xe3P (Crescent Island): the 512-register mode, half the threads; the
    // released drivers' launch limit differs from the hardware's threads.
    {"cri", "xe3p-xpc", 64, kXe3PModes, true, 8, 1024, kSIMD16Subgroups,
     kXeHPScratch, kCRIIds, kIGC2, kXe3PCounts, kXe3PReleasedLaunchThreads},
};

const GRFModeInfo *DeviceInfo::getGRFMode(unsigned registers) const {
  for (const GRFModeInfo &mode : grfModes)
    if (mode.registers == registers)
      return &mode;
  return nullptr;
}

unsigned DeviceInfo::getThreadsPerEU(unsigned registers) const {
  if (const GRFModeInfo *mode = getGRFMode(registers))
    return mode->threadsPerEU;
  if (const RegisterCountInfo *count = getRegisterCount(registers))
    return count->threadsPerEU;
  return 0;
}

unsigned DeviceInfo::getLaunchThreadsPerEU(unsigned registers) const {
  if (!getThreadsPerEU(registers))
    return 0;
  for (const LaunchThreadsInfo &launch : launchThreads)
    if (launch.registers == registers)
      return launch.threadsPerEU;
  return getThreadsPerEU(registers);
}

const RegisterCountInfo *
DeviceInfo::getRegisterCount(unsigned registers) const {
  for (const RegisterCountInfo &count : registerCounts)
    if (count.registers == registers)
      return &count;
  return nullptr;
}

bool DeviceInfo::buildsRegisterCount(unsigned registers,
                                     uint8_t compiler) const {
  if (getGRFMode(registers))
    return (knownTo & compiler) != 0;
  const RegisterCountInfo *count = getRegisterCount(registers);
  return count && (count->builtBy & compiler) != 0;
}

bool DeviceInfo::hasVariableRegisterFile() const {
  unsigned smallestMode = grfModes.front().registers;
  return llvm::any_of(registerCounts, [&](const RegisterCountInfo &count) {
    return count.registers > smallestMode;
  });
}

std::string DeviceInfo::getGRFModeList() const {
  llvm::SmallVector<std::string> counts;
  for (const GRFModeInfo &mode : grfModes)
    counts.push_back(std::to_string(mode.registers));
  return llvm::join(counts, ", ");
}

unsigned DeviceInfo::getMostThreadsRegisters() const {
  unsigned best = 0;
  for (int64_t count : getGRFCounts(*this)) {
    auto registers = static_cast<unsigned>(count);
    if (!getGRFMode(registers) && !buildsRegisterCount(registers, knownTo))
      continue;
    if (!best ||
        getLaunchThreadsPerEU(registers) >= getLaunchThreadsPerEU(best))
      best = registers;
  }
  return best;
}

std::string DeviceInfo::getGRFCountList() const {
  llvm::SmallVector<std::string> counts;
  for (int64_t registers : getGRFCounts(*this))
    counts.push_back(std::to_string(registers));
  return llvm::join(counts, ", ");
}

bool DeviceInfo::supportsSubgroupSize(unsigned size) const {
  return llvm::is_contained(subgroupSizes, size);
}

unsigned DeviceInfo::getMaxWorkGroupSize(unsigned registers,
                                         unsigned simd) const {
  unsigned threads = getLaunchThreadsPerEU(registers);
  if (!threads)
    return 0;
  uint64_t fit = uint64_t(eusPerCore) * threads * simd;
  return static_cast<unsigned>(std::min<uint64_t>(fit, maxWorkGroupSize));
}

namespace {
struct DeviceAlias {
  llvm::StringLiteral alias;
  llvm::StringLiteral device;
};
} // namespace

// Other names the compilers accept for the same core (same IP version in
// `ocloc ids <name>`), and families that hold one device only.
static constexpr DeviceAlias kAliases[] = {
    {"dg2-g10", "acm-g10"}, {"ats-m150", "acm-g10"}, {"dg2-g11", "acm-g11"},
    {"ats-m75", "acm-g11"}, {"dg2-g12", "acm-g12"},  {"mtl-u", "mtl"},
    {"mtl-s", "mtl"},       {"mtl-m", "mtl"},        {"arl-s", "mtl"},
    {"arl-u", "mtl"},       {"mtl-p", "mtl-h"},      {"xe-lpgplus", "arl-h"},
    {"bmg-g21", "bmg"},     {"lnl-m", "lnl"},        {"xe2-lpg", "lnl"},
    {"ptl-h", "ptl"},       {"xe3p-xpc", "cri"},
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
  for (const RegisterCountInfo &count : device.registerCounts)
    counts.push_back(count.registers);
  llvm::sort(counts);
  return counts;
}

llvm::SmallVector<llvm::StringRef>
mlir::xpu::getDeviceAliases(const DeviceInfo &device) {
  llvm::SmallVector<llvm::StringRef> aliases;
  for (const DeviceAlias &alias : kAliases)
    if (alias.device == device.name)
      aliases.push_back(alias.alias);
  return aliases;
}

bool mlir::xpu::isKnownToCompiler(const DeviceInfo &device,
                                  llvm::ArrayRef<std::string> compilerDevices) {
  if (compilerDevices.empty() ||
      llvm::is_contained(compilerDevices, device.name))
    return true;
  return llvm::any_of(getDeviceAliases(device), [&](llvm::StringRef alias) {
    return llvm::is_contained(compilerDevices, alias);
  });
}

std::string mlir::xpu::describeCompilerDevices(
    llvm::ArrayRef<std::string> compilerDevices) {
  llvm::SmallVector<std::string> known;
  for (const DeviceInfo &device : kDevices) {
    if (compilerDevices.empty() || !isKnownToCompiler(device, compilerDevices))
      continue;
    std::string entry = device.name.str();
    llvm::SmallVector<llvm::StringRef> aliases = getDeviceAliases(device);
    if (!aliases.empty())
      entry += " (" + llvm::join(aliases, ", ") + ")";
    known.push_back(std::move(entry));
  }
  if (known.empty())
    return "none of this project's devices";
  return llvm::join(known, ", ");
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

std::string mlir::xpu::describeMissingRegisterCount(const DeviceInfo &device,
                                                    llvm::StringRef arch,
                                                    unsigned registers) {
  // IGC silently ignores the 256-GRF flag where there is no large mode.
  if (registers == 256)
    return llvm::formatv("arch '{0}' does not support large GRF mode (256 "
                         "registers per thread: IGC would ignore the flag and "
                         "build 128); use small, auto or default",
                         arch);
  if (registers == 512)
    return llvm::formatv("arch '{0}' does not support xlarge GRF mode (512 "
                         "registers per thread); its modes: {1} registers "
                         "(use small, large, auto or default)",
                         arch, device.getGRFModeList());
  return llvm::formatv("arch '{0}' has no {1}-register count per thread; its "
                       "counts: {2}",
                       arch, registers, device.getGRFCountList());
}

std::string mlir::xpu::describeUnsupportedSubgroupSize(const DeviceInfo &device,
                                                       llvm::StringRef arch,
                                                       int64_t size) {
  return llvm::formatv("arch '{0}' cannot run sub-group size {1}; supported: "
                       "{2} (0: none)",
                       arch, size, getSubgroupSizeList(device));
}

std::string mlir::xpu::describeUnknownDevice(llvm::StringRef name) {
  std::string message = "unknown Intel GPU arch '" + name.str() + "'";
  if (std::string suggestion = suggestDeviceName(name); !suggestion.empty())
    message += "; did you mean '" + suggestion + "'?";
  return message + "; valid archs: " + getValidDeviceNames();
}
