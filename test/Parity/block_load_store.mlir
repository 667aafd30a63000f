// 2-D block loads and stores (xevm.blockload2d / xevm.blockstore2d), the
// shape of upstream's XeVM integration tests: a sub-group reads an 8x16 f32
// tile and two 8x16 f16 tiles (v_blocks = 2), combines them and writes the
// result back. The block builtins work on 16 lanes on pvc: the kernel gets
// SIMD16 from the default sub-group size.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @tiles {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}scale_tile = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "decision": "small spilled 0 bytes <= threshold 0: kept small",
// REPORT: "name": "scale_tile",
// REPORT-NEXT: "private_size": 0,
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "tiles",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @tiles {
    gpu.func @scale_tile(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %out: !llvm.ptr<1>, %row: i32) kernel {
      %width_f32 = arith.constant 256 : i32
      %width_f16 = arith.constant 128 : i32
      %height = arith.constant 64 : i32
      %col = arith.constant 0 : i32
      %a = xevm.blockload2d %x, %width_f32, %height, %width_f32, %col, %row <{elem_size_in_bits = 32 : i32, tile_width = 16 : i32, tile_height = 8 : i32, v_blocks = 1 : i32, transpose = false, pack_register = false}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
      %b = xevm.blockload2d %y, %width_f16, %height, %width_f16, %col, %row <{elem_size_in_bits = 16 : i32, tile_width = 16 : i32, tile_height = 8 : i32, v_blocks = 2 : i32, transpose = false, pack_register = false}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi16>
      %af = vector.bitcast %a : vector<8xi32> to vector<8xf32>
      %bh = vector.bitcast %b : vector<16xi16> to vector<16xf16>
      %b0 = vector.extract_strided_slice %bh {offsets = [0], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      %b1 = vector.extract_strided_slice %bh {offsets = [8], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      %b0f = arith.extf %b0 : vector<8xf16> to vector<8xf32>
      %b1f = arith.extf %b1 : vector<8xf16> to vector<8xf32>
      %s = arith.mulf %af, %b0f : vector<8xf32>
      %r = arith.addf %s, %b1f : vector<8xf32>
      %ri = vector.bitcast %r : vector<8xf32> to vector<8xi32>
      xevm.blockstore2d %out, %width_f32, %height, %width_f32, %col, %row, %ri <{elem_size_in_bits = 32 : i32, tile_width = 16 : i32, tile_height = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
      gpu.return
    }
  }
}
// REPORT-NOT: Intel_Symbol_Table_Void_Program
