// A 16x16 f16 row reduction already distributed to lanes (SIMT), in the
// shape of IMEX's XeGPU SIMT row_reduce kernel (which IMEX runs with
// upstream's gpu-lower-to-xevm-pipeline at xegpu-op-level=lane): each lane
// block-loads one column (16 f16), every row is summed across the 16 lanes
// with a butterfly of gpu.shuffle xor (so the kernel requires sub-group size
// 16), and the sums are block-stored as two 8x16 tiles. It compiles at the
// default xegpu-op-level (workgroup) as at lane: SIMT modules get upstream's
// lane-level passes whatever the option says. Upstream's own path gives the
// same SIMD width and GRF decision.
// REQUIRES: igc1, igc2
// RUN: %mlir_opt %s --gpu-lower-to-xevm-pipeline="zebin-chip=pvc binary-format=isa xegpu-op-level=lane" -o %t.up.mlir
// RUN: xpu-opt %t.up.mlir --xpu-native-codegen="backend=ocloc cache-dir=none" | FileCheck %s
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none compiler-root=%igc2_root report=%t.igc2.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.igc2.json

// CHECK: gpu.binary @rowsum {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {row_sum = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}}, n_regs = 128 : i32
// CHECK-NOT: xpu.error

// REPORT-NOT:  "error"
// REPORT:      "name": "row_sum",
// REPORT:      "simd": 16,
// REPORT:      "subgroup_size": 16
// REPORT:      "module": "rowsum",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @rowsum {
    gpu.func @row_sum(%in: memref<16x16xf16>, %out: memref<16x16xf16>) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %w = arith.constant 16 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c4_i32 = arith.constant 4 : i32
      %c8_i32 = arith.constant 8 : i32
      %in_d = xegpu.create_nd_tdesc %in : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16>
      %out_d = xegpu.create_nd_tdesc %out : memref<16x16xf16> -> !xegpu.tensor_desc<8x16xf16>
      %col = xegpu.load_nd %in_d[%c0, %c0] : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
      %zero = arith.constant dense<0.0> : vector<16xf16>
      %sums = scf.for %r = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> vector<16xf16> {
        %x = vector.extract %col[%r] : f16 from vector<16xf16>
        %o8, %p8 = gpu.shuffle xor %x, %c8_i32, %w : f16
        %a8 = arith.addf %x, %o8 : f16
        %o4, %p4 = gpu.shuffle xor %a8, %c4_i32, %w : f16
        %a4 = arith.addf %a8, %o4 : f16
        %o2, %p2 = gpu.shuffle xor %a4, %c2_i32, %w : f16
        %a2 = arith.addf %a4, %o2 : f16
        %o1, %p1 = gpu.shuffle xor %a2, %c1_i32, %w : f16
        %s = arith.addf %a2, %o1 : f16
        %n = vector.insert %s, %acc[%r] : f16 into vector<16xf16>
        scf.yield %n : vector<16xf16>
      }
      %lo = vector.extract_strided_slice %sums {offsets = [0], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      %hi = vector.extract_strided_slice %sums {offsets = [8], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      xegpu.store_nd %lo, %out_d[%c0, %c0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      xegpu.store_nd %hi, %out_d[%c8, %c0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      gpu.return
    }
  }
  func.func @launch(%in: memref<16x16xf16>, %out: memref<16x16xf16>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @rowsum::@row_sum blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%in : memref<16x16xf16>, %out : memref<16x16xf16>)
    return
  }
}
