// Modules that differ only in their constants (@small_a/@small_b: 16
// elements, elided by --mlir-elide-elementsattrs-if-larger=1; @large_a/
// @large_b: 128 elements, over MLIR's hex threshold), one that differs from
// @small_a only in the names of its values' NameLocs (@named: a duplicate
// of @small_a, whatever --mlir-use-nameloc-as-prefix says), and one whose
// locations name its source file (@located: its digest leaves them out).
module attributes {gpu.container_module} {
  gpu.module @small_a {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : vector<16xf32>
      %x = vector.load %buf[%c0] : memref<?xf32>, vector<16xf32>
      %y = arith.addf %x, %z : vector<16xf32>
      vector.store %y, %buf[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
  gpu.module @small_b {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 1234.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : vector<16xf32>
      %x = vector.load %buf[%c0] : memref<?xf32>, vector<16xf32>
      %y = arith.addf %x, %z : vector<16xf32>
      vector.store %y, %buf[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
  gpu.module @named {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index loc("zero")
      %z = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]> : vector<16xf32> loc("offsets")
      %x = vector.load %buf[%c0] : memref<?xf32>, vector<16xf32> loc("loaded")
      %y = arith.addf %x, %z : vector<16xf32> loc("sum")
      vector.store %y, %buf[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
  gpu.module @large_a {
    gpu.func @k(%buf: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<7> : vector<128xi32>
      %x = vector.load %buf[%c0] : memref<?xi32>, vector<128xi32>
      %y = arith.addi %x, %z : vector<128xi32>
      vector.store %y, %buf[%c0] : memref<?xi32>, vector<128xi32>
      gpu.return
    }
  }
  gpu.module @large_b {
    gpu.func @k(%buf: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<[7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8]> : vector<128xi32>
      %x = vector.load %buf[%c0] : memref<?xi32>, vector<128xi32>
      %y = arith.addi %x, %z : vector<128xi32>
      vector.store %y, %buf[%c0] : memref<?xi32>, vector<128xi32>
      gpu.return
    }
  }
  gpu.module @located {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index loc("kernel.py":3:7)
      %z = arith.constant dense<2.0> : vector<16xf32> loc("kernel.py":4:7)
      %x = vector.load %buf[%c0] : memref<?xf32>, vector<16xf32> loc("kernel.py":5:7)
      %y = arith.addf %x, %z : vector<16xf32> loc("kernel.py":6:7)
      vector.store %y, %buf[%c0] : memref<?xf32>, vector<16xf32> loc("kernel.py":7:7)
      gpu.return
    }
  }
}
