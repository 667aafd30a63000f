gpu.module @m [#xpu.target<arch = "pvc", grf_mode = auto>] {
  // expected-error @+1 {{xpu-select-grf-mode: xlarge GRF mode requested, but arch 'pvc' does not support it (its GRF modes: 128, 256 registers)}}
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<xlarge>} { gpu.return }
}

// -----

// expected-error @+1 {{xpu-select-grf-mode: xlarge GRF mode requested, but arch 'bmg' does not support it (its GRF modes: 128, 256 registers)}}
gpu.module @m [#xpu.target<arch = "bmg", grf_mode = auto>]
    attributes {xpu.grf_mode = #xpu.grf_mode<xlarge>} {
  gpu.func @k() kernel { gpu.return }
}

// -----

// On cri a forced 512 whose work-group cannot run (256 work-items at most
// at SIMD16 with 2 threads per engine) is an error at the kernel.
gpu.module @m [#xpu.target<arch = "cri", grf_mode = auto, subgroup_size = 16>] {
  // expected-error @+1 {{xpu-select-grf-mode: xlarge GRF mode cannot launch: kernel 'k' has a work-group of 512 work-items; 512-register GRF mode on cri runs at most 256 at SIMD16 (8 vector engines x 2 threads x 16 lanes, device limit 1024)}}
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<xlarge>, known_block_size = array<i32: 512, 1, 1>} { gpu.return }
}

// -----

gpu.module @m [#xpu.target<arch = "cri", grf_mode = auto>] {
  gpu.func @k() kernel attributes {xpu.grf_mode = #xpu.grf_mode<xlarge>, known_block_size = array<i32: 256, 1, 1>} { gpu.return }
}
