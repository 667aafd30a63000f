// A renamed copy of a kernel (@copy::@kern_b equal to @orig::@kern_a up to
// names) compiles once, yet its result names its own kernel: the report
// lists kern_b with linked_name, the name in the binary it shares (kern_a
// alone, kern_a_orig once linking renamed @orig's kern_a beside @other's),
// and launches of @copy::@kern_b go to @orig::@kern_a.
// RUN: xpu-opt %s --pass-pipeline="builtin.module(xpu-attach-target{arch=pvc},xpu-dedupe-modules)" | FileCheck %s
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc link=false cache-dir=none report=%t.json" | FileCheck %s --check-prefix=NATIVE
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: xpu-opt %s --xpu-codegen-pipeline="arch=pvc cache-dir=none report=%t.linked.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=LINKED < %t.linked.json
// REQUIRES: ocloc

// CHECK-LABEL: gpu.module @other
// CHECK-NOT: xpu.duplicates
// CHECK-LABEL: gpu.module @orig
// CHECK-SAME: xpu.duplicates = ["same", {kernels = {kern_b = "kern_a"}, module = "copy"}]
// CHECK-NOT: gpu.module @copy
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func  @other::@kern_a
// CHECK: gpu.launch_func  @orig::@kern_a
// CHECK: gpu.launch_func  @orig::@kern_a
// CHECK: gpu.launch_func  @orig::@kern_a

// NATIVE: gpu.binary @orig {xpu.duplicates = ["same", {kernels = {kern_b = "kern_a"}, module = "copy"}]
// NATIVE: gpu.launch_func  @orig::@kern_a

// REPORT: "module": "other",
// REPORT-NOT: "linked_name"
// REPORT: "module": "same",
// REPORT: "deduplicated_from": "orig",
// REPORT: "linked_name": "kern_a",
// REPORT-NEXT: "n_spills": 0,
// REPORT-NEXT: "name": "kern_b",
// REPORT: "module": "copy",

// LINKED: "module": "other",
// LINKED: "linked_name": "kern_a_orig",
// LINKED-NEXT: "n_spills": 0,
// LINKED-NEXT: "name": "kern_a",
// LINKED: "module": "orig",
// LINKED: "linked_name": "kern_a_orig",
// LINKED-NEXT: "n_spills": 0,
// LINKED-NEXT: "name": "kern_a",
// LINKED: "module": "same",
// LINKED: "linked_name": "kern_a_orig",
// LINKED-NEXT: "n_spills": 0,
// LINKED-NEXT: "name": "kern_b",
// LINKED: "module": "copy",

module attributes {gpu.container_module} {
  // Another kernel named kern_a: linking renames @orig's beside it.
  gpu.module @other {
    gpu.func @kern_a(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @orig {
    gpu.func @kern_a(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  // Same kernel name, another module name: listed by name only.
  gpu.module @same {
    gpu.func @kern_a(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @copy {
    gpu.func @kern_b(%buf: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%buf: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @other::@kern_a blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @orig::@kern_a blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @same::@kern_a blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    gpu.launch_func @copy::@kern_b blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    return
  }
}
