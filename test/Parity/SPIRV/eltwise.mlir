// IMEX's SPIR-V dialect kernels (the shapes of intel/mlir-extensions
// test/SPIRV: a `spirv.module` in the OpenCL Physical64 model, built-in ids
// read through `spirv.GlobalVariable`s, `spirv.AccessChain` into
// CrossWorkgroup arrays, a `spirv.EntryPoint` per kernel), each inside the
// `gpu.module` its launch names, next to the kernel it was made from: the
// `gpu.func` itself, or the `func.func` declaration that upstream's
// convert-gpu-to-spirv leaves.
// xpu-codegen-pipeline leaves them alone while lowering, serializes them with
// MLIR's serializer and compiles them with the real IGC: the GRF decision,
// the report and the IR attributes are those of any module. Their SPIR-V
// asks for no sub-group size, so like every other kernel each entry point
// gets the one resolved for the kernel declared beside it (16 on pvc), as an
// OpExecutionMode SubgroupSize written into the spirv.module (with the
// SubgroupDispatch capability it needs): IGC compiles them SIMD16, where it
// picked SIMD32 for them before.
// REQUIRES: igc1, igc2
// RUN: xpu-opt %s --xpu-attach-target=arch=pvc --xpu-lower-to-xevm | FileCheck %s --check-prefix=LOWER
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.igc1.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.igc1.json
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none compiler-root=%igc2_root report=%t.igc2.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.igc2.json
// RUN: FileCheck %s --check-prefix=IGC2 < %t.igc2.json

// Lowering keeps the spirv.module and the gpu.func beside it as written.
// LOWER:      gpu.module @scale_add [#xpu.target<arch = "pvc", grf_mode = auto>] {
// LOWER-NEXT:   spirv.module @__spv__scale_add Physical64 OpenCL
// LOWER:          spirv.FMul
// LOWER:          spirv.EntryPoint "Kernel" @scale_add
// LOWER:        gpu.func @scale_add
// LOWER-NEXT:     gpu.block_id x
// LOWER:      gpu.module @relu_rows [#xpu.target<arch = "pvc", grf_mode = auto>] attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
// LOWER-NEXT:   spirv.module @__spv__relu_rows Physical64 OpenCL

// CHECK:      gpu.binary @scale_add  {xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 128, simd = 16, threads_per_eu = 8>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, properties = {arch = "pvc", attempts = [{build_flags = "-cl-intel-128-GRF-per-thread", grf_mode = "small", spill_size = 0 : i64}]
// CHECK-SAME: decision = "small spilled 0 bytes <= threshold 0: kept small", decision_source = "measured", grf_mode = #xpu.grf_mode<small>, kernels = {scale_add = {grf_count = 128 : i64, n_spills = 0 : i64, private_size = 0 : i64, simd = 16 : i64, spill_size = 0 : i64}}, n_regs = 128 : i32, spill_size = 0 : i64, subgroup_size = 16 : i32}, bin = "\7FELF
// The module's own xpu.grf_mode forces large: one build, 256 registers in
// the binary.
// CHECK:      gpu.binary @relu_rows  {xpu.grf_mode = #xpu.grf_mode<large>, xpu.spill = #xpu.spill<grf_mode = large, spill_size = 0, grf_count = 256, simd = 16, threads_per_eu = 4>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto>, properties = {arch = "pvc", attempts = [{build_flags = "-cl-intel-256-GRF-per-thread", grf_mode = "large", spill_size = 0 : i64}]
// CHECK-SAME: grf_mode = #xpu.grf_mode<large>, kernels = {relu_rows = {grf_count = 256 : i64
// CHECK-SAME: n_regs = 256 : i32
// CHECK-NOT:  gpu.module
// CHECK:      gpu.launch_func  @scale_add::@scale_add
// CHECK:      gpu.launch_func  @relu_rows::@relu_rows

// REPORT:      "module": "scale_add",
// REPORT-NEXT: "n_regs": 128,
// REPORT-NEXT: "spill_size": 0,
// REPORT-NEXT: "subgroup_size": 16
// REPORT:      "build_flags": "-cl-intel-256-GRF-per-thread",
// REPORT:      "grf_count": 256,
// REPORT-NEXT: "n_spills": 0,
// REPORT-NEXT: "name": "relu_rows",
// REPORT:      "module": "relu_rows",
// REPORT-NEXT: "n_regs": 256,
// IGC2:        "compiler": "ocloc 26.27.

module attributes {gpu.container_module} {
  gpu.module @scale_add {
    spirv.module @__spv__scale_add Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Addresses, Int64, Kernel], []>, api=OpenCL, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin_var_WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @scale_add(%a: !spirv.ptr<!spirv.array<256 x f32>, CrossWorkgroup>, %b: !spirv.ptr<!spirv.array<256 x f32>, CrossWorkgroup>, %c: !spirv.ptr<!spirv.array<256 x f32>, CrossWorkgroup>) "None" attributes {workgroup_attributions = 0 : i64} {
        %ids_addr = spirv.mlir.addressof @__builtin_var_WorkgroupId__ : !spirv.ptr<vector<3xi64>, Input>
        %ids = spirv.Load "Input" %ids_addr : vector<3xi64>
        %row = spirv.CompositeExtract %ids[0 : i32] : vector<3xi64>
        %col = spirv.CompositeExtract %ids[1 : i32] : vector<3xi64>
        %c32 = spirv.Constant 32 : i64
        %row_base = spirv.IMul %row, %c32 : i64
        %idx = spirv.IAdd %row_base, %col : i64
        %pa = spirv.AccessChain %a[%idx] : !spirv.ptr<!spirv.array<256 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %pb = spirv.AccessChain %b[%idx] : !spirv.ptr<!spirv.array<256 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %pc = spirv.AccessChain %c[%idx] : !spirv.ptr<!spirv.array<256 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %x = spirv.Load "CrossWorkgroup" %pa : f32
        %y = spirv.Load "CrossWorkgroup" %pb : f32
        %two = spirv.Constant 2.000000e+00 : f32
        %x2 = spirv.FMul %x, %two : f32
        %sum = spirv.FAdd %x2, %y : f32
        spirv.Store "CrossWorkgroup" %pc, %sum : f32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @scale_add, @__builtin_var_WorkgroupId__
    }
    gpu.func @scale_add(%a: memref<8x32xf32>, %b: memref<8x32xf32>, %c: memref<8x32xf32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 8, 32, 1>} {
      %row = gpu.block_id x
      %col = gpu.block_id y
      %x = memref.load %a[%row, %col] : memref<8x32xf32>
      %y = memref.load %b[%row, %col] : memref<8x32xf32>
      %two = arith.constant 2.000000e+00 : f32
      %x2 = arith.mulf %x, %two : f32
      %sum = arith.addf %x2, %y : f32
      memref.store %sum, %c[%row, %col] : memref<8x32xf32>
      gpu.return
    }
  }
  gpu.module @relu_rows attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
    spirv.module @__spv__relu_rows Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Addresses, Int64, Kernel], []>, api=OpenCL, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @__builtin_var_WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.GlobalVariable @__builtin_var_LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @relu_rows(%src: !spirv.ptr<!spirv.array<1024 x f32>, CrossWorkgroup>, %dst: !spirv.ptr<!spirv.array<1024 x f32>, CrossWorkgroup>) "None" attributes {workgroup_attributions = 0 : i64} {
        %wg_addr = spirv.mlir.addressof @__builtin_var_WorkgroupId__ : !spirv.ptr<vector<3xi64>, Input>
        %wg = spirv.Load "Input" %wg_addr : vector<3xi64>
        %row = spirv.CompositeExtract %wg[0 : i32] : vector<3xi64>
        %lid_addr = spirv.mlir.addressof @__builtin_var_LocalInvocationId__ : !spirv.ptr<vector<3xi64>, Input>
        %lid = spirv.Load "Input" %lid_addr : vector<3xi64>
        %col = spirv.CompositeExtract %lid[0 : i32] : vector<3xi64>
        %c32 = spirv.Constant 32 : i64
        %row_base = spirv.IMul %row, %c32 : i64
        %idx = spirv.IAdd %row_base, %col : i64
        %ps = spirv.AccessChain %src[%idx] : !spirv.ptr<!spirv.array<1024 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %x = spirv.Load "CrossWorkgroup" %ps : f32
        %zero = spirv.Constant 0.000000e+00 : f32
        %positive = spirv.FOrdGreaterThan %x, %zero : f32
        %y = spirv.Select %positive, %x, %zero : i1, f32
        %pd = spirv.AccessChain %dst[%idx] : !spirv.ptr<!spirv.array<1024 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        spirv.Store "CrossWorkgroup" %pd, %y : f32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @relu_rows, @__builtin_var_WorkgroupId__, @__builtin_var_LocalInvocationId__
    }
    func.func @relu_rows(%src: memref<1024xf32>, %dst: memref<1024xf32>) attributes {gpu.kernel} {
      return
    }
  }
  func.func @launch(%a: memref<8x32xf32>, %b: memref<8x32xf32>, %c: memref<8x32xf32>, %src: memref<1024xf32>, %dst: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @scale_add::@scale_add blocks in (%c8, %c32, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8x32xf32>, %b : memref<8x32xf32>, %c : memref<8x32xf32>)
    gpu.launch_func @relu_rows::@relu_rows blocks in (%c32, %c1, %c1) threads in (%c32, %c1, %c1) args(%src : memref<1024xf32>, %dst : memref<1024xf32>)
    return
  }
}
