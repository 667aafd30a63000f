// A bf16 module next to a good one. bf16 arithmetic needs SPV_KHR_bfloat16,
// which LLVM 22's SPIR-V backend does not enable (it aborts): that module is
// the one error, located at it and listed in the report; its sibling still
// compiles, is written as a native binary, and xpu-opt exits non-zero.
// Upstream's mlir-opt aborts on the bf16 module (one process per module).
// REQUIRES: ocloc
// RUN: not xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" -o %t.mlir 2>%t.err
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t.err
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// The two modules are linked (the default); the linked module does not
// emit, so each is emitted alone: the output is link=false's.
// RUN: not xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none link=false" -o %t.unlinked.mlir 2>/dev/null
// RUN: diff %t.mlir %t.unlinked.mlir

// CHECK: gpu.module @bf16_scale
// CHECK-SAME: xpu.error
// CHECK: gpu.binary @f16_scale {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}scale_f16 = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// ERR: bf16_failure.mlir:[[@LINE+10]]:3: warning: xpu-emit-spirv: linked module 'xpu_linked' does not emit ({{.*}}); its modules 'bf16_scale', 'f16_scale' are emitted alone
// ERR: bf16_failure.mlir:[[@LINE+9]]:3: error: xpu-emit-spirv: LLVM's SPIR-V backend failed
// ERR-SAME: (SPIR-V emitter exited with status 1: LLVM ERROR: {{.*}}SPV_KHR_bfloat16)
// ERR-NOT: error:
// REPORT: "error": "xpu-emit-spirv:
// REPORT: "module": "bf16_scale"
// REPORT: "module": "f16_scale",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @bf16_scale {
    gpu.func @scale_bf16(%x: memref<?xbf16>, %s: bf16) kernel {
      %gid = gpu.global_id x
      %v = memref.load %x[%gid] : memref<?xbf16>
      %r = arith.mulf %v, %s : bf16
      memref.store %r, %x[%gid] : memref<?xbf16>
      gpu.return
    }
  }
  gpu.module @f16_scale {
    gpu.func @scale_f16(%x: memref<?xf16>, %s: f16) kernel {
      %gid = gpu.global_id x
      %v = memref.load %x[%gid] : memref<?xf16>
      %r = arith.mulf %v, %s : f16
      memref.store %r, %x[%gid] : memref<?xf16>
      gpu.return
    }
  }
}
