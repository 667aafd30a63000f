//===- XPUDialect.td - XPU dialect definition --------------*- tablegen -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_XPUDIALECT_TD
#define XPUCODEGEN_DIALECT_XPU_IR_XPUDIALECT_TD

include "mlir/IR/OpBase.td"

def XPU_Dialect : Dialect {
  let name = "xpu";
  let cppNamespace = "::mlir::xpu";
  let summary = "Intel GPU native code generation: target, GRF mode, spills";
  let description = [{
    The `xpu` dialect carries what an Intel GPU compiler must decide and
    measure when it turns a `gpu.module` into native code:

    * `#xpu.target`: the compilation target placed in a `gpu.module`'s
      `targets` list. It names the device architecture (`arch`) and the
      requested register file (GRF) mode, and implements
      `gpu::TargetAttrInterface`, so upstream `gpu-module-to-binary` can
      serialize modules with it.
    * `#xpu.grf_mode`: small (128 registers per thread), large (256 registers,
      half the threads), auto (decided by measurement) or default (no flag).
    * `#xpu.spill`: what the native compiler measured in a binary (mode,
      registers, spill, SIMD width, private memory, threads per engine).
    * `#xpu.pressure`: a static register-pressure estimate and the GRF mode
      it predicts; `#xpu.auto_plan`: which builds resolve an `auto` module.
    * `#xpu.failure`: the stage at which a module failed and its first error.
    * `#xpu.module_cache_hit`, `#xpu.replayed_diagnostic`: what a module
      cache hit replays for a binary (report entries, diagnostics).

    The discardable attributes `xpu.grf_mode`, `xpu.spill`, `xpu.pressure`
    and `xpu.auto_plan` may appear on `gpu.module`, `gpu.binary` and kernel
    functions; the dialect verifies them wherever they appear.
    `xpu.spill` is written by `xpu-native-codegen` on every `gpu.binary` it
    produces with one object: the kept build's measurement (with several
    targets each object's `properties` hold their own).
    `xpu.device_arch` (a device name or alias, verified wherever it
    appears) on a `gpu.module` selects the device the module is compiled
    for: `xpu-attach-target` gives it a target of that arch instead of its
    `arch` option. `xpu.error` (a `#xpu.failure`) marks a `gpu.module`
    that failed to select, lower or emit (or the `gpu.binary` of a linked
    build that failed): later stages skip it, the other modules still
    compile, and `xpu-native-codegen` reports it.
    `xpu.module_cache_key` (a module's SHA-256 digest in lowercase hex, on
    `gpu.module` or `gpu.binary`), `xpu.module_cache_hit` (a
    `#xpu.module_cache_hit` on `gpu.binary`) and `xpu.split_from` (a symbol
    reference on `gpu.binary`) are helper attributes between the passes of
    the flow (`xpu-module-cache`, `xpu-native-codegen`); they are verified
    like the others and do not remain in its output.
    `xpu.linked` (on a `gpu.module` or `gpu.binary` that
    `xpu-link-modules` made) lists the original modules it holds and their
    kernels' names; `xpu.link_source` marks the lowered form of a linked
    module that `xpu-emit-spirv` keeps for `xpu-native-codegen` (which
    removes it); `xpu.split_from = @linked` marks a binary
    `xpu-native-codegen` split out of the linked binary `@linked`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let extraClassDeclaration = [{
    /// Names of the discardable attributes owned by this dialect.
    static constexpr ::llvm::StringLiteral kGRFModeAttrName = "xpu.grf_mode";
    static constexpr ::llvm::StringLiteral kDeviceArchAttrName =
        "xpu.device_arch";
    static constexpr ::llvm::StringLiteral kSpillAttrName = "xpu.spill";
    static constexpr ::llvm::StringLiteral kPressureAttrName = "xpu.pressure";
    static constexpr ::llvm::StringLiteral kAutoPlanAttrName = "xpu.auto_plan";
    /// Marks a gpu.module that failed to lower or emit (#xpu.failure):
    /// later stages skip it and xpu-native-codegen reports it, while the
    /// others still compile.
    static constexpr ::llvm::StringLiteral kErrorAttrName = "xpu.error";
    /// Names of the modules xpu-dedupe-modules folded into this one (equal
    /// up to symbol names), for the report.
    static constexpr ::llvm::StringLiteral kDuplicatesAttrName =
        "xpu.duplicates";
    /// The parts of a module xpu-link-modules linked: one dictionary per
    /// original module (`module`, `kernels`, optional `duplicates` and
    /// `pressure`).
    static constexpr ::llvm::StringLiteral kLinkedAttrName = "xpu.linked";
    /// On the lowered form of a linked module that xpu-emit-spirv keeps for
    /// xpu-native-codegen to build parts alone from: `{binary = "<name>",
    /// opt_level = N}`. xpu-native-codegen removes the module.
    static constexpr ::llvm::StringLiteral kLinkSourceAttrName =
        "xpu.link_source";
    /// Helper attributes of the module cache (xpu-module-cache), gone from
    /// the final IR: the digest of a module that missed, carried to its
    /// binary so xpu-native-codegen stores the outcome; and on a binary a
    /// hit replayed, the report entries and diagnostics to replay
    /// (#xpu.module_cache_hit).
    static constexpr ::llvm::StringLiteral kModuleCacheKeyAttrName =
        "xpu.module_cache_key";
    static constexpr ::llvm::StringLiteral kModuleCacheHitAttrName =
        "xpu.module_cache_hit";
    /// On a gpu.binary that xpu-native-codegen split from another one (a
    /// kernel that needs another GRF mode): that binary's symbol. A helper
    /// attribute, gone from the final IR.
    static constexpr ::llvm::StringLiteral kSplitFromAttrName =
        "xpu.split_from";

  private:
    void registerAttributes();
  }];
}

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUDIALECT_TD
