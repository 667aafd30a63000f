// One module with two kernels; split.test makes xpu-native-codegen see the
// second one split into a binary of its own.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k1(%buf: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<1024xf32>
      gpu.return
    }
    gpu.func @k2(%buf: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf32>
      %d = math.exp %v : f32
      memref.store %d, %buf[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@k1 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @m::@k2 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @m::@k2 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    return
  }
}
