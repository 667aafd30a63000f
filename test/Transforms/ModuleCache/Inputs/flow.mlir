// Modules for the module cache tests: one whose kernels ask for different
// GRF modes (xpu-select-grf-mode splits it and redirects a launch), two
// equal up to symbol names (xpu-dedupe-modules folds the second), and a
// plain one.
module attributes {gpu.container_module} {
  gpu.module @mixed {
    gpu.func @copy_small(%in: memref<1024xf32>, %out: memref<1024xf32>) kernel
        attributes {xpu.grf_mode = #xpu.grf_mode<small>} {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<1024xf32>
      memref.store %v, %out[%i] : memref<1024xf32>
      gpu.return
    }
    gpu.func @copy_large(%in: memref<1024xf32>, %out: memref<1024xf32>) kernel
        attributes {xpu.grf_mode = #xpu.grf_mode<large>} {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<1024xf32>
      %d = math.exp %v : f32
      memref.store %d, %out[%i] : memref<1024xf32>
      gpu.return
    }
  }
  gpu.module @exe_0 {
    gpu.func @dispatch_0(%buf: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<1024xf32>
      gpu.return
    }
  }
  gpu.module @exe_1 {
    gpu.func @dispatch_1(%buf: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<1024xf32>
      gpu.return
    }
  }
  gpu.module @plain {
    gpu.func @twice(%buf: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<1024xf32>, %b: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @mixed::@copy_small blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>, %b : memref<1024xf32>)
    gpu.launch_func @mixed::@copy_large blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>, %b : memref<1024xf32>)
    gpu.launch_func @exe_0::@dispatch_0 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @exe_1::@dispatch_1 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @plain::@twice blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<1024xf32>)
    return
  }
}
