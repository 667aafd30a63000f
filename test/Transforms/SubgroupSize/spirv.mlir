// Every kernel of every lowered module requires its sub-group size in the
// SPIR-V (OpExecutionMode SubgroupSize), not only the first; a module whose
// target asks for none gets none. IGC then compiles exactly that width.
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-select-grf-mode,gpu.module(xpu-lower-to-xevm),xpu-emit-spirv)" | %python %S/Inputs/dump-spirv.py | FileCheck %s
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc module=^two$ cache-dir=none report=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REQUIRES: ocloc

// CHECK-LABEL: binary @two
// CHECK-DAG: OpEntryPoint Kernel %[[FIRST:[0-9]+]] "first"
// CHECK-DAG: OpEntryPoint Kernel %[[SECOND:[0-9]+]] "second"
// CHECK-DAG: OpExecutionMode %[[FIRST]] SubgroupSize 16
// CHECK-DAG: OpExecutionMode %[[SECOND]] SubgroupSize 32
// CHECK-LABEL: binary @none
// CHECK: OpEntryPoint Kernel
// CHECK-NOT: SubgroupSize

// REPORT: "kernels": [
// REPORT: "name": "first",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "name": "second",
// REPORT: "simd": 32,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 32
// Kernels with different sizes: no module-wide subgroup_size.
// REPORT: "module": "two",
// REPORT-NEXT: "n_regs"
// REPORT-NEXT: "spill_size"
// REPORT-NEXT: }
// REPORT: "module": "none",
// REPORT-NEXT: "n_regs"
// REPORT-NEXT: "spill_size"
// REPORT-NEXT: "subgroup_size": 0

module attributes {gpu.container_module} {
  gpu.module @two [#xpu.target<arch = "pvc", grf_mode = auto>] {
    gpu.func @first(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<64xf32>
      gpu.return
    }
    gpu.func @second(%buf: memref<64xf32>) kernel attributes {intel_reqd_sub_group_size = 32 : i32} {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %d = arith.mulf %v, %v : f32
      memref.store %d, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @none [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 0>] {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      memref.store %v, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
}
