// n-D vectors as vector-level front ends leave them: a 4x16 f32 tile read
// with a 2-D transfer_read, reshaped with vector.shape_cast, split with
// vector.extract_strided_slice on the 2-D value, recombined with
// insert_strided_slice and a 2-D transpose, and written back. (SPIR-V
// vectors have at most 16 elements: a vector<32xf32> or wider that reaches
// LLVM's SPIR-V backend aborts it, on both paths.)
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @tiles2d {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}swap_halves = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "swap_halves",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "tiles2d",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @tiles2d {
    gpu.func @swap_halves(%in: memref<1024x16xf32>, %out: memref<1024x16xf32>, %flat: memref<1024x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %pad = arith.constant 0.0 : f32
      %gid = gpu.global_id x
      %row = arith.muli %gid, %c4 : index
      %t = vector.transfer_read %in[%row, %c0], %pad {in_bounds = [true, true]} : memref<1024x16xf32>, vector<4x16xf32>
      %lo = vector.extract_strided_slice %t {offsets = [0, 0], sizes = [4, 8], strides = [1, 1]} : vector<4x16xf32> to vector<4x8xf32>
      %hi = vector.extract_strided_slice %t {offsets = [0, 8], sizes = [4, 8], strides = [1, 1]} : vector<4x16xf32> to vector<4x8xf32>
      %sum = arith.addf %lo, %hi : vector<4x8xf32>
      %s0 = vector.insert_strided_slice %hi, %t {offsets = [0, 0], strides = [1, 1]} : vector<4x8xf32> into vector<4x16xf32>
      %s1 = vector.insert_strided_slice %sum, %s0 {offsets = [0, 8], strides = [1, 1]} : vector<4x8xf32> into vector<4x16xf32>
      vector.transfer_write %s1, %out[%row, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<1024x16xf32>
      // A 2x8 corner of the tile, transposed and flattened to one row.
      %corner = vector.extract_strided_slice %sum {offsets = [1, 2], sizes = [2, 4], strides = [1, 1]} : vector<4x8xf32> to vector<2x4xf32>
      %tt = vector.transpose %corner, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
      %f = vector.shape_cast %tt : vector<4x2xf32> to vector<8xf32>
      %q = vector.shape_cast %hi : vector<4x8xf32> to vector<2x16xf32>
      %q0 = vector.extract %q[0] : vector<16xf32> from vector<2x16xf32>
      %q1 = vector.extract %q[1] : vector<16xf32> from vector<2x16xf32>
      %qs = arith.maximumf %q0, %q1 : vector<16xf32>
      %r = vector.insert_strided_slice %f, %qs {offsets = [8], strides = [1]} : vector<8xf32> into vector<16xf32>
      vector.store %r, %flat[%gid, %c0] : memref<1024x16xf32>, vector<16xf32>
      gpu.return
    }
  }
}
