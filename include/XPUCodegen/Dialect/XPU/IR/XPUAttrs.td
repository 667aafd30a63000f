//===- XPUAttrs.td - XPU attribute definitions -------------*- tablegen -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_TD
#define XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_TD

include "XPUCodegen/Dialect/XPU/IR/XPUDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// GRF mode
//===----------------------------------------------------------------------===//

def XPU_GRFModeSmall : I32EnumAttrCase<"Small", 0, "small">;
def XPU_GRFModeLarge : I32EnumAttrCase<"Large", 1, "large">;
def XPU_GRFModeAuto : I32EnumAttrCase<"Auto", 2, "auto">;
def XPU_GRFModeDefault : I32EnumAttrCase<"Default", 3, "default">;
def XPU_GRFModeXLarge : I32EnumAttrCase<"XLarge", 4, "xlarge">;
// Register counts of Xe3/Xe3P's variable register file that no mode flag
// names (`-ze-exp-register-file-size N`); 128, 256 and 512 are the modes.
def XPU_GRFModeRegs32 : I32EnumAttrCase<"Regs32", 5, "32">;
def XPU_GRFModeRegs64 : I32EnumAttrCase<"Regs64", 6, "64">;
def XPU_GRFModeRegs96 : I32EnumAttrCase<"Regs96", 7, "96">;
def XPU_GRFModeRegs160 : I32EnumAttrCase<"Regs160", 8, "160">;
def XPU_GRFModeRegs192 : I32EnumAttrCase<"Regs192", 9, "192">;

def XPU_GRFMode : I32EnumAttr<"GRFMode", "register file (GRF) mode of a kernel",
    [XPU_GRFModeSmall, XPU_GRFModeLarge, XPU_GRFModeAuto, XPU_GRFModeDefault,
     XPU_GRFModeXLarge, XPU_GRFModeRegs32, XPU_GRFModeRegs64,
     XPU_GRFModeRegs96, XPU_GRFModeRegs160, XPU_GRFModeRegs192]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::xpu";
  // A count is written as a number (`grf_mode = 160`), which the generated
  // keyword parser would refuse.
  let parameterParser = "::mlir::xpu::parseGRFMode($_parser)";
  let parameterPrinter = "::mlir::xpu::printGRFMode($_printer, $_self)";
}

def XPU_GRFModeAttr : EnumAttr<XPU_Dialect, XPU_GRFMode, "grf_mode"> {
  let summary = "register file (GRF) mode";
  let description = [{
    How many general registers each hardware thread gets:

    * `small`: 128 registers per thread, full occupancy
      (`-cl-intel-128-GRF-per-thread`);
    * `large`: 256 registers per thread, half the threads per vector engine
      (`-cl-intel-256-GRF-per-thread`);
    * `xlarge`: 512 registers per thread, a quarter of the threads
      (`-cl-intel-512-GRF-per-thread`); only where the device and its
      compiler have the mode (cri with IGC 2.x);
    * `auto`: decided per module by `xpu-native-codegen` from measured
      spills, climbing the device's ladder of modes (128, 256, 512 where it
      has it) only while the last build spills more than the threshold, the
      next mode spills strictly less and the work-group still fits (or by
      IGC itself with `auto-strategy=igc`);
    * `default`: no GRF flag; the device default (on Xe3 devices IGC then
      picks a register count per kernel, e.g. 160 or 192);
    * a register count, `32`, `64`, `96`, `160` or `192`: that many registers
      per thread (`-ze-exp-register-file-size N`), where the device's
      register file is variable (Xe3 `ptl`, Xe3P `cri`; docs/Devices.md).
      `auto` searches these counts on such devices.

    `128`, `256` and `512` (Triton's spellings) are `small`, `large` and
    `xlarge`, in pass options, the Python package and the IR alike.

    Example: `#xpu.grf_mode<large>`, `#xpu.grf_mode<160>`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

def XPU_TargetAttr : AttrDef<XPU_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "Intel GPU compilation target for gpu.module";
  let description = [{
    A GPU compilation target for Intel GPUs, placed in the `targets` list of
    a `gpu.module`. It implements `gpu::TargetAttrInterface`: upstream
    `gpu-module-to-binary{format=isa}` yields SPIR-V and `format=bin` native
    code (zebin) compiled by IGC.

    * `arch`: the device, one of the names or aliases the installed offline
      compiler accepts (`pvc`, `acm-g10` alias `dg2-g10`, `tgllp`, ...).
      Unknown names are rejected with the list of valid ones.
    * `grf_mode`: the requested register file mode for kernels that do not
      set their own (default `auto`), or a register count (`grf_mode = 160`).
      `large` is rejected on devices whose compiler silently ignores the
      large-GRF flag (e.g. `tgllp`), `xlarge` on devices without the
      512-register mode (all but `cri`), a count the device does not have
      (all but 128/256/512 outside Xe3 and Xe3P) likewise.
    * `subgroup_size`: the sub-group size (SIMD width) every kernel lowered
      for this target requires (`OpExecutionMode SubgroupSize`) unless the
      kernel sets `intel_reqd_sub_group_size` itself. Absent: the device's
      default (16, as upstream's XeVM path). `0`: none, IGC picks the width.
      A size the device cannot run (8 on `pvc`) is rejected.
    * `flags`: extra IGC build options appended to every build. Options
      that pin the register file or the thread count (any
      `-cl-intel-*-GRF-per-thread` / `-ze-intel-*-GRF-per-thread`,
      `-ze-opt-large-register-file`, `*-num-thread-per-eu`, IGC's auto-GRF
      flags) are rejected: `grf_mode` alone decides them.

    Example:
    ```mlir
    gpu.module @kernels [#xpu.target<arch = "pvc", grf_mode = auto>] { ... }
    gpu.module @wide [#xpu.target<arch = "pvc", grf_mode = auto,
                                  subgroup_size = 32>] { ... }
    ```
  }];
  let parameters = (ins
    StringRefParameter<"device architecture">:$arch,
    EnumParameter<XPU_GRFMode>:$grf_mode,
    OptionalParameter<"::std::optional<unsigned>",
                      "required sub-group size (0: none)">:$subgroup_size,
    StringRefParameter<"extra native compiler build options", "\"\"">:$flags
  );
  // grf_mode has no default: the mode is the point of the target.
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::StringRef":$arch,
                     CArg<"::mlir::xpu::GRFMode",
                          "::mlir::xpu::GRFMode::Auto">:$grfMode), [{
      return $_get($_ctxt, arch, grfMode, std::nullopt, "");
    }]>
  ];
  let extraClassDeclaration = [{
    /// The sub-group size kernels of this target get unless they require
    /// their own: `subgroup_size`, else the device's default; std::nullopt
    /// for `subgroup_size = 0` (IGC picks).
    std::optional<unsigned> getEffectiveSubgroupSize() const;
  }];
}

//===----------------------------------------------------------------------===//
// Spill measurement
//===----------------------------------------------------------------------===//

def XPU_SpillAttr : AttrDef<XPU_Dialect, "Spill"> {
  let mnemonic = "spill";
  let summary = "register use and spill measured by the native compiler";
  let description = [{
    What the native compiler measured in the binary it built for a kernel, or
    for a whole module (flags apply per module: then the worst case over its
    kernels). `xpu-native-codegen` writes it as `xpu.spill` on every
    `gpu.binary` it produces, for the build it kept; the object's
    `properties` hold the same facts per kernel (`kernels`).

    * `grf_mode`: the GRF mode of the measured build, as the object's
      `properties` name it: `small`, `large`, `xlarge`, `default` (no GRF
      flag) or a register count of a variable register file (`160`); never
      `auto`, which is a request, not a build;
    * `spill_size`: bytes spilled per hardware thread (the most of any
      kernel);
    * `grf_count`: registers per thread in the binary (the most of any
      kernel); at most what `grf_mode` pins (128 for `small`, 256 for
      `large`, 512 for `xlarge`, N for a count);
    * `simd`: the SIMD width the kernel was compiled for (the narrowest of
      any kernel: IGC narrows a kernel that would overflow its scratch);
    * `private_size`: bytes of private memory (private arrays) per hardware
      thread, never counted as spill (the most of any kernel); 0 when
      omitted;
    * `threads_per_eu`: hardware threads per vector engine at `grf_count`
      registers on the device (the fewest of any kernel); with `simd`, the
      lanes in flight per engine. Omitted when the device table does not
      know it.

    Example:
    ```mlir
    gpu.binary @kernels {xpu.spill = #xpu.spill<grf_mode = large,
        spill_size = 0, grf_count = 256, simd = 16, private_size = 64,
        threads_per_eu = 4>} [#gpu.object<...>]
    gpu.func @k() kernel attributes {xpu.spill = #xpu.spill<grf_mode = small,
        spill_size = 8704, grf_count = 128, simd = 16>} { ... }
    ```
  }];
  let parameters = (ins
    EnumParameter<XPU_GRFMode>:$grf_mode,
    "int64_t":$spill_size,
    "int64_t":$grf_count,
    "int64_t":$simd,
    DefaultValuedParameter<"int64_t", "0",
                           "private memory bytes per thread">:$private_size,
    OptionalParameter<"::std::optional<int64_t>",
                      "hardware threads per vector engine">:$threads_per_eu
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Register-pressure estimate
//===----------------------------------------------------------------------===//

def XPU_GRFPredictionSmall : I32EnumAttrCase<"Small", 0, "small">;
def XPU_GRFPredictionLarge : I32EnumAttrCase<"Large", 1, "large">;
def XPU_GRFPredictionUncertain : I32EnumAttrCase<"Uncertain", 2, "uncertain">;

def XPU_GRFPrediction : I32EnumAttr<"GRFPrediction",
    "GRF mode predicted from a static register-pressure estimate",
    [XPU_GRFPredictionSmall, XPU_GRFPredictionLarge,
     XPU_GRFPredictionUncertain]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::xpu";
}

def XPU_PressureAttr : AttrDef<XPU_Dialect, "Pressure"> {
  let mnemonic = "pressure";
  let summary = "static register-pressure estimate of a kernel or module";
  let description = [{
    The register-pressure estimate of `RegisterPressureAnalysis`
    (docs/RegisterPressure.md), recorded by `xpu-select-grf-mode` on every
    kernel of a module whose GRF mode resolves to `auto`, and on the module
    (the kernel with the highest pressure: build flags apply per module):

    * `live_bytes`: peak bytes live at once per lane (work-item), from MLIR's
      `Liveness` and the value types;
    * `simd`: the SIMD width assumed for the device family;
    * `small_budget`: bytes per lane of the small register file,
      `128 * grf_bytes / simd`;
    * `prediction`: `small` when the estimate is confidently under the
      small budget, `large` when confidently over it, `uncertain` between
      the calibrated bounds.

    Example: `#xpu.pressure<live_bytes = 448, simd = 32, small_budget = 256,
    prediction = large>`.
  }];
  let parameters = (ins
    "int64_t":$live_bytes,
    "int64_t":$simd,
    "int64_t":$small_budget,
    "::mlir::xpu::GRFPrediction":$prediction
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Plan for an auto module
//===----------------------------------------------------------------------===//

def XPU_AutoPlanMeasure : I32EnumAttrCase<"Measure", 0, "measure">;
def XPU_AutoPlanSmall : I32EnumAttrCase<"PredictSmall", 1, "predict_small">;
def XPU_AutoPlanLarge : I32EnumAttrCase<"PredictLarge", 2, "predict_large">;
def XPU_AutoPlanSpeculate : I32EnumAttrCase<"Speculate", 3, "speculate">;
def XPU_AutoPlanLargeUnverified
    : I32EnumAttrCase<"PredictLargeUnverified", 4, "predict_large_unverified">;

def XPU_AutoPlan : I32EnumAttr<"AutoPlan",
    "which builds xpu-native-codegen runs for an auto module",
    [XPU_AutoPlanMeasure, XPU_AutoPlanSmall, XPU_AutoPlanLarge,
     XPU_AutoPlanSpeculate, XPU_AutoPlanLargeUnverified]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::xpu";
}

def XPU_AutoPlanAttr : EnumAttr<XPU_Dialect, XPU_AutoPlan, "auto_plan"> {
  let summary = "how xpu-native-codegen resolves an auto module";
  let description = [{
    Set by `xpu-select-grf-mode{predict=true}` on a `gpu.module` whose GRF
    mode resolves to `auto` (and moved to its `gpu.binary` by
    `xpu-emit-spirv`):

    * `measure`: build small, and large when small spills (the default when
      the attribute is absent);
    * `predict_small`: the estimate is confidently under the small budget:
      build small; if it spills anyway, measurement overrides the prediction;
    * `predict_large`: confidently over: build large only, skipping the small
      build; if large spills, build small too and keep the lesser spill;
    * `speculate`: uncertain: build small and large concurrently and keep
      what measured `auto` would keep;
    * `predict_large_unverified`: `predict_large` trusted: build large only,
      even when it spills. Never written by `xpu-select-grf-mode`: it is
      what `predict_large` becomes under `xpu-native-codegen`'s
      `verify-predicted-large=false`, and the plan its report names.

    Example: `xpu.auto_plan = #xpu.auto_plan<predict_large>`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Module failure
//===----------------------------------------------------------------------===//

def XPU_FailureStageSelect : I32EnumAttrCase<"Select", 0, "select">;
def XPU_FailureStageLower : I32EnumAttrCase<"Lower", 1, "lower">;
def XPU_FailureStageEmit : I32EnumAttrCase<"Emit", 2, "emit">;
def XPU_FailureStageNative : I32EnumAttrCase<"Native", 3, "native">;

def XPU_FailureStage : I32EnumAttr<"FailureStage",
    "the stage of the flow at which a module failed",
    [XPU_FailureStageSelect, XPU_FailureStageLower, XPU_FailureStageEmit,
     XPU_FailureStageNative]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::xpu";
}

def XPU_FailureAttr : AttrDef<XPU_Dialect, "Failure"> {
  let mnemonic = "failure";
  let summary = "why and where a module failed to compile";
  let description = [{
    Written as `xpu.error` on a `gpu.module` (or the `gpu.binary` of a
    linked build) that failed, after its located error: later stages skip
    it, the other modules still compile, and `xpu-native-codegen` reports
    it with `message`.

    * `stage`: the stage that failed it: `select` (`xpu-select-grf-mode`:
      no GRF mode, or a kernel that cannot launch), `lower`
      (`xpu-lower-to-xevm`), `emit` (`xpu-emit-spirv`) or `native`
      (`xpu-native-codegen`: a linked build whose parts did not build
      alone);
    * `message`: the first error diagnosed for the module, as the report
      gives it; never empty.

    Example: `xpu.error = #xpu.failure<stage = lower,
    message = "xpu-lower-to-xevm: 'vendor.sync' has no lowering ...">`.
  }];
  let parameters = (ins
    EnumParameter<XPU_FailureStage>:$stage,
    StringRefParameter<"the module's first error">:$message
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Module cache helpers
//===----------------------------------------------------------------------===//

def XPU_ReplayedSeverityNote : I32EnumAttrCase<"Note", 0, "note">;
def XPU_ReplayedSeverityWarning : I32EnumAttrCase<"Warning", 1, "warning">;
def XPU_ReplayedSeverityError : I32EnumAttrCase<"Error", 2, "error">;
def XPU_ReplayedSeverityRemark : I32EnumAttrCase<"Remark", 3, "remark">;

def XPU_ReplayedSeverity : I32EnumAttr<"ReplayedSeverity",
    "the severity of a diagnostic a module cache hit replays",
    [XPU_ReplayedSeverityNote, XPU_ReplayedSeverityWarning,
     XPU_ReplayedSeverityError, XPU_ReplayedSeverityRemark]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::xpu";
}

def XPU_ReplayedDiagnosticAttr : AttrDef<XPU_Dialect, "ReplayedDiagnostic"> {
  let mnemonic = "replayed_diagnostic";
  let summary = "a diagnostic the run that stored a module cache entry gave";
  let description = [{
    One diagnostic `xpu-native-codegen` gave for a binary in the run that
    stored it in the module cache, which a hit gives again: `severity`
    (`note`, `warning`, `error`, `remark`) and `message`, and, for a
    diagnostic about one kernel, its `module` and `kernel` names, under
    which the hit finds that kernel's `gpu.func` in the module it replaces
    (located there, not where the storing run had it); else at the binary.

    Example: `#xpu.replayed_diagnostic<severity = warning,
    message = "xpu-native-codegen: kernel 'k' spills ...", module = "m",
    kernel = "k">`.
  }];
  let parameters = (ins
    EnumParameter<XPU_ReplayedSeverity>:$severity,
    StringRefParameter<"the diagnostic's text">:$message,
    OptionalParameter<"::mlir::StringAttr",
                      "the module the diagnostic is about">:$module,
    OptionalParameter<"::mlir::StringAttr",
                      "the kernel the diagnostic is about">:$kernel
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let builders = [
    AttrBuilder<(ins "::mlir::DiagnosticSeverity":$severity,
                     "::llvm::StringRef":$message,
                     CArg<"::llvm::StringRef", "{}">:$module,
                     CArg<"::llvm::StringRef", "{}">:$kernel)>
  ];
  let extraClassDeclaration = [{
    /// The severity to diagnose it with again.
    ::mlir::DiagnosticSeverity getDiagnosticSeverity() const;
  }];
}

def XPU_ModuleCacheHitAttr : AttrDef<XPU_Dialect, "ModuleCacheHit"> {
  let mnemonic = "module_cache_hit";
  let summary = "what a module cache hit replays for its binary";
  let description = [{
    Written as `xpu.module_cache_hit` by `xpu-module-cache` on each
    `gpu.binary` it takes from the cache, for `xpu-native-codegen`, which
    replays it and removes it:

    * `report`: the binary's report entries as the run that stored them
      wrote them, a non-empty JSON array of compiled modules' entries. The
      verifier parses it (refusing nesting deeper than 64 levels before
      LLVM's recursive parser sees it) and holds every entry to the schema
      all readers rely on (`checkReportEntry`, `ReportSchema.h`); a failed
      module's entry is refused, since the cache keeps compiled modules only;
    * `diagnostics`: the `#xpu.replayed_diagnostic`s that run gave for the
      binary, in order (warnings and remarks: a build with an error is never
      cached).

    Example (a report of one entry, abbreviated):
    `xpu.module_cache_hit = #xpu.module_cache_hit<report = "[...]",
    diagnostics = [#xpu.replayed_diagnostic<severity = warning,
    message = "...">]>`.
  }];
  let parameters = (ins
    StringRefParameter<"report entries, a JSON array of objects">:$report,
    "::mlir::ArrayAttr":$diagnostics
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The report entries (the verifier has parsed them).
    ::llvm::json::Array getReportEntries() const;
  }];
}

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_TD
