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
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::xpu {

struct DeviceInfo {
  /// Canonical device name, as passed to the compiler's `-device`.
  llvm::StringLiteral name;
  /// Device family (ocloc's family name).
  llvm::StringLiteral family;
  /// Bytes in one general register (GRF): 64 on Xe-HPC, 32 elsewhere.
  unsigned grfBytes;
  /// Whether the compiler honours the 256-GRF flag on this device. Where it
  /// does not, the flag is silently ignored, so asking for it is an error.
  bool supportsLargeGRF;
  /// Whether IGC's own auto-large-GRF flag has an effect on this device.
  bool supportsIGCAutoGRF;
  /// PCI device IDs of this device (vendor 0x8086), as a Level Zero driver
  /// reports them in ze_device_properties_t::deviceId. Used to match a Level
  /// Zero device to an arch; the first is what the offline Level Zero driver
  /// presents. Empty where no ID is known.
  llvm::ArrayRef<uint16_t> pciDeviceIds = {};

  /// Sub-group sizes (SIMD widths) a kernel may require on this device with
  /// `OpExecutionMode SubgroupSize`, ascending. IGC 1.0.12504 rejects 8 on
  /// Xe-HPC ("unsupported on this platform"); older cores run 8, 16 and 32.
  llvm::ArrayRef<unsigned> getSubgroupSizes() const;

  /// The sub-group size every lowered kernel gets unless it or its target
  /// asks for another: 16, as upstream's XeVM path does, on every device here.
  unsigned getDefaultSubgroupSize() const { return 16; }

  bool supportsSubgroupSize(unsigned size) const;
};

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

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_DEVICETABLE_H
