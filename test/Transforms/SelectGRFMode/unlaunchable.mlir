// RUN: xpu-opt %s --xpu-select-grf-mode="keep-going=true strict-launch=true" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not xpu-opt %s --xpu-select-grf-mode=strict-launch=true -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: sed -e 's#// expected-.*##' %s > %t.lenient.mlir
// RUN: xpu-opt %t.lenient.mlir --xpu-select-grf-mode -split-input-file 2>&1 | FileCheck %s --check-prefix=LENIENT
// Without strict-launch, such a kernel is left to xpu-native-codegen, which
// builds it with a warning: no module is marked, and it does not make a
// forced large mode an error either (its siblings fit large).
// LENIENT-NOT: error
// LENIENT-NOT: xpu.error
// LENIENT:     gpu.module @shared
// LENIENT:     gpu.module @two_bad
// LENIENT-NOT: error
// LENIENT-NOT: xpu.error

// With strict-launch=true, a kernel whose work-group no GRF mode runs (pvc: at most 1024 work-items,
// in small mode, 8 vector engines x 8 threads x 16 lanes at the default
// SIMD16) is an error at the kernel. Build flags apply per module, so its
// kernels share one binary: the module is marked failed (its report entry
// says so, see test/Transforms/NativeCodegen/unlaunchable-kernel.mlir), names
// the module's other kernels, which are not built, and says how to split it.
// Other modules are still processed; without keep-going the pass fails.

// CHECK-LABEL: gpu.module @shared
// CHECK-SAME:    xpu.error = #xpu.failure<stage = select, message = "xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'huge' has a work-group of 2048 work-items; 128-register GRF mode on pvc runs at most 1024 at SIMD16 (8 vector engines x 8 threads x 16 lanes, device limit 1024), the most of any mode; the module's other kernels ('fits', 'no_size') were not built with it: they share its binary. Move 'huge' into a module of its own (a gpu.module of its own) to build them">
// CHECK-LABEL: gpu.module @other
// CHECK-NOT:     xpu.error
// CHECK:         gpu.func @k() kernel attributes {intel_reqd_sub_group_size = 16 : i32

// FAIL: error: xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'huge'
// FAIL: error: xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'wide'

// expected-note @+1 {{module 'shared' for arch 'pvc' is not built}}
gpu.module @shared [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @fits() kernel attributes {known_block_size = array<i32: 256, 1, 1>} { gpu.return }
  // expected-error @+1 {{xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'huge' has a work-group of 2048 work-items; 128-register GRF mode on pvc runs at most 1024 at SIMD16 (8 vector engines x 8 threads x 16 lanes, device limit 1024), the most of any mode; the module's other kernels ('fits', 'no_size') were not built with it: they share its binary. Move 'huge' into a module of its own (a gpu.module of its own) to build them}}
  gpu.func @huge() kernel attributes {known_block_size = array<i32: 64, 32, 1>} { gpu.return }
  gpu.func @no_size() kernel { gpu.return }
}

// Still selected: 1024 work-items fit small mode.
gpu.module @other [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1024, 1, 1>} { gpu.return }
}

// -----

// Whatever the requested mode, and at the kernel's own sub-group size
// (SIMD32 runs more work-items, but pvc runs at most 1024 in any mode);
// every kernel that cannot launch is named. Split as the message says, the
// kernels that can launch compile.
// CHECK-LABEL: gpu.module @two_bad
// CHECK-SAME:    xpu.error = #xpu.failure<stage = select, message = "xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'wide' has a work-group of 4096 work-items; 128-register GRF mode on pvc runs at most 1024 at SIMD32 (8 vector engines x 8 threads x 32 lanes, device limit 1024), the most of any mode; neither can 'tall'; the module's other kernels ('ok') were not built with it: they share its binary. Move 'wide', 'tall' into a module of its own (a gpu.module of its own) to build them">
// CHECK-LABEL: gpu.module @two_bad_split
// CHECK-NOT:     xpu.error
// CHECK:         gpu.func @ok

// expected-note @+1 {{module 'two_bad' for arch 'pvc' is not built}}
gpu.module @two_bad [#xpu.target<arch = "pvc", grf_mode = large>] {
  // expected-error @+1 {{kernel 'wide' has a work-group of 4096 work-items}}
  gpu.func @wide() kernel attributes {known_block_size = array<i32: 4096, 1, 1>, intel_reqd_sub_group_size = 32 : i32} { gpu.return }
  gpu.func @tall() kernel attributes {known_block_size = array<i32: 1, 2048, 1>} { gpu.return }
  gpu.func @ok() kernel attributes {known_block_size = array<i32: 128, 1, 1>} { gpu.return }
}

gpu.module @two_bad_split [#xpu.target<arch = "pvc", grf_mode = large>] {
  gpu.func @ok() kernel attributes {known_block_size = array<i32: 128, 1, 1>} { gpu.return }
}
