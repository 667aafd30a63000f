// A register-hungry SPIR-V dialect kernel in IMEX's test/SPIRV shape: 32
// vector<4xf32> accumulators live across a loop, SIMD16 required by the
// kernel's own `SubgroupSize` execution mode. Made by upstream's
// convert-gpu-to-spirv{use-64bit-index} and spirv-lower-abi-attrs from a
// gpu.func (so the gpu.module keeps its func.func declaration), then given
// SubgroupSize (with the SubgroupDispatch capability it needs), which the
// IR and the report show as the module's "subgroup_size".
//
// The GRF decision applies as to any module: with grf-mode=auto the small
// build spills, the large one does not, and large is kept (both attempts
// recorded). The module cache applies too: a second run with the same cache
// takes the module from it before lowering.
// REQUIRES: igc1, igc2
// RUN: rm -rf %t.cache
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc grf-mode=auto cache-dir=%t.cache report=%t.cold.json" | FileCheck %s
// RUN: FileCheck %s --check-prefixes=REPORT,COLD < %t.cold.json
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc grf-mode=auto cache-dir=%t.cache report=%t.warm.json" | FileCheck %s
// RUN: FileCheck %s --check-prefixes=REPORT,WARM < %t.warm.json
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc grf-mode=auto cache-dir=none compiler-root=%igc2_root report=%t.igc2.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.igc2.json

// CHECK:      gpu.binary @accumulate  {xpu.spill = #xpu.spill<grf_mode = large, spill_size = 0, grf_count = 256, simd = 16, threads_per_eu = 4>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, properties = {arch = "pvc", attempts = [{build_flags = "-cl-intel-128-GRF-per-thread", grf_mode = "small", spill_size = {{[1-9][0-9]*}} : i64}, {build_flags = "-cl-intel-256-GRF-per-thread", grf_mode = "large", spill_size = 0 : i64}]
// CHECK-SAME: decision_source = "measured", grf_mode = #xpu.grf_mode<large>, kernels = {acc32 = {grf_count = 256 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}}, n_regs = 256 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// CHECK:      gpu.launch_func  @accumulate::@acc32

// REPORT:      "grf_mode": "small",
// REPORT-NEXT: "spill_size": {{[1-9][0-9]*}}
// REPORT:      "grf_mode": "large",
// REPORT-NEXT: "spill_size": 0
// COLD:        "cache": "miss",
// WARM:        "cache": "hit",
// WARM-NEXT:   "cache_level": "module",
// REPORT:      "decision": "small spilled {{[0-9]+}} bytes > threshold 0; large spilled 0 bytes: kept large",
// REPORT-NEXT: "decision_source": "measured",
// REPORT-NEXT: "grf_mode": "large",
// REPORT:      "grf_count": 256,
// REPORT-NEXT: "n_spills": 0,
// REPORT-NEXT: "name": "acc32",
// REPORT:      "simd": 16,
// REPORT:      "module": "accumulate",
// REPORT-NEXT: "n_regs": 256,

module attributes {gpu.container_module} {
  gpu.module @accumulate {
    spirv.module @__spv__accumulate Physical64 OpenCL requires #spirv.vce<v1.1, [Int64, Addresses, Kernel, SubgroupDispatch], []> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.1, [Addresses, Int64, Kernel, SubgroupDispatch], []>, api=OpenCL, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @acc32(%arg0: !spirv.ptr<f32, CrossWorkgroup>, %arg1: !spirv.ptr<f32, CrossWorkgroup>, %arg2: i64) "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<subgroup_size = 16>, workgroup_attributions = 0 : i64} {
        %cst0_i64 = spirv.Constant 0 : i64
        %cst1_i64 = spirv.Constant 1 : i64
        %cst4_i64 = spirv.Constant 4 : i64
        %cst_vec_4xf32 = spirv.Constant dense<0.000000e+00> : vector<4xf32>
        %__builtin__GlobalInvocationId___addr = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi64>, Input>
        %0 = spirv.Load "Input" %__builtin__GlobalInvocationId___addr : vector<3xi64>
        %1 = spirv.CompositeExtract %0[0 : i32] : vector<3xi64>
        %2 = spirv.IMul %1, %cst4_i64 : i64
        %3 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %4 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %5 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %6 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %7 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %8 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %9 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %10 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %11 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %12 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %13 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %14 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %15 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %16 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %17 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %18 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %19 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %20 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %21 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %22 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %23 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %24 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %25 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %26 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %27 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %28 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %29 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %30 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %31 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %32 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %33 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        %34 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
        spirv.mlir.loop {
          spirv.Branch ^bb1(%cst0_i64, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32, %cst_vec_4xf32 : i64, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
        ^bb1(%100: i64, %101: vector<4xf32>, %102: vector<4xf32>, %103: vector<4xf32>, %104: vector<4xf32>, %105: vector<4xf32>, %106: vector<4xf32>, %107: vector<4xf32>, %108: vector<4xf32>, %109: vector<4xf32>, %110: vector<4xf32>, %111: vector<4xf32>, %112: vector<4xf32>, %113: vector<4xf32>, %114: vector<4xf32>, %115: vector<4xf32>, %116: vector<4xf32>, %117: vector<4xf32>, %118: vector<4xf32>, %119: vector<4xf32>, %120: vector<4xf32>, %121: vector<4xf32>, %122: vector<4xf32>, %123: vector<4xf32>, %124: vector<4xf32>, %125: vector<4xf32>, %126: vector<4xf32>, %127: vector<4xf32>, %128: vector<4xf32>, %129: vector<4xf32>, %130: vector<4xf32>, %131: vector<4xf32>, %132: vector<4xf32>):  // 2 preds: ^bb0, ^bb2
          %133 = spirv.SLessThan %100, %arg2 : i64
          spirv.BranchConditional %133, ^bb2, ^bb3
        ^bb2:  // pred: ^bb1
          %134 = spirv.IAdd %2, %100 : i64
          %cst0_i64_2 = spirv.Constant 0 : i64
          %cst1_i64_3 = spirv.Constant 1 : i64
          %135 = spirv.PtrAccessChain %arg0[%134] : !spirv.ptr<f32, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
          %136 = spirv.Bitcast %135 : !spirv.ptr<f32, CrossWorkgroup> to !spirv.ptr<vector<4xf32>, CrossWorkgroup>
          %137 = spirv.Load "CrossWorkgroup" %136 : vector<4xf32>
          %cst_vec_4xf32_4 = spirv.Constant dense<1.000000e+00> : vector<4xf32>
          %138 = spirv.FMul %137, %101 : vector<4xf32>
          %139 = spirv.FAdd %101, %138 : vector<4xf32>
          %cst_vec_4xf32_5 = spirv.Constant dense<2.000000e+00> : vector<4xf32>
          %140 = spirv.FMul %137, %cst_vec_4xf32_5 : vector<4xf32>
          %141 = spirv.FMul %140, %102 : vector<4xf32>
          %142 = spirv.FAdd %102, %141 : vector<4xf32>
          %cst_vec_4xf32_6 = spirv.Constant dense<3.000000e+00> : vector<4xf32>
          %143 = spirv.FMul %137, %cst_vec_4xf32_6 : vector<4xf32>
          %144 = spirv.FMul %143, %103 : vector<4xf32>
          %145 = spirv.FAdd %103, %144 : vector<4xf32>
          %cst_vec_4xf32_7 = spirv.Constant dense<4.000000e+00> : vector<4xf32>
          %146 = spirv.FMul %137, %cst_vec_4xf32_7 : vector<4xf32>
          %147 = spirv.FMul %146, %104 : vector<4xf32>
          %148 = spirv.FAdd %104, %147 : vector<4xf32>
          %cst_vec_4xf32_8 = spirv.Constant dense<5.000000e+00> : vector<4xf32>
          %149 = spirv.FMul %137, %cst_vec_4xf32_8 : vector<4xf32>
          %150 = spirv.FMul %149, %105 : vector<4xf32>
          %151 = spirv.FAdd %105, %150 : vector<4xf32>
          %cst_vec_4xf32_9 = spirv.Constant dense<6.000000e+00> : vector<4xf32>
          %152 = spirv.FMul %137, %cst_vec_4xf32_9 : vector<4xf32>
          %153 = spirv.FMul %152, %106 : vector<4xf32>
          %154 = spirv.FAdd %106, %153 : vector<4xf32>
          %cst_vec_4xf32_10 = spirv.Constant dense<7.000000e+00> : vector<4xf32>
          %155 = spirv.FMul %137, %cst_vec_4xf32_10 : vector<4xf32>
          %156 = spirv.FMul %155, %107 : vector<4xf32>
          %157 = spirv.FAdd %107, %156 : vector<4xf32>
          %cst_vec_4xf32_11 = spirv.Constant dense<8.000000e+00> : vector<4xf32>
          %158 = spirv.FMul %137, %cst_vec_4xf32_11 : vector<4xf32>
          %159 = spirv.FMul %158, %108 : vector<4xf32>
          %160 = spirv.FAdd %108, %159 : vector<4xf32>
          %cst_vec_4xf32_12 = spirv.Constant dense<9.000000e+00> : vector<4xf32>
          %161 = spirv.FMul %137, %cst_vec_4xf32_12 : vector<4xf32>
          %162 = spirv.FMul %161, %109 : vector<4xf32>
          %163 = spirv.FAdd %109, %162 : vector<4xf32>
          %cst_vec_4xf32_13 = spirv.Constant dense<1.000000e+01> : vector<4xf32>
          %164 = spirv.FMul %137, %cst_vec_4xf32_13 : vector<4xf32>
          %165 = spirv.FMul %164, %110 : vector<4xf32>
          %166 = spirv.FAdd %110, %165 : vector<4xf32>
          %cst_vec_4xf32_14 = spirv.Constant dense<1.100000e+01> : vector<4xf32>
          %167 = spirv.FMul %137, %cst_vec_4xf32_14 : vector<4xf32>
          %168 = spirv.FMul %167, %111 : vector<4xf32>
          %169 = spirv.FAdd %111, %168 : vector<4xf32>
          %cst_vec_4xf32_15 = spirv.Constant dense<1.200000e+01> : vector<4xf32>
          %170 = spirv.FMul %137, %cst_vec_4xf32_15 : vector<4xf32>
          %171 = spirv.FMul %170, %112 : vector<4xf32>
          %172 = spirv.FAdd %112, %171 : vector<4xf32>
          %cst_vec_4xf32_16 = spirv.Constant dense<1.300000e+01> : vector<4xf32>
          %173 = spirv.FMul %137, %cst_vec_4xf32_16 : vector<4xf32>
          %174 = spirv.FMul %173, %113 : vector<4xf32>
          %175 = spirv.FAdd %113, %174 : vector<4xf32>
          %cst_vec_4xf32_17 = spirv.Constant dense<1.400000e+01> : vector<4xf32>
          %176 = spirv.FMul %137, %cst_vec_4xf32_17 : vector<4xf32>
          %177 = spirv.FMul %176, %114 : vector<4xf32>
          %178 = spirv.FAdd %114, %177 : vector<4xf32>
          %cst_vec_4xf32_18 = spirv.Constant dense<1.500000e+01> : vector<4xf32>
          %179 = spirv.FMul %137, %cst_vec_4xf32_18 : vector<4xf32>
          %180 = spirv.FMul %179, %115 : vector<4xf32>
          %181 = spirv.FAdd %115, %180 : vector<4xf32>
          %cst_vec_4xf32_19 = spirv.Constant dense<1.600000e+01> : vector<4xf32>
          %182 = spirv.FMul %137, %cst_vec_4xf32_19 : vector<4xf32>
          %183 = spirv.FMul %182, %116 : vector<4xf32>
          %184 = spirv.FAdd %116, %183 : vector<4xf32>
          %cst_vec_4xf32_20 = spirv.Constant dense<1.700000e+01> : vector<4xf32>
          %185 = spirv.FMul %137, %cst_vec_4xf32_20 : vector<4xf32>
          %186 = spirv.FMul %185, %117 : vector<4xf32>
          %187 = spirv.FAdd %117, %186 : vector<4xf32>
          %cst_vec_4xf32_21 = spirv.Constant dense<1.800000e+01> : vector<4xf32>
          %188 = spirv.FMul %137, %cst_vec_4xf32_21 : vector<4xf32>
          %189 = spirv.FMul %188, %118 : vector<4xf32>
          %190 = spirv.FAdd %118, %189 : vector<4xf32>
          %cst_vec_4xf32_22 = spirv.Constant dense<1.900000e+01> : vector<4xf32>
          %191 = spirv.FMul %137, %cst_vec_4xf32_22 : vector<4xf32>
          %192 = spirv.FMul %191, %119 : vector<4xf32>
          %193 = spirv.FAdd %119, %192 : vector<4xf32>
          %cst_vec_4xf32_23 = spirv.Constant dense<2.000000e+01> : vector<4xf32>
          %194 = spirv.FMul %137, %cst_vec_4xf32_23 : vector<4xf32>
          %195 = spirv.FMul %194, %120 : vector<4xf32>
          %196 = spirv.FAdd %120, %195 : vector<4xf32>
          %cst_vec_4xf32_24 = spirv.Constant dense<2.100000e+01> : vector<4xf32>
          %197 = spirv.FMul %137, %cst_vec_4xf32_24 : vector<4xf32>
          %198 = spirv.FMul %197, %121 : vector<4xf32>
          %199 = spirv.FAdd %121, %198 : vector<4xf32>
          %cst_vec_4xf32_25 = spirv.Constant dense<2.200000e+01> : vector<4xf32>
          %200 = spirv.FMul %137, %cst_vec_4xf32_25 : vector<4xf32>
          %201 = spirv.FMul %200, %122 : vector<4xf32>
          %202 = spirv.FAdd %122, %201 : vector<4xf32>
          %cst_vec_4xf32_26 = spirv.Constant dense<2.300000e+01> : vector<4xf32>
          %203 = spirv.FMul %137, %cst_vec_4xf32_26 : vector<4xf32>
          %204 = spirv.FMul %203, %123 : vector<4xf32>
          %205 = spirv.FAdd %123, %204 : vector<4xf32>
          %cst_vec_4xf32_27 = spirv.Constant dense<2.400000e+01> : vector<4xf32>
          %206 = spirv.FMul %137, %cst_vec_4xf32_27 : vector<4xf32>
          %207 = spirv.FMul %206, %124 : vector<4xf32>
          %208 = spirv.FAdd %124, %207 : vector<4xf32>
          %cst_vec_4xf32_28 = spirv.Constant dense<2.500000e+01> : vector<4xf32>
          %209 = spirv.FMul %137, %cst_vec_4xf32_28 : vector<4xf32>
          %210 = spirv.FMul %209, %125 : vector<4xf32>
          %211 = spirv.FAdd %125, %210 : vector<4xf32>
          %cst_vec_4xf32_29 = spirv.Constant dense<2.600000e+01> : vector<4xf32>
          %212 = spirv.FMul %137, %cst_vec_4xf32_29 : vector<4xf32>
          %213 = spirv.FMul %212, %126 : vector<4xf32>
          %214 = spirv.FAdd %126, %213 : vector<4xf32>
          %cst_vec_4xf32_30 = spirv.Constant dense<2.700000e+01> : vector<4xf32>
          %215 = spirv.FMul %137, %cst_vec_4xf32_30 : vector<4xf32>
          %216 = spirv.FMul %215, %127 : vector<4xf32>
          %217 = spirv.FAdd %127, %216 : vector<4xf32>
          %cst_vec_4xf32_31 = spirv.Constant dense<2.800000e+01> : vector<4xf32>
          %218 = spirv.FMul %137, %cst_vec_4xf32_31 : vector<4xf32>
          %219 = spirv.FMul %218, %128 : vector<4xf32>
          %220 = spirv.FAdd %128, %219 : vector<4xf32>
          %cst_vec_4xf32_32 = spirv.Constant dense<2.900000e+01> : vector<4xf32>
          %221 = spirv.FMul %137, %cst_vec_4xf32_32 : vector<4xf32>
          %222 = spirv.FMul %221, %129 : vector<4xf32>
          %223 = spirv.FAdd %129, %222 : vector<4xf32>
          %cst_vec_4xf32_33 = spirv.Constant dense<3.000000e+01> : vector<4xf32>
          %224 = spirv.FMul %137, %cst_vec_4xf32_33 : vector<4xf32>
          %225 = spirv.FMul %224, %130 : vector<4xf32>
          %226 = spirv.FAdd %130, %225 : vector<4xf32>
          %cst_vec_4xf32_34 = spirv.Constant dense<3.100000e+01> : vector<4xf32>
          %227 = spirv.FMul %137, %cst_vec_4xf32_34 : vector<4xf32>
          %228 = spirv.FMul %227, %131 : vector<4xf32>
          %229 = spirv.FAdd %131, %228 : vector<4xf32>
          %cst_vec_4xf32_35 = spirv.Constant dense<3.200000e+01> : vector<4xf32>
          %230 = spirv.FMul %137, %cst_vec_4xf32_35 : vector<4xf32>
          %231 = spirv.FMul %230, %132 : vector<4xf32>
          %232 = spirv.FAdd %132, %231 : vector<4xf32>
          spirv.Store "Function" %3, %139 : vector<4xf32>
          spirv.Store "Function" %4, %142 : vector<4xf32>
          spirv.Store "Function" %5, %145 : vector<4xf32>
          spirv.Store "Function" %6, %148 : vector<4xf32>
          spirv.Store "Function" %7, %151 : vector<4xf32>
          spirv.Store "Function" %8, %154 : vector<4xf32>
          spirv.Store "Function" %9, %157 : vector<4xf32>
          spirv.Store "Function" %10, %160 : vector<4xf32>
          spirv.Store "Function" %11, %163 : vector<4xf32>
          spirv.Store "Function" %12, %166 : vector<4xf32>
          spirv.Store "Function" %13, %169 : vector<4xf32>
          spirv.Store "Function" %14, %172 : vector<4xf32>
          spirv.Store "Function" %15, %175 : vector<4xf32>
          spirv.Store "Function" %16, %178 : vector<4xf32>
          spirv.Store "Function" %17, %181 : vector<4xf32>
          spirv.Store "Function" %18, %184 : vector<4xf32>
          spirv.Store "Function" %19, %187 : vector<4xf32>
          spirv.Store "Function" %20, %190 : vector<4xf32>
          spirv.Store "Function" %21, %193 : vector<4xf32>
          spirv.Store "Function" %22, %196 : vector<4xf32>
          spirv.Store "Function" %23, %199 : vector<4xf32>
          spirv.Store "Function" %24, %202 : vector<4xf32>
          spirv.Store "Function" %25, %205 : vector<4xf32>
          spirv.Store "Function" %26, %208 : vector<4xf32>
          spirv.Store "Function" %27, %211 : vector<4xf32>
          spirv.Store "Function" %28, %214 : vector<4xf32>
          spirv.Store "Function" %29, %217 : vector<4xf32>
          spirv.Store "Function" %30, %220 : vector<4xf32>
          spirv.Store "Function" %31, %223 : vector<4xf32>
          spirv.Store "Function" %32, %226 : vector<4xf32>
          spirv.Store "Function" %33, %229 : vector<4xf32>
          spirv.Store "Function" %34, %232 : vector<4xf32>
          %233 = spirv.IAdd %100, %cst1_i64 : i64
          spirv.Branch ^bb1(%233, %139, %142, %145, %148, %151, %154, %157, %160, %163, %166, %169, %172, %175, %178, %181, %184, %187, %190, %193, %196, %199, %202, %205, %208, %211, %214, %217, %220, %223, %226, %229, %232 : i64, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
        ^bb3:  // pred: ^bb1
          spirv.mlir.merge
        }
        %35 = spirv.Load "Function" %34 : vector<4xf32>
        %36 = spirv.Load "Function" %33 : vector<4xf32>
        %37 = spirv.Load "Function" %32 : vector<4xf32>
        %38 = spirv.Load "Function" %31 : vector<4xf32>
        %39 = spirv.Load "Function" %30 : vector<4xf32>
        %40 = spirv.Load "Function" %29 : vector<4xf32>
        %41 = spirv.Load "Function" %28 : vector<4xf32>
        %42 = spirv.Load "Function" %27 : vector<4xf32>
        %43 = spirv.Load "Function" %26 : vector<4xf32>
        %44 = spirv.Load "Function" %25 : vector<4xf32>
        %45 = spirv.Load "Function" %24 : vector<4xf32>
        %46 = spirv.Load "Function" %23 : vector<4xf32>
        %47 = spirv.Load "Function" %22 : vector<4xf32>
        %48 = spirv.Load "Function" %21 : vector<4xf32>
        %49 = spirv.Load "Function" %20 : vector<4xf32>
        %50 = spirv.Load "Function" %19 : vector<4xf32>
        %51 = spirv.Load "Function" %18 : vector<4xf32>
        %52 = spirv.Load "Function" %17 : vector<4xf32>
        %53 = spirv.Load "Function" %16 : vector<4xf32>
        %54 = spirv.Load "Function" %15 : vector<4xf32>
        %55 = spirv.Load "Function" %14 : vector<4xf32>
        %56 = spirv.Load "Function" %13 : vector<4xf32>
        %57 = spirv.Load "Function" %12 : vector<4xf32>
        %58 = spirv.Load "Function" %11 : vector<4xf32>
        %59 = spirv.Load "Function" %10 : vector<4xf32>
        %60 = spirv.Load "Function" %9 : vector<4xf32>
        %61 = spirv.Load "Function" %8 : vector<4xf32>
        %62 = spirv.Load "Function" %7 : vector<4xf32>
        %63 = spirv.Load "Function" %6 : vector<4xf32>
        %64 = spirv.Load "Function" %5 : vector<4xf32>
        %65 = spirv.Load "Function" %4 : vector<4xf32>
        %66 = spirv.Load "Function" %3 : vector<4xf32>
        %67 = spirv.FAdd %66, %65 : vector<4xf32>
        %68 = spirv.FAdd %67, %64 : vector<4xf32>
        %69 = spirv.FAdd %68, %63 : vector<4xf32>
        %70 = spirv.FAdd %69, %62 : vector<4xf32>
        %71 = spirv.FAdd %70, %61 : vector<4xf32>
        %72 = spirv.FAdd %71, %60 : vector<4xf32>
        %73 = spirv.FAdd %72, %59 : vector<4xf32>
        %74 = spirv.FAdd %73, %58 : vector<4xf32>
        %75 = spirv.FAdd %74, %57 : vector<4xf32>
        %76 = spirv.FAdd %75, %56 : vector<4xf32>
        %77 = spirv.FAdd %76, %55 : vector<4xf32>
        %78 = spirv.FAdd %77, %54 : vector<4xf32>
        %79 = spirv.FAdd %78, %53 : vector<4xf32>
        %80 = spirv.FAdd %79, %52 : vector<4xf32>
        %81 = spirv.FAdd %80, %51 : vector<4xf32>
        %82 = spirv.FAdd %81, %50 : vector<4xf32>
        %83 = spirv.FAdd %82, %49 : vector<4xf32>
        %84 = spirv.FAdd %83, %48 : vector<4xf32>
        %85 = spirv.FAdd %84, %47 : vector<4xf32>
        %86 = spirv.FAdd %85, %46 : vector<4xf32>
        %87 = spirv.FAdd %86, %45 : vector<4xf32>
        %88 = spirv.FAdd %87, %44 : vector<4xf32>
        %89 = spirv.FAdd %88, %43 : vector<4xf32>
        %90 = spirv.FAdd %89, %42 : vector<4xf32>
        %91 = spirv.FAdd %90, %41 : vector<4xf32>
        %92 = spirv.FAdd %91, %40 : vector<4xf32>
        %93 = spirv.FAdd %92, %39 : vector<4xf32>
        %94 = spirv.FAdd %93, %38 : vector<4xf32>
        %95 = spirv.FAdd %94, %37 : vector<4xf32>
        %96 = spirv.FAdd %95, %36 : vector<4xf32>
        %97 = spirv.FAdd %96, %35 : vector<4xf32>
        %cst0_i64_0 = spirv.Constant 0 : i64
        %cst1_i64_1 = spirv.Constant 1 : i64
        %98 = spirv.PtrAccessChain %arg1[%2] : !spirv.ptr<f32, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %99 = spirv.Bitcast %98 : !spirv.ptr<f32, CrossWorkgroup> to !spirv.ptr<vector<4xf32>, CrossWorkgroup>
        spirv.Store "CrossWorkgroup" %99, %97 : vector<4xf32>
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @acc32, @__builtin__GlobalInvocationId__
      spirv.ExecutionMode @acc32 "SubgroupSize", 16
    }
    func.func @acc32(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: index) attributes {gpu.kernel} {
      return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @accumulate::@acc32 blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<?xf32>, %out : memref<?xf32>, %iters : index)
    return
  }
}
