// elide-flag.test (issue 26 item 1): elide-a.mlir and elide-b.mlir differ only in
// element 7 of @m's constant; elide-ab.mlir holds both as @ma and @mb.
module attributes {gpu.container_module} {
  gpu.module @ma {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : vector<16xf32>
      %x = vector.load %buf[%c0] : memref<?xf32>, vector<16xf32>
      %y = arith.addf %x, %z : vector<16xf32>
      vector.store %y, %buf[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
  gpu.module @mb {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 1234.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : vector<16xf32>
      %x = vector.load %buf[%c0] : memref<?xf32>, vector<16xf32>
      %y = arith.addf %x, %z : vector<16xf32>
      vector.store %y, %buf[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}
