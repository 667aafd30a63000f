//===- XPUDialect.cpp - XPU dialect ---------------------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Target/Device/DeviceTable.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

/// The discardable xpu attributes describe a compiled unit (a module, a
/// binary) or a kernel; anywhere else they would be silently ignored.
static bool canCarryXPUAttrs(Operation *op) {
  return isa<gpu::GPUModuleOp, gpu::BinaryOp, FunctionOpInterface>(op);
}

/// Whether `attr` holds the parts of a linked module: an array of
/// dictionaries with a `module` name, a `kernels` dictionary of strings and
/// optionally `duplicates` (strings) and `pressure` (#xpu.pressure).
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
    if (Attribute duplicates = dict.get("duplicates")) {
      auto names = dyn_cast<ArrayAttr>(duplicates);
      if (!names || !llvm::all_of(names, llvm::IsaPred<StringAttr>))
        return false;
    }
    if (Attribute pressure = dict.get("pressure"))
      if (!isa<PressureAttr>(pressure))
        return false;
    return true;
  });
}

LogicalResult XPUDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kGRFModeAttrName && name != kDeviceArchAttrName &&
      name != kSpillAttrName && name != kPressureAttrName &&
      name != kAutoPlanAttrName && name != kErrorAttrName &&
      name != kDuplicatesAttrName && name != kModuleCacheKeyAttrName &&
      name != kModuleCacheHitAttrName && name != kSplitFromAttrName &&
      name != kLinkedAttrName && name != kLinkSourceAttrName)
    return op->emitOpError()
           << "has unknown xpu attribute '" << name << "'; expected one of '"
           << kGRFModeAttrName << "', '" << kDeviceArchAttrName << "', '"
           << kSpillAttrName << "', '" << kPressureAttrName << "', '"
           << kAutoPlanAttrName << "', '" << kErrorAttrName << "', '"
           << kDuplicatesAttrName << "', '" << kModuleCacheKeyAttrName << "', '"
           << kModuleCacheHitAttrName << "', '" << kSplitFromAttrName << "', '"
           << kLinkedAttrName << "', '" << kLinkSourceAttrName << "'";
  if (!canCarryXPUAttrs(op))
    return op->emitOpError()
           << "'" << name
           << "' only valid on gpu.module, gpu.binary and kernel functions";

  if (name == kGRFModeAttrName) {
    if (!isa<GRFModeAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a #xpu.grf_mode attribute, got "
             << attr.getValue();
    return success();
  }
  if (name == kDeviceArchAttrName) {
    auto arch = dyn_cast<StringAttr>(attr.getValue());
    if (!arch)
      return op->emitOpError()
             << "'" << name << "' must be a string naming a device, got "
             << attr.getValue();
    if (!lookupDevice(arch.getValue()))
      return op->emitOpError()
             << "'" << name << "' names unknown device '" << arch.getValue()
             << "'; valid devices: " << getValidDeviceNames();
    return success();
  }
  if (name == kPressureAttrName) {
    if (!isa<PressureAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a #xpu.pressure attribute, got "
             << attr.getValue();
    return success();
  }
  if (name == kDuplicatesAttrName) {
    auto names = dyn_cast<ArrayAttr>(attr.getValue());
    if (!names || !llvm::all_of(names, llvm::IsaPred<StringAttr>) ||
        !isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return op->emitOpError() << "'" << name
                               << "' must be an array of module names on a "
                                  "gpu.module or gpu.binary";
    return success();
  }
  if (name == kLinkedAttrName) {
    if (!isa<gpu::GPUModuleOp, gpu::BinaryOp>(op) || !isLinkedParts(attr))
      return op->emitOpError()
             << "'" << name
             << "' must be an array of {module = \"...\", kernels = "
                "{name = \"...\"}} dictionaries on a gpu.module or "
                "gpu.binary";
    return success();
  }
  if (name == kLinkSourceAttrName) {
    auto source = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!isa<gpu::GPUModuleOp>(op) || !source ||
        !source.getAs<StringAttr>("binary") ||
        !source.getAs<IntegerAttr>("opt_level"))
      return op->emitOpError() << "'" << name
                               << "' must be {binary = \"...\", opt_level = "
                                  "N} on a gpu.module";
    return success();
  }
  if (name == kErrorAttrName || name == kModuleCacheKeyAttrName ||
      name == kModuleCacheHitAttrName || name == kSplitFromAttrName) {
    if (!isa<StringAttr>(attr.getValue()) ||
        !isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return op->emitOpError() << "'" << name
                               << "' must be a string on a gpu.module or "
                                  "gpu.binary";
    return success();
  }
  if (name == kAutoPlanAttrName) {
    if (!isa<AutoPlanAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a #xpu.auto_plan attribute, got "
             << attr.getValue();
    // The plan says how to resolve `auto`: it means nothing on a kernel.
    if (!isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return op->emitOpError()
             << "'" << name << "' only valid on gpu.module and gpu.binary";
    return success();
  }
  if (!isa<SpillAttr>(attr.getValue()))
    return op->emitOpError()
           << "'" << name << "' must be a #xpu.spill attribute, got "
           << attr.getValue();
  return success();
}
