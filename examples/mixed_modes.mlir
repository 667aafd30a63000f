// Kernels of one module asking for different GRF modes: xpu-select-grf-mode
// splits the module (build flags apply per module) and redirects launches.
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
  func.func @host(%a: memref<1024xf32>, %b: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @mixed::@copy_small blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%a : memref<1024xf32>, %b : memref<1024xf32>)
    gpu.launch_func @mixed::@copy_large blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%a : memref<1024xf32>, %b : memref<1024xf32>)
    return
  }
}
