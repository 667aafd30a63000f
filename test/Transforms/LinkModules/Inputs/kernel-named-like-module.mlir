// aliasing-pipeline.test (issue 26 item 3): two modules, each named after its kernel.
module attributes {gpu.container_module} {
  gpu.module @add {
    gpu.func @add(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @mul {
    gpu.func @mul(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @add::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @mul::@mul blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    return
  }
}
