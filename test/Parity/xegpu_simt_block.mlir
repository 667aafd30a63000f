// XeGPU already distributed to lanes (SIMT), in the shapes of IMEX's
// test/Integration/Dialect/XeGPU/SIMT kernels, which IMEX runs with
// upstream's gpu-lower-to-xevm-pipeline at xegpu-op-level=lane: a 2-D block
// load of an 8x16 i32 tile (8 elements per lane) with cache hints, the
// lane's id written into it, and a 2-D block store; and a DPAS tile whose
// op carries lane layouts (a_layout, b_layout, c_layout). The project
// compiles them at every xegpu-op-level, the default (workgroup) included:
// SIMT modules get upstream's lane-level passes whatever the option says
// (its layout propagation would otherwise fail them with "TensorDesc
// doesn't need LayoutAttr for SIMT code"). Upstream's own path gives the
// same SIMD width and GRF decision.
// REQUIRES: igc1, igc2
// RUN: %mlir_opt %s --gpu-lower-to-xevm-pipeline="zebin-chip=pvc binary-format=isa xegpu-op-level=lane" -o %t.up.mlir
// RUN: xpu-opt %t.up.mlir --xpu-native-codegen="backend=ocloc cache-dir=none" | FileCheck %s
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false xegpu-op-level=subgroup cache-dir=none" | FileCheck %s
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false cache-dir=none compiler-root=%igc2_root report=%t.igc2.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.igc2.json
// With linking on (the default) the modules share one build; each
// module's report entry is the same as with link=false.
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.linked.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.linked.json

// CHECK: gpu.binary @simt_copy {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {copy_tile = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}}, n_regs = 128 : i32
// CHECK: gpu.binary @simt_mma {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {mma_tile = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}}, n_regs = 128 : i32
// CHECK-NOT: xpu.error

// REPORT-NOT:  "error"
// REPORT:      "name": "copy_tile",
// REPORT:      "simd": 16,
// REPORT:      "module": "simt_copy",
// REPORT-NEXT: "n_regs": 128,
// REPORT:      "name": "mma_tile",
// REPORT:      "simd": 16,
// REPORT:      "module": "simt_mma",
// REPORT-NEXT: "n_regs": 128,

#lane_a = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>
#lane_b = #xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>
module attributes {gpu.container_module} {
  gpu.module @simt_copy {
    gpu.func @copy_tile(%src: memref<8x16xi32, 1>, %dst: memref<8x16xi32, 1>) kernel {
      %s = memref.memory_space_cast %src : memref<8x16xi32, 1> to memref<8x16xi32>
      %d = memref.memory_space_cast %dst : memref<8x16xi32, 1> to memref<8x16xi32>
      %sd = xegpu.create_nd_tdesc %s : memref<8x16xi32> -> !xegpu.tensor_desc<8x16xi32, #xegpu.block_tdesc_attr<memory_space = global>>
      %dd = xegpu.create_nd_tdesc %d : memref<8x16xi32> -> !xegpu.tensor_desc<8x16xi32, #xegpu.block_tdesc_attr<memory_space = global>>
      %v = xegpu.load_nd %sd[0, 0] <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<uncached>}> : !xegpu.tensor_desc<8x16xi32, #xegpu.block_tdesc_attr<memory_space = global>> -> vector<8xi32>
      %lane = gpu.lane_id
      %lane32 = arith.index_cast %lane : index to i32
      %w = vector.insert %lane32, %v[0] : i32 into vector<8xi32>
      xegpu.store_nd %w, %dd[0, 0] <{l1_hint = #xegpu.cache_hint<write_back>, l2_hint = #xegpu.cache_hint<uncached>}> : vector<8xi32>, !xegpu.tensor_desc<8x16xi32, #xegpu.block_tdesc_attr<memory_space = global>>
      gpu.return
    }
  }
  gpu.module @simt_mma {
    gpu.func @mma_tile(%a: memref<8x16xf16>, %b: memref<16x16xf16>, %c: memref<8x16xf32>) kernel {
      %ad = xegpu.create_nd_tdesc %a : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16>
      %bd = xegpu.create_nd_tdesc %b : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16>
      %cd = xegpu.create_nd_tdesc %c : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %va = xegpu.load_nd %ad[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
      %vb = xegpu.load_nd %bd[0, 0] : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
      %vc = xegpu.load_nd %cd[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
      %vd = xegpu.dpas %va, %vb, %vc {a_layout = #lane_a, b_layout = #lane_b, c_layout = #lane_a} : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
      xegpu.store_nd %vd, %cd[0, 0] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
  func.func @launch(%src: memref<8x16xi32, 1>, %dst: memref<8x16xi32, 1>, %a: memref<8x16xf16>, %b: memref<16x16xf16>, %c: memref<8x16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @simt_copy::@copy_tile blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%src : memref<8x16xi32, 1>, %dst : memref<8x16xi32, 1>)
    gpu.launch_func @simt_mma::@mma_tile blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<8x16xf16>, %b : memref<16x16xf16>, %c : memref<8x16xf32>)
    return
  }
}
