// XeGPU code already distributed to lanes (SIMT: each load_nd/store_nd value
// is one lane's 1-D share of its tensor_desc, dpas takes 1-D operands,
// gathers and scatters take a scalar mask) gets upstream's lane-level
// passes whatever xegpu-op-level says: the layout propagation of the
// workgroup and subgroup levels would give its tensor_descs layouts that SIMT
// code must not have ("TensorDesc doesn't need LayoutAttr for SIMT code").
// Sub-group-level code still gets the level asked for. A module mixing both
// cannot be lowered at any level: that is its error.
// RUN: xpu-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(xpu-lower-to-xevm{keep-going=true}))" -verify-diagnostics | FileCheck %s
// RUN: xpu-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(xpu-lower-to-xevm{keep-going=true xegpu-op-level=subgroup}))" -verify-diagnostics | FileCheck %s
// RUN: xpu-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(xpu-lower-to-xevm{keep-going=true xegpu-op-level=lane}))" 2>/dev/null | FileCheck %s --check-prefix=LANE

// CHECK-LABEL: gpu.module @simt_copy
// CHECK-NOT:     xpu.error
// CHECK:         llvm.func spir_kernelcc @copy_tile
// CHECK:           llvm.call spir_funccc @_Z{{[0-9]+}}intel_sub_group_2d_block_read
// CHECK:           llvm.call spir_funccc @_Z{{[0-9]+}}intel_sub_group_2d_block_write
// LANE-LABEL: gpu.module @simt_copy
// LANE:         llvm.func spir_kernelcc @copy_tile
gpu.module @simt_copy [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @copy_tile(%src: memref<8x16xf32>, %dst: memref<8x16xf32>) kernel {
    %s = xegpu.create_nd_tdesc %src : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    %d = xegpu.create_nd_tdesc %dst : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    %v = xegpu.load_nd %s[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
    xegpu.store_nd %v, %d[0, 0] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @simt_gather
// CHECK-NOT:     xpu.error
// CHECK:         llvm.func spir_kernelcc @pairs
gpu.module @simt_gather [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @pairs(%src: memref<64xf32>, %dst: memref<64xf32>) kernel {
    %c2 = arith.constant 2 : index
    %lane = gpu.lane_id
    %offset = arith.muli %lane, %c2 : index
    %mask = arith.constant true
    %v = xegpu.load %src[%offset], %mask <{chunk_size = 2}> : memref<64xf32>, index, i1 -> vector<2xf32>
    xegpu.store %v, %dst[%offset], %mask <{chunk_size = 2}> : vector<2xf32>, memref<64xf32>, index, i1
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @mixed
// CHECK-SAME:    xpu.error = #xpu.failure<stage = lower, message = "xpu-lower-to-xevm: this XeGPU op works on a whole sub-group's data
// LANE-LABEL: gpu.module @mixed
// LANE-SAME:    xpu.error
gpu.module @mixed [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @both(%a: memref<8x16xf32>, %b: memref<8x16xf32>) kernel {
    %ta = xegpu.create_nd_tdesc %a : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    %tb = xegpu.create_nd_tdesc %b : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    // expected-note @+1 {{first lane-level XeGPU op}}
    %lane = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
    // expected-error @+1 {{xpu-lower-to-xevm: this XeGPU op works on a whole sub-group's data, but the module also holds XeGPU ops already distributed to lanes (SIMT); no xegpu-op-level lowers both, put them in gpu.modules of their own}}
    %tile = xegpu.load_nd %tb[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
    gpu.return
  }
}
