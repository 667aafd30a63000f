// A module an earlier stage marked failed: nothing is left to compile.
module attributes {gpu.container_module} {
  gpu.module @broken [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.error = #xpu.failure<stage = lower, message = "lowering failed">} {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
