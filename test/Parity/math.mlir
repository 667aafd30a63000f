// math as element-wise epilogues use it: the tanh form of GELU, softplus
// (exp, log), rsqrt, fma, and fast-math exp / sqrt (f32 and f16) that
// convert-math-to-xevm maps to OpenCL native builtins.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: gpu.binary @activations {{.*}}grf_mode = #xpu.grf_mode<small>, kernels = {{{.*}}gelu_softplus = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}
// CHECK-SAME: n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// REPORT: "name": "gelu_softplus",
// REPORT: "simd": 16,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT: "module": "activations",
// REPORT-NEXT: "n_regs": 128,

module attributes {gpu.container_module} {
  gpu.module @activations {
    gpu.func @gelu_softplus(%in: memref<?xf32>, %h: memref<?xf16>, %out: memref<?xf32>) kernel {
      %c4 = arith.constant 4 : index
      %gid = gpu.global_id x
      %base = arith.muli %gid, %c4 : index
      %x = vector.load %in[%base] : memref<?xf32>, vector<4xf32>
      %half = arith.constant dense<0.5> : vector<4xf32>
      %one = arith.constant dense<1.0> : vector<4xf32>
      %k = arith.constant dense<0.7978845608> : vector<4xf32>
      %c = arith.constant dense<0.044715> : vector<4xf32>
      // 0.5 x (1 + tanh(k (x + c x^3)))
      %x2 = arith.mulf %x, %x : vector<4xf32>
      %x3 = arith.mulf %x2, %x : vector<4xf32>
      %inner = math.fma %c, %x3, %x : vector<4xf32>
      %arg = arith.mulf %k, %inner : vector<4xf32>
      %t = math.tanh %arg : vector<4xf32>
      %t1 = arith.addf %one, %t : vector<4xf32>
      %hx = arith.mulf %half, %x : vector<4xf32>
      %gelu = arith.mulf %hx, %t1 : vector<4xf32>
      // log(1 + exp(x)), exact and fast-math
      %e = math.exp %x : vector<4xf32>
      %e1 = arith.addf %one, %e : vector<4xf32>
      %sp = math.log %e1 : vector<4xf32>
      %ef = math.exp %x fastmath<fast> : vector<4xf32>
      %r = math.rsqrt %e1 : vector<4xf32>
      %sq = math.sqrt %e1 fastmath<afn> : vector<4xf32>
      %a = arith.addf %gelu, %sp : vector<4xf32>
      %b = arith.addf %ef, %r : vector<4xf32>
      %d = arith.addf %a, %b : vector<4xf32>
      %d2 = arith.addf %d, %sq : vector<4xf32>
      %hv = vector.load %h[%base] : memref<?xf16>, vector<4xf16>
      %he = math.exp %hv fastmath<fast> : vector<4xf16>
      %hf = arith.extf %he : vector<4xf16> to vector<4xf32>
      %res = arith.addf %d2, %hf : vector<4xf32>
      vector.store %res, %out[%base] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }
}
