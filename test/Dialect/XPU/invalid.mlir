// RUN: xpu-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown Intel GPU arch 'nvl'; valid archs: acm-g10, acm-g11, acm-g12, adl-n, adl-p, adl-s, aml, apl, arl-h, arl-s, arl-u, ats-m150, ats-m75, bdw, bmg, bmg-g21, bmg-g31, bxt, cfl, cml, cri, dg1, dg2-g10, dg2-g11, dg2-g12, ehl, glk, icllp, jsl, kbl, lkf, lnl, lnl-m, mtl, mtl-h, mtl-m, mtl-p, mtl-s, mtl-u, ptl, ptl-h, ptl-u, pvc, pvc-sdv, rkl, skl, tgllp, whl, xe-lpgplus, xe2-lpg, xe3p-xpc}}
gpu.module @m [#xpu.target<arch = "nvl", grf_mode = auto>] {}

// -----

// A near miss gets a suggestion.
// expected-error @+1 {{unknown Intel GPU arch 'pcv'; did you mean 'pvc'?; valid archs: acm-g10}}
gpu.module @m [#xpu.target<arch = "pcv", grf_mode = auto>] {}

// -----

// expected-error @+1 {{arch 'tgllp' does not support large GRF mode (256 registers per thread: IGC would ignore the flag and build 128)}}
gpu.module @m [#xpu.target<arch = "tgllp", grf_mode = large>] {}

// -----

// expected-error @+1 {{arch 'dg1' does not support large GRF mode}}
gpu.module @m [#xpu.target<arch = "dg1", grf_mode = large>] {}

// -----

// expected-error @+2 {{expected a GRF mode (small, large, xlarge, auto, default) or a register count (32, 64, 96, 128, 160, 192, 256, 512), got 'huge'}}
// expected-error @+1 {{failed to parse XPU_TargetAttr parameter 'grf_mode'}}
gpu.module @m [#xpu.target<arch = "pvc", grf_mode = huge>] {}

// -----

// 224 crashes IGC 2.40: no device has it, and it is never asked for.
// expected-error @+2 {{no register count 224 per thread: counts are 32, 64, 96, 128, 160, 192, 256, 512}}
// expected-error @+1 {{failed to parse XPU_TargetAttr parameter 'grf_mode'}}
gpu.module @m [#xpu.target<arch = "ptl", grf_mode = 224>] {}

// -----

// A count outside Xe3/Xe3P's variable register file.
// expected-error @+1 {{arch 'bmg' has no 160-register count per thread; its counts: 32, 64, 96, 128, 256}}
gpu.module @m [#xpu.target<arch = "bmg", grf_mode = 160>] {}

// -----

// expected-error @+2 {{no register count 4294967296 per thread}}
// expected-error @+1 {{failed to parse XPU_GRFModeAttr parameter 'value'}}
gpu.module @m attributes {xpu.grf_mode = #xpu.grf_mode<4294967296>} {}

// -----

// 0 is no count (auto and default pin none).
// expected-error @+2 {{no register count 0 per thread}}
// expected-error @+1 {{failed to parse XPU_GRFModeAttr parameter 'value'}}
gpu.module @m attributes {xpu.grf_mode = #xpu.grf_mode<0>} {}

// -----

// expected-error @+1 {{struct is missing required parameter: grf_mode}}
gpu.module @m [#xpu.target<arch = "pvc">] {}

// -----

// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse XPU_TargetAttr parameter 'arch'}}
gpu.module @m [#xpu.target<arch = pvc, grf_mode = auto>] {}

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
gpu.module @m [#xpu.target<arch = "pvc", grf_mode = auto] {}

// -----

// expected-error @+2 {{expected a GRF mode (small, large, xlarge, auto, default) or a register count (32, 64, 96, 128, 160, 192, 256, 512), got 'medium'}}
// expected-error @+1 {{failed to parse XPU_GRFModeAttr parameter 'value'}}
gpu.module @m attributes {xpu.grf_mode = #xpu.grf_mode<medium>} {}

// -----

// expected-error @+1 {{'xpu.grf_mode' must be a #xpu.grf_mode attribute, got "large"}}
gpu.module @m attributes {xpu.grf_mode = "large"} {}

// -----

// expected-error @+1 {{'xpu.device_arch' names unknown device 'xe2'; valid devices: acm-g10}}
gpu.module @m attributes {xpu.device_arch = "xe2"} {}

// -----

// expected-error @+1 {{'xpu.device_arch' must be a string naming a device, got 12 : i64}}
gpu.module @m attributes {xpu.device_arch = 12} {}

// -----

// A kernel's or a binary's record is checked as a module's is.
gpu.module @m {
  // expected-error @+1 {{'xpu.device_arch' names unknown device 'xe9'}}
  gpu.func @k() kernel attributes {xpu.device_arch = "xe9"} {
    gpu.return
  }
}

// -----

// expected-error @+1 {{'xpu.spill' must be a #xpu.spill attribute, got 136 : i64}}
gpu.module @m attributes {xpu.spill = 136} {}

// -----

// expected-error @+1 {{spill_size must be >= 0 bytes, got -1}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = small, spill_size = -1, grf_count = 128, simd = 16>} {}

// -----

// expected-error @+1 {{simd must be 1, 8, 16 or 32, got 12}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 128, simd = 12>} {}

// -----

// expected-error @+1 {{grf_count must be in [1, 512], got 0}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 0, simd = 16>} {}

// -----

// expected-error @+1 {{a spill measurement needs the GRF mode the build used, not 'auto'}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = auto, spill_size = 0, grf_count = 128, simd = 16>} {}

// -----

// expected-error @+1 {{grf_count 256 exceeds the 128 registers of GRF mode 'small'}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 256, simd = 16>} {}

// -----

// expected-error @+1 {{grf_count 192 exceeds the 160 registers of GRF mode '160'}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = 160, spill_size = 0, grf_count = 192, simd = 16>} {}

// -----

// expected-error @+1 {{private_size must be >= 0 bytes, got -8}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = large, spill_size = 0, grf_count = 256, simd = 16, private_size = -8>} {}

// -----

// expected-error @+1 {{threads_per_eu must be in [1, 16], got 0}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = default, spill_size = 0, grf_count = 160, simd = 16, threads_per_eu = 0>} {}

// -----

// expected-error @+1 {{struct is missing required parameter: simd}}
gpu.module @m attributes {xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 128>} {}

// -----

// expected-error @+1 {{'xpu.grf_mode' only valid on gpu.module, gpu.binary and kernel functions}}
module attributes {xpu.grf_mode = #xpu.grf_mode<small>} {}

// -----

// expected-error @+1 {{has unknown xpu attribute 'xpu.grf'; expected one of 'xpu.grf_mode', 'xpu.device_arch', 'xpu.spill', 'xpu.pressure', 'xpu.auto_plan'}}
gpu.module @m attributes {xpu.grf = #xpu.grf_mode<small>} {}

// -----

gpu.module @m {
  // expected-error @+1 {{'xpu.grf_mode' must be a #xpu.grf_mode attribute, got 256 : i64}}
  gpu.func @k() kernel attributes {xpu.grf_mode = 256} {
    gpu.return
  }
}

// -----

// expected-error @+1 {{unknown attribute `grf` in dialect `xpu`}}
gpu.module @m attributes {xpu.grf_mode = #xpu.grf<small>} {}

// -----

// Build options that pin the register file or the thread count would make
// the reported GRF mode wrong: the mode alone decides them.
// expected-error @+1 {{build option '-ze-intel-256-GRF-per-thread' pins the register file or the thread count}}
gpu.module @m [#xpu.target<arch = "pvc", grf_mode = small, flags = "-O2 -ze-intel-256-GRF-per-thread">] {}

// -----

// expected-error @+1 {{build option '-cl-intel-num-thread-per-eu' pins the register file or the thread count}}
gpu.module @m [#xpu.target<arch = "pvc", grf_mode = auto, flags = "-cl-intel-num-thread-per-eu 4">] {}

// -----

// A required thread count pins the register count with it (compute-runtime
// 26.14+ refuses the module when the two disagree).
// expected-error @+1 {{build option '-cl-intel-reqd-eu-thread-count=4' pins the register file or the thread count}}
gpu.module @m [#xpu.target<arch = "bmg", grf_mode = auto, flags = "-cl-intel-reqd-eu-thread-count=4">] {}

// -----

// expected-error @+1 {{build option '-ze-opt-large-register-file' pins}}
gpu.module @m [#xpu.target<arch = "pvc", grf_mode = default, flags = "-ze-opt-large-register-file">] {}

// -----

// A failed module's mark is typed: the stage and the message.
// expected-error @+1 {{'xpu.error' must be a #xpu.failure on a gpu.module or gpu.binary, got "lowering failed"}}
gpu.module @m attributes {xpu.error = "lowering failed"} {}

// -----

gpu.module @m {
  // expected-error @+1 {{'xpu.error' must be a #xpu.failure on a gpu.module or gpu.binary, got #xpu.failure<stage = lower, message = "x">}}
  gpu.func @k() kernel attributes {xpu.error = #xpu.failure<stage = lower, message = "x">} {
    gpu.return
  }
}

// -----

// expected-error @+1 {{a module failure needs a message}}
gpu.module @m attributes {xpu.error = #xpu.failure<stage = emit, message = " ">} {}

// -----

// expected-error @+2 {{expected ::mlir::xpu::FailureStage to be one of: select, lower, emit, native}}
// expected-error @+1 {{failed to parse XPU_FailureAttr parameter 'stage'}}
gpu.module @m attributes {xpu.error = #xpu.failure<stage = link, message = "x">} {}

// -----

// A split binary names the binary it came from as a symbol.
// expected-error @+1 {{'xpu.split_from' must name the binary it was split from (@name) on a gpu.binary, got "linked"}}
gpu.binary @split {xpu.split_from = "linked"} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{'xpu.split_from' must name the binary it was split from (@name) on a gpu.binary, got @linked}}
gpu.module @m attributes {xpu.split_from = @linked} {}

// -----

// An empty symbol would print as <<INVALID EMPTY SYMBOL>>, which never parses.
// expected-error @+1 {{'xpu.split_from' must name the binary it was split from, got an empty symbol (@"")}}
gpu.binary @split {xpu.split_from = @""} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{'xpu.duplicates' must be an array of module names}}
gpu.binary @kept {xpu.duplicates = [""]} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{'xpu.duplicates' must be an array of module names}}
gpu.binary @kept {xpu.duplicates = [{module = "copy", kernels = {kern_b = 1}}]} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{'xpu.duplicates' must be an array of module names}}
gpu.binary @kept {xpu.duplicates = [{module = "copy"}]} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{'xpu.module_cache_key' must be a module digest (SHA-256, 64 lowercase hex digits) on a gpu.module or gpu.binary, got "abc"}}
gpu.module @m attributes {xpu.module_cache_key = "abc"} {}

// -----

// expected-error @+1 {{'xpu.module_cache_key' must be a module digest}}
gpu.module @m attributes {xpu.module_cache_key = "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"} {}

// -----

// expected-error @+1 {{'xpu.module_cache_hit' must be a #xpu.module_cache_hit on a gpu.binary, got "{\22report\22: [], \22diagnostics\22: []}"}}
gpu.binary @hit {xpu.module_cache_hit = "{\"report\": [], \"diagnostics\": []}"} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{report is not JSON: }}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{cache hit report: a report entry is not an object}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[1]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{cache hit report: must be a non-empty JSON array of report entries}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// Every reader of a replayed entry (the pass, Python, the CLI) takes what
// the verifier takes: the schema is checked here, once.
// expected-error @+1 {{cache hit report: a report entry has no "arch"}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\": \"hit\", \"kernels\": [1]}]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{cache hit report: kernel 0 is not an object}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\":\"hit\",\"arch\":\"pvc\",\"backend\":\"ocloc\",\"grf_mode\":\"small\",\"n_regs\":128,\"spill_size\":0,\"build_flags\":\"\",\"attempts\":[],\"kernels\":[1,{\"name\":\"k\",\"grf_count\":128,\"simd\":16,\"spill_size\":0,\"private_size\":0,\"n_spills\":0}]}]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{cache hit report: a report entry: "n_regs" must be an integer >= 0}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\":\"hit\",\"arch\":\"pvc\",\"backend\":\"ocloc\",\"grf_mode\":\"small\",\"n_regs\":\"128\",\"spill_size\":0,\"build_flags\":\"\",\"attempts\":[],\"kernels\":[{\"name\":\"k\",\"grf_count\":128,\"simd\":16,\"spill_size\":0,\"private_size\":0,\"n_spills\":0}]}]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// The cache keeps compiled modules only: a failed entry or an error to
// replay never comes from it.
// expected-error @+1 {{cache hit report: holds a failed module's entry}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\": \"hit\", \"arch\": \"pvc\", \"error\": \"boom\"}]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{a cache hit cannot replay an error}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\":\"hit\",\"arch\":\"pvc\",\"backend\":\"ocloc\",\"grf_mode\":\"small\",\"n_regs\":128,\"spill_size\":0,\"build_flags\":\"\",\"attempts\":[],\"kernels\":[{\"name\":\"k\",\"grf_count\":128,\"simd\":16,\"spill_size\":0,\"private_size\":0,\"n_spills\":0}]}]", diagnostics = [#xpu.replayed_diagnostic<severity = error, message = "replayed err">]>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// Nesting is refused before LLVM's recursive JSON parser sees it.
// expected-error @+1 {{report is not JSON: JSON nested deeper than 64 levels}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// Brackets inside strings are text, not nesting.
// expected-error @+1 {{cache hit report: a report entry has no "arch"}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\": \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\"\"}]", diagnostics = []>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+1 {{diagnostics must be #xpu.replayed_diagnostic attributes}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\":\"hit\",\"arch\":\"pvc\",\"backend\":\"ocloc\",\"grf_mode\":\"small\",\"n_regs\":128,\"spill_size\":0,\"build_flags\":\"\",\"attempts\":[],\"kernels\":[{\"name\":\"k\",\"grf_count\":128,\"simd\":16,\"spill_size\":0,\"private_size\":0,\"n_spills\":0}]}]", diagnostics = [["warning", "spills"]]>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]

// -----

// expected-error @+3 {{expected ::mlir::xpu::ReplayedSeverity to be one of: note, warning, error, remark}}
// expected-error @+2 {{failed to parse XPU_ReplayedDiagnosticAttr parameter 'severity'}}
// expected-error @+1 {{failed to parse XPU_ModuleCacheHitAttr parameter 'diagnostics'}}
gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[]", diagnostics = [#xpu.replayed_diagnostic<severity = fatal, message = "x">]>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07">]
