module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<1024xf32>
      gpu.return
    }
  }
}
