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

def XPU_GRFMode : I32EnumAttr<"GRFMode", "register file (GRF) mode of a kernel",
    [XPU_GRFModeSmall, XPU_GRFModeLarge, XPU_GRFModeAuto, XPU_GRFModeDefault]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::xpu";
}

def XPU_GRFModeAttr : EnumAttr<XPU_Dialect, XPU_GRFMode, "grf_mode"> {
  let summary = "register file (GRF) mode";
  let description = [{
    How many general registers each hardware thread gets:

    * `small`: 128 registers per thread, full occupancy
      (`-cl-intel-128-GRF-per-thread`);
    * `large`: 256 registers per thread, half the threads per vector engine
      (`-cl-intel-256-GRF-per-thread`);
    * `auto`: decided per module by `xpu-native-codegen` from measured
      spills (or by IGC itself with `auto-strategy=igc`);
    * `default`: no GRF flag; the device default.

    Example: `#xpu.grf_mode<large>`.
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
      set their own (default `auto`). `large` is rejected on devices whose
      compiler silently ignores the large-GRF flag (e.g. `tgllp`).
    * `flags`: extra IGC build options appended to every build.

    Example:
    ```mlir
    gpu.module @kernels [#xpu.target<arch = "pvc", grf_mode = auto>] { ... }
    ```
  }];
  let parameters = (ins
    StringRefParameter<"device architecture">:$arch,
    "::mlir::xpu::GRFMode":$grf_mode,
    StringRefParameter<"extra native compiler build options", "\"\"">:$flags
  );
  // grf_mode is always spelled out: the mode is the point of the target.
  let assemblyFormat = [{
    `<` `arch` `=` $arch `,` `grf_mode` `=` $grf_mode
        (`,` `flags` `=` $flags^)? `>`
  }];
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::StringRef":$arch,
                     CArg<"::mlir::xpu::GRFMode",
                          "::mlir::xpu::GRFMode::Auto">:$grfMode), [{
      return $_get($_ctxt, arch, grfMode, "");
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Spill measurement
//===----------------------------------------------------------------------===//

def XPU_SpillAttr : AttrDef<XPU_Dialect, "Spill"> {
  let mnemonic = "spill";
  let summary = "register spill measured by the native compiler";
  let description = [{
    What the native compiler reported for a kernel or module compiled in a
    given GRF mode:

    * `grf_mode`: the mode the measured build used;
    * `spill_size`: bytes spilled per hardware thread;
    * `grf_count`: registers per thread in the native binary;
    * `simd`: the SIMD width the kernel was compiled for.

    Example: `#xpu.spill<grf_mode = small, spill_size = 8704, grf_count = 128,
    simd = 16>`.
  }];
  let parameters = (ins
    "::mlir::xpu::GRFMode":$grf_mode,
    "int64_t":$spill_size,
    "int64_t":$grf_count,
    "int64_t":$simd
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // XPUCODEGEN_DIALECT_XPU_IR_XPUATTRS_TD
