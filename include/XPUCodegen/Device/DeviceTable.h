//===- DeviceTable.h - Intel GPU devices the compiler accepts ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The devices that the supported offline compilers (IGC 1.0.12504 through
// ocloc 22.43, IGC 2.40 through ocloc 26.27) accept, with the GRF facts
// measured for each (see docs/Devices.md). Aliases resolve to one canonical
// device.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DEVICE_DEVICETABLE_H
#define XPUCODEGEN_DEVICE_DEVICETABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::xpu {

/// Threads per vector engine at one register count, as a driver counts them
/// for its work-group limit (DeviceInfo::launchThreads).
struct LaunchThreadsInfo {
  /// General registers per hardware thread.
  unsigned registers;
  /// Threads per engine the driver's work-group limit assumes.
  unsigned threadsPerEU;
};

/// One GRF (register file) mode of a device.
struct GRFModeInfo {
  /// General registers per hardware thread (the `n_regs` of the mode).
  unsigned registers;
  /// Hardware threads each vector engine keeps resident in this mode (the
  /// occupancy `auto` maximizes): the register file is shared, so more
  /// registers per thread mean fewer threads.
  unsigned threadsPerEU;
};

/// The compilers a device is known to (accepted as `-device` by their
/// ocloc), as measured: a bit set of these.
enum KnownCompiler : uint8_t {
  /// IGC 1.0.12504 (Debian 12's ocloc 22.43, 2022).
  kKnownToIGC1 = 1,
  /// IGC 2.40 (Debian sid's ocloc 26.27, 2026).
  kKnownToIGC2 = 2,
  kKnownToBoth = kKnownToIGC1 | kKnownToIGC2,
};

/// How a register count is asked of the compiler.
enum class RegisterCountFlag : uint8_t {
  /// The GRF mode's flag (`-cl-intel-128-GRF-per-thread` etc., grfModes).
  ModeFlag,
  /// IGC 2.x's `-ze-exp-register-file-size N`: `.ze_info` grf_count is then
  /// N. Only the counts listed here are ever asked for: any other N (224
  /// anywhere, 160 on pvc) crashes IGC 2.40 with SIGSEGV.
  RegisterFileSize,
};

/// One register count a device's compilers build, besides its GRF modes.
struct RegisterCountInfo {
  /// General registers per hardware thread.
  unsigned registers;
  /// Hardware threads each vector engine keeps resident at this count.
  unsigned threadsPerEU;
  /// How the count is asked for.
  RegisterCountFlag flag;
  /// The compilers that build it with `flag` (KnownCompiler bits).
  uint8_t builtBy;
};

struct DeviceInfo {
  /// Canonical device name, as passed to the compiler's `-device`.
  llvm::StringLiteral name;
  /// Device family (ocloc's family name).
  llvm::StringLiteral family;
  /// Bytes in one general register (GRF): 64 on Xe-HPC, 32 elsewhere.
  unsigned grfBytes;
  /// The GRF modes a flag selects on this device (the `auto` ladder),
  /// smallest first: 128, then 256 and 512 where the compiler honours their
  /// flag. Where IGC silently ignores the 256-GRF flag (Gen12LP and older)
  /// or rejects the 512-GRF one (everything but cri), asking for it is an
  /// error.
  llvm::ArrayRef<GRFModeInfo> grfModes;
  /// Whether IGC's own auto-large-GRF flag has an effect on this device.
  bool supportsIGCAutoGRF;
  /// Vector engines (EUs) per Xe-core (subslice, or dual subslice on
  /// Gen12LP): the unit one work-group runs on.
  unsigned eusPerCore;
  /// Largest work-group the device runs (Level Zero maxTotalGroupSize).
  unsigned maxWorkGroupSize;
  /// Sub-group sizes (SIMD widths) a kernel may require, ascending.
  llvm::ArrayRef<unsigned> subgroupSizes;
  /// Largest per-thread scratch space (PTSS) in bytes: a kernel whose
  /// spills and private memory need more cannot run.
  uint64_t maxScratchPerThread;
  /// PCI device IDs of this device (vendor 0x8086), as a Level Zero driver
  /// reports them in ze_device_properties_t::deviceId. Used to match a Level
  /// Zero device to an arch; the first is what the offline Level Zero driver
  /// presents. Empty where no ID is known.
  llvm::ArrayRef<uint16_t> pciDeviceIds = {};
  /// The compilers that know this device (KnownCompiler bits).
  uint8_t knownTo = kKnownToIGC1;
  /// Register counts besides grfModes that the compilers build with
  /// `-ze-exp-register-file-size` and that IGC may pick on its own without a
  /// GRF flag (Xe3's variable register file: 64, 96, 160, 192 on ptl and
  /// cri), ascending. Empty where only the grfModes were measured.
  llvm::ArrayRef<RegisterCountInfo> registerCounts = {};
  /// Where the released drivers' work-group limit assumes other threads per
  /// engine than the hardware keeps resident (cri: compute-runtime 26.27 and
  /// 26.31 count Xe3's 10/8/6/5/4 and 1 above 256 registers; the hardware
  /// keeps 8, and 4 at 512): those counts, ascending. Empty where the two
  /// agree. A different fact from threadsPerEU: it decides what launches,
  /// never what `auto` maximizes.
  llvm::ArrayRef<LaunchThreadsInfo> launchThreads = {};

  /// The mode with `registers` registers per thread, or null.
  const GRFModeInfo *getGRFMode(unsigned registers) const;
  /// Hardware threads each vector engine keeps resident for a binary with
  /// `registers` registers per thread (a mode or a variable count): the
  /// occupancy. 0 when the device has no such count.
  unsigned getThreadsPerEU(unsigned registers) const;
  /// Threads per vector engine the released drivers' work-group limit
  /// assumes at `registers` (launchThreads, else getThreadsPerEU); 0 when
  /// the device has no such count.
  unsigned getLaunchThreadsPerEU(unsigned registers) const;
  /// Whether the compiler honours the 256-GRF flag on this device.
  bool supportsLargeGRF() const { return getGRFMode(256) != nullptr; }
  /// Whether the compiler honours the 512-GRF flag on this device.
  bool supportsXLargeGRF() const { return getGRFMode(512) != nullptr; }
  /// The register counts of every mode, e.g. "128, 256".
  std::string getGRFModeList() const;
  /// Every register count a binary can have (getGRFCounts), e.g. "32, 64,
  /// 96, 128, 160, 192, 256".
  std::string getGRFCountList() const;
  /// The extra register count `registers` (registerCounts), or null.
  const RegisterCountInfo *getRegisterCount(unsigned registers) const;
  /// Whether a compiler in `compiler` (KnownCompiler bits) builds
  /// `registers` on this device when asked: a GRF mode, or a registerCounts
  /// entry it builds.
  bool buildsRegisterCount(unsigned registers, uint8_t compiler) const;
  /// Whether the register file is variable: the compiler builds counts
  /// between the GRF modes (160 and 192 on Xe3 and Xe3P) and IGC's default
  /// build picks one per kernel. Elsewhere (Xe-HPC, Xe2) only counts below
  /// the smallest mode exist besides the modes, and they gain no threads.
  bool hasVariableRegisterFile() const;
  /// The largest register count at which the released drivers accept the
  /// largest work-group (a mode, or a count a compiler that knows the device
  /// builds): where a work-group launches if it launches anywhere (128 on
  /// pvc, 96 on ptl and cri).
  unsigned getMostThreadsRegisters() const;

  /// Sub-group sizes (SIMD widths) a kernel may require on this device with
  /// `OpExecutionMode SubgroupSize`, ascending (the table's subgroupSizes).
  llvm::ArrayRef<unsigned> getSubgroupSizes() const { return subgroupSizes; }

  /// The sub-group size every lowered kernel gets unless it or its target
  /// asks for another: 16, as upstream's XeVM path does, on every device here.
  unsigned getDefaultSubgroupSize() const { return 16; }

  bool supportsSubgroupSize(unsigned size) const;

  /// The largest work-group a kernel compiled with `registers` registers per
  /// thread at SIMD width `simd` can launch: every work-item of a work-group
  /// runs on one core at once, so at most eusPerCore x the driver's threads
  /// per EU (getLaunchThreadsPerEU) x simd, and never more than
  /// maxWorkGroupSize. 0 when the device has no such register count.
  unsigned getMaxWorkGroupSize(unsigned registers, unsigned simd) const;
};

/// The registers per thread a binary for `device` can use, ascending: those
/// of its GRF modes (grfModes) and the extra counts (registerCounts).
llvm::SmallVector<int64_t, 2> getGRFCounts(const DeviceInfo &device);

/// Whether a compiler whose device list (`ocloc compile --help`'s
/// `-device` names) is `compilerDevices` knows `device`: its canonical
/// name or one of its aliases is listed. An empty list (the compiler did not
/// say, e.g. Level Zero) knows every device.
bool isKnownToCompiler(const DeviceInfo &device,
                       llvm::ArrayRef<std::string> compilerDevices);

/// The table's devices a compiler with device list `compilerDevices` knows,
/// as "name (alias, alias), ...", in table order, for diagnostics ("it
/// knows: ..."); "none of this project's devices" when it knows none.
std::string
describeCompilerDevices(llvm::ArrayRef<std::string> compilerDevices);

/// The aliases of `device` (other accepted names), in table order.
llvm::SmallVector<llvm::StringRef> getDeviceAliases(const DeviceInfo &device);

/// Returns the device named `nameOrAlias`, or null when it is unknown.
const DeviceInfo *lookupDevice(llvm::StringRef nameOrAlias);

/// Returns the device whose PCI device ID (vendor 0x8086) is `pciDeviceId`,
/// or null when it is unknown.
const DeviceInfo *lookupDeviceByPCIId(uint32_t pciDeviceId);

/// All canonical devices, in the table's order.
llvm::ArrayRef<DeviceInfo> getDevices();

/// The supported sub-group sizes of `device`, comma-separated, for
/// diagnostics.
std::string getSubgroupSizeList(const DeviceInfo &device);

/// A sorted, comma-separated list of every accepted name and alias, for
/// diagnostics.
std::string getValidDeviceNames();

/// The accepted name or alias closest to `name` (edit distance), for a "did
/// you mean" hint; empty when nothing is close.
std::string suggestDeviceName(llvm::StringRef name);

/// "unknown Intel GPU arch 'NAME'[; did you mean 'X'?]; valid archs: ...".
std::string describeUnknownDevice(llvm::StringRef name);

/// Why `device`, which the user named `arch`, has no register file of
/// `registers` per thread (256: large mode, 512: xlarge mode, another: a
/// count of a variable register file), worded once for every front end.
std::string describeMissingRegisterCount(const DeviceInfo &device,
                                         llvm::StringRef arch,
                                         unsigned registers);

/// Why `device`, named `arch`, cannot run sub-group size `size`.
std::string describeUnsupportedSubgroupSize(const DeviceInfo &device,
                                            llvm::StringRef arch, int64_t size);

} // namespace mlir::xpu

#endif // XPUCODEGEN_DEVICE_DEVICETABLE_H
