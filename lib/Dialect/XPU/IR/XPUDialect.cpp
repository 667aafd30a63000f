//===- XPUDialect.cpp - XPU dialect ---------------------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::xpu;

#include "XPUCodegen/Dialect/XPU/IR/XPUOpsDialect.cpp.inc"

void XPUDialect::initialize() {
  registerAttributes();
  // The gpu::TargetAttrInterface model lives in the Target library; promising
  // it turns a missing registration into a clear error instead of a silent
  // "not a target" from gpu-module-to-binary.
  declarePromisedInterface<gpu::TargetAttrInterface, TargetAttr>();
}

std::optional<DuplicateModule>
mlir::xpu::readDuplicateModule(Attribute record) {
  auto isName = [](Attribute attr) {
    auto name = dyn_cast_or_null<StringAttr>(attr);
    return name && !name.empty();
  };
  if (isName(record))
    return DuplicateModule{cast<StringAttr>(record), {}};
  auto dict = dyn_cast<DictionaryAttr>(record);
  if (!dict || dict.size() != 2 || !isName(dict.get("module")))
    return std::nullopt;
  auto kernels = dict.getAs<DictionaryAttr>("kernels");
  if (!kernels || kernels.empty())
    return std::nullopt;
  DuplicateModule duplicate{dict.getAs<StringAttr>("module"), {}};
  for (NamedAttribute kernel : kernels) {
    if (kernel.getName().empty() || !isName(kernel.getValue()))
      return std::nullopt;
    duplicate.renamedKernels.emplace_back(kernel.getName(),
                                          cast<StringAttr>(kernel.getValue()));
  }
  return duplicate;
}

/// Whether `attr` is an `xpu.duplicates` array.
static bool isDuplicateRecords(Attribute attr) {
  auto records = dyn_cast<ArrayAttr>(attr);
  return records && llvm::all_of(records, [](Attribute record) {
           return readDuplicateModule(record).has_value();
         });
}

/// The discardable xpu attributes describe a compiled unit (a module, a
/// binary) or a kernel; anywhere else they would be silently ignored.
static bool canCarryXPUAttrs(Operation *op) {
  return isa<gpu::GPUModuleOp, gpu::BinaryOp, FunctionOpInterface>(op);
}

/// Whether `attr` holds the parts of a linked module: an array of
/// dictionaries with a `module` name, a `kernels` dictionary of strings and
/// optionally `duplicates` (as `xpu.duplicates`) and `pressure`
/// (#xpu.pressure).
static bool isLinkedParts(NamedAttribute attr) {
  auto parts = dyn_cast<ArrayAttr>(attr.getValue());
  if (!parts || parts.empty())
    return false;
  return llvm::all_of(parts, [](Attribute part) {
    auto dict = dyn_cast<DictionaryAttr>(part);
    if (!dict || !dict.getAs<StringAttr>("module"))
      return false;
    auto kernels = dict.getAs<DictionaryAttr>("kernels");
    if (!kernels || !llvm::all_of(kernels, [](NamedAttribute kernel) {
          return isa<StringAttr>(kernel.getValue());
        }))
      return false;
    if (Attribute duplicates = dict.get("duplicates"))
      if (!isDuplicateRecords(duplicates))
        return false;
    if (Attribute pressure = dict.get("pressure"))
      if (!isa<PressureAttr>(pressure))
        return false;
    return true;
  });
}

/// Every discardable attribute the dialect defines, in the order the
/// unknown-attribute error lists them.
static ArrayRef<StringRef> getKnownAttrNames() {
  static const StringRef names[] = {
      XPUDialect::kGRFModeAttrName,        XPUDialect::kDeviceArchAttrName,
      XPUDialect::kSpillAttrName,          XPUDialect::kPressureAttrName,
      XPUDialect::kAutoPlanAttrName,       XPUDialect::kErrorAttrName,
      XPUDialect::kDuplicatesAttrName,     XPUDialect::kModuleCacheKeyAttrName,
      XPUDialect::kModuleCacheHitAttrName, XPUDialect::kSplitFromAttrName,
      XPUDialect::kLinkedAttrName,         XPUDialect::kLinkSourceAttrName};
  return names;
}

/// `attr` holds an `AttrT`, described as `what` in the error.
template <typename AttrT>
static LogicalResult verifyAttrKind(Operation *op, NamedAttribute attr,
                                    StringRef what) {
  if (isa<AttrT>(attr.getValue()))
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue() << "' must be a "
                           << what << " attribute, got " << attr.getValue();
}

static LogicalResult verifyDeviceArch(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto arch = dyn_cast<StringAttr>(attr.getValue());
  if (!arch)
    return op->emitOpError()
           << "'" << name << "' must be a string naming a device, got "
           << attr.getValue();
  // On a gpu.module it selects the device xpu-attach-target compiles it
  // for; on a kernel or a binary it is the caller's record, checked the
  // same way (DESIGN.md: verified wherever it appears).
  if (!lookupDevice(arch.getValue()))
    return op->emitOpError()
           << "'" << name << "' names unknown device '" << arch.getValue()
           << "'; valid devices: " << getValidDeviceNames();
  return success();
}

/// `attr` holds an `AttrT` (described as `what`) on a gpu.module or
/// gpu.binary: the records one pass leaves for another about a whole module.
template <typename AttrT>
static LogicalResult verifyModuleAttrKind(Operation *op, NamedAttribute attr,
                                          StringRef what) {
  if (isa<AttrT>(attr.getValue()) && isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
    return success();
  return op->emitOpError() << "'" << attr.getName().getValue() << "' must be a "
                           << what << " on a gpu.module or gpu.binary, got "
                           << attr.getValue();
}

static LogicalResult verifyAutoPlan(Operation *op, NamedAttribute attr) {
  if (failed(verifyAttrKind<AutoPlanAttr>(op, attr, "#xpu.auto_plan")))
    return failure();
  // The plan says how to resolve `auto`: it means nothing on a kernel.
  if (!isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' only valid on gpu.module and gpu.binary";
  return success();
}

/// The records the pipeline leaves on modules and binaries: duplicates,
/// linked parts and the link source.
static LogicalResult verifyModuleRecord(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool onModule = isa<gpu::GPUModuleOp, gpu::BinaryOp>(op);
  if (name == XPUDialect::kDuplicatesAttrName) {
    if (!isDuplicateRecords(attr.getValue()) || !onModule)
      return op->emitOpError()
             << "'" << name
             << "' must be an array of module names (\"name\" or {module = "
                "\"name\", kernels = {own = \"kept\"}}) on a gpu.module or "
                "gpu.binary";
    return success();
  }
  if (name == XPUDialect::kLinkedAttrName) {
    if (!onModule || !isLinkedParts(attr))
      return op->emitOpError()
             << "'" << name
             << "' must be an array of {module = \"...\", kernels = "
                "{name = \"...\"}} dictionaries on a gpu.module or "
                "gpu.binary";
    return success();
  }
  assert(name == XPUDialect::kLinkSourceAttrName && "not a module record");
  auto source = dyn_cast<DictionaryAttr>(attr.getValue());
  if (!isa<gpu::GPUModuleOp>(op) || !source ||
      !source.getAs<StringAttr>("binary") ||
      !source.getAs<IntegerAttr>("opt_level"))
    return op->emitOpError() << "'" << name
                             << "' must be {binary = \"...\", opt_level = "
                                "N} on a gpu.module";
  return success();
}

/// A module's digest as xpu-module-cache writes it: SHA-256 in lowercase
/// hex.
static bool isModuleDigest(Attribute attr) {
  auto digest = dyn_cast<StringAttr>(attr);
  return digest && digest.size() == 64 &&
         llvm::all_of(digest.getValue(), [](char c) {
           return llvm::isDigit(c) || (c >= 'a' && c <= 'f');
         });
}

/// The helper attributes between xpu-module-cache and xpu-native-codegen:
/// a missed module's digest, a hit's replay, a split binary's origin.
static LogicalResult verifyCacheHelper(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  bool onBinary = isa<gpu::BinaryOp>(op);
  if (name == XPUDialect::kSplitFromAttrName) {
    // An empty symbol prints as <<INVALID EMPTY SYMBOL>>, which never parses.
    auto from = dyn_cast<FlatSymbolRefAttr>(value);
    if (from && from.getValue().empty())
      return op->emitOpError() << "'" << name
                               << "' must name the binary it was split from, "
                                  "got an empty symbol (@\"\")";
    if (onBinary && from)
      return success();
    return op->emitOpError() << "'" << name
                             << "' must name the binary it was split from "
                                "(@name) on a gpu.binary, got "
                             << value;
  }
  if (name == XPUDialect::kModuleCacheHitAttrName) {
    if (onBinary && isa<ModuleCacheHitAttr>(value))
      return success();
    return op->emitOpError() << "'" << name
                             << "' must be a #xpu.module_cache_hit on a "
                                "gpu.binary, got "
                             << value;
  }
  if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op) && isModuleDigest(value))
    return success();
  return op->emitOpError() << "'" << name
                           << "' must be a module digest (SHA-256, 64 "
                              "lowercase hex digits) on a gpu.module or "
                              "gpu.binary, got "
                           << value;
}

LogicalResult XPUDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (!llvm::is_contained(getKnownAttrNames(), name)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "has unknown xpu attribute '" << name
                              << "'; expected one of ";
    llvm::interleave(
        getKnownAttrNames(),
        [&](StringRef known) { diag << "'" << known << "'"; },
        [&] { diag << ", "; });
    return diag;
  }
  if (!canCarryXPUAttrs(op))
    return op->emitOpError()
           << "'" << name
           << "' only valid on gpu.module, gpu.binary and kernel functions";
  if (name == kGRFModeAttrName)
    return verifyAttrKind<GRFModeAttr>(op, attr, "#xpu.grf_mode");
  if (name == kDeviceArchAttrName)
    return verifyDeviceArch(op, attr);
  if (name == kPressureAttrName)
    return verifyAttrKind<PressureAttr>(op, attr, "#xpu.pressure");
  if (name == kAutoPlanAttrName)
    return verifyAutoPlan(op, attr);
  if (name == kSpillAttrName)
    return verifyAttrKind<SpillAttr>(op, attr, "#xpu.spill");
  if (name == kErrorAttrName)
    return verifyModuleAttrKind<FailureAttr>(op, attr, "#xpu.failure");
  if (llvm::is_contained({kModuleCacheKeyAttrName, kModuleCacheHitAttrName,
                          kSplitFromAttrName},
                         name))
    return verifyCacheHelper(op, attr);
  return verifyModuleRecord(op, attr);
}
