// A sub-group size the device cannot run is a located error wherever it is
// asked for: on the target, on the attach pass, on a kernel.
// RUN: xpu-opt %s -split-input-file -verify-diagnostics
// RUN: not xpu-opt %S/apply.mlir --xpu-attach-target="arch=pvc subgroup-size=8" 2>&1 | FileCheck %s --check-prefix=ATTACH
// ATTACH: error: xpu-attach-target: arch 'pvc' cannot run sub-group size 8; supported: 16, 32 (0: none)

// expected-error @+1 {{arch 'pvc' cannot run sub-group size 8; supported: 16, 32 (0: none)}}
gpu.module @m [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 8>] {}

// -----

// expected-error @+1 {{arch 'tgllp' cannot run sub-group size 64; supported: 8, 16, 32 (0: none)}}
gpu.module @m [#xpu.target<arch = "tgllp", grf_mode = auto, subgroup_size = 64>] {}

// -----

// RUN: not xpu-opt %s -split-input-file --xpu-select-grf-mode 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: error: sub-group size 8 required by this kernel cannot run on arch 'pvc'; supported: 16, 32
// KERNEL: error: the targets of this kernel's module ask for different sub-group sizes
gpu.module @kernel_size [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @k() kernel attributes {intel_reqd_sub_group_size = 8 : i32} { gpu.return }
}

// -----

gpu.module @disagree [#xpu.target<arch = "pvc", grf_mode = auto>, #xpu.target<arch = "acm-g10", grf_mode = auto, subgroup_size = 8>] {
  gpu.func @k() kernel { gpu.return }
}
