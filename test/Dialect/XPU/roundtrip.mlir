// RUN: xpu-opt %s | FileCheck %s
// RUN: xpu-opt %s | xpu-opt | FileCheck %s
// RUN: xpu-opt %s --mlir-print-op-generic | xpu-opt | FileCheck %s

// CHECK-LABEL: gpu.module @all_attrs
// CHECK-SAME: [#xpu.target<arch = "pvc", grf_mode = auto>, #xpu.target<arch = "acm-g10", grf_mode = large, flags = "-cl-fast-relaxed-math">, #xpu.target<arch = "tgllp", grf_mode = small>, #xpu.target<arch = "dg2-g10", grf_mode = default>]
// CHECK-SAME: xpu.device_arch = "pvc"
// CHECK-SAME: xpu.grf_mode = #xpu.grf_mode<large>
// CHECK-SAME: xpu.spill = #xpu.spill<grf_mode = large, spill_size = 0, grf_count = 256, simd = 16, private_size = 64, threads_per_eu = 4>
module attributes {gpu.container_module} {
  gpu.module @all_attrs [#xpu.target<arch = "pvc", grf_mode = auto>,
                         #xpu.target<arch = "acm-g10", grf_mode = large, flags = "-cl-fast-relaxed-math">,
                         #xpu.target<arch = "tgllp", grf_mode = small>,
                         #xpu.target<arch = "dg2-g10", grf_mode = default>]
      attributes {xpu.grf_mode = #xpu.grf_mode<large>, xpu.device_arch = "pvc",
                  xpu.spill = #xpu.spill<grf_mode = large, spill_size = 0, grf_count = 256, simd = 16, private_size = 64, threads_per_eu = 4>} {
    // CHECK: gpu.func @small_kernel() kernel attributes {xpu.grf_mode = #xpu.grf_mode<small>}
    gpu.func @small_kernel() kernel attributes {xpu.grf_mode = #xpu.grf_mode<small>} {
      gpu.return
    }
    // CHECK: gpu.func @on_its_device() kernel attributes {xpu.device_arch = "pvc"}
    gpu.func @on_its_device() kernel attributes {xpu.device_arch = "pvc"} {
      gpu.return
    }
    // CHECK: gpu.func @measured() kernel attributes {xpu.spill = #xpu.spill<grf_mode = small, spill_size = 8704, grf_count = 128, simd = 32>}
    gpu.func @measured() kernel attributes {xpu.spill = #xpu.spill<grf_mode = small, spill_size = 8704, grf_count = 128, simd = 32>} {
      gpu.return
    }
    // CHECK: gpu.func @defaulted() kernel attributes {xpu.grf_mode = #xpu.grf_mode<default>}
    gpu.func @defaulted() kernel attributes {xpu.grf_mode = #xpu.grf_mode<default>} {
      gpu.return
    }
    // CHECK: gpu.func @automatic() kernel attributes {xpu.grf_mode = #xpu.grf_mode<auto>}
    gpu.func @automatic() kernel attributes {xpu.grf_mode = #xpu.grf_mode<auto>} {
      gpu.return
    }
  }

  // Attributes also stand on their own, e.g. in a dictionary.
  // CHECK: func.func @standalone() attributes {modes = [#xpu.grf_mode<small>, #xpu.grf_mode<large>, #xpu.grf_mode<auto>, #xpu.grf_mode<default>]}
  func.func @standalone() attributes {modes = [#xpu.grf_mode<small>, #xpu.grf_mode<large>, #xpu.grf_mode<auto>, #xpu.grf_mode<default>]} {
    return
  }

  // What xpu-native-codegen writes on a binary: the kept build's
  // measurement; private_size = 0 (the default) is not printed, an absent
  // threads_per_eu stays absent.
  // CHECK: gpu.binary @bin  {xpu.grf_mode = #xpu.grf_mode<small>, xpu.spill = #xpu.spill<grf_mode = small, spill_size = 136, grf_count = 128, simd = 16, threads_per_eu = 8>}
  gpu.binary @bin {xpu.grf_mode = #xpu.grf_mode<small>, xpu.spill = #xpu.spill<grf_mode = small, spill_size = 136, grf_count = 128, simd = 16, private_size = 0, threads_per_eu = 8>} [#gpu.object<#xpu.target<arch = "acm-g11", grf_mode = small>, "\07\23\02\03">]
  // A register count of a variable register file is a mode; a kernel may
  // have fewer registers than its mode pins.
  // CHECK: gpu.binary @counted  {xpu.spill = #xpu.spill<grf_mode = 160, spill_size = 0, grf_count = 128, simd = 32, private_size = 4096>}
  gpu.binary @counted {xpu.spill = #xpu.spill<grf_mode = 160, spill_size = 0, grf_count = 128, simd = 32, private_size = 4096>} [#gpu.object<#xpu.target<arch = "ptl", grf_mode = 160>, "\07\23\02\03">]

  // A module a stage failed: the stage and its first error.
  // CHECK-LABEL: gpu.module @failed
  // CHECK-SAME: xpu.error = #xpu.failure<stage = lower, message = "xpu-lower-to-xevm: 'vendor.sync' has no lowering">
  gpu.module @failed [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.error = #xpu.failure<stage = lower, message = "xpu-lower-to-xevm: 'vendor.sync' has no lowering">} {
  }
  // CHECK: gpu.binary @linked  {xpu.error = #xpu.failure<stage = native, message = "small build failed">}
  gpu.binary @linked {xpu.error = #xpu.failure<stage = native, message = "small build failed">} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07\23">]

  // The helper attributes between xpu-module-cache and xpu-native-codegen:
  // a missed module's digest, a split binary's origin, a hit's replay.
  // CHECK-LABEL: gpu.module @missed
  // CHECK-SAME: xpu.module_cache_key = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
  gpu.module @missed [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.module_cache_key = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"} {
  }
  // A module folded into another: its name, or its kernels' own names too.
  // CHECK: gpu.binary @kept  {xpu.duplicates = ["same", {kernels = {kern_b = "kern_a"}, module = "renamed"}]}
  gpu.binary @kept {xpu.duplicates = ["same", {module = "renamed", kernels = {kern_b = "kern_a"}}]} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07\23">]
  // CHECK: gpu.binary @split  {xpu.split_from = @linked}
  gpu.binary @split {xpu.split_from = @linked} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07\23">]
  // CHECK: gpu.binary @hit  {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\22module\22:\22hit\22,\22arch\22:\22pvc\22,\22backend\22:\22ocloc\22,\22grf_mode\22:\22small\22,\22n_regs\22:128,\22spill_size\22:0,\22build_flags\22:\22\22,\22attempts\22:[],\22kernels\22:[{\22name\22:\22k\22,\22grf_count\22:128,\22simd\22:16,\22spill_size\22:0,\22private_size\22:0,\22n_spills\22:0}]}]", diagnostics = [#xpu.replayed_diagnostic<severity = warning, message = "spills 64 bytes", module = "hit", kernel = "k">, #xpu.replayed_diagnostic<severity = remark, message = "built large">]>}
  gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<report = "[{\"module\":\"hit\",\"arch\":\"pvc\",\"backend\":\"ocloc\",\"grf_mode\":\"small\",\"n_regs\":128,\"spill_size\":0,\"build_flags\":\"\",\"attempts\":[],\"kernels\":[{\"name\":\"k\",\"grf_count\":128,\"simd\":16,\"spill_size\":0,\"private_size\":0,\"n_spills\":0}]}]", diagnostics = [#xpu.replayed_diagnostic<severity = warning, message = "spills 64 bytes", module = "hit", kernel = "k">, #xpu.replayed_diagnostic<severity = remark, message = "built large">]>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, "\07\23">]
}
