// Two one-kernel f16 modules (four accumulators of vector<16xf16>) that
// differ only in their names: @m3_2::@k3_2_acc4 and its renamed twin
// @m3_2_copy::@c3_2_acc4. With dedupe=false they link into one module
// (kernel-spirv-identical.test).
module attributes {gpu.container_module} {
  gpu.module @m3_2 {
    gpu.func @k3_2_acc4(%in: memref<?xf16>, %out: memref<?xf16>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 16 : index
      %zero = arith.constant 0.0 : f16
      %z = vector.broadcast %zero : f16 to vector<16xf16>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:4 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z) -> (vector<16xf16>, vector<16xf16>, vector<16xf16>, vector<16xf16>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf16>, vector<16xf16>
        %k0 = arith.constant 1.0 : f16
        %s0 = vector.broadcast %k0 : f16 to vector<16xf16>
        %m0 = arith.mulf %x, %s0 : vector<16xf16>
        %n0 = arith.addf %a0, %m0 : vector<16xf16>
        %q0 = math.sqrt %n0 : vector<16xf16>
        %k1 = arith.constant 2.0 : f16
        %s1 = vector.broadcast %k1 : f16 to vector<16xf16>
        %m1 = arith.mulf %x, %s1 : vector<16xf16>
        %n1 = arith.addf %a1, %m1 : vector<16xf16>
        %q1 = math.sqrt %n1 : vector<16xf16>
        %k2 = arith.constant 3.0 : f16
        %s2 = vector.broadcast %k2 : f16 to vector<16xf16>
        %m2 = arith.mulf %x, %s2 : vector<16xf16>
        %n2 = arith.addf %a2, %m2 : vector<16xf16>
        %q2 = math.sqrt %n2 : vector<16xf16>
        %k3 = arith.constant 4.0 : f16
        %s3 = vector.broadcast %k3 : f16 to vector<16xf16>
        %m3 = arith.mulf %x, %s3 : vector<16xf16>
        %n3 = arith.addf %a3, %m3 : vector<16xf16>
        %q3 = math.sqrt %n3 : vector<16xf16>
        scf.yield %q0, %q1, %q2, %q3 : vector<16xf16>, vector<16xf16>, vector<16xf16>, vector<16xf16>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf16>, vector<16xf16>
      %o1 = arith.constant 16 : index
      %p1 = arith.addi %base, %o1 : index
      vector.store %r#1, %out[%p1] : memref<?xf16>, vector<16xf16>
      %o2 = arith.constant 32 : index
      %p2 = arith.addi %base, %o2 : index
      vector.store %r#2, %out[%p2] : memref<?xf16>, vector<16xf16>
      %o3 = arith.constant 48 : index
      %p3 = arith.addi %base, %o3 : index
      vector.store %r#3, %out[%p3] : memref<?xf16>, vector<16xf16>
      gpu.return
    }
  }

  gpu.module @m3_2_copy {
    gpu.func @c3_2_acc4(%in: memref<?xf16>, %out: memref<?xf16>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 16 : index
      %zero = arith.constant 0.0 : f16
      %z = vector.broadcast %zero : f16 to vector<16xf16>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:4 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z) -> (vector<16xf16>, vector<16xf16>, vector<16xf16>, vector<16xf16>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf16>, vector<16xf16>
        %k0 = arith.constant 1.0 : f16
        %s0 = vector.broadcast %k0 : f16 to vector<16xf16>
        %m0 = arith.mulf %x, %s0 : vector<16xf16>
        %n0 = arith.addf %a0, %m0 : vector<16xf16>
        %q0 = math.sqrt %n0 : vector<16xf16>
        %k1 = arith.constant 2.0 : f16
        %s1 = vector.broadcast %k1 : f16 to vector<16xf16>
        %m1 = arith.mulf %x, %s1 : vector<16xf16>
        %n1 = arith.addf %a1, %m1 : vector<16xf16>
        %q1 = math.sqrt %n1 : vector<16xf16>
        %k2 = arith.constant 3.0 : f16
        %s2 = vector.broadcast %k2 : f16 to vector<16xf16>
        %m2 = arith.mulf %x, %s2 : vector<16xf16>
        %n2 = arith.addf %a2, %m2 : vector<16xf16>
        %q2 = math.sqrt %n2 : vector<16xf16>
        %k3 = arith.constant 4.0 : f16
        %s3 = vector.broadcast %k3 : f16 to vector<16xf16>
        %m3 = arith.mulf %x, %s3 : vector<16xf16>
        %n3 = arith.addf %a3, %m3 : vector<16xf16>
        %q3 = math.sqrt %n3 : vector<16xf16>
        scf.yield %q0, %q1, %q2, %q3 : vector<16xf16>, vector<16xf16>, vector<16xf16>, vector<16xf16>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf16>, vector<16xf16>
      %o1 = arith.constant 16 : index
      %p1 = arith.addi %base, %o1 : index
      vector.store %r#1, %out[%p1] : memref<?xf16>, vector<16xf16>
      %o2 = arith.constant 32 : index
      %p2 = arith.addi %base, %o2 : index
      vector.store %r#2, %out[%p2] : memref<?xf16>, vector<16xf16>
      %o3 = arith.constant 48 : index
      %p3 = arith.addi %base, %o3 : index
      vector.store %r#3, %out[%p3] : memref<?xf16>, vector<16xf16>
      gpu.return
    }
  }
}
