// A module in the shape of upstream's GPUToLLVMSPV attributions test: three
// kernels with private and workgroup attributions beside one that declares
// a 64x128x512 = 4194304-item work-group, which no GRF mode runs (pvc: at
// most 1024). Upstream's own pipeline builds all four. Here too, on both
// compilers: one warning at the kernel that names the limit, every kernel
// in the binary, and the others' decision made as if it were not there.
// REQUIRES: igc1, igc2
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.igc1.json" -verify-diagnostics -o %t.igc1.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.igc1.json
// RUN: FileCheck %s --check-prefix=IR < %t.igc1.mlir
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none compiler-root=%igc2_root report=%t.igc2.json" -verify-diagnostics -o %t.igc2.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.igc2.json
// RUN: FileCheck %s --check-prefix=IR < %t.igc2.mlir

// strict-launch=true keeps the module's error: nothing of it is built.
// RUN: not xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none strict-launch=true report=%t.strict.json" -o /dev/null 2> %t.strict.err
// RUN: FileCheck %s --check-prefix=STRICT < %t.strict.err
// RUN: FileCheck %s --check-prefix=STRICT-REPORT < %t.strict.json

// REPORT:      "decision": "small spilled 0 bytes <= threshold 0: kept small",
// REPORT:      "kernels": [
// REPORT:        "name": "stage_private",
// REPORT:        "name": "stage_shared",
// REPORT:        "name": "stage_both",
// REPORT:        "name": "huge_block",
// REPORT:      "launch_warnings": [
// REPORT-NEXT:   "cannot launch in any GRF mode: kernel 'huge_block' has a work-group of 4194304 work-items; 128-register GRF mode on pvc runs at most 1024 at SIMD16 (8 vector engines x 8 threads x 16 lanes, device limit 1024), the most of any mode; it is built, but the driver will refuse to launch it with that work-group, and it does not constrain the GRF mode of the kernels that share its binary (strict-launch=true makes this an error)"
// REPORT-NEXT: ],
// REPORT-NEXT: "module": "attributions",
// REPORT-NOT:  "error"

// IR:     gpu.binary @attributions  {xpu.spill = #xpu.spill<{{[^>]+}}>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, properties = {
// IR-NOT: xpu.error

// STRICT: error: xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'huge_block' has a work-group of 4194304 work-items; {{.*}}; the module's other kernels ('stage_private', 'stage_shared', 'stage_both') were not built with it: they share its binary. Move 'huge_block' into a module of its own (a gpu.module of its own) to build them
// STRICT: note: module 'attributions' for arch 'pvc' is not built
// STRICT-REPORT: "error": "xpu-select-grf-mode: cannot launch in any GRF mode: kernel 'huge_block'

module attributes {gpu.container_module} {
  gpu.module @attributions {
    gpu.func @stage_private() private(%tmp: memref<8xf32, #gpu.address_space<private>>, %idx: memref<4xi32, #gpu.address_space<private>>) kernel {
      gpu.return
    }
    gpu.func @stage_shared() workgroup(%tile: memref<64xf16, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
    gpu.func @stage_both() workgroup(%tile: memref<4xf32, #gpu.address_space<workgroup>>) private(%acc: memref<2xi64, #gpu.address_space<private>>) kernel {
      gpu.return
    }
    // expected-warning @+1 {{xpu-native-codegen: module 'attributions' for arch 'pvc': cannot launch in any GRF mode: kernel 'huge_block' has a work-group of 4194304 work-items; 128-register GRF mode on pvc runs at most 1024 at SIMD16}}
    gpu.func @huge_block() kernel attributes {known_block_size = array<i32: 64, 128, 512>} {
      gpu.return
    }
  }
}
