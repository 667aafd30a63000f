// Upstream XeGPU verifiers divide by layout fields that they never check
// (SIGFPE in TensorDescType::verify while parsing) and LoadNdOp::verify
// truncates element counts to `int` before dividing by them. xpu-opt refuses
// both with a located error before upstream code sees them.
// RUN: xpu-opt %s -split-input-file -verify-diagnostics
// RUN: not xpu-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s

// CHECK: xegpu-layout-zero.mlir:[[@LINE+4]]:118: error: xegpu layout field 'sg_layout' must be positive, got 0
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>) kernel {
    // expected-error @+1 {{xegpu layout field 'sg_layout' must be positive, got 0}}
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #xegpu.layout<sg_layout = [2, 0], sg_data = [32, 32]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>) kernel {
    // expected-error @+1 {{xegpu layout field 'sg_data' must be positive, got 0}}
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #xegpu.layout<sg_layout = [2, 2], sg_data = [32, 0]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>) kernel {
    // expected-error @+1 {{xegpu layout field 'inst_data' must be positive, got 0}}
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #xegpu.layout<inst_data = [0, 16]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<8x16xf16>) kernel {
    // expected-error @+1 {{xegpu layout field 'lane_layout' must be positive, got 0}}
    %t = xegpu.create_nd_tdesc %a : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16, #xegpu.layout<lane_layout = [1, 0], lane_data = [1, 1]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<8x16xf16>) kernel {
    // expected-error @+1 {{xegpu layout field 'lane_data' must be positive, got 0}}
    %t = xegpu.create_nd_tdesc %a : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16, #xegpu.layout<lane_layout = [1, 16], lane_data = [0, 1]>>
    gpu.return
  }
}

// -----

// Negative values divide without a trap but are no layout either.
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>) kernel {
    // expected-error @+1 {{xegpu layout field 'sg_layout' must be positive, got -1}}
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #xegpu.layout<sg_layout = [2, -1], sg_data = [32, 32]>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>) kernel {
    // expected-error @+1 {{xegpu layout field 'order' must be a permutation of 0..1, got 5}}
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #xegpu.layout<sg_layout = [2, 2], sg_data = [32, 32], order = [5, 0]>>
    gpu.return
  }
}

// -----

// Through an alias and in the generic form's array syntax.
// expected-error @+1 {{xegpu layout field 'inst_data' must be positive, got 0}}
#bad = #xegpu.layout<inst_data = array<i32: 8, 0>>
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>) kernel {
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #bad>
    gpu.return
  }
}

// -----

// LoadNdOp::verify: 2^32 elements truncate to an `int` 0, then `% 0`.
gpu.module @m {
  gpu.func @k(%a: memref<8x16xf32>) kernel {
    %ta = xegpu.create_nd_tdesc %a : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    // expected-error @+1 {{'xegpu.load_nd' op operand or result 'vector<4294967296xf32>' has more than 2147483647 elements (or a count below 1)}}
    %lane = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<4294967296xf32>
    gpu.return
  }
}

// -----

// A good chunk after the bad ones still works (and keeps its verifier).
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>) kernel {
    %t = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<64x64xf16, #xegpu.layout<sg_layout = [2, 2], sg_data = [32, 32]>>
    // expected-error @+1 {{'arith.addi' op operand #0 must be signless-integer-like}}
    %x = "arith.addi"(%a, %a) : (memref<64x64xf16>, memref<64x64xf16>) -> i32
    gpu.return
  }
}
