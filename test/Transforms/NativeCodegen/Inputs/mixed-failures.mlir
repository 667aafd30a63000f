module attributes {gpu.container_module} {
  gpu.module @good_first {
    gpu.func @copy(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      memref.store %v, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @unlowerable {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      "vendor.sync"(%v) : (f32) -> ()
      gpu.return
    }
  }
  gpu.module @bf16 {
    gpu.func @scale(%buf: memref<64xbf16>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xbf16>
      %d = arith.mulf %v, %v : bf16
      memref.store %d, %buf[%i] : memref<64xbf16>
      gpu.return
    }
  }
  gpu.module @good_last {
    gpu.func @twice(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
}
