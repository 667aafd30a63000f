// XeGPU at sub-group level (xegpu-op-level=subgroup), the shape of the
// SG GEMMs of upstream and IMEX: each sub-group owns an 8x16 f32 tile of C,
// walks K in steps of 16 with 2-D block loads of A (8x16 f16) and B
// (16x16 f16) and xegpu.dpas, then applies a bias + ReLU epilogue and
// block-stores the tile.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc xegpu-op-level=subgroup cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @sg_gemm {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}gemm_bias_relu = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "gemm_bias_relu",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "sg_gemm",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @sg_gemm {
    gpu.func @gemm_bias_relu(%a: memref<512x384xf16>, %b: memref<384x256xf16>, %bias: memref<512x256xf32>, %c: memref<512x256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %k_end = arith.constant 384 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %bx, %c8 : index
      %n = arith.muli %by, %c16 : index
      %a_desc = xegpu.create_nd_tdesc %a : memref<512x384xf16> -> !xegpu.tensor_desc<8x16xf16>
      %b_desc = xegpu.create_nd_tdesc %b : memref<384x256xf16> -> !xegpu.tensor_desc<16x16xf16>
      %bias_desc = xegpu.create_nd_tdesc %bias : memref<512x256xf32> -> !xegpu.tensor_desc<8x16xf32>
      %c_desc = xegpu.create_nd_tdesc %c : memref<512x256xf32> -> !xegpu.tensor_desc<8x16xf32>
      %zero = arith.constant dense<0.0> : vector<8x16xf32>
      %acc = scf.for %k = %c0 to %k_end step %c16 iter_args(%sum = %zero) -> (vector<8x16xf32>) {
        %ta = xegpu.load_nd %a_desc[%m, %k] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
        %tb = xegpu.load_nd %b_desc[%k, %n] : !xegpu.tensor_desc<16x16xf16> -> vector<16x16xf16>
        %d = xegpu.dpas %ta, %tb, %sum : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf32> -> vector<8x16xf32>
        scf.yield %d : vector<8x16xf32>
      }
      %bv = xegpu.load_nd %bias_desc[%m, %n] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %biased = arith.addf %acc, %bv : vector<8x16xf32>
      %relu = arith.maximumf %biased, %zero : vector<8x16xf32>
      xegpu.store_nd %relu, %c_desc[%m, %n] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
