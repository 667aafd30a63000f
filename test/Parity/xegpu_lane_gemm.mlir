// XeGPU at lane level (xegpu-op-level=lane): each work-item already holds
// its share of the tiles (8 f16 of A, 16 f16 of B, 8 f32 of C per lane), as
// after sub-group distribution. A K loop of load_nd + dpas with prefetch of
// the next A tile, and a store with cache hints.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc xegpu-op-level=lane cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @lane_gemm {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}gemm_lane = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "gemm_lane",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "lane_gemm",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @lane_gemm {
    gpu.func @gemm_lane(%a: memref<256x512xf16>, %b: memref<512x128xf16>, %c: memref<256x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %k_end = arith.constant 512 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %bx, %c8 : index
      %n = arith.muli %by, %c16 : index
      %a_desc = xegpu.create_nd_tdesc %a : memref<256x512xf16> -> !xegpu.tensor_desc<8x16xf16>
      %b_desc = xegpu.create_nd_tdesc %b : memref<512x128xf16> -> !xegpu.tensor_desc<16x16xf16>
      %c_desc = xegpu.create_nd_tdesc %c : memref<256x128xf32> -> !xegpu.tensor_desc<8x16xf32>
      %init = xegpu.load_nd %c_desc[%m, %n] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
      %acc = scf.for %k = %c0 to %k_end step %c16 iter_args(%sum = %init) -> (vector<8xf32>) {
        %ta = xegpu.load_nd %a_desc[%m, %k] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
        %tb = xegpu.load_nd %b_desc[%k, %n] : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
        %next = arith.addi %k, %c16 : index
        xegpu.prefetch_nd %a_desc[%m, %next] : !xegpu.tensor_desc<8x16xf16>
        %d = xegpu.dpas %ta, %tb, %sum : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
        scf.yield %d : vector<8xf32>
      }
      xegpu.store_nd %acc, %c_desc[%m, %n] <{l1_hint = #xegpu.cache_hint<write_back>, l2_hint = #xegpu.cache_hint<uncached>}> : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
