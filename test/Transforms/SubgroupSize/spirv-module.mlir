// IMEX-shaped SPIR-V dialect kernels: several gpu.modules that each hold a
// spirv.module defining @test_kernel next to the gpu.func it was made from
// (work-groups of one work-item, no sub-group size). Their SPIR-V gets the
// sub-group size every other kernel gets, 16 (the device's default, as on
// upstream's XeVM path for the gpu.func), with the SubgroupDispatch
// capability (and SPIR-V 1.1) it needs; a size the spirv.module writes itself
// is kept (@own_size: 32), and a target with subgroup_size = 0 asks for none
// (@free). IGC then compiles them at that width instead of picking SIMD32.
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-select-grf-mode,gpu.module(xpu-lower-to-xevm),xpu-emit-spirv{validate-spirv=strict})" | %python %S/Inputs/dump-spirv.py | FileCheck %s
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-select-grf-mode,xpu-dedupe-modules,xpu-link-modules,gpu.module(xpu-lower-to-xevm),xpu-emit-spirv{validate-spirv=strict})" | %python %S/Inputs/dump-spirv.py | FileCheck %s

// CHECK-LABEL: binary @cmp_select
// CHECK:       OpEntryPoint Kernel %[[K1:[0-9]+]] "test_kernel"
// CHECK:       OpExecutionMode %[[K1]] SubgroupSize 16
// CHECK-LABEL: binary @store_word
// CHECK:       OpEntryPoint Kernel %[[K2:[0-9]+]] "test_kernel"
// CHECK:       OpExecutionMode %[[K2]] SubgroupSize 16
// CHECK-LABEL: binary @arg_max
// CHECK:       OpEntryPoint Kernel %[[K3:[0-9]+]] "test_kernel"
// CHECK:       OpExecutionMode %[[K3]] SubgroupSize 16
// CHECK-LABEL: binary @own_size
// CHECK:       OpEntryPoint Kernel %[[K4:[0-9]+]] "test_kernel"
// CHECK:       OpExecutionMode %[[K4]] SubgroupSize 32
// CHECK-NOT:   SubgroupSize
// CHECK-LABEL: binary @free
// CHECK:       OpEntryPoint Kernel
// CHECK-NOT:   SubgroupSize

// The whole pipeline, with and without linking and deduplication (neither
// applies to spirv.module modules): SIMD as required, in the report too.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc module=^(cmp_select|store_word|arg_max|own_size)$ cache-dir=none validate-spirv=strict report=%t.default.json" -o /dev/null
// RUN: %python %S/Inputs/report-sizes.py %t.default.json | FileCheck %s --check-prefix=REPORT
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc module=^(cmp_select|store_word|arg_max|own_size)$ cache-dir=none validate-spirv=strict link=false dedupe=false report=%t.neither.json" -o /dev/null
// RUN: %python %S/Inputs/report-sizes.py %t.neither.json | FileCheck %s --check-prefix=REPORT
// REPORT:      arg_max test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: cmp_select test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: free test_kernel simd={{16|32}} subgroup_size=0
// REPORT-NEXT: own_size test_kernel simd=32 subgroup_size=32
// REPORT-NEXT: store_word test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: kernels=5 without a sub-group size=1

module attributes {gpu.container_module} {
  gpu.module @cmp_select [#xpu.target<arch = "pvc", grf_mode = auto>] {
    spirv.module @__spv__cmp_select Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.GlobalVariable @__builtin_var_WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @test_kernel(%lhs: !spirv.ptr<!spirv.array<8 x f32>, CrossWorkgroup>, %rhs: !spirv.ptr<!spirv.array<8 x f32>, CrossWorkgroup>, %out: !spirv.ptr<!spirv.array<8 x f32>, CrossWorkgroup>) "None" {
        %ids_addr = spirv.mlir.addressof @__builtin_var_WorkgroupId__ : !spirv.ptr<vector<3xi64>, Input>
        %ids = spirv.Load "Input" %ids_addr : vector<3xi64>
        %i = spirv.CompositeExtract %ids[0 : i32] : vector<3xi64>
        %pa = spirv.AccessChain %lhs[%i] : !spirv.ptr<!spirv.array<8 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %pb = spirv.AccessChain %rhs[%i] : !spirv.ptr<!spirv.array<8 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %po = spirv.AccessChain %out[%i] : !spirv.ptr<!spirv.array<8 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %a = spirv.Load "CrossWorkgroup" %pa : f32
        %b = spirv.Load "CrossWorkgroup" %pb : f32
        %gt = spirv.FOrdGreaterThan %b, %a : f32
        %m = spirv.Select %gt, %b, %a : i1, f32
        spirv.Store "CrossWorkgroup" %po, %m : f32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @test_kernel, @__builtin_var_WorkgroupId__
    }
    gpu.func @test_kernel(%lhs: memref<8xf32>, %rhs: memref<8xf32>, %out: memref<8xf32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>} {
      %i = gpu.block_id x
      %a = memref.load %lhs[%i] : memref<8xf32>
      %b = memref.load %rhs[%i] : memref<8xf32>
      %gt = arith.cmpf ogt, %b, %a : f32
      %m = arith.select %gt, %b, %a : f32
      memref.store %m, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @store_word [#xpu.target<arch = "pvc", grf_mode = auto>] {
    spirv.module @__spv__store_word Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.GlobalVariable @__builtin_var_WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @test_kernel(%word: i32, %dst: !spirv.ptr<!spirv.array<16 x i32>, CrossWorkgroup>) "None" {
        %ids_addr = spirv.mlir.addressof @__builtin_var_WorkgroupId__ : !spirv.ptr<vector<3xi64>, Input>
        %ids = spirv.Load "Input" %ids_addr : vector<3xi64>
        %i = spirv.CompositeExtract %ids[0 : i32] : vector<3xi64>
        %p = spirv.AccessChain %dst[%i] : !spirv.ptr<!spirv.array<16 x i32>, CrossWorkgroup>, i64 -> !spirv.ptr<i32, CrossWorkgroup>
        spirv.Store "CrossWorkgroup" %p, %word : i32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @test_kernel, @__builtin_var_WorkgroupId__
    }
    gpu.func @test_kernel(%word: i32, %dst: memref<16xi32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 16, 1, 1>} {
      %i = gpu.block_id x
      memref.store %word, %dst[%i] : memref<16xi32>
      gpu.return
    }
  }
  gpu.module @arg_max [#xpu.target<arch = "pvc", grf_mode = auto>] {
    spirv.module @__spv__arg_max Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.func @test_kernel(%vals: !spirv.ptr<!spirv.array<32 x f32>, CrossWorkgroup>, %best: !spirv.ptr<!spirv.array<1 x i32>, CrossWorkgroup>) "None" {
        %c0 = spirv.Constant 0 : i64
        %c1 = spirv.Constant 1 : i64
        %c32 = spirv.Constant 32 : i64
        %p0 = spirv.AccessChain %best[%c0] : !spirv.ptr<!spirv.array<1 x i32>, CrossWorkgroup>, i64 -> !spirv.ptr<i32, CrossWorkgroup>
        %z = spirv.Constant 0 : i32
        spirv.Store "CrossWorkgroup" %p0, %z : i32
        spirv.mlir.loop {
          spirv.Branch ^header(%c1 : i64)
        ^header(%k: i64):
          %more = spirv.SLessThan %k, %c32 : i64
          spirv.BranchConditional %more, ^body, ^merge
        ^body:
          %bi = spirv.Load "CrossWorkgroup" %p0 : i32
          %bi64 = spirv.SConvert %bi : i32 to i64
          %pb = spirv.AccessChain %vals[%bi64] : !spirv.ptr<!spirv.array<32 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
          %pv = spirv.AccessChain %vals[%k] : !spirv.ptr<!spirv.array<32 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
          %bv = spirv.Load "CrossWorkgroup" %pb : f32
          %v = spirv.Load "CrossWorkgroup" %pv : f32
          %gt = spirv.FOrdGreaterThan %v, %bv : f32
          %k32 = spirv.SConvert %k : i64 to i32
          %ni = spirv.Select %gt, %k32, %bi : i1, i32
          spirv.Store "CrossWorkgroup" %p0, %ni : i32
          %next = spirv.IAdd %k, %c1 : i64
          spirv.Branch ^header(%next : i64)
        ^merge:
          spirv.mlir.merge
        }
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @test_kernel
    }
    gpu.func @test_kernel(%vals: memref<32xf32>, %best: memref<1xi32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
  gpu.module @own_size [#xpu.target<arch = "pvc", grf_mode = auto>] {
    spirv.module @__spv__own_size Physical64 OpenCL requires #spirv.vce<v1.1, [Int64, Kernel, Addresses, SubgroupDispatch], []> {
      spirv.GlobalVariable @__builtin_var_WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @test_kernel(%word: i32, %dst: !spirv.ptr<!spirv.array<16 x i32>, CrossWorkgroup>) "None" {
        %ids_addr = spirv.mlir.addressof @__builtin_var_WorkgroupId__ : !spirv.ptr<vector<3xi64>, Input>
        %ids = spirv.Load "Input" %ids_addr : vector<3xi64>
        %i = spirv.CompositeExtract %ids[0 : i32] : vector<3xi64>
        %p = spirv.AccessChain %dst[%i] : !spirv.ptr<!spirv.array<16 x i32>, CrossWorkgroup>, i64 -> !spirv.ptr<i32, CrossWorkgroup>
        %two = spirv.Constant 2 : i32
        %w = spirv.IMul %word, %two : i32
        spirv.Store "CrossWorkgroup" %p, %w : i32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @test_kernel, @__builtin_var_WorkgroupId__
      spirv.ExecutionMode @test_kernel "SubgroupSize", 32
    }
    func.func @test_kernel(%word: i32, %dst: memref<16xi32>) attributes {gpu.kernel} {
      return
    }
  }
  gpu.module @free [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 0>] {
    spirv.module @__spv__free Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.GlobalVariable @__builtin_var_WorkgroupId__ built_in("WorkgroupId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @test_kernel(%word: i32, %dst: !spirv.ptr<!spirv.array<16 x i32>, CrossWorkgroup>) "None" {
        %ids_addr = spirv.mlir.addressof @__builtin_var_WorkgroupId__ : !spirv.ptr<vector<3xi64>, Input>
        %ids = spirv.Load "Input" %ids_addr : vector<3xi64>
        %i = spirv.CompositeExtract %ids[0 : i32] : vector<3xi64>
        %p = spirv.AccessChain %dst[%i] : !spirv.ptr<!spirv.array<16 x i32>, CrossWorkgroup>, i64 -> !spirv.ptr<i32, CrossWorkgroup>
        %three = spirv.Constant 3 : i32
        %w = spirv.IMul %word, %three : i32
        spirv.Store "CrossWorkgroup" %p, %w : i32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @test_kernel, @__builtin_var_WorkgroupId__
    }
    func.func @test_kernel(%word: i32, %dst: memref<16xi32>) attributes {gpu.kernel} {
      return
    }
  }
  func.func @main(%lhs: memref<8xf32>, %rhs: memref<8xf32>, %out: memref<8xf32>, %dst: memref<16xi32>, %vals: memref<32xf32>, %best: memref<1xi32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %w = arith.constant 7 : i32
    gpu.launch_func @cmp_select::@test_kernel blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%lhs : memref<8xf32>, %rhs : memref<8xf32>, %out : memref<8xf32>)
    gpu.launch_func @store_word::@test_kernel blocks in (%c16, %c1, %c1) threads in (%c1, %c1, %c1) args(%w : i32, %dst : memref<16xi32>)
    gpu.launch_func @arg_max::@test_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%vals : memref<32xf32>, %best : memref<1xi32>)
    gpu.launch_func @own_size::@test_kernel blocks in (%c16, %c1, %c1) threads in (%c1, %c1, %c1) args(%w : i32, %dst : memref<16xi32>)
    gpu.launch_func @free::@test_kernel blocks in (%c16, %c1, %c1) threads in (%c1, %c1, %c1) args(%w : i32, %dst : memref<16xi32>)
    return
  }
}
