// A kernel using f64: IGC rejects it on devices without double support.
module attributes {gpu.container_module} {
  gpu.module @doubles {
    gpu.func @scale(%buf: memref<1024xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf64>
      %c = arith.constant 3.0 : f64
      %d = arith.mulf %v, %c : f64
      memref.store %d, %buf[%i] : memref<1024xf64>
      gpu.return
    }
  }
}
