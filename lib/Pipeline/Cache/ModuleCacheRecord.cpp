//===- ModuleCacheRecord.cpp - Module cache keys and records --------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// What the cache level before lowering stores, and under which key: a
// module's digest (its canonical form before lowering, with the bytes of
// its resource blobs), the key that adds the pipeline, the compiler and
// the targets, and the record's framed binary format. The pass that looks
// entries up and replays them, and the store, are in ModuleCache.cpp.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Cache/ModuleCache.h"
#include "XPUCodegen/Pipeline/CanonicalPrinting.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Support/BinaryFields.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"

using namespace mlir;
using namespace mlir::xpu;

#ifndef XPU_CODEGEN_VERSION
#error "XPU_CODEGEN_VERSION must be defined (the project version)"
#endif

/// Bump when what an entry means changes: the key's parts, the payload, or
/// how a hit is replayed.
static constexpr llvm::StringLiteral kFormatVersion = "xpu-module-v5";
/// The payload's own framing, checked on read.
static constexpr llvm::StringLiteral kPayloadMagic = "XPUMODC1";
static constexpr uint32_t kPayloadVersion = 3;

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

/// Whether a location can reach the binary: LLVM's SPIR-V backend emits
/// debug information only for locations scoped by a subprogram, which MLIR
/// carries as the metadata of a FusedLoc. Other locations only locate
/// diagnostics, which a hit emits at the current module.
static bool carriesDebugInfo(Location loc) {
  return loc
      ->walk([](Location inner) {
        auto fused = dyn_cast<FusedLoc>(inner);
        return fused && fused.getMetadata() ? WalkResult::interrupt()
                                            : WalkResult::advance();
      })
      .wasInterrupted();
}

static bool hasDebugLocations(Operation *root) {
  return root
      ->walk([](Operation *op) {
        if (carriesDebugInfo(op->getLoc()))
          return WalkResult::interrupt();
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              if (carriesDebugInfo(arg.getLoc()))
                return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

static void hashPart(llvm::SHA256 &hash, StringRef part) {
  hash.update(part);
  hash.update(ArrayRef<uint8_t>{0});
}

std::string mlir::xpu::getModuleCacheDigest(gpu::GPUModuleOp module,
                                            StringRef pipelineKey) {
  // Locations are left out unless they can become debug information in the
  // binary: a module moved by a line in its file still hits. No printing
  // flag of the command line reaches the text.
  llvm::SHA256 hash;
  hashPart(hash, "xpu-module-digest");
  hashPart(hash, printCanonicalForm(module, hasDebugLocations(module)));
  // The printed form names resource blobs (dense_resource<...>) without
  // their bytes: hash those too.
  module->walk([&](Operation *op) {
    countVisitedOps();
    auto hashResources = [&](Attribute attr) {
      if (!attr)
        return;
      attr.walk([&](DenseResourceElementsAttr resource) {
        DenseResourceElementsHandle handle = resource.getRawHandle();
        hashPart(hash, handle.getKey());
        if (AsmResourceBlob *blob = handle.getBlob())
          hashPart(hash,
                   StringRef(blob->getData().data(), blob->getData().size()));
      });
    };
    hashResources(op->getDiscardableAttrDictionary());
    hashResources(op->getPropertiesAsAttribute());
  });
  hashPart(hash, pipelineKey);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::optional<std::string>
mlir::xpu::getModuleCacheKey(CompileSession &session, StringRef digest,
                             ArrayRef<TargetAttr> targets) {
  if (targets.empty())
    return std::nullopt;
  llvm::SHA256 hash;
  hashPart(hash, kFormatVersion);
  hashPart(hash, XPU_CODEGEN_VERSION);
  // The lowering and SPIR-V emission are LLVM's and MLIR's.
  hashPart(hash, LLVM_VERSION_STRING);
  hashPart(hash, digest);
  for (TargetAttr target : targets) {
    const DeviceInfo *device = lookupDevice(target.getArch());
    if (!device)
      return std::nullopt;
    std::optional<CachedCompilerIdentity> identity =
        session.lookupCachedCompilerIdentity(*device);
    if (!identity)
      return std::nullopt;
    hashPart(hash, device->name);
    hashPart(hash, identity->backend);
    hashPart(hash, identity->identity);
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// Objects
//===----------------------------------------------------------------------===//

std::vector<std::string>
mlir::xpu::takeModuleCacheObjects(gpu::BinaryOp binary) {
  MLIRContext *context = binary.getContext();
  std::vector<std::string> bytes;
  SmallVector<Attribute> stubs;
  for (Attribute attr : binary.getObjects()) {
    auto object = cast<gpu::ObjectAttr>(attr);
    bytes.push_back(object.getObject().str());
    stubs.push_back(gpu::ObjectAttr::get(
        context, object.getTarget(), object.getFormat(),
        StringAttr::get(context), object.getProperties(), object.getKernels()));
  }
  binary.setObjectsAttr(ArrayAttr::get(context, stubs));
  return bytes;
}

LogicalResult
mlir::xpu::restoreModuleCacheObjects(gpu::BinaryOp binary,
                                     ArrayRef<std::string> bytes) {
  MLIRContext *context = binary.getContext();
  ArrayRef<Attribute> stubs = binary.getObjects().getValue();
  if (stubs.size() != bytes.size())
    return failure();
  SmallVector<Attribute> objects;
  for (auto [attr, object] : llvm::zip_equal(stubs, bytes)) {
    auto stub = dyn_cast<gpu::ObjectAttr>(attr);
    if (!stub || !stub.getObject().empty())
      return failure();
    objects.push_back(
        gpu::ObjectAttr::get(context, stub.getTarget(), stub.getFormat(),
                             StringAttr::get(context, object),
                             stub.getProperties(), stub.getKernels()));
  }
  binary.setObjectsAttr(ArrayAttr::get(context, objects));
  return success();
}

//===----------------------------------------------------------------------===//
// Payloads
//===----------------------------------------------------------------------===//

static llvm::Error malformed(const Twine &what) {
  return llvm::createStringError("malformed module cache entry: " + what);
}

std::string
mlir::xpu::serializeModuleCacheRecord(const ModuleCacheRecord &record) {
  BinaryFieldWriter writer;
  writer.writeRaw(kPayloadMagic);
  writer.write<uint32_t>(kPayloadVersion);
  writer.write<uint64_t>(record.binaries.size());
  for (const ModuleCacheRecord::Binary &binary : record.binaries) {
    writer.writeBytes(binary.bytecode);
    writer.write<uint64_t>(binary.objects.size());
    for (const std::string &object : binary.objects)
      writer.writeBytes(object);
    writer.writeBytes(binary.report);
    writer.write<uint64_t>(binary.diagnostics.size());
    for (const CachedDiagnostic &diagnostic : binary.diagnostics) {
      writer.write<uint8_t>(static_cast<uint8_t>(diagnostic.severity));
      writer.writeBytes(diagnostic.message);
      writer.writeBytes(diagnostic.module);
      writer.writeBytes(diagnostic.kernel);
    }
  }
  writer.write<uint64_t>(record.launches.size());
  for (const auto &[kernel, binary] : record.launches) {
    writer.writeBytes(kernel);
    writer.writeBytes(binary);
  }
  return writer.take();
}

llvm::Expected<ModuleCacheRecord>
mlir::xpu::deserializeModuleCacheRecord(StringRef payload) {
  BinaryFieldReader reader(payload);
  if (reader.readRaw(kPayloadMagic.size()) != kPayloadMagic)
    return malformed("bad magic");
  if (reader.readU32() != kPayloadVersion)
    return malformed("unknown version");
  ModuleCacheRecord record;
  // A binary takes at least 32 bytes (four lengths), an object 8, a
  // diagnostic 25, a launch 16: counts beyond what is left are refused before
  // reserving.
  uint64_t numBinaries = reader.readCount(32);
  if (reader.failed() || numBinaries == 0)
    return malformed("no binary");
  record.binaries.resize(numBinaries);
  for (ModuleCacheRecord::Binary &binary : record.binaries) {
    binary.bytecode = reader.readBytes().str();
    uint64_t numObjects = reader.readCount(8);
    for (uint64_t i = 0; i < numObjects && !reader.failed(); ++i)
      binary.objects.push_back(reader.readBytes().str());
    binary.report = reader.readBytes().str();
    uint64_t numDiagnostics = reader.readCount(25);
    for (uint64_t i = 0; i < numDiagnostics && !reader.failed(); ++i) {
      uint8_t severity = reader.readU8();
      if (severity > static_cast<uint8_t>(DiagnosticSeverity::Remark))
        return malformed("unknown diagnostic severity");
      CachedDiagnostic &diagnostic = binary.diagnostics.emplace_back();
      diagnostic.severity = DiagnosticSeverity(severity);
      diagnostic.message = reader.readBytes().str();
      diagnostic.module = reader.readBytes().str();
      diagnostic.kernel = reader.readBytes().str();
    }
  }
  uint64_t numLaunches = reader.readCount(16);
  for (uint64_t i = 0; i < numLaunches && !reader.failed(); ++i) {
    std::string kernel = reader.readBytes().str();
    record.launches.emplace_back(std::move(kernel), reader.readBytes().str());
  }
  if (!reader.atEnd())
    return malformed("truncated or trailing bytes");
  return record;
}
