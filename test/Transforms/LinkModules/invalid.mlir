// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-link-modules{max-kernels=1})" -verify-diagnostics -split-input-file

// expected-error @+1 {{xpu-link-modules: max-kernels must be at least 2, got 1}}
module {
}

// -----

// expected-error @+1 {{'gpu.module' op 'xpu.linked' must be an array of {module = "...", kernels = {name = "..."}} dictionaries on a gpu.module or gpu.binary}}
gpu.module @bad attributes {xpu.linked = [{module = "a"}]} {
}

// -----

// expected-error @+1 {{'xpu.link_source' must be {binary = "...", opt_level = N} on a gpu.module}}
gpu.module @bad attributes {xpu.link_source = {binary = "x"}} {
}
