module attributes {gpu.container_module} {
  gpu.module @heavy_a {
    gpu.func @acc40(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:40 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z, %a16 = %z, %a17 = %z, %a18 = %z, %a19 = %z, %a20 = %z, %a21 = %z, %a22 = %z, %a23 = %z, %a24 = %z, %a25 = %z, %a26 = %z, %a27 = %z, %a28 = %z, %a29 = %z, %a30 = %z, %a31 = %z, %a32 = %z, %a33 = %z, %a34 = %z, %a35 = %z, %a36 = %z, %a37 = %z, %a38 = %z, %a39 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
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
        %k4 = arith.constant 5.0 : f32
        %s4 = vector.broadcast %k4 : f32 to vector<8xf32>
        %m4 = arith.mulf %x, %s4 : vector<8xf32>
        %n4 = arith.addf %a4, %m4 : vector<8xf32>
        %q4 = math.sqrt %n4 : vector<8xf32>
        %k5 = arith.constant 6.0 : f32
        %s5 = vector.broadcast %k5 : f32 to vector<8xf32>
        %m5 = arith.mulf %x, %s5 : vector<8xf32>
        %n5 = arith.addf %a5, %m5 : vector<8xf32>
        %q5 = math.sqrt %n5 : vector<8xf32>
        %k6 = arith.constant 7.0 : f32
        %s6 = vector.broadcast %k6 : f32 to vector<8xf32>
        %m6 = arith.mulf %x, %s6 : vector<8xf32>
        %n6 = arith.addf %a6, %m6 : vector<8xf32>
        %q6 = math.sqrt %n6 : vector<8xf32>
        %k7 = arith.constant 8.0 : f32
        %s7 = vector.broadcast %k7 : f32 to vector<8xf32>
        %m7 = arith.mulf %x, %s7 : vector<8xf32>
        %n7 = arith.addf %a7, %m7 : vector<8xf32>
        %q7 = math.sqrt %n7 : vector<8xf32>
        %k8 = arith.constant 9.0 : f32
        %s8 = vector.broadcast %k8 : f32 to vector<8xf32>
        %m8 = arith.mulf %x, %s8 : vector<8xf32>
        %n8 = arith.addf %a8, %m8 : vector<8xf32>
        %q8 = math.sqrt %n8 : vector<8xf32>
        %k9 = arith.constant 10.0 : f32
        %s9 = vector.broadcast %k9 : f32 to vector<8xf32>
        %m9 = arith.mulf %x, %s9 : vector<8xf32>
        %n9 = arith.addf %a9, %m9 : vector<8xf32>
        %q9 = math.sqrt %n9 : vector<8xf32>
        %k10 = arith.constant 11.0 : f32
        %s10 = vector.broadcast %k10 : f32 to vector<8xf32>
        %m10 = arith.mulf %x, %s10 : vector<8xf32>
        %n10 = arith.addf %a10, %m10 : vector<8xf32>
        %q10 = math.sqrt %n10 : vector<8xf32>
        %k11 = arith.constant 12.0 : f32
        %s11 = vector.broadcast %k11 : f32 to vector<8xf32>
        %m11 = arith.mulf %x, %s11 : vector<8xf32>
        %n11 = arith.addf %a11, %m11 : vector<8xf32>
        %q11 = math.sqrt %n11 : vector<8xf32>
        %k12 = arith.constant 13.0 : f32
        %s12 = vector.broadcast %k12 : f32 to vector<8xf32>
        %m12 = arith.mulf %x, %s12 : vector<8xf32>
        %n12 = arith.addf %a12, %m12 : vector<8xf32>
        %q12 = math.sqrt %n12 : vector<8xf32>
        %k13 = arith.constant 14.0 : f32
        %s13 = vector.broadcast %k13 : f32 to vector<8xf32>
        %m13 = arith.mulf %x, %s13 : vector<8xf32>
        %n13 = arith.addf %a13, %m13 : vector<8xf32>
        %q13 = math.sqrt %n13 : vector<8xf32>
        %k14 = arith.constant 15.0 : f32
        %s14 = vector.broadcast %k14 : f32 to vector<8xf32>
        %m14 = arith.mulf %x, %s14 : vector<8xf32>
        %n14 = arith.addf %a14, %m14 : vector<8xf32>
        %q14 = math.sqrt %n14 : vector<8xf32>
        %k15 = arith.constant 16.0 : f32
        %s15 = vector.broadcast %k15 : f32 to vector<8xf32>
        %m15 = arith.mulf %x, %s15 : vector<8xf32>
        %n15 = arith.addf %a15, %m15 : vector<8xf32>
        %q15 = math.sqrt %n15 : vector<8xf32>
        %k16 = arith.constant 17.0 : f32
        %s16 = vector.broadcast %k16 : f32 to vector<8xf32>
        %m16 = arith.mulf %x, %s16 : vector<8xf32>
        %n16 = arith.addf %a16, %m16 : vector<8xf32>
        %q16 = math.sqrt %n16 : vector<8xf32>
        %k17 = arith.constant 18.0 : f32
        %s17 = vector.broadcast %k17 : f32 to vector<8xf32>
        %m17 = arith.mulf %x, %s17 : vector<8xf32>
        %n17 = arith.addf %a17, %m17 : vector<8xf32>
        %q17 = math.sqrt %n17 : vector<8xf32>
        %k18 = arith.constant 19.0 : f32
        %s18 = vector.broadcast %k18 : f32 to vector<8xf32>
        %m18 = arith.mulf %x, %s18 : vector<8xf32>
        %n18 = arith.addf %a18, %m18 : vector<8xf32>
        %q18 = math.sqrt %n18 : vector<8xf32>
        %k19 = arith.constant 20.0 : f32
        %s19 = vector.broadcast %k19 : f32 to vector<8xf32>
        %m19 = arith.mulf %x, %s19 : vector<8xf32>
        %n19 = arith.addf %a19, %m19 : vector<8xf32>
        %q19 = math.sqrt %n19 : vector<8xf32>
        %k20 = arith.constant 21.0 : f32
        %s20 = vector.broadcast %k20 : f32 to vector<8xf32>
        %m20 = arith.mulf %x, %s20 : vector<8xf32>
        %n20 = arith.addf %a20, %m20 : vector<8xf32>
        %q20 = math.sqrt %n20 : vector<8xf32>
        %k21 = arith.constant 22.0 : f32
        %s21 = vector.broadcast %k21 : f32 to vector<8xf32>
        %m21 = arith.mulf %x, %s21 : vector<8xf32>
        %n21 = arith.addf %a21, %m21 : vector<8xf32>
        %q21 = math.sqrt %n21 : vector<8xf32>
        %k22 = arith.constant 23.0 : f32
        %s22 = vector.broadcast %k22 : f32 to vector<8xf32>
        %m22 = arith.mulf %x, %s22 : vector<8xf32>
        %n22 = arith.addf %a22, %m22 : vector<8xf32>
        %q22 = math.sqrt %n22 : vector<8xf32>
        %k23 = arith.constant 24.0 : f32
        %s23 = vector.broadcast %k23 : f32 to vector<8xf32>
        %m23 = arith.mulf %x, %s23 : vector<8xf32>
        %n23 = arith.addf %a23, %m23 : vector<8xf32>
        %q23 = math.sqrt %n23 : vector<8xf32>
        %k24 = arith.constant 25.0 : f32
        %s24 = vector.broadcast %k24 : f32 to vector<8xf32>
        %m24 = arith.mulf %x, %s24 : vector<8xf32>
        %n24 = arith.addf %a24, %m24 : vector<8xf32>
        %q24 = math.sqrt %n24 : vector<8xf32>
        %k25 = arith.constant 26.0 : f32
        %s25 = vector.broadcast %k25 : f32 to vector<8xf32>
        %m25 = arith.mulf %x, %s25 : vector<8xf32>
        %n25 = arith.addf %a25, %m25 : vector<8xf32>
        %q25 = math.sqrt %n25 : vector<8xf32>
        %k26 = arith.constant 27.0 : f32
        %s26 = vector.broadcast %k26 : f32 to vector<8xf32>
        %m26 = arith.mulf %x, %s26 : vector<8xf32>
        %n26 = arith.addf %a26, %m26 : vector<8xf32>
        %q26 = math.sqrt %n26 : vector<8xf32>
        %k27 = arith.constant 28.0 : f32
        %s27 = vector.broadcast %k27 : f32 to vector<8xf32>
        %m27 = arith.mulf %x, %s27 : vector<8xf32>
        %n27 = arith.addf %a27, %m27 : vector<8xf32>
        %q27 = math.sqrt %n27 : vector<8xf32>
        %k28 = arith.constant 29.0 : f32
        %s28 = vector.broadcast %k28 : f32 to vector<8xf32>
        %m28 = arith.mulf %x, %s28 : vector<8xf32>
        %n28 = arith.addf %a28, %m28 : vector<8xf32>
        %q28 = math.sqrt %n28 : vector<8xf32>
        %k29 = arith.constant 30.0 : f32
        %s29 = vector.broadcast %k29 : f32 to vector<8xf32>
        %m29 = arith.mulf %x, %s29 : vector<8xf32>
        %n29 = arith.addf %a29, %m29 : vector<8xf32>
        %q29 = math.sqrt %n29 : vector<8xf32>
        %k30 = arith.constant 31.0 : f32
        %s30 = vector.broadcast %k30 : f32 to vector<8xf32>
        %m30 = arith.mulf %x, %s30 : vector<8xf32>
        %n30 = arith.addf %a30, %m30 : vector<8xf32>
        %q30 = math.sqrt %n30 : vector<8xf32>
        %k31 = arith.constant 32.0 : f32
        %s31 = vector.broadcast %k31 : f32 to vector<8xf32>
        %m31 = arith.mulf %x, %s31 : vector<8xf32>
        %n31 = arith.addf %a31, %m31 : vector<8xf32>
        %q31 = math.sqrt %n31 : vector<8xf32>
        %k32 = arith.constant 33.0 : f32
        %s32 = vector.broadcast %k32 : f32 to vector<8xf32>
        %m32 = arith.mulf %x, %s32 : vector<8xf32>
        %n32 = arith.addf %a32, %m32 : vector<8xf32>
        %q32 = math.sqrt %n32 : vector<8xf32>
        %k33 = arith.constant 34.0 : f32
        %s33 = vector.broadcast %k33 : f32 to vector<8xf32>
        %m33 = arith.mulf %x, %s33 : vector<8xf32>
        %n33 = arith.addf %a33, %m33 : vector<8xf32>
        %q33 = math.sqrt %n33 : vector<8xf32>
        %k34 = arith.constant 35.0 : f32
        %s34 = vector.broadcast %k34 : f32 to vector<8xf32>
        %m34 = arith.mulf %x, %s34 : vector<8xf32>
        %n34 = arith.addf %a34, %m34 : vector<8xf32>
        %q34 = math.sqrt %n34 : vector<8xf32>
        %k35 = arith.constant 36.0 : f32
        %s35 = vector.broadcast %k35 : f32 to vector<8xf32>
        %m35 = arith.mulf %x, %s35 : vector<8xf32>
        %n35 = arith.addf %a35, %m35 : vector<8xf32>
        %q35 = math.sqrt %n35 : vector<8xf32>
        %k36 = arith.constant 37.0 : f32
        %s36 = vector.broadcast %k36 : f32 to vector<8xf32>
        %m36 = arith.mulf %x, %s36 : vector<8xf32>
        %n36 = arith.addf %a36, %m36 : vector<8xf32>
        %q36 = math.sqrt %n36 : vector<8xf32>
        %k37 = arith.constant 38.0 : f32
        %s37 = vector.broadcast %k37 : f32 to vector<8xf32>
        %m37 = arith.mulf %x, %s37 : vector<8xf32>
        %n37 = arith.addf %a37, %m37 : vector<8xf32>
        %q37 = math.sqrt %n37 : vector<8xf32>
        %k38 = arith.constant 39.0 : f32
        %s38 = vector.broadcast %k38 : f32 to vector<8xf32>
        %m38 = arith.mulf %x, %s38 : vector<8xf32>
        %n38 = arith.addf %a38, %m38 : vector<8xf32>
        %q38 = math.sqrt %n38 : vector<8xf32>
        %k39 = arith.constant 40.0 : f32
        %s39 = vector.broadcast %k39 : f32 to vector<8xf32>
        %m39 = arith.mulf %x, %s39 : vector<8xf32>
        %n39 = arith.addf %a39, %m39 : vector<8xf32>
        %q39 = math.sqrt %n39 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3, %q4, %q5, %q6, %q7, %q8, %q9, %q10, %q11, %q12, %q13, %q14, %q15, %q16, %q17, %q18, %q19, %q20, %q21, %q22, %q23, %q24, %q25, %q26, %q27, %q28, %q29, %q30, %q31, %q32, %q33, %q34, %q35, %q36, %q37, %q38, %q39 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
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
      %o4 = arith.constant 32 : index
      %p4 = arith.addi %base, %o4 : index
      vector.store %r#4, %out[%p4] : memref<?xf32>, vector<8xf32>
      %o5 = arith.constant 40 : index
      %p5 = arith.addi %base, %o5 : index
      vector.store %r#5, %out[%p5] : memref<?xf32>, vector<8xf32>
      %o6 = arith.constant 48 : index
      %p6 = arith.addi %base, %o6 : index
      vector.store %r#6, %out[%p6] : memref<?xf32>, vector<8xf32>
      %o7 = arith.constant 56 : index
      %p7 = arith.addi %base, %o7 : index
      vector.store %r#7, %out[%p7] : memref<?xf32>, vector<8xf32>
      %o8 = arith.constant 64 : index
      %p8 = arith.addi %base, %o8 : index
      vector.store %r#8, %out[%p8] : memref<?xf32>, vector<8xf32>
      %o9 = arith.constant 72 : index
      %p9 = arith.addi %base, %o9 : index
      vector.store %r#9, %out[%p9] : memref<?xf32>, vector<8xf32>
      %o10 = arith.constant 80 : index
      %p10 = arith.addi %base, %o10 : index
      vector.store %r#10, %out[%p10] : memref<?xf32>, vector<8xf32>
      %o11 = arith.constant 88 : index
      %p11 = arith.addi %base, %o11 : index
      vector.store %r#11, %out[%p11] : memref<?xf32>, vector<8xf32>
      %o12 = arith.constant 96 : index
      %p12 = arith.addi %base, %o12 : index
      vector.store %r#12, %out[%p12] : memref<?xf32>, vector<8xf32>
      %o13 = arith.constant 104 : index
      %p13 = arith.addi %base, %o13 : index
      vector.store %r#13, %out[%p13] : memref<?xf32>, vector<8xf32>
      %o14 = arith.constant 112 : index
      %p14 = arith.addi %base, %o14 : index
      vector.store %r#14, %out[%p14] : memref<?xf32>, vector<8xf32>
      %o15 = arith.constant 120 : index
      %p15 = arith.addi %base, %o15 : index
      vector.store %r#15, %out[%p15] : memref<?xf32>, vector<8xf32>
      %o16 = arith.constant 128 : index
      %p16 = arith.addi %base, %o16 : index
      vector.store %r#16, %out[%p16] : memref<?xf32>, vector<8xf32>
      %o17 = arith.constant 136 : index
      %p17 = arith.addi %base, %o17 : index
      vector.store %r#17, %out[%p17] : memref<?xf32>, vector<8xf32>
      %o18 = arith.constant 144 : index
      %p18 = arith.addi %base, %o18 : index
      vector.store %r#18, %out[%p18] : memref<?xf32>, vector<8xf32>
      %o19 = arith.constant 152 : index
      %p19 = arith.addi %base, %o19 : index
      vector.store %r#19, %out[%p19] : memref<?xf32>, vector<8xf32>
      %o20 = arith.constant 160 : index
      %p20 = arith.addi %base, %o20 : index
      vector.store %r#20, %out[%p20] : memref<?xf32>, vector<8xf32>
      %o21 = arith.constant 168 : index
      %p21 = arith.addi %base, %o21 : index
      vector.store %r#21, %out[%p21] : memref<?xf32>, vector<8xf32>
      %o22 = arith.constant 176 : index
      %p22 = arith.addi %base, %o22 : index
      vector.store %r#22, %out[%p22] : memref<?xf32>, vector<8xf32>
      %o23 = arith.constant 184 : index
      %p23 = arith.addi %base, %o23 : index
      vector.store %r#23, %out[%p23] : memref<?xf32>, vector<8xf32>
      %o24 = arith.constant 192 : index
      %p24 = arith.addi %base, %o24 : index
      vector.store %r#24, %out[%p24] : memref<?xf32>, vector<8xf32>
      %o25 = arith.constant 200 : index
      %p25 = arith.addi %base, %o25 : index
      vector.store %r#25, %out[%p25] : memref<?xf32>, vector<8xf32>
      %o26 = arith.constant 208 : index
      %p26 = arith.addi %base, %o26 : index
      vector.store %r#26, %out[%p26] : memref<?xf32>, vector<8xf32>
      %o27 = arith.constant 216 : index
      %p27 = arith.addi %base, %o27 : index
      vector.store %r#27, %out[%p27] : memref<?xf32>, vector<8xf32>
      %o28 = arith.constant 224 : index
      %p28 = arith.addi %base, %o28 : index
      vector.store %r#28, %out[%p28] : memref<?xf32>, vector<8xf32>
      %o29 = arith.constant 232 : index
      %p29 = arith.addi %base, %o29 : index
      vector.store %r#29, %out[%p29] : memref<?xf32>, vector<8xf32>
      %o30 = arith.constant 240 : index
      %p30 = arith.addi %base, %o30 : index
      vector.store %r#30, %out[%p30] : memref<?xf32>, vector<8xf32>
      %o31 = arith.constant 248 : index
      %p31 = arith.addi %base, %o31 : index
      vector.store %r#31, %out[%p31] : memref<?xf32>, vector<8xf32>
      %o32 = arith.constant 256 : index
      %p32 = arith.addi %base, %o32 : index
      vector.store %r#32, %out[%p32] : memref<?xf32>, vector<8xf32>
      %o33 = arith.constant 264 : index
      %p33 = arith.addi %base, %o33 : index
      vector.store %r#33, %out[%p33] : memref<?xf32>, vector<8xf32>
      %o34 = arith.constant 272 : index
      %p34 = arith.addi %base, %o34 : index
      vector.store %r#34, %out[%p34] : memref<?xf32>, vector<8xf32>
      %o35 = arith.constant 280 : index
      %p35 = arith.addi %base, %o35 : index
      vector.store %r#35, %out[%p35] : memref<?xf32>, vector<8xf32>
      %o36 = arith.constant 288 : index
      %p36 = arith.addi %base, %o36 : index
      vector.store %r#36, %out[%p36] : memref<?xf32>, vector<8xf32>
      %o37 = arith.constant 296 : index
      %p37 = arith.addi %base, %o37 : index
      vector.store %r#37, %out[%p37] : memref<?xf32>, vector<8xf32>
      %o38 = arith.constant 304 : index
      %p38 = arith.addi %base, %o38 : index
      vector.store %r#38, %out[%p38] : memref<?xf32>, vector<8xf32>
      %o39 = arith.constant 312 : index
      %p39 = arith.addi %base, %o39 : index
      vector.store %r#39, %out[%p39] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @light_a {
    gpu.func @acc1(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:1 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z) -> (vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant 1.0 : f32
        %s0 = vector.broadcast %k0 : f32 to vector<8xf32>
        %m0 = arith.mulf %x, %s0 : vector<8xf32>
        %n0 = arith.addf %a0, %m0 : vector<8xf32>
        %q0 = math.sqrt %n0 : vector<8xf32>
        scf.yield %q0 : vector<8xf32>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @heavy_b {
    gpu.func @acc32(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:32 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z, %a16 = %z, %a17 = %z, %a18 = %z, %a19 = %z, %a20 = %z, %a21 = %z, %a22 = %z, %a23 = %z, %a24 = %z, %a25 = %z, %a26 = %z, %a27 = %z, %a28 = %z, %a29 = %z, %a30 = %z, %a31 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
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
        %k4 = arith.constant 5.0 : f32
        %s4 = vector.broadcast %k4 : f32 to vector<8xf32>
        %m4 = arith.mulf %x, %s4 : vector<8xf32>
        %n4 = arith.addf %a4, %m4 : vector<8xf32>
        %q4 = math.sqrt %n4 : vector<8xf32>
        %k5 = arith.constant 6.0 : f32
        %s5 = vector.broadcast %k5 : f32 to vector<8xf32>
        %m5 = arith.mulf %x, %s5 : vector<8xf32>
        %n5 = arith.addf %a5, %m5 : vector<8xf32>
        %q5 = math.sqrt %n5 : vector<8xf32>
        %k6 = arith.constant 7.0 : f32
        %s6 = vector.broadcast %k6 : f32 to vector<8xf32>
        %m6 = arith.mulf %x, %s6 : vector<8xf32>
        %n6 = arith.addf %a6, %m6 : vector<8xf32>
        %q6 = math.sqrt %n6 : vector<8xf32>
        %k7 = arith.constant 8.0 : f32
        %s7 = vector.broadcast %k7 : f32 to vector<8xf32>
        %m7 = arith.mulf %x, %s7 : vector<8xf32>
        %n7 = arith.addf %a7, %m7 : vector<8xf32>
        %q7 = math.sqrt %n7 : vector<8xf32>
        %k8 = arith.constant 9.0 : f32
        %s8 = vector.broadcast %k8 : f32 to vector<8xf32>
        %m8 = arith.mulf %x, %s8 : vector<8xf32>
        %n8 = arith.addf %a8, %m8 : vector<8xf32>
        %q8 = math.sqrt %n8 : vector<8xf32>
        %k9 = arith.constant 10.0 : f32
        %s9 = vector.broadcast %k9 : f32 to vector<8xf32>
        %m9 = arith.mulf %x, %s9 : vector<8xf32>
        %n9 = arith.addf %a9, %m9 : vector<8xf32>
        %q9 = math.sqrt %n9 : vector<8xf32>
        %k10 = arith.constant 11.0 : f32
        %s10 = vector.broadcast %k10 : f32 to vector<8xf32>
        %m10 = arith.mulf %x, %s10 : vector<8xf32>
        %n10 = arith.addf %a10, %m10 : vector<8xf32>
        %q10 = math.sqrt %n10 : vector<8xf32>
        %k11 = arith.constant 12.0 : f32
        %s11 = vector.broadcast %k11 : f32 to vector<8xf32>
        %m11 = arith.mulf %x, %s11 : vector<8xf32>
        %n11 = arith.addf %a11, %m11 : vector<8xf32>
        %q11 = math.sqrt %n11 : vector<8xf32>
        %k12 = arith.constant 13.0 : f32
        %s12 = vector.broadcast %k12 : f32 to vector<8xf32>
        %m12 = arith.mulf %x, %s12 : vector<8xf32>
        %n12 = arith.addf %a12, %m12 : vector<8xf32>
        %q12 = math.sqrt %n12 : vector<8xf32>
        %k13 = arith.constant 14.0 : f32
        %s13 = vector.broadcast %k13 : f32 to vector<8xf32>
        %m13 = arith.mulf %x, %s13 : vector<8xf32>
        %n13 = arith.addf %a13, %m13 : vector<8xf32>
        %q13 = math.sqrt %n13 : vector<8xf32>
        %k14 = arith.constant 15.0 : f32
        %s14 = vector.broadcast %k14 : f32 to vector<8xf32>
        %m14 = arith.mulf %x, %s14 : vector<8xf32>
        %n14 = arith.addf %a14, %m14 : vector<8xf32>
        %q14 = math.sqrt %n14 : vector<8xf32>
        %k15 = arith.constant 16.0 : f32
        %s15 = vector.broadcast %k15 : f32 to vector<8xf32>
        %m15 = arith.mulf %x, %s15 : vector<8xf32>
        %n15 = arith.addf %a15, %m15 : vector<8xf32>
        %q15 = math.sqrt %n15 : vector<8xf32>
        %k16 = arith.constant 17.0 : f32
        %s16 = vector.broadcast %k16 : f32 to vector<8xf32>
        %m16 = arith.mulf %x, %s16 : vector<8xf32>
        %n16 = arith.addf %a16, %m16 : vector<8xf32>
        %q16 = math.sqrt %n16 : vector<8xf32>
        %k17 = arith.constant 18.0 : f32
        %s17 = vector.broadcast %k17 : f32 to vector<8xf32>
        %m17 = arith.mulf %x, %s17 : vector<8xf32>
        %n17 = arith.addf %a17, %m17 : vector<8xf32>
        %q17 = math.sqrt %n17 : vector<8xf32>
        %k18 = arith.constant 19.0 : f32
        %s18 = vector.broadcast %k18 : f32 to vector<8xf32>
        %m18 = arith.mulf %x, %s18 : vector<8xf32>
        %n18 = arith.addf %a18, %m18 : vector<8xf32>
        %q18 = math.sqrt %n18 : vector<8xf32>
        %k19 = arith.constant 20.0 : f32
        %s19 = vector.broadcast %k19 : f32 to vector<8xf32>
        %m19 = arith.mulf %x, %s19 : vector<8xf32>
        %n19 = arith.addf %a19, %m19 : vector<8xf32>
        %q19 = math.sqrt %n19 : vector<8xf32>
        %k20 = arith.constant 21.0 : f32
        %s20 = vector.broadcast %k20 : f32 to vector<8xf32>
        %m20 = arith.mulf %x, %s20 : vector<8xf32>
        %n20 = arith.addf %a20, %m20 : vector<8xf32>
        %q20 = math.sqrt %n20 : vector<8xf32>
        %k21 = arith.constant 22.0 : f32
        %s21 = vector.broadcast %k21 : f32 to vector<8xf32>
        %m21 = arith.mulf %x, %s21 : vector<8xf32>
        %n21 = arith.addf %a21, %m21 : vector<8xf32>
        %q21 = math.sqrt %n21 : vector<8xf32>
        %k22 = arith.constant 23.0 : f32
        %s22 = vector.broadcast %k22 : f32 to vector<8xf32>
        %m22 = arith.mulf %x, %s22 : vector<8xf32>
        %n22 = arith.addf %a22, %m22 : vector<8xf32>
        %q22 = math.sqrt %n22 : vector<8xf32>
        %k23 = arith.constant 24.0 : f32
        %s23 = vector.broadcast %k23 : f32 to vector<8xf32>
        %m23 = arith.mulf %x, %s23 : vector<8xf32>
        %n23 = arith.addf %a23, %m23 : vector<8xf32>
        %q23 = math.sqrt %n23 : vector<8xf32>
        %k24 = arith.constant 25.0 : f32
        %s24 = vector.broadcast %k24 : f32 to vector<8xf32>
        %m24 = arith.mulf %x, %s24 : vector<8xf32>
        %n24 = arith.addf %a24, %m24 : vector<8xf32>
        %q24 = math.sqrt %n24 : vector<8xf32>
        %k25 = arith.constant 26.0 : f32
        %s25 = vector.broadcast %k25 : f32 to vector<8xf32>
        %m25 = arith.mulf %x, %s25 : vector<8xf32>
        %n25 = arith.addf %a25, %m25 : vector<8xf32>
        %q25 = math.sqrt %n25 : vector<8xf32>
        %k26 = arith.constant 27.0 : f32
        %s26 = vector.broadcast %k26 : f32 to vector<8xf32>
        %m26 = arith.mulf %x, %s26 : vector<8xf32>
        %n26 = arith.addf %a26, %m26 : vector<8xf32>
        %q26 = math.sqrt %n26 : vector<8xf32>
        %k27 = arith.constant 28.0 : f32
        %s27 = vector.broadcast %k27 : f32 to vector<8xf32>
        %m27 = arith.mulf %x, %s27 : vector<8xf32>
        %n27 = arith.addf %a27, %m27 : vector<8xf32>
        %q27 = math.sqrt %n27 : vector<8xf32>
        %k28 = arith.constant 29.0 : f32
        %s28 = vector.broadcast %k28 : f32 to vector<8xf32>
        %m28 = arith.mulf %x, %s28 : vector<8xf32>
        %n28 = arith.addf %a28, %m28 : vector<8xf32>
        %q28 = math.sqrt %n28 : vector<8xf32>
        %k29 = arith.constant 30.0 : f32
        %s29 = vector.broadcast %k29 : f32 to vector<8xf32>
        %m29 = arith.mulf %x, %s29 : vector<8xf32>
        %n29 = arith.addf %a29, %m29 : vector<8xf32>
        %q29 = math.sqrt %n29 : vector<8xf32>
        %k30 = arith.constant 31.0 : f32
        %s30 = vector.broadcast %k30 : f32 to vector<8xf32>
        %m30 = arith.mulf %x, %s30 : vector<8xf32>
        %n30 = arith.addf %a30, %m30 : vector<8xf32>
        %q30 = math.sqrt %n30 : vector<8xf32>
        %k31 = arith.constant 32.0 : f32
        %s31 = vector.broadcast %k31 : f32 to vector<8xf32>
        %m31 = arith.mulf %x, %s31 : vector<8xf32>
        %n31 = arith.addf %a31, %m31 : vector<8xf32>
        %q31 = math.sqrt %n31 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3, %q4, %q5, %q6, %q7, %q8, %q9, %q10, %q11, %q12, %q13, %q14, %q15, %q16, %q17, %q18, %q19, %q20, %q21, %q22, %q23, %q24, %q25, %q26, %q27, %q28, %q29, %q30, %q31 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
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
      %o4 = arith.constant 32 : index
      %p4 = arith.addi %base, %o4 : index
      vector.store %r#4, %out[%p4] : memref<?xf32>, vector<8xf32>
      %o5 = arith.constant 40 : index
      %p5 = arith.addi %base, %o5 : index
      vector.store %r#5, %out[%p5] : memref<?xf32>, vector<8xf32>
      %o6 = arith.constant 48 : index
      %p6 = arith.addi %base, %o6 : index
      vector.store %r#6, %out[%p6] : memref<?xf32>, vector<8xf32>
      %o7 = arith.constant 56 : index
      %p7 = arith.addi %base, %o7 : index
      vector.store %r#7, %out[%p7] : memref<?xf32>, vector<8xf32>
      %o8 = arith.constant 64 : index
      %p8 = arith.addi %base, %o8 : index
      vector.store %r#8, %out[%p8] : memref<?xf32>, vector<8xf32>
      %o9 = arith.constant 72 : index
      %p9 = arith.addi %base, %o9 : index
      vector.store %r#9, %out[%p9] : memref<?xf32>, vector<8xf32>
      %o10 = arith.constant 80 : index
      %p10 = arith.addi %base, %o10 : index
      vector.store %r#10, %out[%p10] : memref<?xf32>, vector<8xf32>
      %o11 = arith.constant 88 : index
      %p11 = arith.addi %base, %o11 : index
      vector.store %r#11, %out[%p11] : memref<?xf32>, vector<8xf32>
      %o12 = arith.constant 96 : index
      %p12 = arith.addi %base, %o12 : index
      vector.store %r#12, %out[%p12] : memref<?xf32>, vector<8xf32>
      %o13 = arith.constant 104 : index
      %p13 = arith.addi %base, %o13 : index
      vector.store %r#13, %out[%p13] : memref<?xf32>, vector<8xf32>
      %o14 = arith.constant 112 : index
      %p14 = arith.addi %base, %o14 : index
      vector.store %r#14, %out[%p14] : memref<?xf32>, vector<8xf32>
      %o15 = arith.constant 120 : index
      %p15 = arith.addi %base, %o15 : index
      vector.store %r#15, %out[%p15] : memref<?xf32>, vector<8xf32>
      %o16 = arith.constant 128 : index
      %p16 = arith.addi %base, %o16 : index
      vector.store %r#16, %out[%p16] : memref<?xf32>, vector<8xf32>
      %o17 = arith.constant 136 : index
      %p17 = arith.addi %base, %o17 : index
      vector.store %r#17, %out[%p17] : memref<?xf32>, vector<8xf32>
      %o18 = arith.constant 144 : index
      %p18 = arith.addi %base, %o18 : index
      vector.store %r#18, %out[%p18] : memref<?xf32>, vector<8xf32>
      %o19 = arith.constant 152 : index
      %p19 = arith.addi %base, %o19 : index
      vector.store %r#19, %out[%p19] : memref<?xf32>, vector<8xf32>
      %o20 = arith.constant 160 : index
      %p20 = arith.addi %base, %o20 : index
      vector.store %r#20, %out[%p20] : memref<?xf32>, vector<8xf32>
      %o21 = arith.constant 168 : index
      %p21 = arith.addi %base, %o21 : index
      vector.store %r#21, %out[%p21] : memref<?xf32>, vector<8xf32>
      %o22 = arith.constant 176 : index
      %p22 = arith.addi %base, %o22 : index
      vector.store %r#22, %out[%p22] : memref<?xf32>, vector<8xf32>
      %o23 = arith.constant 184 : index
      %p23 = arith.addi %base, %o23 : index
      vector.store %r#23, %out[%p23] : memref<?xf32>, vector<8xf32>
      %o24 = arith.constant 192 : index
      %p24 = arith.addi %base, %o24 : index
      vector.store %r#24, %out[%p24] : memref<?xf32>, vector<8xf32>
      %o25 = arith.constant 200 : index
      %p25 = arith.addi %base, %o25 : index
      vector.store %r#25, %out[%p25] : memref<?xf32>, vector<8xf32>
      %o26 = arith.constant 208 : index
      %p26 = arith.addi %base, %o26 : index
      vector.store %r#26, %out[%p26] : memref<?xf32>, vector<8xf32>
      %o27 = arith.constant 216 : index
      %p27 = arith.addi %base, %o27 : index
      vector.store %r#27, %out[%p27] : memref<?xf32>, vector<8xf32>
      %o28 = arith.constant 224 : index
      %p28 = arith.addi %base, %o28 : index
      vector.store %r#28, %out[%p28] : memref<?xf32>, vector<8xf32>
      %o29 = arith.constant 232 : index
      %p29 = arith.addi %base, %o29 : index
      vector.store %r#29, %out[%p29] : memref<?xf32>, vector<8xf32>
      %o30 = arith.constant 240 : index
      %p30 = arith.addi %base, %o30 : index
      vector.store %r#30, %out[%p30] : memref<?xf32>, vector<8xf32>
      %o31 = arith.constant 248 : index
      %p31 = arith.addi %base, %o31 : index
      vector.store %r#31, %out[%p31] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @light_b {
    gpu.func @acc2(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:2 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z) -> (vector<8xf32>, vector<8xf32>) {
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
        scf.yield %q0, %q1 : vector<8xf32>, vector<8xf32>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf32>, vector<8xf32>
      %o1 = arith.constant 8 : index
      %p1 = arith.addi %base, %o1 : index
      vector.store %r#1, %out[%p1] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @heavy_c {
    gpu.func @acc24(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:24 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z, %a16 = %z, %a17 = %z, %a18 = %z, %a19 = %z, %a20 = %z, %a21 = %z, %a22 = %z, %a23 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
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
        %k4 = arith.constant 5.0 : f32
        %s4 = vector.broadcast %k4 : f32 to vector<8xf32>
        %m4 = arith.mulf %x, %s4 : vector<8xf32>
        %n4 = arith.addf %a4, %m4 : vector<8xf32>
        %q4 = math.sqrt %n4 : vector<8xf32>
        %k5 = arith.constant 6.0 : f32
        %s5 = vector.broadcast %k5 : f32 to vector<8xf32>
        %m5 = arith.mulf %x, %s5 : vector<8xf32>
        %n5 = arith.addf %a5, %m5 : vector<8xf32>
        %q5 = math.sqrt %n5 : vector<8xf32>
        %k6 = arith.constant 7.0 : f32
        %s6 = vector.broadcast %k6 : f32 to vector<8xf32>
        %m6 = arith.mulf %x, %s6 : vector<8xf32>
        %n6 = arith.addf %a6, %m6 : vector<8xf32>
        %q6 = math.sqrt %n6 : vector<8xf32>
        %k7 = arith.constant 8.0 : f32
        %s7 = vector.broadcast %k7 : f32 to vector<8xf32>
        %m7 = arith.mulf %x, %s7 : vector<8xf32>
        %n7 = arith.addf %a7, %m7 : vector<8xf32>
        %q7 = math.sqrt %n7 : vector<8xf32>
        %k8 = arith.constant 9.0 : f32
        %s8 = vector.broadcast %k8 : f32 to vector<8xf32>
        %m8 = arith.mulf %x, %s8 : vector<8xf32>
        %n8 = arith.addf %a8, %m8 : vector<8xf32>
        %q8 = math.sqrt %n8 : vector<8xf32>
        %k9 = arith.constant 10.0 : f32
        %s9 = vector.broadcast %k9 : f32 to vector<8xf32>
        %m9 = arith.mulf %x, %s9 : vector<8xf32>
        %n9 = arith.addf %a9, %m9 : vector<8xf32>
        %q9 = math.sqrt %n9 : vector<8xf32>
        %k10 = arith.constant 11.0 : f32
        %s10 = vector.broadcast %k10 : f32 to vector<8xf32>
        %m10 = arith.mulf %x, %s10 : vector<8xf32>
        %n10 = arith.addf %a10, %m10 : vector<8xf32>
        %q10 = math.sqrt %n10 : vector<8xf32>
        %k11 = arith.constant 12.0 : f32
        %s11 = vector.broadcast %k11 : f32 to vector<8xf32>
        %m11 = arith.mulf %x, %s11 : vector<8xf32>
        %n11 = arith.addf %a11, %m11 : vector<8xf32>
        %q11 = math.sqrt %n11 : vector<8xf32>
        %k12 = arith.constant 13.0 : f32
        %s12 = vector.broadcast %k12 : f32 to vector<8xf32>
        %m12 = arith.mulf %x, %s12 : vector<8xf32>
        %n12 = arith.addf %a12, %m12 : vector<8xf32>
        %q12 = math.sqrt %n12 : vector<8xf32>
        %k13 = arith.constant 14.0 : f32
        %s13 = vector.broadcast %k13 : f32 to vector<8xf32>
        %m13 = arith.mulf %x, %s13 : vector<8xf32>
        %n13 = arith.addf %a13, %m13 : vector<8xf32>
        %q13 = math.sqrt %n13 : vector<8xf32>
        %k14 = arith.constant 15.0 : f32
        %s14 = vector.broadcast %k14 : f32 to vector<8xf32>
        %m14 = arith.mulf %x, %s14 : vector<8xf32>
        %n14 = arith.addf %a14, %m14 : vector<8xf32>
        %q14 = math.sqrt %n14 : vector<8xf32>
        %k15 = arith.constant 16.0 : f32
        %s15 = vector.broadcast %k15 : f32 to vector<8xf32>
        %m15 = arith.mulf %x, %s15 : vector<8xf32>
        %n15 = arith.addf %a15, %m15 : vector<8xf32>
        %q15 = math.sqrt %n15 : vector<8xf32>
        %k16 = arith.constant 17.0 : f32
        %s16 = vector.broadcast %k16 : f32 to vector<8xf32>
        %m16 = arith.mulf %x, %s16 : vector<8xf32>
        %n16 = arith.addf %a16, %m16 : vector<8xf32>
        %q16 = math.sqrt %n16 : vector<8xf32>
        %k17 = arith.constant 18.0 : f32
        %s17 = vector.broadcast %k17 : f32 to vector<8xf32>
        %m17 = arith.mulf %x, %s17 : vector<8xf32>
        %n17 = arith.addf %a17, %m17 : vector<8xf32>
        %q17 = math.sqrt %n17 : vector<8xf32>
        %k18 = arith.constant 19.0 : f32
        %s18 = vector.broadcast %k18 : f32 to vector<8xf32>
        %m18 = arith.mulf %x, %s18 : vector<8xf32>
        %n18 = arith.addf %a18, %m18 : vector<8xf32>
        %q18 = math.sqrt %n18 : vector<8xf32>
        %k19 = arith.constant 20.0 : f32
        %s19 = vector.broadcast %k19 : f32 to vector<8xf32>
        %m19 = arith.mulf %x, %s19 : vector<8xf32>
        %n19 = arith.addf %a19, %m19 : vector<8xf32>
        %q19 = math.sqrt %n19 : vector<8xf32>
        %k20 = arith.constant 21.0 : f32
        %s20 = vector.broadcast %k20 : f32 to vector<8xf32>
        %m20 = arith.mulf %x, %s20 : vector<8xf32>
        %n20 = arith.addf %a20, %m20 : vector<8xf32>
        %q20 = math.sqrt %n20 : vector<8xf32>
        %k21 = arith.constant 22.0 : f32
        %s21 = vector.broadcast %k21 : f32 to vector<8xf32>
        %m21 = arith.mulf %x, %s21 : vector<8xf32>
        %n21 = arith.addf %a21, %m21 : vector<8xf32>
        %q21 = math.sqrt %n21 : vector<8xf32>
        %k22 = arith.constant 23.0 : f32
        %s22 = vector.broadcast %k22 : f32 to vector<8xf32>
        %m22 = arith.mulf %x, %s22 : vector<8xf32>
        %n22 = arith.addf %a22, %m22 : vector<8xf32>
        %q22 = math.sqrt %n22 : vector<8xf32>
        %k23 = arith.constant 24.0 : f32
        %s23 = vector.broadcast %k23 : f32 to vector<8xf32>
        %m23 = arith.mulf %x, %s23 : vector<8xf32>
        %n23 = arith.addf %a23, %m23 : vector<8xf32>
        %q23 = math.sqrt %n23 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3, %q4, %q5, %q6, %q7, %q8, %q9, %q10, %q11, %q12, %q13, %q14, %q15, %q16, %q17, %q18, %q19, %q20, %q21, %q22, %q23 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
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
      %o4 = arith.constant 32 : index
      %p4 = arith.addi %base, %o4 : index
      vector.store %r#4, %out[%p4] : memref<?xf32>, vector<8xf32>
      %o5 = arith.constant 40 : index
      %p5 = arith.addi %base, %o5 : index
      vector.store %r#5, %out[%p5] : memref<?xf32>, vector<8xf32>
      %o6 = arith.constant 48 : index
      %p6 = arith.addi %base, %o6 : index
      vector.store %r#6, %out[%p6] : memref<?xf32>, vector<8xf32>
      %o7 = arith.constant 56 : index
      %p7 = arith.addi %base, %o7 : index
      vector.store %r#7, %out[%p7] : memref<?xf32>, vector<8xf32>
      %o8 = arith.constant 64 : index
      %p8 = arith.addi %base, %o8 : index
      vector.store %r#8, %out[%p8] : memref<?xf32>, vector<8xf32>
      %o9 = arith.constant 72 : index
      %p9 = arith.addi %base, %o9 : index
      vector.store %r#9, %out[%p9] : memref<?xf32>, vector<8xf32>
      %o10 = arith.constant 80 : index
      %p10 = arith.addi %base, %o10 : index
      vector.store %r#10, %out[%p10] : memref<?xf32>, vector<8xf32>
      %o11 = arith.constant 88 : index
      %p11 = arith.addi %base, %o11 : index
      vector.store %r#11, %out[%p11] : memref<?xf32>, vector<8xf32>
      %o12 = arith.constant 96 : index
      %p12 = arith.addi %base, %o12 : index
      vector.store %r#12, %out[%p12] : memref<?xf32>, vector<8xf32>
      %o13 = arith.constant 104 : index
      %p13 = arith.addi %base, %o13 : index
      vector.store %r#13, %out[%p13] : memref<?xf32>, vector<8xf32>
      %o14 = arith.constant 112 : index
      %p14 = arith.addi %base, %o14 : index
      vector.store %r#14, %out[%p14] : memref<?xf32>, vector<8xf32>
      %o15 = arith.constant 120 : index
      %p15 = arith.addi %base, %o15 : index
      vector.store %r#15, %out[%p15] : memref<?xf32>, vector<8xf32>
      %o16 = arith.constant 128 : index
      %p16 = arith.addi %base, %o16 : index
      vector.store %r#16, %out[%p16] : memref<?xf32>, vector<8xf32>
      %o17 = arith.constant 136 : index
      %p17 = arith.addi %base, %o17 : index
      vector.store %r#17, %out[%p17] : memref<?xf32>, vector<8xf32>
      %o18 = arith.constant 144 : index
      %p18 = arith.addi %base, %o18 : index
      vector.store %r#18, %out[%p18] : memref<?xf32>, vector<8xf32>
      %o19 = arith.constant 152 : index
      %p19 = arith.addi %base, %o19 : index
      vector.store %r#19, %out[%p19] : memref<?xf32>, vector<8xf32>
      %o20 = arith.constant 160 : index
      %p20 = arith.addi %base, %o20 : index
      vector.store %r#20, %out[%p20] : memref<?xf32>, vector<8xf32>
      %o21 = arith.constant 168 : index
      %p21 = arith.addi %base, %o21 : index
      vector.store %r#21, %out[%p21] : memref<?xf32>, vector<8xf32>
      %o22 = arith.constant 176 : index
      %p22 = arith.addi %base, %o22 : index
      vector.store %r#22, %out[%p22] : memref<?xf32>, vector<8xf32>
      %o23 = arith.constant 184 : index
      %p23 = arith.addi %base, %o23 : index
      vector.store %r#23, %out[%p23] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @heavy_d {
    gpu.func @acc16(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:16 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z, %a8 = %z, %a9 = %z, %a10 = %z, %a11 = %z, %a12 = %z, %a13 = %z, %a14 = %z, %a15 = %z) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
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
        %k4 = arith.constant 5.0 : f32
        %s4 = vector.broadcast %k4 : f32 to vector<8xf32>
        %m4 = arith.mulf %x, %s4 : vector<8xf32>
        %n4 = arith.addf %a4, %m4 : vector<8xf32>
        %q4 = math.sqrt %n4 : vector<8xf32>
        %k5 = arith.constant 6.0 : f32
        %s5 = vector.broadcast %k5 : f32 to vector<8xf32>
        %m5 = arith.mulf %x, %s5 : vector<8xf32>
        %n5 = arith.addf %a5, %m5 : vector<8xf32>
        %q5 = math.sqrt %n5 : vector<8xf32>
        %k6 = arith.constant 7.0 : f32
        %s6 = vector.broadcast %k6 : f32 to vector<8xf32>
        %m6 = arith.mulf %x, %s6 : vector<8xf32>
        %n6 = arith.addf %a6, %m6 : vector<8xf32>
        %q6 = math.sqrt %n6 : vector<8xf32>
        %k7 = arith.constant 8.0 : f32
        %s7 = vector.broadcast %k7 : f32 to vector<8xf32>
        %m7 = arith.mulf %x, %s7 : vector<8xf32>
        %n7 = arith.addf %a7, %m7 : vector<8xf32>
        %q7 = math.sqrt %n7 : vector<8xf32>
        %k8 = arith.constant 9.0 : f32
        %s8 = vector.broadcast %k8 : f32 to vector<8xf32>
        %m8 = arith.mulf %x, %s8 : vector<8xf32>
        %n8 = arith.addf %a8, %m8 : vector<8xf32>
        %q8 = math.sqrt %n8 : vector<8xf32>
        %k9 = arith.constant 10.0 : f32
        %s9 = vector.broadcast %k9 : f32 to vector<8xf32>
        %m9 = arith.mulf %x, %s9 : vector<8xf32>
        %n9 = arith.addf %a9, %m9 : vector<8xf32>
        %q9 = math.sqrt %n9 : vector<8xf32>
        %k10 = arith.constant 11.0 : f32
        %s10 = vector.broadcast %k10 : f32 to vector<8xf32>
        %m10 = arith.mulf %x, %s10 : vector<8xf32>
        %n10 = arith.addf %a10, %m10 : vector<8xf32>
        %q10 = math.sqrt %n10 : vector<8xf32>
        %k11 = arith.constant 12.0 : f32
        %s11 = vector.broadcast %k11 : f32 to vector<8xf32>
        %m11 = arith.mulf %x, %s11 : vector<8xf32>
        %n11 = arith.addf %a11, %m11 : vector<8xf32>
        %q11 = math.sqrt %n11 : vector<8xf32>
        %k12 = arith.constant 13.0 : f32
        %s12 = vector.broadcast %k12 : f32 to vector<8xf32>
        %m12 = arith.mulf %x, %s12 : vector<8xf32>
        %n12 = arith.addf %a12, %m12 : vector<8xf32>
        %q12 = math.sqrt %n12 : vector<8xf32>
        %k13 = arith.constant 14.0 : f32
        %s13 = vector.broadcast %k13 : f32 to vector<8xf32>
        %m13 = arith.mulf %x, %s13 : vector<8xf32>
        %n13 = arith.addf %a13, %m13 : vector<8xf32>
        %q13 = math.sqrt %n13 : vector<8xf32>
        %k14 = arith.constant 15.0 : f32
        %s14 = vector.broadcast %k14 : f32 to vector<8xf32>
        %m14 = arith.mulf %x, %s14 : vector<8xf32>
        %n14 = arith.addf %a14, %m14 : vector<8xf32>
        %q14 = math.sqrt %n14 : vector<8xf32>
        %k15 = arith.constant 16.0 : f32
        %s15 = vector.broadcast %k15 : f32 to vector<8xf32>
        %m15 = arith.mulf %x, %s15 : vector<8xf32>
        %n15 = arith.addf %a15, %m15 : vector<8xf32>
        %q15 = math.sqrt %n15 : vector<8xf32>
        scf.yield %q0, %q1, %q2, %q3, %q4, %q5, %q6, %q7, %q8, %q9, %q10, %q11, %q12, %q13, %q14, %q15 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
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
      %o4 = arith.constant 32 : index
      %p4 = arith.addi %base, %o4 : index
      vector.store %r#4, %out[%p4] : memref<?xf32>, vector<8xf32>
      %o5 = arith.constant 40 : index
      %p5 = arith.addi %base, %o5 : index
      vector.store %r#5, %out[%p5] : memref<?xf32>, vector<8xf32>
      %o6 = arith.constant 48 : index
      %p6 = arith.addi %base, %o6 : index
      vector.store %r#6, %out[%p6] : memref<?xf32>, vector<8xf32>
      %o7 = arith.constant 56 : index
      %p7 = arith.addi %base, %o7 : index
      vector.store %r#7, %out[%p7] : memref<?xf32>, vector<8xf32>
      %o8 = arith.constant 64 : index
      %p8 = arith.addi %base, %o8 : index
      vector.store %r#8, %out[%p8] : memref<?xf32>, vector<8xf32>
      %o9 = arith.constant 72 : index
      %p9 = arith.addi %base, %o9 : index
      vector.store %r#9, %out[%p9] : memref<?xf32>, vector<8xf32>
      %o10 = arith.constant 80 : index
      %p10 = arith.addi %base, %o10 : index
      vector.store %r#10, %out[%p10] : memref<?xf32>, vector<8xf32>
      %o11 = arith.constant 88 : index
      %p11 = arith.addi %base, %o11 : index
      vector.store %r#11, %out[%p11] : memref<?xf32>, vector<8xf32>
      %o12 = arith.constant 96 : index
      %p12 = arith.addi %base, %o12 : index
      vector.store %r#12, %out[%p12] : memref<?xf32>, vector<8xf32>
      %o13 = arith.constant 104 : index
      %p13 = arith.addi %base, %o13 : index
      vector.store %r#13, %out[%p13] : memref<?xf32>, vector<8xf32>
      %o14 = arith.constant 112 : index
      %p14 = arith.addi %base, %o14 : index
      vector.store %r#14, %out[%p14] : memref<?xf32>, vector<8xf32>
      %o15 = arith.constant 120 : index
      %p15 = arith.addi %base, %o15 : index
      vector.store %r#15, %out[%p15] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
  gpu.module @light_c {
    gpu.func @acc1(%in: memref<?xf32>, %out: memref<?xf32>, %iters: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cw = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %z = vector.broadcast %zero : f32 to vector<8xf32>
      %tid = gpu.global_id x
      %base = arith.muli %tid, %cw : index
      %r:1 = scf.for %it = %c0 to %iters step %c1 iter_args(%a0 = %z) -> (vector<8xf32>) {
        %off = arith.addi %base, %it : index
        %x = vector.load %in[%off] : memref<?xf32>, vector<8xf32>
        %k0 = arith.constant 1.0 : f32
        %s0 = vector.broadcast %k0 : f32 to vector<8xf32>
        %m0 = arith.mulf %x, %s0 : vector<8xf32>
        %n0 = arith.addf %a0, %m0 : vector<8xf32>
        %q0 = math.sqrt %n0 : vector<8xf32>
        scf.yield %q0 : vector<8xf32>
      }
      %o0 = arith.constant 0 : index
      %p0 = arith.addi %base, %o0 : index
      vector.store %r#0, %out[%p0] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
