// DPAS on XeVM ops, the shape of upstream's xevm_block_dpas test grown into
// a K loop: each iteration block-loads an 8x16 f16 tile of A, a 16x16 f16
// tile of B in VNNI form (pack_register) and multiplies them into an 8x16
// f32 accumulator with xevm.mma; the accumulator is block-stored at the end.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @gemm_f16 {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}dpas_k_loop = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "dpas_k_loop",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "gemm_f16",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @gemm_f16 {
    gpu.func @dpas_k_loop(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %k_size: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %rows = arith.constant 8 : i32
      %cols = arith.constant 16 : i32
      // Widths and pitches are in bytes.
      %a_pitch = arith.muli %k_size, %c2 : i32
      %b_pitch = arith.constant 32 : i32
      %c_pitch = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %acc = scf.for %k = %c0 to %k_size step %c16 iter_args(%sum = %zero) -> (vector<8xf32>) : i32 {
        %ta = xevm.blockload2d %a, %a_pitch, %rows, %a_pitch, %k, %c0 <{elem_size_in_bits = 16 : i32, tile_width = 16 : i32, tile_height = 8 : i32, v_blocks = 1 : i32, transpose = false, pack_register = false}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi16>
        %tb = xevm.blockload2d %b, %b_pitch, %k_size, %b_pitch, %c0, %k <{elem_size_in_bits = 16 : i32, tile_width = 16 : i32, tile_height = 16 : i32, v_blocks = 1 : i32, transpose = false, pack_register = true}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
        %d = xevm.mma %ta, %tb, %sum {shape = <m = 8, n = 16, k = 16>, types = <d = f32, a = f16, b = f16, c = f32>} : (vector<8xi16>, vector<8xi32>, vector<8xf32>) -> vector<8xf32>
        scf.yield %d : vector<8xf32>
      }
      %out = vector.bitcast %acc : vector<8xf32> to vector<8xi32>
      xevm.blockstore2d %c, %c_pitch, %rows, %c_pitch, %c0, %c0, %out <{elem_size_in_bits = 32 : i32, tile_width = 16 : i32, tile_height = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
      gpu.return
    }
  }
}
