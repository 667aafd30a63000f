// aliasing-pipeline.test (issue 26 item 3): each kernel named like the other module.
module attributes {gpu.container_module} {
  gpu.module @b {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      memref.store %v, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @k {
    gpu.func @b(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @k::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    return
  }
}
