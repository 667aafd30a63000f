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
    background, and returns at once: they load IGC, and answer the compiler
    identity query when the cache does not hold the identity yet (a new
    cache, or `cache-dir=none`), while the modules are lowered and emitted.
    Only for a backend known without probing Level Zero (`ocloc`, or `auto`
    without a GPU render node). The IR is unchanged, and a worker that fails
    to start is the first build's error, as without this pass.

    `xpu-codegen-pipeline` runs it right after `xpu-module-cache`; a fully
    cached run starts no process. On the pipeline benchmark's 64-module cold
    run it saves about 0.05 s of 1.1 s (IGC 2.40; docs/Rationale.md).
  }];
  let options = [
    Option<"backend", "backend", "::mlir::xpu::BackendKind",
           /*default=*/"::mlir::xpu::BackendKind::Auto",
           "xpu-native-codegen's backend",
           [{::llvm::cl::values(
             clEnumValN(::mlir::xpu::BackendKind::Auto, "auto",
                        "Level Zero with a matching Intel GPU, else ocloc"),
             clEnumValN(::mlir::xpu::BackendKind::Ocloc, "ocloc",
                        "IGC through libocloc (no GPU needed)"),
             clEnumValN(::mlir::xpu::BackendKind::LevelZero, "level-zero",
                        "the Level Zero driver's compiler"))}]>,
    Option<"cacheDir", "cache-dir", "std::string", /*default=*/"\"\"",
           "xpu-native-codegen's cache-dir, where the compiler identity may "
           "be cached">,
    Option<"cacheUrl", "cache-url", "std::string", /*default=*/"\"\"",
           "xpu-native-codegen's cache-url">,
    Option<"compilerRoot", "compiler-root", "std::string",
           /*default=*/"\"\"", "xpu-native-codegen's compiler-root">,
    Option<"jobs", "jobs", "unsigned", /*default=*/"0",
           "xpu-native-codegen's jobs: workers to start (0: number of cores)">,
    Option<"timeoutMs", "timeout-ms", "uint64_t", /*default=*/"300000",
           "xpu-native-codegen's timeout-ms">,
    Option<"memoryLimitMiB", "memory-limit-mb", "uint64_t",
           /*default=*/"8192", "xpu-native-codegen's memory-limit-mb">,
  ];
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
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"backend", "backend", "::mlir::xpu::BackendKind",
           /*default=*/"::mlir::xpu::BackendKind::Auto",
           "Native compiler", [{::llvm::cl::values(
             clEnumValN(::mlir::xpu::BackendKind::Auto, "auto",
                        "Level Zero with a matching Intel GPU, else ocloc"),
             clEnumValN(::mlir::xpu::BackendKind::Ocloc, "ocloc",
                        "IGC through libocloc (no GPU needed)"),
             clEnumValN(::mlir::xpu::BackendKind::LevelZero, "level-zero",
                        "the Level Zero driver's compiler"))}]>,
    Option<"spillThreshold", "spill-threshold", "int64_t", /*default=*/"0",
           "auto: build large too when small spills more than this many "
           "bytes">,
    Option<"autoStrategy", "auto-strategy", "::mlir::xpu::AutoStrategy",
           /*default=*/"::mlir::xpu::AutoStrategy::Measure",
           "How auto is resolved", [{::llvm::cl::values(
             clEnumValN(::mlir::xpu::AutoStrategy::Measure, "measure",
                        "build small, and large when small spills"),
             clEnumValN(::mlir::xpu::AutoStrategy::IGC, "igc",
                        "one build with IGC's auto-large-GRF flag"))}]>,
    Option<"cacheDir", "cache-dir", "std::string", /*default=*/"\"\"",
           "Persistent cache directory ('none' disables; default: "
           "$XPU_CODEGEN_CACHE_DIR or ~/.cache/xpu-codegen)">,
    Option<"cacheUrl", "cache-url", "std::string", /*default=*/"\"\"",
           "Shared cache tier behind cache-dir, redis://host:port[/db] "
           "('none' disables; default: $XPU_CODEGEN_CACHE_URL); an "
           "unreachable server means local caching only">,
    Option<"compilerRoot", "compiler-root", "std::string", /*default=*/"\"\"",
           "The compiler: a directory holding an ocloc installation "
           "(libocloc.so and its IGC, optionally with its own C/C++ runtime "
           "and ld-linux-x86-64.so.2, through which workers then start), e.g. "
           "Debian sid's IGC 2.x unpacked by tools/install-compiler (default: "
           "$XPU_CODEGEN_COMPILER_ROOT, else the system's libocloc.so)">,
    Option<"jobs", "jobs", "unsigned", /*default=*/"0",
           "Worker processes compiling in parallel (0: number of cores)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every decision to this path">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark explaining each module's GRF decision">,
    Option<"validateSPIRV", "validate-spirv", "::mlir::xpu::SPIRVValidation",
           /*default=*/"::mlir::xpu::SPIRVValidation::Warn",
           "What a SPIRV-Tools rejection is", [{::llvm::cl::values(
             clEnumValN(::mlir::xpu::SPIRVValidation::Warn, "warn",
                        "a warning and a report entry; still compiled in "
                        "the isolated worker"),
             clEnumValN(::mlir::xpu::SPIRVValidation::Strict, "strict",
                        "an error for that module"),
             clEnumValN(::mlir::xpu::SPIRVValidation::Off, "off",
                        "not validated (only the worker isolation stands "
                        "between malformed SPIR-V and the host)"))}]>,
    Option<"grfMode", "grf-mode", "::mlir::xpu::GRFMode",
           /*default=*/"::mlir::xpu::GRFMode::Auto",
           "GRF mode or register count for #xevm.target objects (small, "
           "large, xlarge, auto, default; 32, 64, 96, 128, 160, 192, 256, "
           "512)", "::mlir::xpu::getGRFModeOptionValues()">,
    Option<"verifyPredictedLarge", "verify-predicted-large", "bool",
           /*default=*/"false",
           "When a module predicted large (xpu-select-grf-mode predict=true) "
           "spills in large mode, build small too and keep the lesser. Off "
           "by default: a large prediction is made only outside the "
           "uncertain band, where no calibration kernel was best in small "
           "(docs/RegisterPressure.md), so the build is saved">,
    Option<"verifyDeterminism", "verify-determinism", "bool",
           /*default=*/"false",
           "Debugging: build every module twice (a cached build is compared "
           "with a fresh one) and warn, naming the module and the differing "
           "sections, when the compiler answers differently. The first "
           "result is kept: the output does not change">,
    Option<"timeoutMs", "timeout-ms", "uint64_t", /*default=*/"300000",
           "Wall-clock limit per compile, in milliseconds (0: none)">,
    Option<"memoryLimitMiB", "memory-limit-mb", "uint64_t",
           /*default=*/"8192",
           "Address-space limit per compiler worker, in MiB (0: none)">,
    Option<"maxWorkGroupSize", "max-workgroup-size", "uint64_t",
           /*default=*/"0",
           "Work-items per work-group of kernels whose SPIR-V declares no "
           "LocalSize (0: unknown)">,
    Option<"strictLaunch", "strict-launch", "bool", /*default=*/"false",
           "A kernel whose declared work-group (LocalSize) fits no GRF mode "
           "fails its module (default: a warning; it is built and "
           "constrains nothing)">,
    Option<"nRegsDefault", "n-regs-default", "int64_t", /*default=*/"0",
           "n_regs when the build flags do not pin the GRF mode (default, "
           "IGC auto): 0 or 128">,
    Option<"cacheMaxSize", "cache-max-size", "std::string",
           /*default=*/"\"4g\"",
           "Bound of the persistent cache (bytes, or with a k, m or g "
           "suffix; 0: LLVM's default pruning only): least recently used "
           "entries are pruned beyond it">,
  ];
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
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::xevm::XeVMDialect"];
  let options = [
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"2",
           "The O of the #xevm.target (the LLVM optimization level the "
           "SPIR-V was emitted at)">,
  ];
  let statistics = [
    Statistic<"numExported", "exported", "Objects rewritten to #xevm.target">,
  ];
}

#endif // XPUCODEGEN_DIALECT_XPU_TRANSFORMS_NATIVECODEGENPASSES_TD
