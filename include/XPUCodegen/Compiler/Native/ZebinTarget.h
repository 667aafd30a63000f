//===- ZebinTarget.h - The device a zebin was built for ---------*- C++ -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// IGC writes the device a zebin is for into its `.note.intelgt.compat`
// section (owner "IntelGT"): the product family, the graphics core, the
// hardware revisions and, from IGC 2.x on, the device's IP version. A binary
// is only kept for the device that was asked for; docs/Devices.md lists what
// each compiler writes for each device.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_COMPILER_NATIVE_ZEBINTARGET_H
#define XPUCODEGEN_COMPILER_NATIVE_ZEBINTARGET_H

#include "XPUCodegen/Device/DeviceTable.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace mlir::xpu {

/// What a zebin's `.note.intelgt.compat` notes say about its device.
struct ZebinTarget {
  /// Note 1: IGC's PRODUCT_FAMILY (e.g. 1271 for pvc).
  std::optional<uint32_t> productFamily;
  /// Note 2: the GFXCORE_FAMILY; IGC 1.0.12504 writes 0.
  uint32_t gfxCore = 0;
  /// Note 3 (target metadata): the hardware revisions the code is for.
  std::optional<uint32_t> minRevision, maxRevision;
  /// Note 6, IGC 2.x only: the device's IP version (architecture << 22 |
  /// release << 14 | revision), as `ocloc ids` prints it.
  std::optional<uint32_t> ipVersion;
};

/// What the compilers write for one device (measured with IGC 1.0.12504 and
/// IGC 2.40 on every device of the table; 0 where a compiler that knows the
/// device writes none).
struct ZebinDeviceIds {
  uint32_t productFamily = 0;
  uint32_t revision = 0;
  uint32_t gfxCore = 0;
  uint32_t ipVersion = 0;
};

/// The IDs of `device` (by its canonical name); std::nullopt when unknown.
std::optional<ZebinDeviceIds> getZebinDeviceIds(llvm::StringRef device);

/// Reads the target notes of `binary`; an ELF file that cannot be read is
/// an error. A zebin without the notes gives an empty ZebinTarget.
llvm::Expected<ZebinTarget> readZebinTarget(llvm::StringRef binary);

/// Checks that `binary` was built for `device`: its product family is the
/// device's, and so are its graphics core and IP version where it names
/// them. `exactRevision` also checks the hardware revision (ocloc builds for
/// the table's revision; a Level Zero driver builds for the revision of the
/// GPU present, which may be any). A mismatch is an error naming both.
llvm::Error checkZebinDevice(llvm::StringRef binary, const DeviceInfo &device,
                             bool exactRevision);

} // namespace mlir::xpu

#endif // XPUCODEGEN_COMPILER_NATIVE_ZEBINTARGET_H
