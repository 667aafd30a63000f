module attributes {gpu.container_module} {
  gpu.module @acc4 {
    gpu.func @acc4(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:4 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant 1.0 : f32
        %s0 = vector.broadcast %k0 : f32 to vector<8xf32>
        %m0 = arith.mulf %x, %s0 : vector<8xf32>
        %n0 = arith.addf %a0, %m0 : vector<8xf32>
        %q0 = math.sqrt %n0 : vector<8xf32>
        %k1 = arith.constant 2.0 : f32
        %s1 = vector.broadcast %k1 : f32 to vector<8xf32>
        %m1 = arith.mulf %x, %s1 : vector<8xf32>
        %n1 = arith.addf %a1, %m1 : vector<8xf32>
        %q1 = math.sqrt %n1 : vector<8xf32>
        %k2 = arith.constant 3.0 : f32
        %s2 = vector.broadcast %k2 : f32 to vector<8xf32>
        %m2 = arith.mulf %x, %s2 : vector<8xf32>
        %n2 = arith.addf %a2, %m2 : vector<8xf32>
        %q2 = math.sqrt %n2 : vector<8xf32>
        %k3 = arith.constant 4.0 : f32
        %s3 = vector.broadcast %k3 : f32 to vector<8xf32>
        %m3 = arith.mulf %x, %s3 : vector<8xf32>
        %n3 = arith.addf %a3, %m3 : vector<8xf32>
        %q3 = math.sqrt %n3 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf32>, vector<8xf32>
      %o1 = arith.constant 8 : index
      %p1 = arith.addi %base, %o1 : index
      vector.store %r#1, %out[%p1] : memref<?xf32>, vector<8xf32>
      %o2 = arith.constant 16 : index
      %p2 = arith.addi %base, %o2 : index
      vector.store %r#2, %out[%p2] : memref<?xf32>, vector<8xf32>
      %o3 = arith.constant 24 : index
      %p3 = arith.addi %base, %o3 : index
      vector.store %r#3, %out[%p3] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
