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
    (e.g. `pvc` and `acm-g10`); each yields its own object later. A module
    that names its device in `xpu.device_arch` gets a target of that arch
    instead of `arch`.

    `subgroup-size` records the sub-group size (SIMD width) the module's
    kernels require, as `subgroup_size` on the target; without it the
    device's default (16) applies when the module is lowered, and `0` asks
    for none (IGC picks).

    An unknown `arch`, `grf-mode=large` on a device without large GRF, or a
    sub-group size the device cannot run, is an error located at the module.

    Example:
    ```
    xpu-opt --xpu-attach-target="arch=pvc grf-mode=auto module=^main_"
    ```

    Options (from the one list of docs/CodegenOptions.md): `arch`,
    `grf-mode`, `module`, `flags`, `subgroup-size`.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
}

def XPUSelectGRFMode : Pass<"xpu-select-grf-mode", "::mlir::ModuleOp"> {
  let summary = "Resolve each kernel's GRF mode and split mixed-mode modules";
  let description = [{
    Resolves the GRF mode of every kernel in every `gpu.module` that has an
    `#xpu.target`, with this precedence: an `xpu.grf_mode` on the kernel,
    else one on the `gpu.module`, else the target's `grf_mode`.

    Build flags apply to a whole module, so a module whose kernels resolve to
    different modes is split into one module per mode (named
    `<module>_<mode>`; the group that follows the target keeps the original
    name). Non-kernel functions are copied into every part, and every
    `gpu.launch_func` is rewritten to the part that holds its kernel. Each
    resulting module carries its mode as `xpu.grf_mode` when it was set
    explicitly; otherwise the target's mode applies.

    A mode the target's device cannot honour (`large` on `tgllp`) is an error
    at the kernel or module that asked for it, and so is a forced `large`
    mode that a kernel's work-group (`known_block_size`) cannot run in at its
    sub-group size (docs/Devices.md: large GRF halves the threads per vector
    engine). Such an error, like every error of this pass, is its module's
    only: the module is marked `xpu.error` and the others go on.

    A kernel whose work-group cannot run in any GRF mode of the device (not
    even the smallest, which runs the most threads) is left to
    `xpu-native-codegen`, which builds it and warns (the driver refuses to
    launch it); it constrains nothing here, not even a forced mode. With
    `strict-launch=true` it is an error at the kernel instead. Its module's
    kernels share one binary, so none of them is built: the module is
    marked `xpu.error` with a message that names the kernel, lists the
    module's other kernels and says to move the kernel into a `gpu.module`
    of its own; the other modules still compile. The pass then fails unless
    `keep-going` is set (as in `xpu-codegen-pipeline`).

    Every kernel also gets its sub-group size, `intel_reqd_sub_group_size`
    (which the lowering turns into `OpExecutionMode SubgroupSize`): its own
    when it sets one, else the target's `subgroup_size`, else the device's
    default (16, as upstream's XeVM path); none for `subgroup_size = 0`. A
    size the device cannot run is an error at the kernel.

    With `predict=true`, every kernel whose mode resolves to `auto` gets a
    static register-pressure estimate, `xpu.pressure = #xpu.pressure<...>`
    (peak live bytes per lane against the small register file of the
    target's device at the kernel's sub-group size; docs/RegisterPressure.md),
    and every `auto` module gets
    the estimate of its highest-pressure kernel and an `xpu.auto_plan` for
    `xpu-native-codegen`: `predict_small` when the estimate is below
    `predict-small-below` percent of the small budget (small is built;
    measurement still overrides it when small spills), `predict_large` when
    above `predict-large-above` percent (large is built, the small build is
    skipped), else `measure`, or `speculate` with `speculative=true` (small
    and large are built concurrently). Modules with several targets, or for
    a device without large GRF, are left to measurement.

    Options besides `keep-going` (from the one list of
    docs/CodegenOptions.md): `predict`, `speculative`,
    `predict-small-below`, `predict-large-above`, `strict-launch`.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"keepGoing", "keep-going", "bool", /*default=*/"false",
           "Mark a module whose kernel cannot launch with xpu.error and "
           "succeed, so later passes still process the other modules">,
  ];
  let statistics = [
    Statistic<"numSplitModules", "split-modules",
              "Modules created by splitting mixed-mode modules">,
    Statistic<"numRewrittenLaunches", "rewritten-launches",
              "gpu.launch_func ops redirected to a split module">,
    Statistic<"numPredictedSmall", "predicted-small",
              "auto modules predicted small">,
    Statistic<"numPredictedLarge", "predicted-large",
              "auto modules predicted large">,
    Statistic<"numUncertain", "uncertain",
              "auto modules left to measurement or speculation">,
  ];
}

def XPUDedupeModules : Pass<"xpu-dedupe-modules", "::mlir::ModuleOp"> {
  let summary = "Compile gpu.module ops that are equal up to symbol names once";
  let description = [{
    Finds `#xpu.target` `gpu.module`s that are equal up to their symbol
    names (the module's and those of the functions inside, as in IREE's
    "1000 executables, 50 unique"), keeps the first of each group, rewrites
    every `gpu.launch_func` of the others to the kept module's matching
    kernel, and erases them. The kept module lists the modules it stands for
    in `xpu.duplicates`: a name, or `{module = "copy", kernels = {own =
    "kept"}}` when the copy's kernels are named differently;
    `xpu-native-codegen` reports every original module, the folded ones with
    `"deduplicated_from"` and each kernel under the copy's own name (with
    `"linked_name"`, its name in the binary, where that differs). Targets,
    GRF modes and every other attribute take part in the comparison; modules
    marked `xpu.error` are left alone. Linear in modules and launches: one
    digest per module (on the context's threads: each reads only its
    module and prints a copy), one walk over the launches.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numFolded", "folded", "Modules folded into an equal one">,
    Statistic<"numRedirected", "redirected",
              "Launches redirected to a kept module">,
  ];
}

def XPUModuleCache : Pass<"xpu-module-cache", "::mlir::ModuleOp"> {
  let summary = "Replace gpu.module ops by the native binaries a previous "
                "run cached for them, before lowering";
  let description = [{
    Looks every `#xpu.target` `gpu.module` up in the persistent compile
    cache (`cache-dir` and `cache-url`, as `xpu-native-codegen`), keyed on
    the module's canonical form (with locations only when they carry debug
    information into the binary), `pipeline-key` (what else decides the
    output: `xpu-codegen-pipeline` passes its options of role Keyed there,
    docs/CodegenOptions.md), the
    compiler identity of each target's backend, the project and LLVM
    versions and a format version.

    On a hit the module is replaced by exactly what the run that stored the
    entry produced for it: its `gpu.binary` op(s) (a kernel split into a
    binary of its own included), the `gpu.launch_func` rewrites, and its
    report entries and diagnostics, which `xpu-native-codegen` replays
    (the report says `"cache": "hit"`, `"cache_level": "module"`). Nothing
    of it is lowered, emitted or compiled: a fully warm run starts no
    process. Lookups only read the IR and run in parallel on the context's
    threads (one module's round trip to the shared tier overlaps another's
    digest and signature check), and so does the check of each entry's
    report against what `#xpu.module_cache_hit` accepts (an entry that
    fails it is a miss); modules are replaced in IR order. When
    the pass manager starts, the pass opens the cache and connects to the
    shared tier on a thread of its own, so that the passes ahead of it
    overlap the key loading and the TLS handshake.

    On a miss the module is marked with its digest
    (`xpu.module_cache_key`) and `xpu-native-codegen` stores the outcome
    once every binary derived from it compiled. The compiler identity comes
    from the cache (as the native compile reads it), so a run whose compiler
    identity is not cached yet cannot hit, and stores afterwards. Modules
    marked `xpu.error` are left alone, and failed modules are never stored.
    `cache-dir=none` disables the pass. See docs/Caching.md.

    Options besides `pipeline-key` (as xpu-native-codegen's, from the one
    list of docs/CodegenOptions.md): `backend` (for the compiler identity),
    `cache-dir`, `cache-url`, `compiler-root`, and the shared tier's
    `cache-password-file`, `cache-tls-ca`, `cache-tls-cert`,
    `cache-tls-key`, `cache-sign-key`, `cache-trust`.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"pipelineKey", "pipeline-key", "std::string", /*default=*/"\"\"",
           "What else decides the output (the options of the later passes); "
           "part of every key">,
  ];
  let statistics = [
    Statistic<"numHits", "hits", "Modules replaced from the cache">,
    Statistic<"numMisses", "misses", "Modules looked up and not found">,
  ];
}

def XPULinkModules : Pass<"xpu-link-modules", "::mlir::ModuleOp"> {
  let summary = "Link compatible gpu.module ops so they compile in one native "
                "compiler invocation";
  let description = [{
    Every native compile pays IGC's fixed cost (about 40 ms per module,
    docs/Linking.md), so many small modules compile faster as one. This pass
    merges `#xpu.target` `gpu.module`s that build with the same flags into
    one module, `xpu_linked` (made unique), placed where the first of them
    was: modules link when they list the same targets (arch, GRF mode,
    sub-group size, flags) and carry the same module attributes
    (`xpu.grf_mode`, `xpu.auto_plan`, ...), so their resolved GRF policy
    from `xpu-select-grf-mode` is the same. Modules marked `xpu.error`,
    modules with other targets, and modules already linked are left alone.

    A symbol that collides with one already in the linked module is renamed
    (`<symbol>_<module>`, made unique) together with its uses; every
    `gpu.launch_func` (and any other reference from outside) is rewritten to
    the linked module. The linked module records its parts in `xpu.linked`,
    one dictionary per original module in input order: `module` (its name),
    `kernels` (original kernel name -> name in the linked module), and, when
    present, its `duplicates` (from `xpu-dedupe-modules`) and `pressure`
    (from `xpu-select-grf-mode{predict=true}`). `xpu-native-codegen` keeps
    the decisions per part: every original module gets its own report entry
    (`"linked_into"`), and with `auto` a part whose own measurement calls
    for another mode is split out of the linked build (docs/Linking.md).
    The linked module's location fuses its parts' locations, so a later
    stage that takes a part out again (`xpu-emit-spirv` when the linked
    module does not emit) reports it where it was written.
    `xpu-codegen-pipeline` runs this pass by default (`link=false` turns it
    off).

    `max-kernels` (at least 2) bounds the kernels of one linked module, so
    that one huge module does not serialize all work onto one compiler worker
    (`jobs`); modules with more kernels than that stay alone. A module built
    in a forced mode whose register-pressure estimate fills that mode's
    register file (it likely spills, and IGC then compiles its whole module
    again) links only with such modules, spread over at least two linked
    modules balanced by estimated compile cost (longest processing time
    first), so that heavy kernels compile in parallel (docs/Linking.md).

    With `check-lowering` (the default), each candidate is first lowered
    alone, on a copy, by `xpu-lower-to-xevm`'s device pipeline (with the
    same `xegpu-op-level` and `use-64bit-index`): a module that does not
    lower is not linked, so it fails alone, with its own located error, and
    the modules it would have joined still compile. Modules lowered at
    different XeGPU levels (lane-level SIMT code vs sub-group code) never
    link together.

    An `auto` module whose register-pressure estimate
    (docs/RegisterPressure.md) reaches `alone-above` percent of the small
    register file is not linked: it is likely to spill in small mode and
    need a build of its own in another mode anyway, and alone its builds
    run in parallel with the linked modules' instead of making one linked
    build long. Its decision is the same either way.

    Options besides `check-lowering` (from the one list of
    docs/CodegenOptions.md): `max-kernels` (the pipeline's
    `link-max-kernels`), `alone-above` (`link-alone-above`),
    `xegpu-op-level`, `use-64bit-index`.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"checkLowering", "check-lowering", "bool", /*default=*/"true",
           "Lower each module alone on a copy first; link only those that "
           "lower, so one that does not fails alone">,
  ];
  let statistics = [
    Statistic<"numLinkedModules", "linked-modules",
              "Linked modules created">,
    Statistic<"numParts", "parts", "Modules merged into a linked module">,
    Statistic<"numRenamed", "renamed-symbols",
              "Symbols renamed because they collided">,
    Statistic<"numNotLowering", "not-lowering",
              "Modules left unlinked because they do not lower alone">,
    Statistic<"numAlone", "alone",
              "auto modules left unlinked because they are likely to spill">,
  ];
}

def XPULowerToXeVM : Pass<"xpu-lower-to-xevm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the device code of an #xpu.target gpu.module to LLVM "
                "and XeVM";
  let description = [{
    Lowers every `gpu.module` that lists an `#xpu.target` from `gpu`,
    `arith`, `memref` (strided metadata included), `vector` (n-D, masks),
    `scf`, `affine`, `math` (to XeVM's native math where it applies) and
    `xegpu` to the LLVM and XeVM dialects, as the device half of upstream's
    `gpu-lower-to-xevm-pipeline` does, ready for `xpu-emit-spirv`.

    `xegpu-op-level` says at which granularity XeGPU ops are written:
    `workgroup` (distributed to sub-groups, blocked to instructions, then to
    lanes), `subgroup` (distributed to lanes) or `lane`. A module whose
    XeGPU ops are already distributed to lanes (SIMT: a `load_nd`/`store_nd`
    value that is one lane's 1-D share of its `tensor_desc`, a `dpas` on 1-D
    operands, a gather or scatter with a scalar mask) is lowered at `lane`,
    as upstream's pipeline lowers it there, whatever the option says; one
    that mixes such ops with sub-group-level ones is an error.

    A module whose device code is a `spirv.module` (IMEX's SPIR-V dialect
    kernels, or upstream's `convert-gpu-to-spirv` output) is left as it is
    for `xpu-emit-spirv` to serialize; every kernel declared beside it must
    be one of its entry points.

    Each module is lowered on its own, in parallel with the others. A module
    that cannot be lowered is an error located at the op that stayed
    unlowered; it is restored to its input, marked `xpu.error`, and skipped
    by the later stages while the other modules still compile. The pass
    fails unless `keep-going` is set (as `xpu-codegen-pipeline` does, whose
    `xpu-native-codegen` reports every module and then fails).

    A linked module (`xpu-link-modules`) that cannot be lowered is a
    warning instead, naming the first error: it is restored and marked the
    same way, and `xpu-unlink-failed-modules` then takes it apart so that
    each of its modules is lowered alone and only those that fail alone are
    errors (as `xpu-codegen-pipeline` does). A module already in the LLVM
    and XeVM dialects is left as it is, so running the pass again lowers
    only what the first run did not.

    Options besides `keep-going` (from the one list of
    docs/CodegenOptions.md): `xegpu-op-level`, `use-64bit-index`.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"keepGoing", "keep-going", "bool", /*default=*/"false",
           "Mark a module that fails with xpu.error and succeed, so later "
           "passes still process the other modules">,
  ];
  let statistics = [
    Statistic<"numLowered", "lowered", "Modules lowered">,
    Statistic<"numFailed", "failed", "Modules that failed to lower">,
  ];
}

def XPUUnlinkFailedModules
    : Pass<"xpu-unlink-failed-modules", "::mlir::ModuleOp"> {
  let summary = "Take linked modules that failed a stage apart again";
  let description = [{
    Replaces every linked `gpu.module` (one with `xpu.linked`) that an
    earlier stage marked `xpu.error` by its original modules, unmarked: each
    gets its name, kernels (under their original names), location,
    targets and attributes back, and launches are redirected to it. The
    stages that follow then process each module alone, so a module that
    fails is that module's error and the others still compile.

    `xpu-codegen-pipeline` links optimistically (`xpu-link-modules` without
    `check-lowering`) and runs this pass after `xpu-lower-to-xevm`, then
    lowers the modules that came back: a module that does not lower costs
    its group one more lowering instead of every module a lowering on a
    copy, and a warm run, which lowers nothing, pays nothing for it.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numUnlinked", "unlinked-modules",
              "Linked modules taken apart">,
    Statistic<"numParts", "parts", "Original modules restored">,
  ];
}

def XPUEmitSPIRV : Pass<"xpu-emit-spirv", "::mlir::ModuleOp"> {
  let summary = "Serialize #xpu.target gpu.module ops to SPIR-V gpu.binary ops";
  let description = [{
    Replaces every `gpu.module` that lists `#xpu.target`s by a `gpu.binary`
    of the same name holding one SPIR-V object per target. A module in the
    LLVM dialect goes through LLVM's SPIR-V backend; a module holding a
    `spirv.module` goes through MLIR's serializer and is kept as written.
    Every kernel of an LLVM-dialect module gets its required sub-group size
    (`intel_reqd_sub_group_size`, emitted as `OpExecutionMode SubgroupSize`):
    its own, else the target's `subgroup_size`, else the device's default.

    The SPIR-V is checked with SPIRV-Tools per `validate-spirv`: `warn` (a
    rejection is a warning; SPIRV-Tools 2023.1 rejects SPIR-V that IGC
    compiles), `strict` (an error) or `off`.
    The module's `xpu.grf_mode`, `xpu.pressure` and `xpu.auto_plan` move to
    the binary. Modules without an `#xpu.target`, and modules an earlier
    stage marked `xpu.error`, are left alone; mixing `#xpu.target` with
    other targets is an error (use `gpu-module-to-binary` for those).

    A module that cannot be emitted is an error at the module; it stays a
    `gpu.module` marked `xpu.error` and the others are still emitted. The
    pass then fails unless `keep-going` is set. A linked module
    (`xpu-link-modules`) that cannot be emitted is a warning: it is taken
    apart into its original modules, each emitted alone, so only the ones
    that fail alone are errors (docs/Linking.md).

    LLVM optimizes at `opt-level` first. Modules are emitted `jobs` at a
    time (0: the context's threads; a single-threaded context emits one at
    a time; LLVM's SPIR-V backend runs in `xpu-spirv-emitter` processes, one
    per concurrent emission); diagnostics come out in module order whatever
    `jobs` is.

    Options besides `keep-going` (from the one list of
    docs/CodegenOptions.md): `opt-level`, `validate-spirv`, `jobs`.
  }];
  let dependentDialects = ["::mlir::xpu::XPUDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"keepGoing", "keep-going", "bool", /*default=*/"false",
           "Mark a module that fails with xpu.error and succeed, so later "
           "passes still process the other modules">,
  ];
}

// The native half: compile to native code, decide, report, export.
include "XPUCodegen/Pipeline/NativeCodegenPasses.td"

#endif // XPUCODEGEN_DIALECT_XPU_TRANSFORMS_PASSES_TD
