// XeGPU at workgroup level (xegpu-op-level=workgroup), the shape of
// upstream's WG GEMMs: the work-group computes a 64x64 f32 tile of C from
// 64x32 tiles of A and 32x64 tiles of B; #xegpu.layout spreads each tile over
// a 2x2 grid of sub-groups (sg_data) and blocks it into DPAS-sized pieces
// (inst_data); A and B are prefetched one step ahead.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc xegpu-op-level=workgroup cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @wg_gemm {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}gemm_64x64 = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "gemm_64x64",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "wg_gemm",
// REPORT-NEXT: "n_regs": 128,

#a = #xegpu.layout<sg_layout = [2, 2], sg_data = [32, 32], inst_data = [8, 16]>
#b = #xegpu.layout<sg_layout = [2, 2], sg_data = [32, 32], inst_data = [16, 16]>
#c = #xegpu.layout<sg_layout = [2, 2], sg_data = [32, 32], inst_data = [8, 16]>
#a_pf = #xegpu.layout<sg_layout = [4, 1], sg_data = [16, 32], inst_data = [8, 16]>
#b_pf = #xegpu.layout<sg_layout = [1, 4], sg_data = [32, 16], inst_data = [8, 16]>
module attributes {gpu.container_module} {
  gpu.module @wg_gemm {
    gpu.func @gemm_64x64(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %k_end = arith.constant 1024 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %bx, %c64 : index
      %n = arith.muli %by, %c64 : index
      %c_desc = xegpu.create_nd_tdesc %C : memref<1024x1024xf32> -> !xegpu.tensor_desc<64x64xf32, #c>
      %c_init = xegpu.load_nd %c_desc[%m, %n] <{layout = #c}> : !xegpu.tensor_desc<64x64xf32, #c> -> vector<64x64xf32>
      %a_desc = xegpu.create_nd_tdesc %A : memref<1024x1024xf16> -> !xegpu.tensor_desc<64x32xf16, #a>
      %b_desc = xegpu.create_nd_tdesc %B : memref<1024x1024xf16> -> !xegpu.tensor_desc<32x64xf16, #b>
      %a_pf = xegpu.create_nd_tdesc %A : memref<1024x1024xf16> -> !xegpu.tensor_desc<64x32xf16, #a_pf>
      %b_pf = xegpu.create_nd_tdesc %B : memref<1024x1024xf16> -> !xegpu.tensor_desc<32x64xf16, #b_pf>
      xegpu.prefetch_nd %a_pf[%m, %c0] : !xegpu.tensor_desc<64x32xf16, #a_pf>
      xegpu.prefetch_nd %b_pf[%c0, %n] : !xegpu.tensor_desc<32x64xf16, #b_pf>
      %acc = scf.for %k = %c0 to %k_end step %c32 iter_args(%sum = %c_init) -> (vector<64x64xf32>) {
        %ta = xegpu.load_nd %a_desc[%m, %k] <{layout = #a}> : !xegpu.tensor_desc<64x32xf16, #a> -> vector<64x32xf16>
        %tb = xegpu.load_nd %b_desc[%k, %n] <{layout = #b}> : !xegpu.tensor_desc<32x64xf16, #b> -> vector<32x64xf16>
        %next = arith.addi %k, %c32 : index
        xegpu.prefetch_nd %a_pf[%m, %next] : !xegpu.tensor_desc<64x32xf16, #a_pf>
        xegpu.prefetch_nd %b_pf[%next, %n] : !xegpu.tensor_desc<32x64xf16, #b_pf>
        %d = xegpu.dpas %ta, %tb, %sum {layout_a = #a, layout_b = #b, layout_cd = #c} : vector<64x32xf16>, vector<32x64xf16>, vector<64x64xf32> -> vector<64x64xf32>
        scf.yield %d : vector<64x64xf32>
      }
      xegpu.store_nd %acc, %c_desc[%m, %n] <{layout = #c}> : vector<64x64xf32>, !xegpu.tensor_desc<64x64xf32, #c>
      gpu.return
    }
  }
}
