// RUN: not xpu-opt %s --xpu-select-grf-mode -split-input-file -verify-diagnostics

gpu.module @m [#xpu.target<arch = "tgllp", grf_mode = auto>] {
  // expected-error @+1 {{xpu-select-grf-mode: large GRF mode requested, but arch 'tgllp' does not support it}}
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<large>} { gpu.return }
}

// -----

// expected-error @+1 {{xpu-select-grf-mode: large GRF mode requested, but arch 'dg1' does not support it}}
gpu.module @m [#xpu.target<arch = "pvc", grf_mode = auto>, #xpu.target<arch = "dg1", grf_mode = auto>]
    attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
  gpu.func @k() kernel { gpu.return }
}
