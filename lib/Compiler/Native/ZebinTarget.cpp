//===- ZebinTarget.cpp - The device a zebin was built for -----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Reads the IntelGT notes with llvm::object's note iterator and compares
// them with what the compilers write for the device that was asked for.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/ZebinTarget.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBufferRef.h"

using namespace llvm;
using namespace mlir::xpu;

namespace {

/// The IntelGT note types IGC writes (compute-runtime's zebin format).
enum IntelGTNote : uint32_t {
  kProductFamily = 1,
  kGfxCore = 2,
  kTargetMetadata = 3,
  kIPVersion = 6,
};

struct DeviceIdsEntry {
  StringLiteral device;
  ZebinDeviceIds ids;
};

} // namespace

// Read from zebins of one kernel built with `ocloc -device <name>` by each
// compiler that knows the device (docs/Devices.md): product family,
// revision, graphics core (IGC 2.40; IGC 1.0.12504 writes 0) and IP version
// (IGC 2.40 only). Devices that share every value build the same code.
static constexpr DeviceIdsEntry kDeviceIds[] = {
    {"pvc", {0x4f7, 7, 0xc08, 0x030f0007}},
    {"pvc-sdv", {0x4f7, 0, 0xc08, 0x030f0001}},
    {"acm-g10", {0x4f6, 8, 0xc07, 0x030dc008}},
    {"acm-g11", {0x4f6, 5, 0xc07, 0x030e0005}},
    {"acm-g12", {0x4f6, 0, 0xc07, 0x030e4000}},
    {"tgllp", {0x1d, 0, 0x12, 0x03000000}},
    {"rkl", {0x1e, 0, 0x12, 0x03004000}},
    {"adl-s", {0x1f, 0, 0x12, 0x03008000}},
    {"adl-p", {0x20, 0, 0x12, 0x0300c000}},
    {"adl-n", {0x21, 0, 0x12, 0x03010000}},
    {"dg1", {0x4ba, 0, 0x12, 0x03028000}},
    {"icllp", {0x1a, 0, 0, 0}},
    {"lkf", {0x1b, 0, 0, 0}},
    {"ehl", {0x1c, 0, 0, 0}},
    {"jsl", {0x1c, 0, 0, 0}},
    {"skl", {0x12, 9, 0, 0}},
    {"kbl", {0x13, 9, 0, 0}},
    {"cfl", {0x14, 9, 0, 0}},
    {"apl", {0x16, 0, 0, 0}},
    {"bxt", {0x16, 0, 0, 0}},
    {"glk", {0x17, 0, 0, 0}},
    {"whl", {0x14, 0, 0, 0}},
    {"aml", {0x13, 0, 0, 0}},
    {"cml", {0x14, 0, 0, 0}},
    {"bdw", {0x10, 0, 0, 0}},
    {"mtl", {0x4f8, 0, 0xc07, 0x03118004}},
    {"mtl-h", {0x4f8, 0, 0xc07, 0x0311c004}},
    {"arl-h", {0x4f9, 0, 0xc07, 0x03128004}},
    {"bmg", {0x4fa, 0, 0xc09, 0x05004000}},
    {"bmg-g31", {0x4fa, 0, 0xc09, 0x05008000}},
    {"lnl", {0x4fb, 4, 0xc09, 0x05010004}},
    {"ptl", {0x514, 4, 0x1e00, 0x07800004}},
    {"ptl-u", {0x514, 4, 0x1e00, 0x07804000}},
    {"cri", {0x564, 0, 0x2300, 0x08c2c000}},
};

/// The revision field of an IP version: the stepping of the GPU.
static constexpr uint32_t kIPRevisionMask = 0x3f;

std::optional<ZebinDeviceIds> mlir::xpu::getZebinDeviceIds(StringRef device) {
  const auto *it = find_if(kDeviceIds, [&](const DeviceIdsEntry &entry) {
    return entry.device == device;
  });
  if (it == std::end(kDeviceIds))
    return std::nullopt;
  return it->ids;
}

/// Records one IntelGT note in `target`; other owners and types are ignored.
static void readNote(const object::ELF64LE::Note &note, ZebinTarget &target) {
  ArrayRef<uint8_t> desc = note.getDesc(/*Align=*/4);
  if (note.getName() != "IntelGT" || desc.size() != 4)
    return;
  uint32_t value = support::endian::read32le(desc.data());
  switch (note.getType()) {
  case kProductFamily:
    target.productFamily = value;
    break;
  case kGfxCore:
    target.gfxCore = value;
    break;
  case kTargetMetadata:
    // minHwRevisionId is bits 8-12, maxHwRevisionId bits 16-20.
    target.minRevision = (value >> 8) & 0x1f;
    target.maxRevision = (value >> 16) & 0x1f;
    break;
  case kIPVersion:
    target.ipVersion = value;
    break;
  default:
    break;
  }
}

Expected<ZebinTarget> mlir::xpu::readZebinTarget(StringRef binary) {
  ZebinTarget target;
  Error error = forEachZebinSection(
      binary,
      [&](const object::ELF64LEFile &elf, const object::ELF64LE::Shdr &section,
          StringRef name) -> Error {
        if (section.sh_type != ELF::SHT_NOTE || name != ".note.intelgt.compat")
          return Error::success();
        Error notesError = Error::success();
        for (const object::ELF64LE::Note &note : elf.notes(section, notesError))
          readNote(note, target);
        return notesError;
      });
  if (error)
    return std::move(error);
  return target;
}

static std::string hex(uint32_t value) { return formatv("{0:x}", value).str(); }

Error mlir::xpu::checkZebinDevice(StringRef binary, const DeviceInfo &device,
                                  bool exactRevision) {
  auto mismatch = [&](StringRef what, const Twine &found,
                      const Twine &expected) {
    return createStringError(
        formatv("the binary is not for device '{0}': its {1} is {2}, the "
                "device's is {3} (a stale or foreign binary)",
                device.name, what, found.str(), expected.str())
            .str());
  };
  std::optional<ZebinDeviceIds> ids = getZebinDeviceIds(device.name);
  if (!ids)
    return Error::success();
  Expected<ZebinTarget> target = readZebinTarget(binary);
  if (!target)
    return createStringError("the binary's target notes are unreadable: " +
                             toString(target.takeError()));
  if (!target->productFamily)
    return createStringError(
        formatv("the binary does not say which device it is for (no IntelGT "
                "product family note); device '{0}' was asked for",
                device.name)
            .str());
  if (*target->productFamily != ids->productFamily)
    return mismatch("product family", hex(*target->productFamily),
                    hex(ids->productFamily));
  if (target->gfxCore && ids->gfxCore && target->gfxCore != ids->gfxCore)
    return mismatch("graphics core", hex(target->gfxCore), hex(ids->gfxCore));
  if (target->ipVersion && ids->ipVersion) {
    uint32_t mask = exactRevision ? ~0u : ~kIPRevisionMask;
    if ((*target->ipVersion & mask) != (ids->ipVersion & mask))
      return mismatch("IP version", hex(*target->ipVersion),
                      hex(ids->ipVersion));
  }
  if (exactRevision && target->minRevision &&
      (ids->revision < *target->minRevision ||
       ids->revision > *target->maxRevision))
    return mismatch("hardware revision range",
                    Twine(*target->minRevision) + "-" +
                        Twine(*target->maxRevision),
                    Twine(ids->revision));
  return Error::success();
}
