// Bad xpu IR is a located error inside the stock mlir-opt too.
// RUN: %mlir_opt --load-dialect-plugin=%xpu_plugin --load-pass-plugin=%xpu_plugin %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown Intel GPU arch 'xe3'}}
gpu.module @m [#xpu.target<arch = "xe3", grf_mode = auto>] {}

// -----

// expected-error @+1 {{'xpu.device_arch' names unknown device 'foo'}}
gpu.module @m attributes {xpu.device_arch = "foo"} {}
