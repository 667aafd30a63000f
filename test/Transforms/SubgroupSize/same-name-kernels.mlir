// IMEX-shaped input: several gpu.modules that each define a kernel of the
// same name (@test_kernel), work-groups of one work-item, no sub-group size
// anywhere. Every kernel of every SPIR-V module emitted requires the
// device's default sub-group size, 16, as on upstream's XeVM path: modules
// emitted alone, deduplicated (@select_lt_again is @select_lt up to its
// name), linked (the kernels renamed on the name collision keep it) or
// both. IGC then compiles every kernel SIMD16.
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc},xpu-select-grf-mode,gpu.module(xpu-lower-to-xevm),xpu-emit-spirv)" | %python %S/Inputs/dump-spirv.py | FileCheck %s --check-prefixes=ALONE,AGAIN
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc},xpu-select-grf-mode,xpu-dedupe-modules,gpu.module(xpu-lower-to-xevm),xpu-emit-spirv)" | %python %S/Inputs/dump-spirv.py | FileCheck %s --check-prefixes=ALONE,FOLDED
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc},xpu-select-grf-mode,xpu-link-modules,gpu.module(xpu-lower-to-xevm),xpu-emit-spirv)" | %python %S/Inputs/dump-spirv.py | FileCheck %s --check-prefixes=LINKED,LINKED-AGAIN
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc},xpu-select-grf-mode,xpu-dedupe-modules,xpu-link-modules,gpu.module(xpu-lower-to-xevm),xpu-emit-spirv)" | %python %S/Inputs/dump-spirv.py | FileCheck %s --check-prefixes=LINKED,LINKED-FOLDED

// ALONE-LABEL: binary @select_lt
// ALONE:       OpEntryPoint Kernel %[[K1:[0-9]+]] "test_kernel"
// ALONE:       OpExecutionMode %[[K1]] SubgroupSize 16
// ALONE-LABEL: binary @put_word
// ALONE:       OpEntryPoint Kernel %[[K2:[0-9]+]] "test_kernel"
// ALONE:       OpExecutionMode %[[K2]] SubgroupSize 16
// ALONE-LABEL: binary @max_index
// ALONE:       OpEntryPoint Kernel %[[K3:[0-9]+]] "test_kernel"
// ALONE:       OpExecutionMode %[[K3]] SubgroupSize 16
// ALONE-LABEL: binary @select_gt
// ALONE:       OpEntryPoint Kernel %[[K4:[0-9]+]] "test_kernel"
// ALONE:       OpExecutionMode %[[K4]] SubgroupSize 16
// AGAIN-LABEL: binary @select_lt_again
// AGAIN:       OpEntryPoint Kernel %[[K5:[0-9]+]] "test_kernel"
// AGAIN:       OpExecutionMode %[[K5]] SubgroupSize 16
// FOLDED-NOT:  binary @select_lt_again

// LINKED-LABEL:  binary @xpu_linked
// LINKED-DAG:    OpEntryPoint Kernel %[[L1:[0-9]+]] "test_kernel"
// LINKED-DAG:    OpEntryPoint Kernel %[[L2:[0-9]+]] "test_kernel_put_word"
// LINKED-DAG:    OpEntryPoint Kernel %[[L3:[0-9]+]] "test_kernel_max_index"
// LINKED-DAG:    OpEntryPoint Kernel %[[L4:[0-9]+]] "test_kernel_select_gt"
// LINKED-AGAIN-DAG: OpEntryPoint Kernel %[[L5:[0-9]+]] "test_kernel_select_lt_again"
// LINKED-DAG:    OpExecutionMode %[[L1]] SubgroupSize 16
// LINKED-DAG:    OpExecutionMode %[[L2]] SubgroupSize 16
// LINKED-DAG:    OpExecutionMode %[[L3]] SubgroupSize 16
// LINKED-DAG:    OpExecutionMode %[[L4]] SubgroupSize 16
// LINKED-AGAIN-DAG: OpExecutionMode %[[L5]] SubgroupSize 16
// LINKED-FOLDED-NOT: select_lt_again
// LINKED-NOT:    binary @

// The whole pipeline, linked or not, deduplicated or not: IGC compiles
// every kernel SIMD16, and the report says each requires 16.
// REQUIRES: ocloc
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.default.json" -o /dev/null
// RUN: %python %S/Inputs/report-sizes.py %t.default.json | FileCheck %s --check-prefix=REPORT
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none link=false report=%t.alone.json" -o /dev/null
// RUN: %python %S/Inputs/report-sizes.py %t.alone.json | FileCheck %s --check-prefix=REPORT
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none dedupe=false report=%t.nodedupe.json" -o /dev/null
// RUN: %python %S/Inputs/report-sizes.py %t.nodedupe.json | FileCheck %s --check-prefix=REPORT
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none link=false dedupe=false report=%t.neither.json" -o /dev/null
// RUN: %python %S/Inputs/report-sizes.py %t.neither.json | FileCheck %s --check-prefix=REPORT
// REPORT:      max_index test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: put_word test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: select_gt test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: select_lt test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: select_lt_again test_kernel simd=16 subgroup_size=16
// REPORT-NEXT: kernels=5 without a sub-group size=0

module attributes {gpu.container_module} {
  gpu.module @select_lt {
    gpu.func @test_kernel(%lhs: memref<8xf32>, %rhs: memref<8xf32>, %out: memref<8xf32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>} {
      %i = gpu.block_id x
      %a = memref.load %lhs[%i] : memref<8xf32>
      %b = memref.load %rhs[%i] : memref<8xf32>
      %lt = arith.cmpf olt, %a, %b : f32
      %m = arith.select %lt, %a, %b : f32
      memref.store %m, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @put_word {
    gpu.func @test_kernel(%dst: memref<16xi32>, %word: i32) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 16, 1, 1>} {
      %i = gpu.block_id x
      %iv = arith.index_cast %i : index to i32
      %w = arith.addi %word, %iv : i32
      memref.store %w, %dst[%i] : memref<16xi32>
      gpu.return
    }
  }
  gpu.module @max_index {
    gpu.func @test_kernel(%vals: memref<32xf32>, %best: memref<1xi32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %first = memref.load %vals[%c0] : memref<32xf32>
      %r:2 = scf.for %k = %c1 to %c32 step %c1 iter_args(%bv = %first, %bi = %c0) -> (f32, index) {
        %v = memref.load %vals[%k] : memref<32xf32>
        %gt = arith.cmpf ogt, %v, %bv : f32
        %nv = arith.select %gt, %v, %bv : f32
        %ni = arith.select %gt, %k, %bi : index
        scf.yield %nv, %ni : f32, index
      }
      %res = arith.index_cast %r#1 : index to i32
      memref.store %res, %best[%c0] : memref<1xi32>
      gpu.return
    }
  }
  gpu.module @select_gt {
    gpu.func @test_kernel(%lhs: memref<8xf32>, %rhs: memref<8xf32>, %out: memref<8xf32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>} {
      %i = gpu.block_id x
      %a = memref.load %lhs[%i] : memref<8xf32>
      %b = memref.load %rhs[%i] : memref<8xf32>
      %gt = arith.cmpf ogt, %a, %b : f32
      %m = arith.select %gt, %a, %b : f32
      memref.store %m, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @select_lt_again {
    gpu.func @test_kernel(%lhs: memref<8xf32>, %rhs: memref<8xf32>, %out: memref<8xf32>) kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 8, 1, 1>} {
      %i = gpu.block_id x
      %a = memref.load %lhs[%i] : memref<8xf32>
      %b = memref.load %rhs[%i] : memref<8xf32>
      %lt = arith.cmpf olt, %a, %b : f32
      %m = arith.select %lt, %a, %b : f32
      memref.store %m, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main(%lhs: memref<8xf32>, %rhs: memref<8xf32>, %out: memref<8xf32>, %dst: memref<16xi32>, %vals: memref<32xf32>, %best: memref<1xi32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %w = arith.constant 7 : i32
    gpu.launch_func @select_lt::@test_kernel blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%lhs : memref<8xf32>, %rhs : memref<8xf32>, %out : memref<8xf32>)
    gpu.launch_func @put_word::@test_kernel blocks in (%c16, %c1, %c1) threads in (%c1, %c1, %c1) args(%dst : memref<16xi32>, %w : i32)
    gpu.launch_func @max_index::@test_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%vals : memref<32xf32>, %best : memref<1xi32>)
    gpu.launch_func @select_gt::@test_kernel blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%lhs : memref<8xf32>, %rhs : memref<8xf32>, %out : memref<8xf32>)
    gpu.launch_func @select_lt_again::@test_kernel blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%lhs : memref<8xf32>, %rhs : memref<8xf32>, %out : memref<8xf32>)
    return
  }
}
