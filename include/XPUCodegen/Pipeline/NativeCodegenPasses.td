//===- NativeCodegenPasses.td - XPU native code passes -----*- tablegen -*-===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The passes after SPIR-V emission, included by Passes.td: native code
// generation with the GRF decision and the report, and the export of the
// results as #xevm.target objects.
//
//===----------------------------------------------------------------------===//

#ifndef XPUCODEGEN_DIALECT_XPU_TRANSFORMS_NATIVECODEGENPASSES_TD
#define XPUCODEGEN_DIALECT_XPU_TRANSFORMS_NATIVECODEGENPASSES_TD

include "mlir/Pass/PassBase.td"

def XPUStartWorkers : Pass<"xpu-start-workers", "::mlir::ModuleOp"> {
  let summary = "Start xpu-native-codegen's compiler workers in the background "
                "when modules are left to compile";
  let description = [{
    When a `gpu.module` with an `#xpu.target` is left to compile (not
    failed, not replaced by `xpu-module-cache`), starts the compiler workers
    that `xpu-native-codegen` with the same options will use, in the
    background (as many as `jobs` allows, but never more than the builds
    ahead: one per module and target, two for `auto`), and returns at once:
    they load IGC, and answer the compiler
    identity query when the cache does not hold the identity yet (a new
    cache, or `cache-dir=none`), while the modules are lowered and emitted.
    Only for a backend known without probing Level Zero (`ocloc`, or `auto`
    without a GPU render node). The IR is unchanged, and a worker that fails
    to start is the first build's error, as without this pass.

    `xpu-codegen-pipeline` runs it right after `xpu-module-cache`; a fully
    cached run starts no process. On the pipeline benchmark's 64-module cold
    run it saves about 0.05 s of 1.1 s (IGC 2.40; docs/Rationale.md).

    Options (xpu-native-codegen's, from the one list of
    docs/CodegenOptions.md): `backend`, `cache-dir`, `cache-url`,
    `compiler-root`, `jobs`, `timeout-ms`, `memory-limit-mb`, and the
    shared tier's `cache-password-file`, `cache-tls-ca`, `cache-tls-cert`,
    `cache-tls-key`, `cache-sign-key`, `cache-trust`.
  }];
  let statistics = [
    Statistic<"numStarted", "started", "Runs that started workers early">,
  ];
}

def XPUNativeCodegen : Pass<"xpu-native-codegen", "::mlir::ModuleOp"> {
  let summary = "Compile SPIR-V objects to native code and decide the GRF mode";
  let description = [{
    Compiles every SPIR-V object of an `#xpu.target` in every `gpu.binary`
    (from `xpu-emit-spirv`, or SPIR-V made elsewhere) to a native zebin with
    the real Intel Graphics Compiler, running in isolated worker processes.
    The GRF policy of an object is the binary's `xpu.grf_mode`, else the
    target's `grf_mode`:

    * `small`, `large`, `default`: one build; a forced mode that spills gets
      a warning.
    * `auto`: build small; if it spills more than `spill-threshold` bytes,
      build large too and keep large only if it spills strictly less.
      `auto-strategy=igc` instead passes IGC's own auto flag once and reads
      the chosen mode from the binary. An `xpu.auto_plan` on the binary
      (from `xpu-select-grf-mode{predict=true}`) changes which builds run:
      `predict_small` builds small (measurement still overrides it when it
      spills), `predict_large` builds large only (and small too when large
      spills), `speculate` builds both concurrently. On `ptl`, `ptl-u` and
      `cri` (Xe3's variable register file) `auto` instead starts from IGC's
      build without a GRF flag and searches the register counts one thread
      class at a time (`-ze-exp-register-file-size N`), keeping the least
      spill, then the most lanes per engine, then the fewest registers.

    Each object becomes `#gpu.object<#xpu.target<...>, properties = {...},
    bin = "...">` with `grf_mode`, `n_regs` (from the final flags: 128, 256,
    N for a register count, the count IGC picked when `auto` keeps its
    default build, or 0 when they do not pin the mode), `spill_size` (bytes per thread),
    `build_flags`, `backend`, `attempts`, `decision`, `decision_source`
    (`predicted`, `measured`, `speculated`, `forced` or `igc`; with the
    estimate as `estimated_live_bytes` and `prediction`) and per-kernel
    `kernels` facts (`grf_count`, `simd`, `spill_size`, `private_size`,
    `n_spills`). A module that fails (a compiler error, a crashed or runaway
    compiler, or an earlier stage's `xpu.error`) is an error at its
    `gpu.binary` carrying the cause and build log; the other modules still
    compile, and the report lists every module in input order.

    SPIR-V is checked with SPIRV-Tools per `validate-spirv`: `warn` (the
    default: a rejection is a warning and a `"validation"` report entry, and
    the module still compiles in the isolated worker), `strict` (the
    module's error) or `off`. SPIR-V made elsewhere is compiled as given,
    with its own `SubgroupSize` or none.

    Objects of upstream's `#xevm.target` (SPIR-V, or the SPIR-V assembly
    text MLIR 22 emits) are compiled as
    `#xpu.target<arch = chip, grf_mode = grf-mode>` and replaced by native
    objects with the same properties.

    No kept binary is one its device cannot launch (but see the warning
    below). The work-group of a kernel is its SPIR-V `LocalSize` (from
    `known_block_size` on a `gpu.func`, `reqd_work_group_size` in OpenCL),
    else `max-workgroup-size`. A GRF mode runs at most vector engines per
    core x threads per engine in that mode x SIMD width work-items (device
    table, docs/Devices.md; the SIMD width is the binary's): `auto` does not
    build or keep large GRF for a work-group that cannot run in it (the
    report's `workgroup_limit` says why), and a forced mode that cannot run
    it is an error at the binary. A kernel whose declared work-group
    (`LocalSize`) fits no GRF mode at all is a warning at the binary that
    names the limit: it is built (the driver refuses to launch it) and
    constrains neither its module nor the GRF mode of the kernels that share
    its binary; `strict-launch=true` makes it the module's error, as a
    work-group that only `max-workgroup-size` gives always is. A build whose
    per-thread scratch (spills and private arrays) exceeds the device's
    limit, that IGC reports as a scratch overflow, or that comes back as a
    degenerate zebin (no `.text` or `.symtab`), is out of resources: `auto`
    and `default` try large GRF (fewer spills), otherwise the module fails
    with the sizes (report `out_of_resources`).

    `n_regs` is 128 or 256 when the flags pin the mode, else
    `n-regs-default` (0, or 128 as Triton reports it).

    Options (from the one list of docs/CodegenOptions.md): `backend`,
    `spill-threshold`, `auto-strategy`, `cache-dir`, `cache-url`,
    `compiler-root`, `jobs`, `report`, `remarks`, `validate-spirv`,
    `grf-mode` (for `#xevm.target` objects), `verify-predicted-large`,
    `verify-determinism`, `timeout-ms`, `memory-limit-mb`,
    `max-workgroup-size`, `strict-launch`, `n-regs-default`,
    `cache-max-size`, and the shared tier's credentials, TLS files and
    keys (docs/Caching.md, "Team cache"): `cache-password-file`,
    `cache-tls-ca`, `cache-tls-cert`, `cache-tls-key`, `cache-sign-key`,
    `cache-trust`; each empty one is its `XPU_CODEGEN_CACHE_*` variable.
    A password in `cache-url` is left out wherever the pass options are
    printed (`--dump-pass-pipeline`, crash reproducers).
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numObjects", "objects", "SPIR-V objects compiled">,
    Statistic<"numFailed", "failed", "Objects that failed to compile">,
    Statistic<"numBuilds", "builds", "Native builds run or reused">,
    Statistic<"numSplit", "split",
              "Parts of linked modules split out into a binary of their "
              "own">,
  ];
}

def XPUExportXeVMObjects : Pass<"xpu-export-xevm-objects",
                                "::mlir::ModuleOp"> {
  let summary = "Make native objects readable by upstream tools "
                "(#xevm.target)";
  let description = [{
    Rewrites every object of an `#xpu.target` in every `gpu.binary` into an
    object of upstream's `#xevm.target`, so that stock `mlir-translate
    --mlir-to-llvmir` (which knows no `xpu` dialect) embeds the native binary
    and lowers the launches (`#gpu.select_object`). Nothing is recompiled:
    the payload (the zebin) and its format are kept.

    The target becomes `#xevm.target<O = opt-level, chip = arch, flags =
    {"cmd-options" = [...]}>`: the chip is the `#xpu.target` arch, and
    `cmd-options` are the final build flags (the GRF flag that decided the
    mode included), as `xevm-attach-target` spells them. The object keeps the
    `properties` of the output contract with builtin attributes only
    (`grf_mode` as a string) plus `xpu_target`, the original target printed.
    Outside the modules that failed (which keep their `#xpu.target` and
    `xpu.error`), no `xpu` attribute remains: an `xpu.*` attribute on an op
    whose value is one (`xpu.grf_mode`, `xpu.pressure`, ...) is dropped, its
    facts being in the properties, and any other `xpu` value becomes a string
    (a `#xpu.grf_mode` its keyword, anything else its printed form).

    `xpu-codegen-pipeline` runs it last with `host=true` or
    `xevm-objects=true`.

    Options (from the one list of docs/CodegenOptions.md): `opt-level` (the
    LLVM optimization level the SPIR-V was emitted at).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::xevm::XeVMDialect"];
  let statistics = [
    Statistic<"numExported", "exported", "Objects rewritten to #xevm.target">,
  ];
}

#endif // XPUCODEGEN_DIALECT_XPU_TRANSFORMS_NATIVECODEGENPASSES_TD
