// Issue 26 item 3: references are rewritten by symbol identity, never by
// leaf name. The root of `@module::@kernel` names a module (a linked one
// goes to its linked module); the leaf names a symbol inside it and changes
// only when that symbol was renamed. Every aliasing between module names,
// kernel names and host symbols keeps its launches pointing at the kernel
// they named.
// RUN: xpu-opt %s --split-input-file -allow-unregistered-dialect --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc},xpu-link-modules)" | FileCheck %s

// A kernel named like its own module (upstream tests and Triton do this):
// @add::@add used to become @xpu_linked::@xpu_linked.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xpu_linked {{.*}}xpu.linked = [{kernels = {add = "add"}, module = "add"}, {kernels = {mul = "mul"}, module = "mul"}]
// CHECK: gpu.func @add(
// CHECK: gpu.func @mul(
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked::@add blocks
// CHECK: gpu.launch_func  @xpu_linked::@mul blocks
// Other attributes holding references: whole references are rewritten,
// flat ones (the module itself) too.
// CHECK: "test.refs"() {refs = [@xpu_linked::@add, @xpu_linked, @xpu_linked::@mul]}
module attributes {gpu.container_module} {
  gpu.module @add {
    gpu.func @add(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @mul {
    gpu.func @mul(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @add::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @mul::@mul blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    "test.refs"() {refs = [@add::@add, @add, @mul::@mul]} : () -> ()
    return
  }
}

// -----

// A kernel named like the other module, both ways: @b::@k and @k::@b.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xpu_linked {{.*}}xpu.linked = [{kernels = {k = "k"}, module = "b"}, {kernels = {b = "b"}, module = "k"}]
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked::@k blocks
// CHECK: gpu.launch_func  @xpu_linked::@b blocks
module attributes {gpu.container_module} {
  gpu.module @b {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @k {
    gpu.func @b(%buf: memref<64xf32>) kernel {
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

// -----

// Same-named kernels, one of them named like the other's module: the second
// @b is renamed in the linked module, and only the launch that named it
// follows.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xpu_linked {{.*}}xpu.linked = [{kernels = {b = "b"}, module = "a"}, {kernels = {b = "b_b"}, module = "b"}]
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked::@b blocks
// CHECK: gpu.launch_func  @xpu_linked::@b_b blocks
module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @b(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @b {
    gpu.func @b(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @b::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    return
  }
}

// -----

// Modules named like the linked module (`xpu_linked`, `xpu_linked_0`) and a
// kernel named `xpu_linked`: the linked module takes a name no input symbol
// had, so nothing is confused with it.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xpu_linked_1 {{.*}}xpu.linked = [{kernels = {k = "k"}, module = "xpu_linked"}, {kernels = {xpu_linked = "xpu_linked"}, module = "a"}, {kernels = {k = "k_xpu_linked_0"}, module = "xpu_linked_0"}]
// CHECK-NOT: gpu.module
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @xpu_linked_1::@k blocks
// CHECK: gpu.launch_func  @xpu_linked_1::@xpu_linked blocks
// CHECK: gpu.launch_func  @xpu_linked_1::@k_xpu_linked_0 blocks
module attributes {gpu.container_module} {
  gpu.module @xpu_linked {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @a {
    gpu.func @xpu_linked(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @xpu_linked_0 {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @xpu_linked::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @a::@xpu_linked blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @xpu_linked_0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    return
  }
}

// -----

// Host symbols named like kernels and modules: a host function named like a
// kernel keeps its calls, and a nested module's own symbols, named like a
// gpu.module, are not the gpu.module's (its references resolve in it).
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xpu_linked
// CHECK-LABEL: func.func @k()
// CHECK-LABEL: func.func @host
// CHECK: call @k() : () -> ()
// CHECK: gpu.launch_func  @xpu_linked::@k blocks
// CHECK: gpu.launch_func  @xpu_linked::@m blocks
// CHECK: module @inner
// CHECK: func.func @m()
// CHECK: call @m() : () -> ()
// CHECK: "test.refs"() {refs = [@m::@k, @m]}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @n {
    gpu.func @m(%buf: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @k() {
    return
  }
  func.func @host(%a: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    func.call @k() : () -> ()
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @n::@m blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    return
  }
  module @inner {
    func.func @m() {
      return
    }
    func.func @user() {
      func.call @m() : () -> ()
      "test.refs"() {refs = [@m::@k, @m]} : () -> ()
      return
    }
  }
}
