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
};

/// Returns the device named `nameOrAlias`, or null when it is unknown.
const DeviceInfo *lookupDevice(llvm::StringRef nameOrAlias);

/// Returns the device whose PCI device ID (vendor 0x8086) is `pciDeviceId`,
/// or null when it is unknown.
const DeviceInfo *lookupDeviceByPCIId(uint32_t pciDeviceId);

/// All canonical devices, in the table's order.
llvm::ArrayRef<DeviceInfo> getDevices();

/// A sorted, comma-separated list of every accepted name and alias, for
/// diagnostics.
std::string getValidDeviceNames();

} // namespace mlir::xpu

#endif // XPUCODEGEN_TARGET_DEVICETABLE_H
