// Every kernel of every module gets a required sub-group size: its own
// intel_reqd_sub_group_size wins, else the target's subgroup_size, else the
// device default (16). subgroup_size = 0 asks for none. Non-kernel functions
// are left alone.
// RUN: xpu-opt %s --xpu-select-grf-mode | FileCheck %s
// RUN: xpu-opt %s --xpu-attach-target="arch=pvc subgroup-size=32 module=^untargeted$" --xpu-select-grf-mode | FileCheck %s --check-prefix=OPT

// CHECK-LABEL: gpu.module @defaults
// CHECK: gpu.func @a() kernel attributes {intel_reqd_sub_group_size = 16 : i32}
// CHECK: gpu.func @b() kernel attributes {intel_reqd_sub_group_size = 16 : i32}
// CHECK: gpu.func @own() kernel attributes {intel_reqd_sub_group_size = 32 : i32}
// CHECK: gpu.func @helper()
// CHECK-NOT: intel_reqd_sub_group_size
// CHECK-SAME: {
gpu.module @defaults [#xpu.target<arch = "pvc", grf_mode = auto>] {
  gpu.func @a() kernel { gpu.return }
  gpu.func @b() kernel { gpu.return }
  gpu.func @own() kernel attributes {intel_reqd_sub_group_size = 32 : i32} { gpu.return }
  gpu.func @helper() { gpu.return }
}

// CHECK-LABEL: gpu.module @target_size
// CHECK: gpu.func @a() kernel attributes {intel_reqd_sub_group_size = 32 : i32}
// CHECK: gpu.func @own() kernel attributes {intel_reqd_sub_group_size = 16 : i32}
gpu.module @target_size [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 32>] {
  gpu.func @a() kernel { gpu.return }
  gpu.func @own() kernel attributes {intel_reqd_sub_group_size = 16 : i32} { gpu.return }
}

// CHECK-LABEL: gpu.module @none
// CHECK: gpu.func @a() kernel {
gpu.module @none [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 0>] {
  gpu.func @a() kernel { gpu.return }
}

// acm-g10 runs 8, 16 and 32.
// CHECK-LABEL: gpu.module @acm
// CHECK: gpu.func @a() kernel attributes {intel_reqd_sub_group_size = 8 : i32}
gpu.module @acm [#xpu.target<arch = "acm-g10", grf_mode = auto, subgroup_size = 8>] {
  gpu.func @a() kernel { gpu.return }
}

// Modules without an #xpu.target are not touched.
// CHECK-LABEL: gpu.module @untargeted
// CHECK: gpu.func @a() kernel {
gpu.module @untargeted {
  gpu.func @a() kernel { gpu.return }
}

// The attach option records the size on every target it attaches.
// OPT-LABEL: gpu.module @untargeted [#xpu.target<arch = "pvc", grf_mode = auto, subgroup_size = 32>]
// OPT: gpu.func @a() kernel attributes {intel_reqd_sub_group_size = 32 : i32}
