//===- DeviceTable.h - Intel GPU devices the compiler accepts ---*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The devices that the installed offline compiler (IGC 1.0.12504 through
// ocloc 22.43) accepts, with the GRF facts measured for each (see
// docs/Devices.md). Aliases resolve to one canonical device.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_TARGET_DEVICETABLE_H
#define XPUCODEGEN_TARGET_DEVICETABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::xpu {

/// One GRF (register file) mode of a device.
struct GRFModeInfo {
  /// General registers per hardware thread (the `n_regs` of the mode).
  unsigned registers;
  /// Hardware threads each vector engine runs in this mode: the register
  /// file is shared, so more registers per thread mean fewer threads.
  unsigned threadsPerEU;
};

struct DeviceInfo {
  /// Canonical device name, as passed to the compiler's `-device`.
  llvm::StringLiteral name;
  /// Device family (ocloc's family name).
  llvm::StringLiteral family;
  /// Bytes in one general register (GRF): 64 on Xe-HPC, 32 elsewhere.
  unsigned grfBytes;
  /// The GRF modes the installed compiler builds for this device, smallest
  /// first. Only modes whose flag IGC 1.0.12504 honours are listed: where
  /// it silently ignores the 256-GRF flag, asking for it is an error.
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

  /// The mode with `registers` registers per thread, or null.
  const GRFModeInfo *getGRFMode(unsigned registers) const;
  /// Whether the compiler honours the 256-GRF flag on this device.
  bool supportsLargeGRF() const { return getGRFMode(256) != nullptr; }
  /// The register counts of every mode, e.g. "128, 256".
  std::string getGRFModeList() const;

  /// Sub-group sizes (SIMD widths) a kernel may require on this device with
  /// `OpExecutionMode SubgroupSize`, ascending (the table's subgroupSizes).
  llvm::ArrayRef<unsigned> getSubgroupSizes() const { return subgroupSizes; }

  /// The sub-group size every lowered kernel gets unless it or its target
  /// asks for another: 16, as upstream's XeVM path does, on every device here.
  unsigned getDefaultSubgroupSize() const { return 16; }

  bool supportsSubgroupSize(unsigned size) const;

  /// The largest work-group a kernel compiled with `registers` registers per
  /// thread at SIMD width `simd` can run: every work-item of a work-group
  /// runs on one core at once, so at most eusPerCore x threads per EU in
  /// that mode x simd, and never more than maxWorkGroupSize. 0 when the
  /// device has no such mode.
  unsigned getMaxWorkGroupSize(unsigned registers, unsigned simd) const;
};

/// The registers per thread a binary for `device` can use: those of its GRF
/// modes (grfModes).
llvm::SmallVector<int64_t, 2> getGRFCounts(const DeviceInfo &device);

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

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_DEVICETABLE_H
