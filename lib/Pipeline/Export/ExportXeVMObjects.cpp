//===- ExportXeVMObjects.cpp - Native objects for upstream tools ----------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Upstream tools (stock mlir-translate, mlir-runner) know no `xpu` dialect:
// this pass leaves them a module they can read. Every #xpu.target object of a
// gpu.binary becomes an object of upstream's #xevm.target with the same
// payload, and every other `xpu` attribute outside the failed modules becomes
// builtin (the decision stays readable in the objects' properties).
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Pipeline/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"

namespace mlir::xpu {
#define GEN_PASS_DEF_XPUEXPORTXEVMOBJECTS
#include "XPUCodegen/Pipeline/Passes.h.inc"
} // namespace mlir::xpu

using namespace mlir;
using namespace mlir::xpu;

/// Whether `attr` is, or holds, an attribute of the xpu dialect.
static bool containsXPUAttr(Attribute attr) {
  bool found = false;
  attr.walk([&](Attribute element) {
    if (isa<XPUDialect>(element.getDialect()))
      found = true;
  });
  return found;
}

/// The printed form of `attr`, e.g. "#xpu.pressure<...>".
static std::string print(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

/// Build options as `xevm-attach-target cmd-options` spells them: one string
/// per option word.
static ArrayAttr getCmdOptions(Builder &builder, StringRef flags) {
  SmallVector<StringRef> words;
  flags.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return builder.getStrArrayAttr(words);
}

namespace {
struct ExportXeVMObjectsPass
    : public xpu::impl::XPUExportXeVMObjectsBase<ExportXeVMObjectsPass> {
  XPU_EXPORT_XEVM_OBJECTS_OPTIONS(XPU_DECLARE_PASS_OPTION)

  ExportXeVMObjectsPass() = default;
  /// A clone: the options are copied by the pass manager.
  ExportXeVMObjectsPass(const ExportXeVMObjectsPass &other) : Base(other) {}
  explicit ExportXeVMObjectsPass(const CodegenPipelineOptions &options) {
    XPU_EXPORT_XEVM_OBJECTS_OPTIONS(XPU_COPY_OPTION)
  }

  void runOnOperation() override {
    XPU_CHECK_PASS_OPTIONS(XPU_EXPORT_XEVM_OBJECTS_OPTIONS,
                           "xpu-export-xevm-objects")
    AttrTypeReplacer replacer;
    // Values: a GRF mode is its keyword, anything else its printed form.
    replacer.addReplacement([](Attribute attr) -> std::optional<Attribute> {
      if (!isa<XPUDialect>(attr.getDialect()))
        return std::nullopt;
      if (auto mode = dyn_cast<GRFModeAttr>(attr))
        return StringAttr::get(attr.getContext(),
                               stringifyGRFMode(mode.getValue()));
      return StringAttr::get(attr.getContext(), print(attr));
    });
    // Objects: added last, so tried first, before their target is a string.
    replacer.addReplacement(
        [&](gpu::ObjectAttr object) -> std::optional<Attribute> {
          auto target = dyn_cast<TargetAttr>(object.getTarget());
          if (!target)
            return std::nullopt;
          ++numExported;
          return exportObject(object, target);
        });

    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      countVisitedOps();
      // A module that failed keeps its #xpu.target: it was never compiled,
      // and its error says why.
      if (auto module = dyn_cast<gpu::GPUModuleOp>(op))
        if (!getXPUTargets(module).empty())
          return WalkResult::skip();
      dropXPUValuedAttrs(op);
      replacer.replaceElementsIn(op);
      return WalkResult::advance();
    });
  }

  /// The dialect verifies `xpu.*` attributes, so one whose value would
  /// become a string goes: its facts are in the objects' properties.
  static void dropXPUValuedAttrs(Operation *op) {
    for (NamedAttribute attr : llvm::to_vector(op->getDiscardableAttrs()))
      if (attr.getName().getValue().starts_with("xpu.") &&
          containsXPUAttr(attr.getValue()))
        op->removeDiscardableAttr(attr.getName());
  }

  /// `object` for upstream's #xevm.target: chip and build options from the
  /// native build (or from `target` for an object not compiled yet), the
  /// properties kept with the original target in `xpu_target`.
  Attribute exportObject(gpu::ObjectAttr object, TargetAttr target) {
    MLIRContext *context = &getContext();
    Builder builder(context);
    DictionaryAttr properties = object.getProperties();
    StringRef flags = target.getFlags();
    if (properties)
      if (auto built = properties.getAs<StringAttr>("build_flags"))
        flags = built.getValue();
    DictionaryAttr targetFlags;
    if (!flags.trim().empty())
      targetFlags = builder.getDictionaryAttr(
          builder.getNamedAttr("cmd-options", getCmdOptions(builder, flags)));
    auto xevmTarget = xevm::XeVMTargetAttr::get(
        context, optLevel, "spirv64-unknown-unknown", target.getArch(),
        targetFlags, /*linkFiles=*/nullptr);

    NamedAttrList fields(properties);
    fields.set("xpu_target", builder.getStringAttr(print(target)));
    // The properties' xpu values become builtin as the replacer walks on.
    return gpu::ObjectAttr::get(
        context, xevmTarget, object.getFormat(), object.getObject(),
        fields.getDictionary(context), object.getKernels());
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::xpu::createXPUExportXeVMObjects(const CodegenPipelineOptions &options) {
  return std::make_unique<ExportXeVMObjectsPass>(options);
}
