// An unknown `xpu.device_arch` is a located error listing the valid devices,
// before any pass runs.
// RUN: xpu-opt %s --xpu-attach-target="arch=pvc" -verify-diagnostics

module {
// expected-error @+1 {{'xpu.device_arch' names unknown device 'xe9'; valid devices: acm-g10}}
gpu.module @m attributes {xpu.device_arch = "xe9"} {}
}
