//===- Passes.td - XPU pass definitions --------------------*- tablegen -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_TRANSFORMS_PASSES_TD
#define XPUCODEGEN_DIALECT_XPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def XPUAttachTarget : Pass<"xpu-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach an #xpu.target to matching gpu.module ops";
  let description = [{
    Appends `#xpu.target<arch = ..., grf_mode = ...>` to the `targets` list of
    every `gpu.module` whose name matches `module` (a regular expression;
    empty matches all). A module that already lists an identical target is
    left alone, so the pass is idempotent. Modules may list several targets
    (e.g. `pvc` and `acm-g10`); each yields its own object later.

    An unknown `arch`, or `grf-mode=large` on a device without large GRF, is
    an error located at the module.

    Example:
    ```
    xpu-opt --xpu-attach-target="arch=pvc grf-mode=auto module=^main_"
    ```
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"pvc\"",
           "Intel GPU device architecture (e.g. pvc, acm-g10, tgllp)">,
    Option<"grfMode", "grf-mode", "::mlir::xpu::GRFMode",
           /*default=*/"::mlir::xpu::GRFMode::Auto",
           "Requested register file mode", [{::llvm::cl::values(
             clEnumValN(::mlir::xpu::GRFMode::Small, "small",
                        "128 registers per thread"),
             clEnumValN(::mlir::xpu::GRFMode::Large, "large",
                        "256 registers per thread"),
             clEnumValN(::mlir::xpu::GRFMode::Auto, "auto",
                        "decided from measured spills"),
             clEnumValN(::mlir::xpu::GRFMode::Default, "default",
                        "no GRF flag (device default)"))}]>,
    Option<"flags", "flags", "std::string", /*default=*/"\"\"",
           "Extra native compiler build options">,
    Option<"moduleMatcher", "module", "std::string", /*default=*/"\"\"",
           "Regular expression selecting gpu.module names (empty: all)">,
  ];
}

#endif // XPUCODEGEN_DIALECT_XPU_TRANSFORMS_PASSES_TD
