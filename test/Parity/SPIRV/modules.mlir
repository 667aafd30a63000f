// Per-module behaviour for spirv.module kernels in one input: a gpu.module
// whose kernel declaration is not an entry point of its spirv.module fails
// alone, located at that kernel (the report lists it with its error, the
// tool exits non-zero); the other modules compile. With link=true they are
// not linked, not even those with gpu.func kernels beside their spirv.module
// (each spirv.module is a whole SPIR-V module of its own); two modules equal
// up to symbol names are still compiled once (xpu-dedupe-modules).
// REQUIRES: igc1
// RUN: not xpu-opt %s --xpu-codegen-pipeline="arch=pvc grf-mode=small cache-dir=none link=true report=%t.json" -o %t.mlir 2> %t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// ERR: modules.mlir:[[@LINE+118]]:5: error: xpu-lower-to-xevm: kernel 'fill_twice' is not an entry point of the spirv.module beside it

// CHECK:     gpu.binary @fill_a  {xpu.duplicates = ["fill_b"], xpu.spill = #xpu.spill<grf_mode = small, spill_size = 0, grf_count = 128, simd = 16, threads_per_eu = 8>}
// CHECK-SAME: kernels = {fill = {grf_count = 128 : i64
// CHECK:     gpu.binary @scale_x
// CHECK-SAME: kernels = {scale_x = {grf_count = 128 : i64
// CHECK:     gpu.binary @scale_y
// CHECK-SAME: kernels = {scale_y = {grf_count = 128 : i64
// CHECK:     gpu.module @orphan
// CHECK-SAME: xpu.error = #xpu.failure<stage = lower, message = "xpu-lower-to-xevm: kernel 'fill_twice' is not an entry point
// CHECK-NOT: xpu.linked
// CHECK:     gpu.launch_func  @fill_a::@fill
// CHECK:     gpu.launch_func  @fill_a::@fill
// CHECK:     gpu.launch_func  @scale_x::@scale_x
// CHECK:     gpu.launch_func  @scale_y::@scale_y

// REPORT:      "module": "fill_a",
// REPORT:      "deduplicated_from": "fill_a",
// REPORT:      "module": "fill_b",
// REPORT-NOT:  "linked_into"
// REPORT:      "module": "scale_x",
// REPORT-NOT:  "linked_into"
// REPORT:      "module": "scale_y",
// REPORT:      "error": "xpu-lower-to-xevm: kernel 'fill_twice' is not an entry point
// REPORT:      "module": "orphan"

module attributes {gpu.container_module} {
  gpu.module @fill_a {
    spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.GlobalVariable @__builtin_var_GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @fill(%out: !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>, %value: f32) "None" {
        %gid_addr = spirv.mlir.addressof @__builtin_var_GlobalInvocationId__ : !spirv.ptr<vector<3xi64>, Input>
        %gid = spirv.Load "Input" %gid_addr : vector<3xi64>
        %i = spirv.CompositeExtract %gid[0 : i32] : vector<3xi64>
        %p = spirv.AccessChain %out[%i] : !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        spirv.Store "CrossWorkgroup" %p, %value : f32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @fill, @__builtin_var_GlobalInvocationId__
    }
    func.func @fill(%out: memref<64xf32>, %value: f32) attributes {gpu.kernel} {
      return
    }
  }
  gpu.module @fill_b {
    spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.GlobalVariable @__builtin_var_GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @fill(%out: !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>, %value: f32) "None" {
        %gid_addr = spirv.mlir.addressof @__builtin_var_GlobalInvocationId__ : !spirv.ptr<vector<3xi64>, Input>
        %gid = spirv.Load "Input" %gid_addr : vector<3xi64>
        %i = spirv.CompositeExtract %gid[0 : i32] : vector<3xi64>
        %p = spirv.AccessChain %out[%i] : !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        spirv.Store "CrossWorkgroup" %p, %value : f32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @fill, @__builtin_var_GlobalInvocationId__
    }
    func.func @fill(%out: memref<64xf32>, %value: f32) attributes {gpu.kernel} {
      return
    }
  }
  gpu.module @scale_x {
    spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.GlobalVariable @__builtin_var_GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @scale_x(%buf: !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>) "None" {
        %gid_addr = spirv.mlir.addressof @__builtin_var_GlobalInvocationId__ : !spirv.ptr<vector<3xi64>, Input>
        %gid = spirv.Load "Input" %gid_addr : vector<3xi64>
        %i = spirv.CompositeExtract %gid[0 : i32] : vector<3xi64>
        %p = spirv.AccessChain %buf[%i] : !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %x = spirv.Load "CrossWorkgroup" %p : f32
        %k = spirv.Constant 2.000000e+00 : f32
        %y = spirv.FMul %x, %k : f32
        spirv.Store "CrossWorkgroup" %p, %y : f32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @scale_x, @__builtin_var_GlobalInvocationId__
    }
    gpu.func @scale_x(%buf: memref<64xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %buf[%i] : memref<64xf32>
      %k = arith.constant 2.000000e+00 : f32
      %y = arith.mulf %x, %k : f32
      memref.store %y, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @scale_y {
    spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.GlobalVariable @__builtin_var_GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
      spirv.func @scale_y(%buf: !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>) "None" {
        %gid_addr = spirv.mlir.addressof @__builtin_var_GlobalInvocationId__ : !spirv.ptr<vector<3xi64>, Input>
        %gid = spirv.Load "Input" %gid_addr : vector<3xi64>
        %i = spirv.CompositeExtract %gid[0 : i32] : vector<3xi64>
        %p = spirv.AccessChain %buf[%i] : !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>, i64 -> !spirv.ptr<f32, CrossWorkgroup>
        %x = spirv.Load "CrossWorkgroup" %p : f32
        %k = spirv.Constant 3.000000e+00 : f32
        %y = spirv.FMul %x, %k : f32
        spirv.Store "CrossWorkgroup" %p, %y : f32
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @scale_y, @__builtin_var_GlobalInvocationId__
    }
    gpu.func @scale_y(%buf: memref<64xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %buf[%i] : memref<64xf32>
      %k = arith.constant 3.000000e+00 : f32
      %y = arith.mulf %x, %k : f32
      memref.store %y, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @orphan {
    spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
      spirv.func @fill_once() "None" {
        spirv.Return
      }
      spirv.EntryPoint "Kernel" @fill_once
    }
    func.func @fill_twice() attributes {gpu.kernel} {
      return
    }
  }
  func.func @launch(%out: memref<64xf32>, %value: f32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @fill_a::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>, %value : f32)
    gpu.launch_func @fill_b::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>, %value : f32)
    gpu.launch_func @scale_x::@scale_x blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    gpu.launch_func @scale_y::@scale_y blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    return
  }
}
