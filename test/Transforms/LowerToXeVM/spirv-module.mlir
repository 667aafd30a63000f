// A gpu.module whose device code is a spirv.module is left as it is:
// xpu-emit-spirv serializes the spirv.module, and the kernels declared beside
// it (the gpu.func it was made from, or the func.func that upstream's
// convert-gpu-to-spirv leaves) stay for the launches to name. A kernel that
// is not an entry point of the spirv.module would be lost: that is the
// module's error, located at the kernel.
// RUN: xpu-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(xpu-lower-to-xevm{keep-going=true}))" -verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.module @kept
// CHECK-NEXT:    spirv.module @__spv__kept Physical64 OpenCL
// CHECK:           spirv.EntryPoint "Kernel" @copy
// CHECK:         gpu.func @copy(%{{.*}}: memref<16xf32>) kernel {
// CHECK-NEXT:      gpu.thread_id x
// CHECK:         func.func @copy_decl() attributes {gpu.kernel}
gpu.module @kept [#xpu.target<arch = "pvc", grf_mode = auto>] {
  spirv.module @__spv__kept Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
    spirv.func @copy(%buf: !spirv.ptr<!spirv.array<16 x f32>, CrossWorkgroup>) "None" {
      spirv.Return
    }
    spirv.func @copy_decl() "None" {
      spirv.Return
    }
    spirv.EntryPoint "Kernel" @copy
    spirv.EntryPoint "Kernel" @copy_decl
  }
  gpu.func @copy(%buf: memref<16xf32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %buf[%i] : memref<16xf32>
    memref.store %v, %buf[%i] : memref<16xf32>
    gpu.return
  }
  func.func @copy_decl() attributes {gpu.kernel} {
    return
  }
}

// -----

// CHECK-LABEL: gpu.module @missing
// CHECK-SAME:    xpu.error = #xpu.failure<stage = lower, message = "xpu-lower-to-xevm: kernel 'orphan' is not an entry point
gpu.module @missing [#xpu.target<arch = "pvc", grf_mode = auto>] {
  spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Int64, Kernel, Addresses], []> {
    spirv.func @present() "None" {
      spirv.Return
    }
    spirv.EntryPoint "Kernel" @present
  }
  // expected-error @+1 {{xpu-lower-to-xevm: kernel 'orphan' is not an entry point of the spirv.module beside it, which is all this gpu.module compiles to; add a spirv.EntryPoint for it or move it to a gpu.module of its own}}
  gpu.func @orphan() kernel {
    gpu.return
  }
}
