// RUN: xpu-opt %s --xpu-attach-target="arch=nvl" -verify-diagnostics
// RUN: not xpu-opt %s --xpu-attach-target="arch=tgllp grf-mode=large" 2>&1 | FileCheck %s --check-prefix=TGL
// RUN: not xpu-opt %s --xpu-attach-target="module=([" 2>&1 | FileCheck %s --check-prefix=REGEX
// RUN: not xpu-opt %s --xpu-attach-target="grf-mode=huge" 2>&1 | FileCheck %s --check-prefix=OPTION

// TGL: attach-target-invalid.mlir:[[@LINE+6]]:1: error: xpu-attach-target: arch 'tgllp' does not support large GRF mode (256 registers per thread: IGC would ignore the flag and build 128); use small, auto or default
// REGEX: attach-target-invalid.mlir:[[@LINE+3]]:1: error: xpu-attach-target: invalid module regex '([':
// OPTION: for the --grf-mode option: Cannot find option named 'huge'!

module {
// expected-error @+1 {{xpu-attach-target: unknown Intel GPU arch 'nvl'; valid archs: acm-g10}}
gpu.module @m {}
}
